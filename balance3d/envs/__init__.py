"""Gymnasium and PettingZoo environments of every registered game (the ``envs``
extra: ``pip install 'balance3d[envs]'``).

- PettingZoo AEC: ``balance3d.envs.<game>_v0`` (``tilted_v0``, ...) with
  ``env(**kwargs)`` and ``raw_env`` (:mod:`balance3d.envs.aec`).
- Gymnasium: ``balance3d/<Game>-v0`` (``balance3d/Tilted-v0``, ...), registered
  on import of this package: one seat, the others played by a named bot
  (:mod:`balance3d.envs.single`).

The spaces, rewards, options and seeding are documented in
``docs/environments.md``.  Nothing here imports Panda3D until a frame is drawn.
"""
from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (the AEC environments' base)
except ImportError as exc:
    raise ImportError(f"balance3d.envs needs the envs extra (pip install "
                      f"'balance3d[envs]'): {exc}") from None

from balance3d.envs.modules import VERSION, install
from balance3d.games import game_names, get_game

_MODULES = install()
globals().update(_MODULES)


def gym_id(game: str) -> str:
    """The Gymnasium id of the registered game ``game`` (``balance3d/Tilted-v0``)."""
    return f"balance3d/{get_game(game).display_name.replace('-', '').capitalize()}-{VERSION}"


for _game in game_names():
    if gym_id(_game) not in gymnasium.registry:
        gymnasium.register(gym_id(_game), entry_point="balance3d.envs.single:SingleAgentEnv",
                           kwargs={"game": _game})

__all__ = ["gym_id", *_MODULES]
