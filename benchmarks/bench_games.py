"""How fast Tilted plays, and how well the planner bot plays it.

Measured in one run, on one core (the process is pinned to one CPU when the system
allows it):

* **judged drop**: wall time of ``State.apply(drop)``, from the release to the
  verdict (rebuilding the world from the between-turns snapshot, settling, judging,
  removing returned blocks and settling again).  Every drop of ``--drop-games``
  2-player games between random bots is timed, and every drop of the 4-player
  planner games below (whose piles grow higher); the median, 90th percentile and
  maximum of each set and of both together are reported.
* **judged drop, cold caches, against welding off**: states taken before
  the drops of seeded 4-player planner games (``--cold-states`` of them, spread over
  the games: from an empty beam to a high pile), each replayed from its saved
  state with its recorded drop three ways: welding on with the physics caches
  emptied first (cold), welding on right after (warm), and welding off (the same
  scene with ``weld = false``).  Medians over the states (each state's median of
  ``--cold-repeats``), the ratio cold / welding off (target <= 1.3), and how many
  drops reached rest and agreed on the tilt with welding off.
* **4-player planner game**: wall time of whole basic games of four planner bots
  (set-up, every bot decision with its trials, every judged drop), one per seed of
  ``--planner-seeds``.
* **planner vs random**: the planner's win rate over ``--games`` seeded 2-player
  basic games against the random bot, seats alternating (game ``i`` has seed ``i``;
  the planner sits in seat ``i % 2``).

Targets (:mod:`benchmarks.targets`): <= 0.15 s per judged drop, <= 60 s
per 4-player planner game on one core; the planner must beat random clearly (75 %).
The cold welded judged drop must stay within 1.3x of the welding-off World.

    python -m benchmarks.bench_games [--games 50] [--drop-games 10] \\
        [--planner-seeds 0 1 2] [--cold-states 16] [--cold-repeats 3]

(from the root of a checkout).  Writes
``benchmarks/results/games.json`` and ``benchmarks/results/games.md`` (the Markdown
table the README quotes).  A full run takes several minutes.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import balance3d
from balance3d.bots import make_bot
from balance3d.games.tilted import planner
from balance3d.games import get_game, new_game
from balance3d.games.base import Drop, State
from balance3d.physics import clear_caches
from benchmarks.play import against_random, play
from benchmarks.results_io import (RESULTS, facts_text, machine_facts, measuring, spread,
                                   write_results)
from benchmarks.targets import COLD_OVER_OFF, JUDGE_S, PLANNER_GAME, PLANNER_WIN_RATE

GAME = "tilted"
#: s, target wall time per judged drop, and per 4-player planner game.
TARGET_DROP, TARGET_GAME = JUDGE_S[GAME], PLANNER_GAME[GAME][1]


def play_timed(players: list[str], seed: int) -> dict:
    """Play a whole basic game with the bots named per seat; returns its wall time
    (s), the wall time of every judged drop (s), the winners' seats and the number
    of actions."""
    played = play(GAME, players, seed)
    state = played.state
    return {"seed": seed, "bots": players, "wall_s": played.wall_s,
            "drops_s": [m.seconds for m in played.moves], "winners": list(state.outcome.winners),
            "actions": len(state.history), "coins": list(state.scores)}


def planner_drop_states(seeds: list[int], count: int) -> list[tuple[str, Drop]]:
    """``count`` (state as JSON text, its next drop) pairs taken before the drops of
    the 4-player planner games of ``seeds``, spread evenly over all their drops."""
    taken = []
    for seed in seeds:
        state = new_game("tilted", players=4, seed=seed, bots=["planner"] * 4)
        bots = [make_bot("planner", seed, seat) for seat in range(4)]
        while not state.is_over:
            action = bots[state.current_player].choose(state)
            if isinstance(action, Drop):
                taken.append((json.dumps(state.to_dict()), action))
            state.apply(action)
        print(f"states: 4-player planner game, seed {seed}: {len(taken)} drops so far",
              flush=True)
    picks = np.linspace(0, len(taken) - 1, min(count, len(taken))).round().astype(int)
    return [taken[i] for i in picks]


def _timed_drop(cls: type[State], saved: str, drop: Drop, scene, cold: bool) -> tuple:
    """Wall time (s) of the judged ``drop`` from the ``saved`` state on ``scene``
    (its World built beforehand, as between turns of a game), and the verdict;
    the physics caches are emptied first when ``cold``."""
    state = cls.from_dict(json.loads(saved), scene=scene)
    _ = state.world  # built now, untimed: a game keeps its World between turns
    if cold:
        clear_caches()
    start = time.perf_counter()
    verdict = state.apply(drop)
    return time.perf_counter() - start, verdict


def cold_drops(states: list[tuple[str, Drop]], repeats: int) -> dict:
    """The judged drops of ``states`` welded with cold caches, welded with warm ones
    and with welding off (see the module docstring)."""
    rows = []
    for i, (saved, drop) in enumerate(states):
        data = json.loads(saved)
        cls = get_game(data["game"]).state_class
        scene = balance3d.load_scene(data["scene"]["name"])
        plain = dataclasses.replace(scene, physics=scene.physics.replace(weld=False))
        times: dict[str, list[float]] = {"cold": [], "warm": [], "off": []}
        verdicts = {}
        for _ in range(repeats):
            for kind, on, cold in (("cold", scene, True), ("warm", scene, False),
                                   ("off", plain, False)):
                seconds, verdicts[kind] = _timed_drop(cls, saved, drop, on, cold)
                times[kind].append(seconds)
        on, off = verdicts["cold"], verdicts["off"]
        blocks = sum(1 for b in data["world"]["bodies"] if not b["static"]) - 1  # not the beam
        rows.append({"blocks_before": blocks,
                     **{f"{k}_s": statistics.median(v) for k, v in times.items()},
                     "off_reached_rest": not getattr(off, "settle_timed_out", False),
                     "tilt_agrees": getattr(on, "tilted", None) == getattr(off, "tilted", None),
                     "same_verdict": on.to_dict() == off.to_dict()})
        r = rows[-1]
        print(f"state {i + 1}/{len(states)} ({blocks} blocks): cold {r['cold_s']:.3f} s, warm "
              f"{r['warm_s']:.3f} s, welding off {r['off_s']:.3f} s", flush=True)
    median = {k: statistics.median(r[f"{k}_s"] for r in rows) for k in ("cold", "warm", "off")}
    ratio = median["cold"] / median["off"]
    return {"states": rows, "repeats": repeats,
            "cold_median_s": median["cold"], "warm_median_s": median["warm"],
            "off_median_s": median["off"], "cold_over_off": ratio,
            "warm_over_off": median["warm"] / median["off"],
            "median_of_ratios": statistics.median(r["cold_s"] / r["off_s"] for r in rows),
            "off_reached_rest": sum(r["off_reached_rest"] for r in rows),
            "tilt_agrees": sum(r["tilt_agrees"] for r in rows),
            "same_verdict": sum(r["same_verdict"] for r in rows),
            "target_ratio": COLD_OVER_OFF, "met": ratio <= COLD_OVER_OFF}


def planner_budget() -> dict:
    """The Tilted planner's settings the figures depend on."""
    return {"max_trials": planner.MAX_TRIALS, "tilt_ratio": planner.TILT_RATIO}


