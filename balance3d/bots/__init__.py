"""Computer players.

A bot is any object with a ``name`` and ``choose(state) -> action``: given a game
state whose current player is the bot's seat, it returns a legal action for it (a
physical action when the phase asks for one, else one of
``state.legal_decisions()``).  Bots never change the state they are given; they
plan in copies of it (``state.clone()``, or the trial copies of
:func:`balance3d.bots.trials.try_action`).

Each :class:`~balance3d.games.game.Game` names the bots that play it
(``Game.bots``: bot name -> ``"module:Class"``) and its default; a game's planner
lives in the game's own package.  :data:`REGISTRY` holds the bots that play any
game through the generic API (``random``).  A bot class says which games it plays
(``games``: a tuple of game names, or None for any game).

Bots are made by name (:func:`make_bot`) from the game's seed and their seat, and
every random choice they make comes from their own seeded NumPy generator
(:func:`bot_rng`): the same game seed, seats and bots give the same game.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from balance3d.games import game_names, get_game
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


#: Bots that play any game: name -> "module:Class"; each class is built as
#: ``Class(seed, seat)``.  A game's own bots are in its ``Game.bots``.
REGISTRY: dict[str, str] = {
    "random": "balance3d.bots.random_bot:RandomBot",
}

#: Salt separating the bots' random streams from the game's own (``State.rng``).
_BOT_STREAM = 0xB07


def _game_bots() -> dict[str, dict[str, str]]:
    """Game name -> that game's bots (name -> "module:Class")."""
    return {name: dict(get_game(name).bots) for name in game_names()}


def bot_names() -> list[str]:
    """Every bot name: the generic bots and every registered game's, sorted."""
    names = set(REGISTRY)
    for bots in _game_bots().values():
        names |= set(bots)
    return sorted(names)


def bot_rng(seed: int, seat: int) -> np.random.Generator:
    """The generator of the bot in ``seat`` of a game seeded with ``seed``:
    independent of the game's generator and of the other seats' bots."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([_BOT_STREAM, seed, seat])))


def _load(path: str) -> type:
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)


def bot_class(name: str, game: str | None = None) -> type:
    """The class of the bot ``name``: the game's own when ``game`` names one of its
    bots, else the generic bot of that name (:class:`BotError` when neither)."""
    if game is not None:
        own = dict(get_game(game).bots)
        if name in own:
            return _load(own[name])
    if name in REGISTRY:
        return _load(REGISTRY[name])
    if game is not None and name in bot_names():
        raise BotError(f"bot {name!r} does not play {game} (bots that play it: "
                       f"{', '.join(get_game(game).bots)})")
    raise BotError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")


def plays(name: str, game: str) -> bool:
    """True when the bot ``name`` plays the game ``game``."""
    try:
        games = bot_class(name, game).games
    except BotError:
        return False
    return games is None or game in games


def make_bot(name: str, seed: int, seat: int, game: str | None = None) -> Bot:
    """A new bot ``name`` for ``seat`` (0-based) in a game seeded with ``seed``.

    With ``game``, the game's own bot of that name wins over a generic one.  Without
    it, a generic bot (``random``) is made at once, and a name only games give (such
    as ``planner``) makes a :class:`GameBot` that builds the bot of whichever game it
    is asked to play."""
    if game is not None or name in REGISTRY:
        return bot_class(name, game)(int(seed), int(seat))
    if name not in bot_names():
        raise BotError(f"unknown bot {name!r} (known: {', '.join(bot_names())})")
    return GameBot(name, int(seed), int(seat))


class SeatedBot:
    """Base of a game's own bot: its ``seat`` and its seeded generator
    (:func:`bot_rng`), and the check that it is asked to play one of its ``games``."""

    name: str
    games: tuple[str, ...]

    def __init__(self, seed: int, seat: int) -> None:
        self.seat = seat
        self.rng = bot_rng(seed, seat)

    def check_game(self, state: State) -> None:
        """Raise :class:`BotError` unless ``state`` is a game this bot plays."""
        if state.name not in self.games:
            raise BotError(f"the {self.name} plays {', '.join(self.games)} only, "
                           f"not {state.name!r}")


class GameBot:
    """The bot ``name`` of whichever game it plays: on the first state of a game it
    builds that game's own bot of the name (with the same seed and seat, so it plays
    exactly as one made for the game) and hands every call to it.  ``games``: the
    games that have a bot of this name."""

    def __init__(self, name: str, seed: int, seat: int) -> None:
        self.name = name
        self.seed = seed
        self.seat = seat
        self.games: tuple[str, ...] | None = tuple(
            g for g, bots in _game_bots().items() if name in bots)
        self._bots: dict[str, Any] = {}

    def bot_for(self, game: str) -> Any:
        """The game's own bot of this name (made on first use)."""
        if self.games is not None and game not in self.games:
            raise BotError(f"the {self.name} plays {', '.join(self.games)} only, not {game!r}")
        if game not in self._bots:
            self._bots[game] = bot_class(self.name, game)(self.seed, self.seat)
        return self._bots[game]

    def choose(self, state: State) -> Action:
        """The action of the game's own bot for ``state`` (left unchanged)."""
        return self.bot_for(state.name).choose(state)

    def __getattr__(self, attr: str) -> Callable[..., Any]:
        """A method of the game's own bot, called with a state first
        (``bot.plan_drop(state)``)."""
        if attr.startswith("_"):
            raise AttributeError(attr)

        def call(state: State, *args: Any, **kwargs: Any) -> Any:
            return getattr(self.bot_for(state.name), attr)(state, *args, **kwargs)
        return call


__all__ = ["Bot", "BotError", "GameBot", "REGISTRY", "SeatedBot", "bot_class", "bot_names",
           "bot_rng", "make_bot", "plays"]
