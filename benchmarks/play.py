"""Seeded bot games with every physical move timed, for the benchmarks."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from balance3d.bots import make_bot
from balance3d.games import Drop, Place, State, Verdict, new_game

#: The action types a move of the World is made with (timed from release to verdict).
PHYSICAL = (Drop, Place)


@dataclass
class Move:
    """One physical move: the seat that made it, its verdict, and the wall time and
    the process's CPU time (s) of ``State.apply`` (release, settling, judging,
    clearing up).  On a shared machine the wall time grows with the load; the CPU
    time much less."""

    seat: int
    verdict: Verdict
    seconds: float
    cpu_seconds: float


@dataclass
class PlayedGame:
    """A game played by bots: its final state, its physical moves in order, and its
    wall time and the process's CPU time (s: set-up, every bot decision with its
    trials, every move)."""

    state: State
    bots: list[str]
    moves: list[Move] = field(default_factory=list)
    wall_s: float = 0.0
    cpu_s: float = 0.0

    def seat_moves(self, seat: int) -> list[Move]:
        """The physical moves of ``seat``."""
        return [m for m in self.moves if m.seat == seat]


def play(game: str, bots: list[str], seed: int, most_moves: int | None = None) -> PlayedGame:
    """Play ``game`` seeded with ``seed``, one bot per seat (bot names), to its end
    or until ``most_moves`` physical moves are made."""
    start, cpu_start = time.perf_counter(), time.process_time()
    state = new_game(game, players=len(bots), seed=seed, bots=bots)
    players = [make_bot(name, seed, seat, game=game) for seat, name in enumerate(bots)]
    played = PlayedGame(state, list(bots))
    while not state.is_over and (most_moves is None or len(played.moves) < most_moves):
        seat = state.current_player
        action = players[seat].choose(state)
        before, cpu_before = time.perf_counter(), time.process_time()
        verdict = state.apply(action)
        if isinstance(action, PHYSICAL):
            played.moves.append(Move(seat, verdict, time.perf_counter() - before,
                                     time.process_time() - cpu_before))
    played.wall_s = time.perf_counter() - start
    played.cpu_s = time.process_time() - cpu_start
    return played


def against_random(seed: int, players: int = 2) -> list[str]:
    """Seats of game ``seed`` of a planner against random bots: the planner sits in
    seat ``seed % players``."""
    bots = ["random"] * players
    bots[seed % players] = "planner"
    return bots
