"""The sections of the benchmark summary (``python -m benchmarks``).

Each :class:`Section` measures one thing within a :class:`Budget` and returns rows
for the summary table (measure, result, target, met) beside its figures:

* ``world``: per bundled scene, and for the 24-piece Tower column, the World's steps
  per second and real-time factor, and its overhead over a bare pybullet loop
  stepping the same bodies (:mod:`benchmarks.bench_world`).
* ``judge``: per game, the wall time and the CPU time of one judged move from the
  games' own API (``State.apply`` of a Tilted drop, a Tri-Ba-Lance placement, a
  Tower drop): the first moves of seeded 2-player games of the planner against the
  random bot.
* ``games``: per game, whole games of planner bots (Tilted and Tower with 4 players,
  all 96 Tower pieces dealt; Tri-Ba-Lance with 3): wall time, turns, moves and the
  CPU time.
* ``welding``: the judged Tilted drop welded with cold caches over the same drop with
  welding off, interleaved in one process, on real mid-game states of seeded planner
  games: the median per-state ratio and its range (:mod:`benchmarks.bench_welding`).
* ``scaling``: how the judged drop grows with the bodies on the table: Tilted with 0
  to 25 blocks on the beam, Tower with 1 to 4 towers of 20 pieces, each with a
  fitted slope (:mod:`benchmarks.scaling`).
* ``tune``: runs per second of one fixed sweep of Tilted's drops with one worker and
  with every core, the parallel efficiency (one worker's wall time over twice two
  workers'), the local pool's start-up, and the same sweep on a local Ray instance
  (:mod:`benchmarks.bench_tune`).  It uses every core, so it is not pinned.
* ``envs``: per game, the Gymnasium/PettingZoo environments' steps per second, their
  overhead over ``State.apply`` without the action mask, the mask's own cost, and
  AsyncVectorEnv from 1 to 2 workers (:mod:`benchmarks.envs`; not pinned).

The targets hold the wall time; the process's CPU time is given beside it because
on a shared machine the wall time grows with the load and the CPU time much less.

A new kind of figure is one more :class:`Section` in :data:`SECTIONS`.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any, Callable

from balance3d.games import game_names, get_game
from benchmarks import targets
from benchmarks.bench_tune import measure_tune
from benchmarks.bench_welding import measure_welding
from benchmarks.bench_world import COLUMN_NAME, DRIFT_SECONDS, measure_scenes
from benchmarks.play import against_random, play
from benchmarks.results_io import spread
from benchmarks.scaling import measure_scaling

#: What a physical action type's move is called in the summary.
MOVE_WORDS = {"drop": "drop", "place": "placement"}


@dataclass(frozen=True)
class Budget:
    """How much each section measures.

    repeats : runs per World figure (median).  seconds : simulated s per World run
    (at least).  min_wall : wall-clock s per World run (at least).  moves : judged
    moves timed per game.  seeds : seeds of the whole planner games, per game.
    tune_repetitions : repetitions of the tune section's sweep (12 runs each).
    tune_pairs : times the tune sweep is run with 1 worker then with 2 (the median
    efficiency kept).  welding_states : mid-game Tilted states of the welding
    section.  welding_repeats : interleaved runs of each side per state (median).
    scaling_repeats : cold judged runs per point of the scaling section (median).
    """

    repeats: int
    seconds: float
    min_wall: float
    moves: int
    seeds: tuple[int, ...]
    tune_repetitions: int
    tune_pairs: int
    welding_states: int
    welding_repeats: int
    scaling_repeats: int


#: The full run.
FULL = Budget(repeats=5, seconds=10.0, min_wall=0.25, moves=200, seeds=(0, 1, 2),
              tune_repetitions=80, tune_pairs=3, welding_states=16, welding_repeats=3,
              scaling_repeats=3)
#: A short run (``--quick``): a few minutes on an idle 2-core machine.
QUICK = Budget(repeats=1, seconds=1.0, min_wall=0.05, moves=20, seeds=(0,),
               tune_repetitions=3, tune_pairs=1, welding_states=4, welding_repeats=1,
               scaling_repeats=1)


def row(measure_text: str, result: str, target: str, met: bool | None) -> dict[str, Any]:
    """One row of the summary table (``met`` None: no target)."""
    return {"measure": measure_text, "result": result, "target": target, "met": met}


def run_world(budget: Budget) -> tuple[list[dict], dict]:
    """World against the bare loop, per bundled scene and for the Tower column."""
    figures, drift = measure_scenes(budget.seconds, budget.repeats, budget.min_wall)
    rows = []
    for r in figures:
        target = f"overhead <= {targets.WORLD_OVERHEAD_PCT:g} %"
        met = r["overhead_pct"] <= targets.WORLD_OVERHEAD_PCT and r["same_poses_as_bare"]
        notes = "" if r["same_poses_as_bare"] else " (NOT the same poses as the bare loop)"
        if r["scene"] == COLUMN_NAME:
            target += f"; >= {targets.COLUMN_RTF:g}x real time"
            met = met and r["real_time_factor"] >= targets.COLUMN_RTF
            notes += (f"; its top moved {drift * 1e3:.2f} mm sideways in "
                      f"{DRIFT_SECONDS:g} simulated s")
        rows.append(row(
            f"World steps/s, {r['scene']} ({r['bodies']} bodies, {r['dynamic_bodies']} "
            f"dynamic)",
            f"{r['world_steps_per_s']:,.0f} steps/s, {r['real_time_factor']:,.0f}x real "
            f"time; {r['overhead_pct']:+.1f} % over the bare loop{notes}", target, met))
    return rows, {"scenes": figures, "column_drift_m": drift}


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s when the count is not 1."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def seeds_text(seeds: list[int]) -> str:
    """"seed 0", "seeds 0 to 4" (consecutive) or "seeds 0, 3"."""
    if len(seeds) == 1:
        return f"seed {seeds[0]}"
    if seeds == list(range(seeds[0], seeds[-1] + 1)):
        return f"seeds {seeds[0]} to {seeds[-1]}"
    return "seeds " + ", ".join(map(str, seeds))


def move_word(game: str) -> str:
    """What a move of ``game`` is called: its physical action type's word."""
    kinds = [MOVE_WORDS[t] for t in get_game(game).action_types if t in MOVE_WORDS]
    return kinds[0]


