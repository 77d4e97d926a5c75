"""What a Tower planner's trial costs, before and after a change, and whether the
planner still plays as well.

* **cost**: whole 4-player games of the planner bot (all 96 pieces dealt), one per
  seed of ``--seeds``, each played in a child process on this checkout's balance3d
  and on ``--before DIR``'s (another checkout, such as one of the code before a
  change), the two interleaved.  Per game: the
  child's CPU time for the whole game, the CPU time of the planner's drop turns
  (candidates, legality checks and trials), the trials made (the planner's progress
  reports), the CPU per trial (the drop turns' CPU over the trials), the longest and
  the median drop turn, and a digest of the final saved game: the same digest on
  both sides means the same game, move for move.
* **duel**: ``--games`` seeded 2-player games of this checkout's planner against
  :class:`OldTrials`, the planner trying drops the way it did before (the legality
  of every candidate first, each trial in a ``state.clone()`` with a World of its
  own, played to its verdict).  The games come in pairs on one seed (game ``i``
  has seed ``i // 2``), the new planner in seat ``i % 2``: the seats swap within a
  pair, so two planners that choose alike win one game of each pair.  A win is
  rank 1, shared or not (a tie: both ranked 1); the wins, the ties and the
  Wilson interval (95 %) of the wins are given, and the pairs split one each.
  ``--workers`` processes play the games (each game's moves are the same in any
  process).

The machine may be shared: CPU times move less with the load than wall times, and
the two sides of ``cost`` run in turn under the same load.

    python -m benchmarks.planner_speed [--before ../main] [--seeds 0 1 2] [--games 30] [--workers 1]

(from the root of a checkout).  Writes ``benchmarks/results/planner_cost.json`` and
``.md`` (cost), ``planner_duel.json`` and ``.md`` (duel).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: The checkout this file belongs to.
ROOT = Path(__file__).resolve().parents[1]
#: Players of the timed games.
PLAYERS = 4
#: Seeds of the timed games.
SEEDS = (0, 1, 2)
#: s, longest a child may take before the benchmark gives up on it.
CHILD_TIMEOUT = 3600.0


def child_cost(seed: int) -> dict:
    """In the child: play the 4-player planner game ``seed`` on the balance3d found
    first on the path; its figures (see the module)."""
    from balance3d.bots import make_bot
    from balance3d.bots.progress import choose
    from balance3d.games import Drop, new_game

    cpu_start = time.process_time()
    state = new_game("tower", players=PLAYERS, seed=seed, bots=["planner"] * PLAYERS)
    bots = [make_bot("planner", seed, seat, game="tower") for seat in range(PLAYERS)]
    trials = [0]

    def heard(progress) -> None:
        trials[0] += progress.tried > 0

    turns = []
    while not state.is_over:
        before = time.process_time()
        action = choose(bots[state.current_player], state, heard)
        if isinstance(action, Drop):
            turns.append(time.process_time() - before)
        state.apply(action)
    return {"seed": seed, "cpu_s": time.process_time() - cpu_start,
            "drop_turns_cpu_s": sum(turns), "drop_turns": len(turns), "trials": trials[0],
            "cpu_per_trial_s": sum(turns) / max(1, trials[0]),
            "longest_turn_cpu_s": max(turns), "median_turn_cpu_s": statistics.median(turns),
            "digest": hashlib.sha256(state.to_json().encode()).hexdigest()[:16]}


def run_child(seed: int, code: Path) -> dict:
    """Run :func:`child_cost` on ``code``'s balance3d in a child process."""
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run([sys.executable, __file__, "--child", str(seed)], env=env,
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT, cwd=str(code))
    answers = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not answers:
        raise RuntimeError(f"the measuring child failed (exit status {done.returncode}): "
                           f"{done.stderr.strip()[-2000:]}")
    return json.loads(answers[-1])


def old_trials_class():
    """:class:`OldTrials`, made on first use (the child imports no balance3d before
    it is told which)."""
    from balance3d.games.tower.planner import MAX_TRIALS, PlannerBot, stands

    class OldTrials(PlannerBot):
        """The planner trying drops as it did before: every candidate's legality
        checked first, each trial in ``state.clone()``."""

        def legal_candidates(self, state, candidates=None):
            return [d for d in self.candidates(state) if state.is_legal(d)[0]][:MAX_TRIALS]

        @staticmethod
        def trial(state, drop):
            return stands(state.clone().apply(drop))

    return OldTrials


