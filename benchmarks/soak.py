"""Soak: many seeded bot games of every game, variant and player count in one
process, checking invariants after every turn.

    python -m benchmarks.soak --games 1000 [--seed 0] [--planner-share 0.2] [--workers 1]

Game ``i`` plays configuration ``i % 12`` (every game x variant x player count, in
a fixed order) with the game seed ``seed + i``; each seat is the ``planner`` bot with
probability ``--planner-share``, else the ``random`` bot, drawn from the game's own
soak generator (seeded with ``[seed, i]``), which also picks the turns at which the
game is saved and loaded.  Each game is thus the same whichever process plays it
and whatever was played before: ``--workers N`` plays the games in N processes and
prints them in the same order, each game move for move as one process would play it.  After
every action it checks:

- the game's invariants (:mod:`benchmarks.soak_checks`): Tilted's coins and blocks
  conserved; Tri-Ba-Lance's pieces on the plate or with their owner and the scores
  recomputed from the positions; Tower's pieces in a hand, on a tower or out of the
  game, and the penalty deck turned round;
- that the game ends within :data:`ACTION_CAP` actions;
- at a saved turn: the state is saved to JSON and loaded, the next action is applied
  to both, and the verdicts and saved states must be identical; play goes on with
  the loaded copy.

It prints one line per game (configuration, seats, actions, how it ended, save/load
round trips, seconds, the peak RSS of the process that played it), the peak RSS of
each playing process after its 10th game and after its last, and a summary.  Exit status 0 when every game passed, 1 at the first broken invariant
(its message names the game, the seed and the action), 2 on bad arguments.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance3d.bots import make_bot
from balance3d.games import Action, State, game_names, get_game, load_state, new_game
from benchmarks.soak_checks import CHECKS, InvariantError

#: actions, most a game may take before the soak calls it endless (the longest seen:
#: a 4-player Tower game of about 100 turns with its decisions).
ACTION_CAP = 1000
#: probability that a seat is the planner bot (the rest play random).
PLANNER_SHARE = 0.2
#: probability that the soak saves and loads the game before an action.
SAVE_SHARE = 0.05
#: games of one process after which its first peak RSS is reported.
EARLY_GAMES = 10


@dataclass(frozen=True)
class Config:
    """One game, variant and player count."""

    game: str
    variant: str
    players: int

    def __str__(self) -> str:
        return f"{self.game}/{self.variant}/{self.players}p"


@dataclass
class GameReport:
    """What one soaked game did: actions applied, save/load round trips, how it
    ended and its wall time (s)."""

    actions: int
    round_trips: int
    termination: str
    seconds: float


def configurations() -> list[Config]:
    """Every registered game x variant x player count, in a fixed order."""
    return [Config(name, variant, n) for name in game_names()
            for variant in get_game(name).variants
            for n in get_game(name).player_counts(variant)]


def peak_rss_mb() -> float:
    """MB, the process's peak resident set size so far (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _saved(state: State) -> dict[str, Any]:
    """``state`` as a save file holds it (its canonical JSON, read back)."""
    return json.loads(state.to_json())


def _round_trip(state: State, action: Action, where: str) -> State:
    """Save ``state`` and load it, apply ``action`` to both, and return the loaded
    copy after it; InvariantError unless both give the same verdict and state."""
    loaded = load_state(_saved(state))
    if _saved(loaded) != _saved(state):
        raise InvariantError(f"{where}: the loaded state differs from the saved one")
    ours, theirs = state.apply(action), loaded.apply(action)
    if ours.to_dict() != theirs.to_dict() or _saved(loaded) != _saved(state):
        raise InvariantError(f"{where}: after loading, {action} played on differently "
                             f"({ours.summary!r} / {theirs.summary!r})")
    return loaded


def soak_game(config: Config, seed: int, bots: list[str], rng: np.random.Generator) -> GameReport:
    """Play one game of ``config`` seeded ``seed`` with ``bots``, checking every
    invariant after every action; InvariantError naming the game and the action at
    the first that breaks."""
    started = time.perf_counter()
    state = new_game(config.game, players=config.players, seed=seed,
                     variant=config.variant, bots=bots)
    players = [make_bot(name, seed, seat, game=config.game) for seat, name in enumerate(bots)]
    check = CHECKS[config.game]
    start = _saved(state)
    check(state, start, start)
    actions = trips = 0
    while not state.is_over:
        where = f"{config} seed {seed} bots {','.join(bots)} action {actions + 1}"
        if actions >= ACTION_CAP:
            raise InvariantError(f"{where}: not over after {ACTION_CAP} actions")
        action = players[state.current_player].choose(state)
        if rng.random() < SAVE_SHARE:
            state = _round_trip(state, action, where)
            trips += 1
        else:
            state.apply(action)
        actions += 1
        try:
            check(state, _saved(state), start)
        except InvariantError as exc:
            raise InvariantError(f"{where} ({action}): {exc}") from None
    return GameReport(actions, trips, state.outcome.termination,
                      time.perf_counter() - started)


