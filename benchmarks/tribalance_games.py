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
* **seat mixes**: over ``--games`` seeded games of each mix (a planner against
  random bots, and planners only, for 2 and 3 players): the share of all placements
  judged valid, the share of the pieces in play that are on the plate at the end, the
  games in which every piece was placed, and how the games ended.

Targets (:mod:`benchmarks.targets`): <= 0.15 s per judged placement,
<= 60 s per 3-player planner game on one core; the planner wins >= 80 % against
random for 2 and 3 players.

    python -m benchmarks.tribalance_games [--games 50] [--planner-seeds 0 1 2]

(from the root of a checkout).  Writes ``benchmarks/results/tribalance.json`` and
``benchmarks/results/tribalance.md``.
"""
from __future__ import annotations

import argparse

from balance3d.games.tribalance import planner
from benchmarks.play import PlayedGame, against_random, play
from benchmarks.results_io import facts_text, machine_facts, measuring, spread, write_results
from benchmarks.targets import JUDGE_S, PLANNER_GAME, PLANNER_WIN_RATE

GAME = "tribalance"


def summary(game: PlayedGame) -> dict:
    """A played game's outcome and, per seat, the placements made and how many were
    judged invalid."""
    seats = range(len(game.bots))
    outcome = game.state.outcome
    return {"seed": game.state.seed, "players": game.bots,
            "termination": outcome.termination, "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            "placed": [len(game.seat_moves(s)) for s in seats],
            "invalid": [sum(not m.verdict.valid for m in game.seat_moves(s)) for s in seats],
            "wall_s": game.wall_s}


#: Seat mixes of planners only, played ``--games`` times each besides the games of a
#: planner against random bots: name -> the bots.
PLANNERS_ONLY = {"2 planners": ["planner"] * 2, "3 planners": ["planner"] * 3}


def mix_summary(games: list[PlayedGame]) -> dict:
    """Over ``games`` of one seat mix: placements and the share judged valid, pieces
    in play and the share on the plate at the end, the games ending with every piece
    placed, and the terminations."""
    moves = [m for g in games for m in g.moves]
    valid = sum(m.verdict.valid for m in moves)
    pieces = [len(g.state.placed) + sum(len(g.state.hand(s)) for s in range(len(g.bots)))
              for g in games]
    on_plate = [len(g.state.placed) for g in games]
    ends = [g.state.outcome.termination for g in games]
    return {"games": len(games), "placements": len(moves), "valid": valid,
            "valid_share": valid / max(len(moves), 1),
            "pieces": sum(pieces), "on_plate": sum(on_plate),
            "on_plate_share": sum(on_plate) / max(sum(pieces), 1),
            "all_placed": sum(n == total for n, total in zip(on_plate, pieces)),
            "terminations": {t: ends.count(t) for t in sorted(set(ends))}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--planner-seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args(argv)
    players, game_limit = PLANNER_GAME[GAME]
    timings: list[float] = []
    duels = {}
    with measuring(one_core=True) as facts:
        mixes = {}
        for count in (2, 3):
            games, played_games = [], []
            for seed in range(args.games):
                played = play(GAME, against_random(seed, count), seed)
                timings += [m.seconds for m in played.moves]
                games.append(summary(played))
                played_games.append(played)
            mixes[f"planner + {count - 1} random"] = mix_summary(played_games)
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
            played = play(GAME, ["planner"] * players, seed)
            timings += [m.seconds for m in played.moves]
            full.append(summary(played))
        for name, bots in PLANNERS_ONLY.items():
            mixes[name] = mix_summary([play(GAME, bots, seed) for seed in range(args.games)])
    placed = sum(sum(g["placed"]) for g in full)
    bad = sum(sum(g["invalid"]) for g in full)
    result = {
        "facts": facts,
        "planner": {"max_trials": planner.MAX_TRIALS, "max_load": planner.MAX_LOAD},
        "judged_placement_s": spread(timings),
        "planner_vs_random": duels,
        "planner_games": {"games": full, "wall_s": [g["wall_s"] for g in full],
                          "invalid_rate": bad / max(placed, 1)},
        "seat_mixes": mixes,
    }
    judged = result["judged_placement_s"]
    lines = ["| measure | result | target |", "|---|---|---|",
             f"| judged placement, median (p90, max) over {judged['count']} | "
             f"{judged['median_s']:.3f} s ({judged['p90_s']:.3f}, {judged['max_s']:.3f}) | "
             f"<= {JUDGE_S[GAME]:g} s |",
             f"| {players}-player planner game, seeds {args.planner_seeds} | "
             + ", ".join(f"{w:.1f} s" for w in result["planner_games"]["wall_s"])
             + f" | <= {game_limit:g} s |"]
    for count, d in duels.items():
        lines.append(f"| planner vs random, {count} players, {d['games']} games | wins "
                     f"{d['wins']} ({100 * d['win_rate']:.0f} %, {d['outright_wins']} outright)"
                     f" | >= {100 * PLANNER_WIN_RATE[GAME]:.0f} % |")
        lines.append(f"| planner's invalid turns, {count} players vs random | "
                     f"{d['planner_invalid']} of {d['planner_placements']} "
                     f"({100 * d['invalid_rate']:.1f} %) | |")
    lines += [f"| invalid turns, {players}-player planner games | {bad} of {placed} "
              f"({100 * result['planner_games']['invalid_rate']:.1f} %) | |", "",
              "| seat mix | games | valid placements | pieces on the plate at the end "
              "| games with every piece placed | terminations |", "|---|---|---|---|---|---|"]
    for name, m in mixes.items():
        ends = ", ".join(f"{t} {n}" for t, n in m["terminations"].items())
        lines.append(f"| {name} | {m['games']} | {m['valid']} of {m['placements']} "
                     f"({100 * m['valid_share']:.0f} %) | {m['on_plate']} of {m['pieces']} "
                     f"({100 * m['on_plate_share']:.0f} %) | {m['all_placed']} | {ends} |")
    lines += ["", facts_text(facts, machine_facts())]
    write_results("tribalance", result, "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
