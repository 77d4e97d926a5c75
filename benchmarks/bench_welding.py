"""Welding's cost on real mid-game Tilted states, for the ``welding`` section of
``python -m benchmarks``.

The states are taken before the drops of seeded 4-player planner games (spread
evenly over all their drops, :func:`benchmarks.bench_games.planner_drop_states`).
For each state its recorded next drop is judged with welding on and the physics
caches emptied first (cold), and with welding off, the two interleaved in one
process (the order alternating from repeat to repeat), so that a change of the
machine's load meets both sides alike.  The figure is the median over the states
of each state's ratio (median welded time over median welding-off time), with the
range of the ratios; the runner records the load average before and after.

The same states give welding's cost while bodies move: the steps per second of the
first MOVING_SECONDS after the release (the dropped block falling and landing, what
it pushes moving), welded over welding off, interleaved the same way; per wall-clock
second (the section's figure) and per second of the process's CPU time, which a
loaded machine disturbs less (a run of a few milliseconds that the scheduler
interrupts loses its wall-clock rate, not its CPU rate).
"""
from __future__ import annotations

import dataclasses
import json
import statistics
import time

import balance3d
from balance3d.games import get_game
from balance3d.games.base import Drop, State
from balance3d.physics import clear_caches
from benchmarks.bench_games import _timed_drop, planner_drop_states

#: Seeds of the 4-player planner games the states come from.
WELDING_SEEDS = (0, 1)
#: s (simulated): how long after the release the steps per second are timed.
MOVING_SECONDS = 0.5


def moving_steps_per_s(cls: type[State], saved: str, drop: Drop,
                       scene) -> tuple[float, float]:
    """Steps per wall-clock second and per CPU second (of this process) of the first
    MOVING_SECONDS of the judged ``drop`` from the ``saved`` state on ``scene``
    (caches emptied first; fewer steps when the drop is judged sooner)."""
    state = cls.from_dict(json.loads(saved), scene=scene)
    _ = state.world  # built now, untimed: a game keeps its World between turns
    clear_caches()
    steps = round(MOVING_SECONDS / scene.physics.time_step)
    turn = state.begin(drop)     # legality and the release: not timed
    start, start_cpu = time.perf_counter(), time.process_time()
    done = 0
    while done < steps and not turn.done:
        turn.advance(1)
        done += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    turn.cancel()
    return max(done, 1) / seconds, max(done, 1) / max(cpu, 1e-9)


def welded_over_off(states: list[tuple[str, Drop]], repeats: int) -> dict:
    """Per state of ``states`` ((state JSON, its next drop) pairs): the median wall
    times (s) of the cold welded and the welding-off judged drop over ``repeats``
    interleaved runs, their ratio, the ratios of the steps per second and per CPU
    second while bodies move (:func:`moving_steps_per_s`, welded over off), whether the beam came to
    rest tilted the same way welded and unwelded, and the number of pieces on the
    beam; and the median and range of the ratios."""
    rows = []
    for i, (saved, drop) in enumerate(states):
        data = json.loads(saved)
        cls = get_game(data["game"]).state_class
        scene = balance3d.load_scene(data["scene"]["name"])
        plain = dataclasses.replace(scene, physics=scene.physics.replace(weld=False))
        sides = {"welded": (scene, True), "off": (plain, False)}
        times: dict[str, list[float]] = {name: [] for name in sides}
        verdicts = {}
        for repeat in range(repeats):
            order = list(sides) if repeat % 2 == 0 else list(reversed(sides))
            for name in order:
                seconds, verdicts[name] = _timed_drop(cls, saved, drop, *sides[name])
                times[name].append(seconds)
        rates: dict[str, list[float]] = {name: [] for name in sides}
        cpu_rates: dict[str, list[float]] = {name: [] for name in sides}
        for repeat in range(repeats):
            order = list(sides) if repeat % 2 == 0 else list(reversed(sides))
            for name in order:
                wall, cpu = moving_steps_per_s(cls, saved, drop, sides[name][0])
                rates[name].append(wall)
                cpu_rates[name].append(cpu)
        welded, off = (statistics.median(times[n]) for n in ("welded", "off"))
        moving = statistics.median(rates["welded"]) / statistics.median(rates["off"])
        moving_cpu = (statistics.median(cpu_rates["welded"])
                      / statistics.median(cpu_rates["off"]))
        blocks = sum(1 for b in data["world"]["bodies"] if not b["static"]) - 1  # not the beam
        rows.append({"blocks_before": blocks, "welded_s": welded, "off_s": off,
                     "ratio": welded / off, "moving_rate_ratio": moving,
                     "moving_cpu_rate_ratio": moving_cpu,
                     "tilt_agrees": (getattr(verdicts["welded"], "tilted", None)
                                     == getattr(verdicts["off"], "tilted", None))})
        print(f"welding: state {i + 1}/{len(states)} ({blocks} blocks): welded cold "
              f"{welded:.3f} s, welding off {off:.3f} s, ratio {welded / off:.2f}; "
              f"steps/s while moving, welded over off {moving:.2f} "
              f"(per CPU second {moving_cpu:.2f})", flush=True)
    ratios = [r["ratio"] for r in rows]
    moving = [r["moving_rate_ratio"] for r in rows]
    moving_cpu = [r["moving_cpu_rate_ratio"] for r in rows]
    print(f"welding: steps per CPU second while moving, welded over off, median "
          f"{statistics.median(moving_cpu):.2f} (range {min(moving_cpu):.2f} to "
          f"{max(moving_cpu):.2f})", flush=True)
    return {"states": rows, "repeats": repeats, "seeds": list(WELDING_SEEDS),
            "median_ratio": statistics.median(ratios), "min_ratio": min(ratios),
            "max_ratio": max(ratios), "moving_median_ratio": statistics.median(moving),
            "moving_min_ratio": min(moving), "moving_max_ratio": max(moving),
            "moving_cpu_median_ratio": statistics.median(moving_cpu),
            "moving_cpu_min_ratio": min(moving_cpu), "moving_cpu_max_ratio": max(moving_cpu),
            "moving_seconds": MOVING_SECONDS,
            "tilt_agrees": sum(r["tilt_agrees"] for r in rows)}


def measure_welding(states: int, repeats: int) -> dict:
    """:func:`welded_over_off` on ``states`` states of the games of WELDING_SEEDS."""
    return welded_over_off(planner_drop_states(list(WELDING_SEEDS), states), repeats)
