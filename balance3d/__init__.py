"""balance3d: a true-3D physics simulator for balance and stacking table games.

The core (meshes, physics, scenes, games, bots, command line) needs no display; the
Panda3D front end is imported only when asked for.  ``balance3d.new_game``,
``balance3d.get_game`` and ``balance3d.load_scene`` are loaded on first use so
``import balance3d`` stays light.
"""
from __future__ import annotations

__version__ = "0.2.0"

_LAZY = {
    "new_game": ("balance3d.games", "new_game"),
    "load_state": ("balance3d.games", "load_state"),
    "get_game": ("balance3d.games", "get_game"),
    "game_names": ("balance3d.games", "game_names"),
    "load_scene": ("balance3d.scene", "load_scene"),
    "World": ("balance3d.physics", "World"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'balance3d' has no attribute {name!r}")


__all__ = ["__version__", *_LAZY]
