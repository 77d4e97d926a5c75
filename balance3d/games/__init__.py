"""Games: a registry of :class:`~balance3d.games.game.Game` objects by name,
:func:`get_game`, :func:`new_game` and :func:`load_state`."""
from __future__ import annotations

import importlib
from typing import Any

from balance3d.games.base import (Action, Choose, Drop, GameError, IllegalActionError, Outcome,
                                  Pass, Place, Player, RecordError, State, Verdict,
                                  action_from_dict, action_to_dict)
from balance3d.games.game import Game
from balance3d.physics.heap import release_freed_memory
from balance3d.scene import Scene, load_scene

#: Game name -> module defining its :class:`Game` (attribute ``GAME``).
REGISTRY: dict[str, str] = {
    "tilted": "balance3d.games.tilted",
    "tribalance": "balance3d.games.tribalance",
    "tower": "balance3d.games.tower",
}


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(REGISTRY)


def get_game(name: str) -> Game:
    """The registered game ``name`` (:class:`GameError` naming the known ones)."""
    if name not in REGISTRY:
        raise GameError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return importlib.import_module(REGISTRY[name]).GAME


def new_game(name: str, players: int | list[str] | list[Player] = 2, seed: int = 0,
             scene: str | Scene | None = None, variant: str | None = None,
             bots: list[str | None] | None = None) -> State:
    """Start a game.

    name : registered game ("tilted", ...).  players : a count, names, or
    :class:`Player` seats.  seed : the game's only source of randomness.
    scene : bundled name, path or loaded :class:`Scene` (default: the variant's
    bundled scene).  variant : default the scene's variant, else the game's first.
    bots : per seat, a bot name or None for a human (used with counts or names).
    Before the game is set up, the C heap's free memory goes back to the system
    (:func:`balance3d.physics.heap.release_freed_memory`).
    """
    game = get_game(name)
    if isinstance(scene, Scene):
        loaded = scene
    elif scene is not None:
        loaded = load_scene(scene)
    else:
        loaded = load_scene(game.scene_name(variant or game.variants[0]))
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
    # the Worlds of the games played before are gone: hand their memory back
    release_freed_memory()
    return game.state_class.new(loaded, seats, int(seed), variant)


def load_state(data: dict[str, Any]) -> State:
    """Rebuild any game's state from :meth:`State.to_dict` output."""
    if not isinstance(data, dict) or "game" not in data:
        raise RecordError("a saved state must be an object with a 'game'")
    return get_game(data["game"]).state_class.from_dict(data)


__all__ = ["Action", "Choose", "Drop", "Game", "GameError", "IllegalActionError", "Outcome",
           "Pass", "Place", "Player", "RecordError", "REGISTRY", "State", "Verdict",
           "action_from_dict", "action_to_dict", "game_names", "get_game", "load_state",
           "new_game"]