def duel_game(game: int) -> dict:
    """Duel game ``game``: seed ``game // 2``, the new planner in seat ``game % 2``,
    :class:`OldTrials` in the other; the seats' ranks and heights (m)."""
    from balance3d.games import new_game
    from balance3d.games.tower.planner import PlannerBot

    old, me, seed = old_trials_class(), game % 2, game // 2
    bots = [PlannerBot(seed, s) if s == me else old(seed, s) for s in range(2)]
    state = new_game("tower", players=2, seed=seed, bots=["planner"] * 2)
    while not state.is_over:
        state.apply(bots[state.current_player].choose(state))
    return {"game": game, "seed": seed, "new_seat": me, "ranks": list(state.outcome.ranks),
            "heights": list(state.outcome.scores),
            "digest": hashlib.sha256(state.to_json().encode()).hexdigest()[:16]}


def duel(games: int, workers: int) -> dict:
    """The new planner against :class:`OldTrials` over ``games`` 2-player games,
    played by ``workers`` processes."""
    from balance3d.tune.summary import wilson

    records = []
    with ProcessPoolExecutor(workers) as pool:
        for record in pool.map(duel_game, range(games)):
            records.append(record)
            print("duel", json.dumps(record), flush=True)
    wins = sum(r["ranks"][r["new_seat"]] == 1 for r in records)
    ties = sum(r["ranks"].count(1) > 1 for r in records)
    pairs = [records[i:i + 2] for i in range(0, len(records) - 1, 2)]
    split = sum(sum(r["ranks"][r["new_seat"]] == 1 for r in pair) == 1 for pair in pairs)
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "outright_wins": wins - ties, "ties": ties,
            "win_rate": wins / games, "wilson_95": [low, high], "pairs": len(pairs),
            "pairs_split": split, "records": records}


def cost_markdown(cost: dict[str, list[dict]]) -> list[str]:
    """The cost section as a Markdown table."""
    lines = ["| side | seed | game CPU | drop turns' CPU | trials | CPU per trial | "
             "longest turn (median) | digest |", "|---|---|---|---|---|---|---|---|"]
    for side in sorted(cost, reverse=True):
        lines += [f"| {side} | {g['seed']} | {g['cpu_s']:.1f} s | {g['drop_turns_cpu_s']:.1f} s "
                  f"| {g['trials']} | {g['cpu_per_trial_s']:.3f} s | "
                  f"{g['longest_turn_cpu_s']:.2f} s ({g['median_turn_cpu_s']:.2f} s) | "
                  f"{g['digest']} |" for g in cost[side]]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="a checkout whose balance3d is the "
                        "'before' side of cost (default: no before side)")
    parser.add_argument("--seeds", type=int, nargs="*", default=list(SEEDS),
                        help="seeds of the cost games (none: no cost section)")
    parser.add_argument("--games", type=int, default=30, help="duel games (0: no duel)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the duel")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        print(json.dumps(child_cost(args.child)))
        return 0
    sys.path.insert(0, str(ROOT))
    from benchmarks.results_io import facts_text, machine_facts, measuring, write_results

    if args.seeds:
        sides = {"after": ROOT} | ({"before": args.before.resolve()} if args.before else {})
        cost: dict[str, list[dict]] = {side: [] for side in sides}
        with measuring(one_core=False) as facts:
            for seed in args.seeds:
                for side, code in sorted(sides.items(), reverse=True):
                    cost[side].append(run_child(seed, code))
                    print(side, json.dumps(cost[side][-1]), flush=True)
        lines = [*cost_markdown(cost), "", facts_text(facts, machine_facts())]
        write_results("planner_cost", {"facts": facts, "cost": cost}, "\n".join(lines))
        print("\n".join(lines))
    if args.games:
        with measuring(one_core=False) as facts:
            fight = duel(args.games, args.workers)
        low, high = fight["wilson_95"]
        lines = [f"Duel, {fight['games']} 2-player games ({fight['pairs']} seeds, each "
                 f"played twice with the seats swapped), the planner against the old way "
                 f"of trying: {fight['wins']} wins ({100 * fight['win_rate']:.0f} %, Wilson "
                 f"95 % [{100 * low:.0f} %, {100 * high:.0f} %]; {fight['outright_wins']} "
                 f"outright, {fight['ties']} ties); {fight['pairs_split']} of the "
                 f"{fight['pairs']} pairs split one game each.", "",
                 facts_text(facts, machine_facts())]
        write_results("planner_duel", {"facts": facts, "duel": fight}, "\n".join(lines))
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