def run_judge(budget: Budget) -> tuple[list[dict], dict]:
    """Wall time per judged move, per game, over ``budget.moves`` moves."""
    rows, figures = [], {}
    for game in game_names():
        seconds: list[float] = []
        cpu: list[float] = []
        seed = 0
        while len(seconds) < budget.moves:
            played = play(game, against_random(seed), seed, budget.moves - len(seconds))
            seconds += [m.seconds for m in played.moves]
            cpu += [m.cpu_seconds for m in played.moves]
            seed += 1
        s = spread(seconds)
        figures[game] = {**s, "cpu": spread(cpu), "seeds": list(range(seed))}
        limit = targets.JUDGE_S[game]
        rows.append(row(
            f"{get_game(game).display_name}: judged {move_word(game)}, "
            f"{plural(s['count'], 'move')} (2-player planner against random, "
            f"{seeds_text(list(range(seed)))})",
            f"{s['median_s']:.3f} s median ({s['p90_s']:.3f} s p90, {s['max_s']:.3f} s max); "
            f"CPU time {figures[game]['cpu']['median_s']:.3f} s median",
            f"<= {limit:g} s median", s["median_s"] <= limit))
        print(f"judge {game}: {rows[-1]['result']}", flush=True)
    return rows, figures


def run_games(budget: Budget) -> tuple[list[dict], dict]:
    """Whole planner games, per game, one per seed of ``budget.seeds``."""
    rows, figures = [], {}
    for game in game_names():
        players, limit = targets.PLANNER_GAME[game]
        games = []
        for seed in budget.seeds:
            played = play(game, ["planner"] * players, seed)
            outcome = played.state.outcome
            games.append({"seed": seed, "wall_s": played.wall_s, "cpu_s": played.cpu_s,
                          "turns": played.state.turn,
                          "actions": len(played.state.history), "moves": len(played.moves),
                          "termination": outcome.termination,
                          "winners": list(outcome.winners)})
            print(f"game {game}, {players} planners, seed {seed}: {played.wall_s:.1f} s, "
                  f"{played.state.turn} turns, {len(played.moves)} moves", flush=True)
        walls = [g["wall_s"] for g in games]
        figures[game] = {"players": players, "games": games,
                         "median_s": statistics.median(walls), "max_s": max(walls),
                         "cpu_median_s": statistics.median(g["cpu_s"] for g in games)}
        each = ", ".join(f"{g['wall_s']:.1f} s ({plural(g['turns'], 'turn')}, "
                         f"{plural(g['moves'], move_word(game))})" for g in games)
        cpu_limit = targets.PLANNER_GAME_CPU.get(game)
        cpu = figures[game]["cpu_median_s"]
        rows.append(row(
            f"{get_game(game).display_name}: {players}-player planner game, wall time "
            f"({seeds_text(list(budget.seeds))})",
            f"{statistics.median(walls):.1f} s median: {each}; CPU time {cpu:.1f} s median",
            f"<= {limit:g} s each" + ("" if cpu_limit is None
                                      else f"; CPU <= {cpu_limit:g} s median"),
            max(walls) <= limit and (cpu_limit is None or cpu <= cpu_limit)))
    return rows, figures