def seats(config: Config, rng: np.random.Generator, planner_share: float) -> list[str]:
    """Bot names per seat: ``planner`` with probability ``planner_share``."""
    return ["planner" if rng.random() < planner_share else "random"
            for _ in range(config.players)]


@dataclass(frozen=True)
class Played:
    """Game ``index`` as one process played it: its configuration and seats, its
    report, the process's id and its peak RSS after the game (MB)."""

    index: int
    config: Config
    bots: list[str]
    report: GameReport
    pid: int
    rss_mb: float


def play(index: int, seed: int, planner_share: float) -> Played:
    """Play game ``index`` of a soak seeded ``seed`` (see the module docstring)."""
    configs = configurations()
    config = configs[index % len(configs)]
    rng = np.random.default_rng([seed, index])
    bots = seats(config, rng, planner_share)
    report = soak_game(config, seed + index, bots, rng)
    return Played(index, config, bots, report, os.getpid(), peak_rss_mb())


def _play_args(args: tuple[int, int, float]) -> Played:
    return play(*args)


def _played(games: int, seed: int, planner_share: float, workers: int) -> Iterator[Played]:
    """Every game, in order, played here (``workers`` 1) or by a pool of processes
    (each takes the next game when it is free, so the games of one process come in
    the order it played them)."""
    jobs = [(i, seed, planner_share) for i in range(games)]
    if workers == 1:
        yield from map(_play_args, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_play_args, jobs)


def soak(games: int, seed: int = 0, planner_share: float = PLANNER_SHARE,
         out=sys.stdout, workers: int = 1) -> int:
    """Play ``games`` games (see the module docstring) in ``workers`` processes,
    printing to ``out``; the number of games played (all passed; InvariantError at
    the first broken one)."""
    started = time.perf_counter()
    actions = trips = 0
    last: dict[int, Played] = {}
    played_by: dict[int, int] = {}
    for played in _played(games, seed, planner_share, workers):
        report = played.report
        actions, trips = actions + report.actions, trips + report.round_trips
        last[played.pid] = played
        played_by[played.pid] = played_by.get(played.pid, 0) + 1
        print(f"game {played.index + 1:>5}  {str(played.config):<20} "
              f"{','.join(played.bots):<32} {report.actions:>4} actions  "
              f"{report.termination:<16} {report.round_trips} save/load  "
              f"{report.seconds:6.1f} s  peak RSS {played.rss_mb:.0f} MB", file=out, flush=True)
        if played_by[played.pid] == EARLY_GAMES:
            print(f"peak RSS after {EARLY_GAMES} games{_of(played, workers)}: "
                  f"{played.rss_mb:.0f} MB", file=out, flush=True)
    minutes = (time.perf_counter() - started) / 60
    for played in last.values():
        print(f"peak RSS after {played_by[played.pid]} games{_of(played, workers)}: "
              f"{played.rss_mb:.0f} MB", file=out)
    print(f"{games} games, {actions} actions, {trips} save/load round trips, "
          f"no invariant broken, {minutes:.1f} min", file=out, flush=True)
    return games


def _of(played: Played, workers: int) -> str:
    """Which process a peak RSS is of, when there are several."""
    return "" if workers == 1 else f" of process {played.pid}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak",
                                     description="Seeded bot games of every game, variant "
                                     "and player count, with invariants checked after every "
                                     "turn.")
    parser.add_argument("--games", type=int, default=len(configurations()),
                        help="games to play (default: one per configuration)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed and the "
                        "soak's own generator's seed (default 0)")
    parser.add_argument("--planner-share", type=float, default=PLANNER_SHARE,
                        help=f"probability a seat is the planner (default {PLANNER_SHARE})")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes playing the games (default 1: this one)")
    args = parser.parse_args(argv)
    if args.games < 1 or not 0 <= args.planner_share <= 1 or args.workers < 1:
        print("soak: --games and --workers must be at least 1 and --planner-share "
              "within [0, 1]", file=sys.stderr)
        return 2
    try:
        soak(args.games, args.seed, args.planner_share, workers=args.workers)
    except InvariantError as exc:
        print(f"soak: invariant broken: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
