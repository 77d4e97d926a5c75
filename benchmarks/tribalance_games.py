"""How fast Tri-Ba-Lance plays, and how well its planner bot plays it.

Measured in one run, on one core (the process is pinned to one CPU when the system
allows it):

* **judged placement**: wall time of ``State.apply(place)`` for every placement of
  the games below (not the planner's trials in copies): the release, settling until
  the plate is still, judging, taking returned pieces away and settling again.
  Median, 90th percentile and maximum.
* **planner vs random**: the planner's win rate over ``--games`` seeded games
  against random bots, for 2 and for 3 players (game ``i`` has seed ``i``; the
  planner sits in seat ``i % players``).  A win is rank 1 (shared or not); outright
  wins are counted too.
* **invalid-turn rate**: the share of the planner's placements judged invalid, in
  those games and in the all-planner games below.
* **3-player planner game**: wall time of whole games of three planner bots, one per
  seed of ``--planner-seeds``.

Targets (issue 8): <= 0.15 s per judged placement, <= 60 s per 3-player planner game
on one core; the planner wins >= 80 % against random for 2 and 3 players.

    python benchmarks/tribalance_games.py [--games 50] [--planner-seeds 0 1 2]

(with balance3d installed, or ``PYTHONPATH=.`` from the checkout).  Writes
``benchmarks/results/tribalance.json`` and ``benchmarks/results/tribalance.md``.
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
from balance3d.games import Place, new_game
from balance3d.games.tribalance import planner

RESULTS = Path(__file__).parent / "results"


def play(players: list[str], seed: int, timings: list[float]) -> dict:
    """One game of ``players`` (bot names per seat); every real placement's wall
    time goes to ``timings``.  Returns the outcome and, per seat, the placements
    made and how many were invalid."""
    state = new_game("tribalance", players=len(players), seed=seed)
    bots = [make_bot(name, seed, seat, game="tribalance") for seat, name in enumerate(players)]
    placed, invalid = [0] * len(players), [0] * len(players)
    while not state.is_over:
        seat = state.current_player
        action = bots[seat].choose(state)
        start = time.perf_counter()
        verdict = state.apply(action)
        if isinstance(action, Place):
            timings.append(time.perf_counter() - start)
            placed[seat] += 1
            invalid[seat] += not verdict.valid
    outcome = state.outcome
    return {"seed": seed, "players": players, "termination": outcome.termination,
            "scores": list(outcome.scores), "ranks": list(outcome.ranks),
            "placed": placed, "invalid": invalid}


def quantiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"n": len(ordered), "median": statistics.median(ordered),
            "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max": ordered[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--planner-seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    timings: list[float] = []
    duels = {}
    for count in (2, 3):
        games = []
        for seed in range(args.games):
            seats = ["random"] * count
            seats[seed % count] = "planner"
            games.append(play(seats, seed, timings))
        me = [g["players"].index("planner") for g in games]
        wins = sum(g["ranks"][s] == 1 for g, s in zip(games, me))
        outright = sum(g["ranks"][s] == 1 and g["ranks"].count(1) == 1
                       for g, s in zip(games, me))
        placed = sum(g["placed"][s] for g, s in zip(games, me))
        bad = sum(g["invalid"][s] for g, s in zip(games, me))
        duels[count] = {"games": len(games), "wins": wins, "outright_wins": outright,
                        "win_rate": wins / len(games), "planner_placements": placed,
                        "planner_invalid": bad, "invalid_rate": bad / max(placed, 1),
                        "terminations": {t: sum(g["termination"] == t for g in games)
                                         for t in sorted({g["termination"] for g in games})},
                        "records": games}
    full = []
    for seed in args.planner_seeds:
        start = time.perf_counter()
        game = play(["planner"] * 3, seed, timings)
        game["wall_s"] = time.perf_counter() - start
        full.append(game)
    placed = sum(sum(g["placed"]) for g in full)
    bad = sum(sum(g["invalid"]) for g in full)
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": platform.platform(), "python": platform.python_version(),
        "planner": {"max_trials": planner.MAX_TRIALS, "max_load": planner.MAX_LOAD},
        "judged_placement_s": quantiles(timings),
        "planner_vs_random": duels,
        "planner_games": {"games": full, "wall_s": [g["wall_s"] for g in full],
                          "invalid_rate": bad / max(placed, 1)},
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tribalance.json").write_text(json.dumps(result, indent=1) + "\n")
    judged = result["judged_placement_s"]
    lines = ["| measure | result | target |", "|---|---|---|",
             f"| judged placement, median (p90, max) over {judged['n']} | "
             f"{judged['median']:.3f} s ({judged['p90']:.3f}, {judged['max']:.3f}) | <= 0.15 s |",
             f"| 3-player planner game, seeds {args.planner_seeds} | "
             + ", ".join(f"{w:.1f} s" for w in result["planner_games"]["wall_s"])
             + " | <= 60 s |"]
    for count, d in duels.items():
        lines.append(f"| planner vs random, {count} players, {d['games']} games | wins "
                     f"{d['wins']} ({100 * d['win_rate']:.0f} %, {d['outright_wins']} outright)"
                     f" | >= 80 % |")
        lines.append(f"| planner's invalid turns, {count} players vs random | "
                     f"{d['planner_invalid']} of {d['planner_placements']} "
                     f"({100 * d['invalid_rate']:.1f} %) | |")
    lines.append(f"| invalid turns, 3-player planner games | {bad} of {placed} "
                 f"({100 * result['planner_games']['invalid_rate']:.1f} %) | |")
    (RESULTS / "tribalance.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