def _loads(figures: dict[str, Any]) -> str:
    """"A to B, CPUs C % busy": the 1-minute load average before and after one tune
    run, and the machine's CPU use meanwhile."""
    busy = figures.get("machine_busy_pct")
    return (f"{figures['load_average_before'][0]:g} to "
            f"{figures['load_average_after'][0]:g}"
            + (f", CPUs {busy:.0f} % busy" if busy is not None else ""))


def run_tune(budget: Budget) -> tuple[list[dict], dict]:
    """Tune throughput with one worker, every core and Ray; the parallel efficiency."""
    f = measure_tune(budget.tune_repetitions, budget.tune_pairs)
    one, two, every = f["one_worker"], f["two_workers"], f["all_cores"]
    what = f"Tilted drops sweep, {one['runs']} runs"
    pairs = f"median of {plural(len(f['pairs']), 'pair')}: " + ", ".join(
        f"{p['efficiency']:.0%}" for p in f["pairs"])
    same = "same rows" if f["same_rows"] else "NOT the same rows"
    rows = [
        row(f"Tune: {what}, 1 worker (the median efficiency's pair)",
            f"{one['runs_per_s']:.1f} runs/s ({one['wall_s']:.1f} s; load average "
            f"{_loads(one)})",
            "", None),
        row(f"Tune: {what}, every core ({f['cores']} workers)",
            f"{every['runs_per_s']:.1f} runs/s ({every['wall_s']:.1f} s; load average "
            f"{_loads(every)}); "
            f"{same} as 1 worker", "", None),
        row(f"Tune: parallel efficiency, 1 worker's wall time over twice 2 workers' ({what})",
            f"{f['efficiency']:.0%} ({pairs}; its pair {one['wall_s']:.1f} s / 2 x "
            f"{two['wall_s']:.1f} s, load average {_loads(one)}, then {_loads(two)})",
            f">= {targets.TUNE_EFFICIENCY:.0%}",
            f["efficiency"] >= targets.TUNE_EFFICIENCY and f["same_rows"]),
        row("Tune: local pool start-up (workers started and answering once)",
            f"{f['first_pool_start_s']:.2f} s for the first pool of a process (fork "
            f"server started, its imports once); then "
            + ", ".join(f"{plural(int(n), 'worker')} {s:.2f} s"
                        for n, s in f["pool_start_s"].items()), "", None)]
    ray = f["ray"]
    rows.append(row(
        f"Tune: {what} on a local Ray instance ({ray['cpus']} CPUs)" if ray else
        f"Tune: {what} on Ray",
        f"{ray['runs_per_s']:.1f} runs/s ({ray['wall_s']:.1f} s; load average "
        f"{_loads(ray)}); start-up "
        f"{ray['start_s']:.1f} s apart; "
        f"{'same rows' if ray['same_rows'] else 'NOT the same rows'} as the local pool"
        if ray else "not measured: Ray is not installed (balance3d[ray])", "", None))
    return rows, f


def run_envs(budget: Budget) -> tuple[list[dict], dict]:
    """The environments over ``State.apply``, the mask, and AsyncVectorEnv."""
    from benchmarks.envs import measure_envs   # needs the envs extra
    f = measure_envs(budget.moves, vector_steps=budget.moves)
    rows = []
    for game, g in f["games"].items():
        name = get_game(game).display_name
        rows.append(row(
            f"{name}: environment step without the mask over State.apply "
            f"({plural(g['moves'], 'move')} of 2-player random games)",
            f"{g['env_steps_per_s']:.1f} env steps/s; {g['overhead_pct']:+.1f} % CPU time "
            f"({g['wall_overhead_pct']:+.1f} % wall time)",
            f"overhead <= {targets.ENV_OVERHEAD_PCT:g} %",
            g["overhead_pct"] <= targets.ENV_OVERHEAD_PCT))
        rows.append(row(f"{name}: the discrete action mask ({g['n_discrete']} actions)",
                        f"{g['mask_median_s'] * 1e3:.0f} ms median (CPU time "
                        f"{g['mask_cpu_median_s'] * 1e3:.0f} ms)", "", None))
    v = f["vector"]
    rows.append(row("balance3d/Tribalance-v0 in AsyncVectorEnv, 1 to 2 workers",
                    f"{v['one_worker_steps_per_s']:.1f} to {v['two_workers_steps_per_s']:.1f} "
                    f"steps/s (x{v['scaling']:.2f})", "", None))
    return rows, f


