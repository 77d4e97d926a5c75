"""How fast Tower plays, and how well its planner bot plays it.

Measured in one run, on one core (the process is pinned to one CPU when the system
allows it):

* **judged drop**: wall time of ``State.apply(drop)`` for every drop of the games
  below (not the planner's trials in copies): the release, settling, reading the
  towers, taking fallen pieces away and settling again, restoring knocked towers.
  Median, 90th percentile and maximum.
* **planner vs random**: the planner's win rate over ``--games`` seeded 2-player
  games against the random bot (game ``i`` has seed ``i``; the planner sits in
  seat ``i % 2``).  A win is rank 1 (shared or not); outright wins are counted too.
* **4-player planner game**: wall and CPU time of whole games of four planner bots
  (all 96 pieces dealt), one per seed of ``--planner-seeds``, with the pieces played
  and removed.

On a shared machine the wall time grows with the load; the process's CPU time is
close to what a core of its own would take, so both are given.

Targets (:mod:`benchmarks.targets`): <= 0.3 s median per judged drop,
<= 120 s per 4-player planner game on one core; the planner wins >= 70 % against
random.

    python -m benchmarks.tower_games [--games 30] [--planner-seeds 0]

(from the root of a checkout).  Writes ``benchmarks/results/tower.json`` and
``benchmarks/results/tower.md``.
"""
from __future__ import annotations

import argparse

from balance3d.games.tower import planner
from benchmarks.play import PlayedGame, against_random, play
from benchmarks.results_io import facts_text, machine_facts, measuring, spread, write_results
from benchmarks.targets import JUDGE_S, PLANNER_GAME, PLANNER_WIN_RATE

GAME = "tower"


def summary(game: PlayedGame) -> dict:
    """A played game's outcome and, per seat, the drops made, the drops after which
    something fell and the pieces standing at the end."""
    state, seats = game.state, range(len(game.bots))
    outcome = state.outcome
    return {"seed": state.seed, "players": game.bots, "termination": outcome.termination,
            "heights": list(outcome.scores), "ranks": list(outcome.ranks),
            "drops": [len(game.seat_moves(s)) for s in seats],
            "falls": [sum(bool(m.verdict.fallen) for m in game.seat_moves(s)) for s in seats],
            "standing": [len(state.tower(s)) for s in seats], "removed": len(state.removed),
            "wall_s": game.wall_s, "cpu_s": game.cpu_s}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--planner-seeds", type=int, nargs="+", default=[0])
    args = parser.parse_args(argv)
    players, game_limit = PLANNER_GAME[GAME]
    timings: list[float] = []
    cpu_timings: list[float] = []
    with measuring(one_core=True) as facts:
        games = []
        for seed in range(args.games):
            played = play(GAME, against_random(seed), seed)
            timings += [m.seconds for m in played.moves]
            cpu_timings += [m.cpu_seconds for m in played.moves]
            games.append(summary(played))
        full = []
        for seed in args.planner_seeds:
            played = play(GAME, ["planner"] * players, seed)
            timings += [m.seconds for m in played.moves]
            cpu_timings += [m.cpu_seconds for m in played.moves]
            full.append(summary(played))
    me = [g["players"].index("planner") for g in games]
    wins = sum(g["ranks"][s] == 1 for g, s in zip(games, me))
    outright = sum(g["ranks"][s] == 1 and g["ranks"].count(1) == 1 for g, s in zip(games, me))
    duel = {"games": len(games), "wins": wins, "outright_wins": outright,
            "win_rate": wins / len(games),
            "planner_falls": sum(g["falls"][s] for g, s in zip(games, me)),
            "planner_drops": sum(g["drops"][s] for g, s in zip(games, me)),
            "records": games}
    result = {
        "facts": facts,
        "planner": {"max_trials": planner.MAX_TRIALS, "gap_m": planner.GAP,
                    "min_margin_m": planner.MIN_MARGIN},
        "judged_drop_s": spread(timings),
        "judged_drop_cpu_s": spread(cpu_timings),
        "planner_vs_random": duel,
        "planner_games": {"games": full, "wall_s": [g["wall_s"] for g in full],
                          "cpu_s": [g["cpu_s"] for g in full]},
    }
    judged, cpu = result["judged_drop_s"], result["judged_drop_cpu_s"]
    lines = [
        "| measure | result | target |", "|---|---|---|",
        f"| judged drop, CPU time, median (p90, max) over {cpu['count']} | "
        f"{cpu['median_s']:.3f} s ({cpu['p90_s']:.3f}, {cpu['max_s']:.3f}) | "
        f"<= {JUDGE_S[GAME]:g} s |",
        f"| judged drop, wall time, median (p90, max) | "
        f"{judged['median_s']:.3f} s ({judged['p90_s']:.3f}, {judged['max_s']:.3f}) | |",
        f"| {players}-player planner game (96 pieces), seeds {args.planner_seeds}, "
        f"CPU (wall) | "
        + ", ".join(f"{g['cpu_s']:.1f} s ({g['wall_s']:.1f} s; {sum(g['drops'])} drops, "
                    f"{sum(g['standing'])} pieces standing at the end)" for g in full)
        + f" | <= {game_limit:g} s |",
        f"| planner vs random, 2 players, {duel['games']} games | wins {wins} "
        f"({100 * duel['win_rate']:.0f} %, {outright} outright) | "
        f">= {100 * PLANNER_WIN_RATE[GAME]:.0f} % |",
        f"| planner's drops after which something fell (vs random) | "
        f"{duel['planner_falls']} of {duel['planner_drops']} | |",
        "", facts_text(facts, machine_facts())]
    write_results("tower", result, "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
