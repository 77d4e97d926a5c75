"""How fast Tower plays, and how well its planner bot plays it.

Measured in one run, on one core (the process is pinned to one CPU when the system
allows it):

* **judged drop**: time of ``State.apply(drop)`` for every drop of the games
  below (not the planner's trials in copies): the release, settling, reading the
  towers, taking fallen pieces away and settling again, restoring knocked towers.
  Median, 90th percentile and maximum, of wall time and of the process's CPU time
  (on a shared machine the CPU time is what one core of its own would take; the
  load average at the start and the end is recorded beside them).
* **planner vs random**: the planner's win rate over ``--games`` seeded 2-player
  games against the random bot (game ``i`` has seed ``i``; the planner sits in
  seat ``i % 2``).  A win is rank 1 (shared or not); outright wins are counted too.
* **4-player planner game**: wall and CPU time of whole games of four planner bots
  (all 96 pieces dealt), one per seed of ``--planner-seeds``, with the pieces played
  and removed.

Targets (issue 9): <= 0.3 s median per judged drop, <= 120 s per 4-player planner
game on one core; the planner wins >= 70 % against random.

    python benchmarks/tower_games.py [--games 30] [--planner-seeds 0]

(with balance3d installed, or ``PYTHONPATH=.`` from the checkout).  Writes
``benchmarks/results/tower.json`` and ``benchmarks/results/tower.md``.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from pathlib import Path

from balance3d.bots import make_bot
from balance3d.games import Drop, new_game
from balance3d.games.tower import planner

RESULTS = Path(__file__).parent / "results"


def play(players: list[str], seed: int, timings: dict[str, list[float]]) -> dict:
    """One game of ``players`` (bot names per seat); every real drop's wall time
    (s) goes to ``timings["wall"]`` and its CPU time (s) to ``timings["cpu"]``.
    Returns the outcome and, per seat, the drops made, the
    pieces standing at the end and the drops after which something fell."""
    state = new_game("tower", players=len(players), seed=seed)
    bots = [make_bot(name, seed, seat, game="tower") for seat, name in enumerate(players)]
    drops, falls = [0] * len(players), [0] * len(players)
    while not state.is_over:
        seat = state.current_player
        action = bots[seat].choose(state)
        start, start_cpu = time.perf_counter(), time.process_time()
        verdict = state.apply(action)
        if isinstance(action, Drop):
            timings["wall"].append(time.perf_counter() - start)
            timings["cpu"].append(time.process_time() - start_cpu)
            drops[seat] += 1
            falls[seat] += bool(verdict.fallen)
    outcome = state.outcome
    return {"seed": seed, "players": players, "termination": outcome.termination,
            "heights": list(outcome.scores), "ranks": list(outcome.ranks), "drops": drops,
            "falls": falls, "standing": [len(state.tower(s)) for s in range(len(players))],
            "removed": len(state.removed)}


def quantiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"n": len(ordered), "median": statistics.median(ordered),
            "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max": ordered[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--planner-seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    load_start = os.getloadavg()
    timings: dict[str, list[float]] = {"wall": [], "cpu": []}
    games = []
    for seed in range(args.games):
        seats = ["random", "random"]
        seats[seed % 2] = "planner"
        games.append(play(seats, seed, timings))
    me = [g["players"].index("planner") for g in games]
    wins = sum(g["ranks"][s] == 1 for g, s in zip(games, me))
    outright = sum(g["ranks"][s] == 1 and g["ranks"].count(1) == 1 for g, s in zip(games, me))
    duel = {"games": len(games), "wins": wins, "outright_wins": outright,
            "win_rate": wins / len(games),
            "planner_falls": sum(g["falls"][s] for g, s in zip(games, me)),
            "planner_drops": sum(g["drops"][s] for g, s in zip(games, me)),
            "records": games}
    full = []
    for seed in args.planner_seeds:
        start, start_cpu = time.perf_counter(), time.process_time()
        game = play(["planner"] * 4, seed, timings)
        game["wall_s"] = time.perf_counter() - start
        game["cpu_s"] = time.process_time() - start_cpu
        full.append(game)
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.platform(), "python": platform.python_version(),
        "planner": {"max_trials": planner.MAX_TRIALS, "gap_m": planner.GAP,
                    "min_margin_m": planner.MIN_MARGIN},
        "load_average": {"start": list(load_start), "end": list(os.getloadavg())},
        "judged_drop_s": quantiles(timings["wall"]),
        "judged_drop_cpu_s": quantiles(timings["cpu"]),
        "planner_vs_random": duel,
        "planner_games": {"games": full, "wall_s": [g["wall_s"] for g in full],
                          "cpu_s": [g["cpu_s"] for g in full]},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tower.json").write_text(json.dumps(result, indent=1) + "\n")
    judged, cpu = result["judged_drop_s"], result["judged_drop_cpu_s"]
    load = result["load_average"]
    lines = ["| measure | result | target |", "|---|---|---|",
             f"| judged drop, CPU time, median (p90, max) over {cpu['n']} | "
             f"{cpu['median']:.3f} s ({cpu['p90']:.3f}, {cpu['max']:.3f}) | <= 0.3 s |",
             f"| judged drop, wall time, median (p90, max) | "
             f"{judged['median']:.3f} s ({judged['p90']:.3f}, {judged['max']:.3f}) | |",
             f"| 4-player planner game (96 pieces), seeds {args.planner_seeds}, CPU (wall) | "
             + ", ".join(f"{g['cpu_s']:.1f} s ({g['wall_s']:.1f} s; {sum(g['drops'])} drops, "
                         f"{sum(g['standing'])} pieces standing at the end)" for g in full)
             + " | <= 120 s |",
             f"| planner vs random, 2 players, {duel['games']} games | wins {wins} "
             f"({100 * duel['win_rate']:.0f} %, {outright} outright) | >= 70 % |",
             f"| planner's drops after which something fell (vs random) | "
             f"{duel['planner_falls']} of {duel['planner_drops']} | |",
             f"| load average (1 min) at the start, the end | "
             f"{load['start'][0]:.2f}, {load['end'][0]:.2f} | |"]
    (RESULTS / "tower.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