def _positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=_positive_int, default=50,
                        help="2-player planner-vs-random games (default 50)")
    parser.add_argument("--drop-games", type=_positive_int, default=10,
                        help="2-player random games whose drops are timed (default 10)")
    parser.add_argument("--planner-seeds", type=int, nargs="+", default=[0, 1, 2],
                        help="seeds of the 4-player planner games (default 0 1 2)")
    parser.add_argument("--cold-states", type=_positive_int, default=16,
                        help="mid-game states whose drop is timed cold and unwelded (16)")
    parser.add_argument("--cold-seeds", type=int, nargs="+", default=[0, 1],
                        help="seeds of the 4-player planner games they come from (0 1)")
    parser.add_argument("--cold-repeats", type=_positive_int, default=3,
                        help="timings of each of them, per way (median; default 3)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = parser.parse_args(argv)
    with measuring(one_core=True) as facts:
        print(f"pinned to CPU {facts['pinned_cpu']}, load average "
              f"{facts['load_average_before']}", flush=True)
        results = measure_all(args)
    results = {"facts": facts, "scene_digest": balance3d.load_scene(GAME).digest,
               "planner": planner_budget(), **results}
    table = markdown(results, machine_facts())
    write_results("games", results, table, args.out)
    print(table)
    return 0


def measure_all(args: argparse.Namespace) -> dict:
    """Every figure of the module docstring, with the budget of ``args``."""
    random_drops = []
    for seed in range(args.drop_games):
        game = play_timed(["random", "random"], 1000 + seed)
        random_drops += game["drops_s"]
        print(f"random game {seed + 1}/{args.drop_games}: {len(game['drops_s'])} drops, "
              f"median {statistics.median(game['drops_s']):.3f} s", flush=True)

    planner_games, planner_drops = [], []
    for seed in args.planner_seeds:
        game = play_timed(["planner"] * 4, seed)
        planner_drops += game["drops_s"]
        planner_games.append({k: game[k] for k in ("seed", "wall_s", "actions", "winners")}
                             | {"drops": len(game["drops_s"])})
        print(f"4-player planner game, seed {seed}: {game['wall_s']:.1f} s, "
              f"{len(game['drops_s'])} drops", flush=True)

    cold = cold_drops(planner_drop_states(args.cold_seeds, args.cold_states),
                      args.cold_repeats)
    print(f"cold welded judged drop {cold['cold_median_s']:.3f} s median, warm "
          f"{cold['warm_median_s']:.3f} s, welding off {cold['off_median_s']:.3f} s: cold / off "
          f"= {cold['cold_over_off']:.2f}", flush=True)

    matches, wins = [], 0
    start = time.perf_counter()
    for seed in range(args.games):
        seat = seed % 2
        game = play_timed(against_random(seed), seed)
        won = seat in game["winners"]
        wins += won
        matches.append({"seed": seed, "planner_seat": seat, "planner_won": won,
                        "actions": game["actions"], "coins": game["coins"]})
        print(f"planner vs random {seed + 1}/{args.games}: planner in seat {seat} "
              f"{'wins' if won else 'loses'} ({wins}/{seed + 1})", flush=True)
    match_wall = time.perf_counter() - start

    walls = [g["wall_s"] for g in planner_games]
    return {
        "judged_drop": {"random_games": spread(random_drops),
                        "planner_games": spread(planner_drops),
                        "all": spread(random_drops + planner_drops),
                        "target_s": TARGET_DROP},
        "cold_drop": cold,
        "planner_game_4p": {"games": planner_games, "median_s": statistics.median(walls),
                            "max_s": max(walls), "target_s": TARGET_GAME},
        "planner_vs_random": {
            "games": args.games, "planner_wins": wins, "win_rate": wins / args.games,
            "win_rate_seat0": _rate([m for m in matches if m["planner_seat"] == 0]),
            "win_rate_seat1": _rate([m for m in matches if m["planner_seat"] == 1]),
            "wall_s": match_wall, "matches": matches},
    }


def _percent(rate: float | None) -> str:
    """A rate as a whole percentage, or "no games" for None."""
    return "no games" if rate is None else f"{rate:.0%}"


def _rate(matches: list[dict]) -> float | None:
    return sum(m["planner_won"] for m in matches) / len(matches) if matches else None


def markdown(results: dict, machine: dict) -> str:
    """The results as a Markdown table, under the facts of the ``machine``."""
    drop, cold = results["judged_drop"], results["cold_drop"]
    game, vs = results["planner_game_4p"], results["planner_vs_random"]

    def row(name: str, s: dict) -> str:
        ok = "yes" if s["median_s"] <= TARGET_DROP else "**no**"
        return (f"| judged drop, {name} ({s['count']} drops) | {s['median_s']:.3f} s median, "
                f"{s['p90_s']:.3f} s p90, {s['max_s']:.2f} s max | <= {TARGET_DROP} s median "
                f"| {ok} |")

    seeds = ", ".join(f"{g['wall_s']:.1f} s (seed {g['seed']}, {g['drops']} drops)"
                      for g in game["games"])
    lines = [
        "| measure | result | target | met |",
        "|---|---|---|---|",
        row("random 2-player games", drop["random_games"]),
        row("4-player planner games", drop["planner_games"]),
        row("all", drop["all"]),
        f"| judged drop, welded, caches cold, {len(cold['states'])} mid-game 4-player planner "
        f"states ({min(r['blocks_before'] for r in cold['states'])} to "
        f"{max(r['blocks_before'] for r in cold['states'])} blocks in the world) "
        f"| {cold['cold_median_s']:.3f} s median (warm {cold['warm_median_s']:.3f} s; welding "
        f"off {cold['off_median_s']:.3f} s): **{cold['cold_over_off']:.2f}x** welding off "
        f"(warm {cold['warm_over_off']:.2f}x; median of per-state ratios "
        f"{cold['median_of_ratios']:.2f}x); welding off reached rest in "
        f"{cold['off_reached_rest']}, agreed on the tilt in {cold['tilt_agrees']} "
        f"| <= {COLD_OVER_OFF}x welding off | {'yes' if cold['met'] else '**no**'} |",
        f"| 4-player planner game, wall | {game['max_s']:.1f} s max: {seeds} | "
        f"<= {TARGET_GAME:.0f} s | {'yes' if game['max_s'] <= TARGET_GAME else '**no**'} |",
        f"| planner vs random, 2 players | {vs['planner_wins']}/{vs['games']} won "
        f"({vs['win_rate']:.0%}; seat 0 {_percent(vs['win_rate_seat0'])}, seat 1 "
        f"{_percent(vs['win_rate_seat1'])}) | beats random clearly "
        f"(>= {PLANNER_WIN_RATE[GAME]:.0%}) | "
        f"{'yes' if vs['win_rate'] >= PLANNER_WIN_RATE[GAME] else '**no**'} |",
        "",
        f"{facts_text(results['facts'], machine)} Tilted scene digest "
        f"{results['scene_digest'][:12]}; planner budget {results['planner']['max_trials']} "
        "trials per drop (`python -m benchmarks.bench_games`).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
