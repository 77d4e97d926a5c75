"""Computer players.

A bot is any object with a ``name`` and ``choose(state) -> action``: given a game
state whose current player is the bot's seat, it returns a legal action for it (a
:class:`~balance3d.games.base.Drop` when the phase asks for a drop, else one of
``state.legal_decisions()``).  Bots never change the state they are given; they
plan in ``state.clone()`` copies.

Each bot class says which games it plays (``games``: a tuple of game names, or
None for a bot that plays any game through the generic API); each
:class:`~balance3d.games.game.Game` names the bots that play it and its default.

Bots are made by name (:func:`make_bot`) from the game's seed and their seat, and
every random choice they make comes from their own seeded NumPy generator
(:func:`bot_rng`): the same game seed, seats and bots give the same game.
"""
from __future__ import annotations

import importlib
from typing import Protocol, runtime_checkable

import numpy as np

from balance3d.games.base import Action, GameError, State


class BotError(GameError):
    """A bot could not act (for example it found no legal drop in its budget)."""


@runtime_checkable
class Bot(Protocol):
    """A computer player: ``choose`` returns the action for ``state.current_player``."""

    name: str
    #: Names of the games it plays, or None for any game.
    games: tuple[str, ...] | None

    def choose(self, state: State) -> Action:
        """A legal action for the current player of ``state`` (left unchanged)."""
        ...


#: Bot name -> "module:Class"; each class is built as ``Class(seed, seat)``.
REGISTRY: dict[str, str] = {
    "planner": "balance3d.bots.planner:PlannerBot",
    "random": "balance3d.bots.random_bot:RandomBot",
}

#: Salt separating the bots' random streams from the game's own (``State.rng``).
_BOT_STREAM = 0xB07


def bot_names() -> list[str]:
    """Registered bot names, sorted."""
    return sorted(REGISTRY)


def bot_rng(seed: int, seat: int) -> np.random.Generator:
    """The generator of the bot in ``seat`` of a game seeded with ``seed``:
    independent of the game's generator and of the other seats' bots."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([_BOT_STREAM, seed, seat])))


def bot_class(name: str) -> type:
    """The class of the registered bot ``name``."""
    if name not in REGISTRY:
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")
    module, cls = REGISTRY[name].split(":")
    return getattr(importlib.import_module(module), cls)


def plays(name: str, game: str) -> bool:
    """True when the bot ``name`` plays the game ``game``."""
    games = bot_class(name).games
    return games is None or game in games


def make_bot(name: str, seed: int, seat: int) -> Bot:
    """A new bot ``name`` for ``seat`` (0-based) in a game seeded with ``seed``."""
    return bot_class(name)(int(seed), int(seat))


__all__ = ["Bot", "BotError", "REGISTRY", "bot_class", "bot_names", "bot_rng", "make_bot",
           "plays"]