def run_welding(budget: Budget) -> tuple[list[dict], dict]:
    """Welding's cost on the judged Tilted drop, welded cold over welding off."""
    f = measure_welding(budget.welding_states, budget.welding_repeats)
    n = len(f["states"])
    limit = targets.WELDED_OVER_OFF
    rows = [row(
        f"Tilted: judged drop welded with cold caches over the same drop with welding off, "
        f"median per state ({plural(n, 'mid-game state')} of 4-player planner games, "
        f"{seeds_text(f['seeds'])}; both sides interleaved, {plural(f['repeats'], 'run')} "
        f"each)",
        f"{f['median_ratio']:.2f} (range {f['min_ratio']:.2f} to {f['max_ratio']:.2f}); "
        f"the beam tilts the same way welded and unwelded in {f['tilt_agrees']} of {n}",
        f"<= {limit:g}", f["median_ratio"] <= limit),
        row(f"Tilted: steps/s in the first {f['moving_seconds']:g} s after the release, "
            f"welded over welding off, median per state (the same states, interleaved)",
            f"{f['moving_median_ratio']:.2f} (range {f['moving_min_ratio']:.2f} to "
            f"{f['moving_max_ratio']:.2f})", f">= {targets.MOVING_RATE_RATIO:g}",
            f["moving_median_ratio"] >= targets.MOVING_RATE_RATIO)]
    print(f"welding: {rows[-1]['result']}", flush=True)
    return rows, f


def run_scaling(budget: Budget) -> tuple[list[dict], dict]:
    """How the judged drop grows with the bodies on the table, with fitted slopes."""
    f = measure_scaling(budget.scaling_repeats)
    rows = []
    for game, title, unit in (("tilted", "Tilted", "block"), ("tower", "Tower", "tower")):
        points, fit, cpu = f[game]["points"], f[game]["fit"], f[game]["cpu_fit"]
        what = ("blocks on the beam" if game == "tilted"
                else f"towers of {f['tower_pieces']} pieces")
        rows.append(row(
            f"{title}: judged drop, cold caches, against {what} "
            f"({points[0]['count']:g} to {points[-1]['count']:g}; median of "
            f"{plural(f['repeats'], 'run')})",
            ", ".join(f"{p['count']:g}: {p['wall_s']:.3f} s (CPU {p['cpu_s']:.3f} s)"
                      for p in points)
            + f"; fitted slope {1000 * fit['slope_s']:.1f} ms per {unit} (CPU "
            f"{1000 * cpu['slope_s']:.1f} ms), {fit['growth']:.1f}x from first to last "
            f"(CPU {cpu['growth']:.1f}x)", "", None))
    print(f"scaling: {rows[0]['result']}; {rows[1]['result']}", flush=True)
    return rows, f


@dataclass(frozen=True)
class Section:
    """One part of the summary: ``run(budget)`` returns its table rows and its
    figures; ``one_core``: the process is pinned to one CPU while it runs;
    ``budget``: the :class:`Budget` fields it uses."""

    name: str
    title: str
    one_core: bool
    run: Callable[[Budget], tuple[list[dict], Any]]
    budget: tuple[str, ...]


#: The sections, in the order they run and appear in the summary.
SECTIONS = (
    Section("world", "The World against a bare pybullet loop", True, run_world,
            ("repeats", "seconds", "min_wall")),
    Section("judge", "Judged moves", True, run_judge, ("moves",)),
    Section("games", "Whole planner games", True, run_games, ("seeds",)),
    Section("welding", "Welding's cost", True, run_welding,
            ("welding_states", "welding_repeats")),
    Section("scaling", "How a judged drop grows with the bodies", True, run_scaling,
            ("scaling_repeats",)),
    Section("tune", "Tune throughput", False, run_tune, ("tune_repetitions", "tune_pairs")),
    Section("envs", "Gymnasium and PettingZoo environments", False, run_envs, ("moves",)),
)
