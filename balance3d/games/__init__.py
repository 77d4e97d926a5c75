"""Games: a registry of :class:`~balance3d.games.base.State` classes by name, and
:func:`new_game`."""
from __future__ import annotations

import importlib
from typing import Any

from balance3d.games.base import (Action, Choose, Drop, GameError, IllegalActionError, Outcome,
                                  Pass, Place, Player, RecordError, State, Verdict,
                                  action_from_dict, action_to_dict)
from balance3d.scene import Scene, load_scene

#: Game name -> module defining its State class (attribute ``GAME``).
REGISTRY: dict[str, str] = {
    "tilted": "balance3d.games.tilted",
}


def game_class(name: str) -> type[State]:
    """The State class of the game ``name``."""
    if name not in REGISTRY:
        raise GameError(f"unknown game {name!r} (known: {', '.join(sorted(REGISTRY))})")
    return importlib.import_module(REGISTRY[name]).GAME


def default_scene(name: str, variant: str) -> str:
    """Bundled scene of a game's variant: ``name`` for the first variant, else
    ``name-variant``."""
    cls = game_class(name)
    return name if variant == cls.variants[0] else f"{name}-{variant}"


def new_game(name: str, players: int | list[str] | list[Player] = 2, seed: int = 0,
             scene: str | Scene | None = None, variant: str | None = None,
             bots: list[str | None] | None = None) -> State:
    """Start a game.

    name : registered game ("tilted", ...).  players : a count, names, or
    :class:`Player` seats.  seed : the game's only source of randomness.
    scene : bundled name, path or loaded :class:`Scene` (default: the variant's
    bundled scene).  variant : default the scene's variant, else the game's first.
    bots : per seat, a bot name or None for a human (used with counts or names).
    """
    cls = game_class(name)
    if isinstance(scene, Scene):
        loaded = scene
    elif scene is not None:
        loaded = load_scene(scene)
    else:
        loaded = load_scene(default_scene(name, variant or cls.variants[0]))
    variant = variant or loaded.variant
    if isinstance(players, int):
        players = [f"Player {i + 1}" for i in range(players)]
    seats: list[Player] = []
    for i, p in enumerate(players):
        if isinstance(p, Player):
            seats.append(p)
        else:
            bot = bots[i] if bots is not None and i < len(bots) else None
            seats.append(Player(i, str(p), bot))
    return cls.new(loaded, seats, int(seed), variant)


def load_state(data: dict[str, Any]) -> State:
    """Rebuild any game's state from :meth:`State.to_dict` output."""
    if not isinstance(data, dict) or "game" not in data:
        raise RecordError("a saved state must be an object with a 'game'")
    return game_class(data["game"]).from_dict(data)


__all__ = ["Action", "Choose", "Drop", "GameError", "IllegalActionError", "Outcome", "Pass",
           "Place", "Player", "RecordError", "REGISTRY", "State", "Verdict", "action_from_dict",
           "action_to_dict", "default_scene", "game_class", "load_state", "new_game"]
