"""The PettingZoo-style module of each registered game, ``balance3d.envs.<game>_v0``,
with ``raw_env`` (the :class:`~balance3d.envs.aec.BalanceEnv` of the game) and
``env(**kwargs)`` (it, wrapped as PettingZoo's classic environments are)."""
from __future__ import annotations

import sys
import types
from typing import Any

from pettingzoo.utils import wrappers

from balance3d.envs.aec import RENDER_MODES, BalanceEnv
from balance3d.games import game_names, get_game

#: The version suffix of the environments' names.
VERSION = "v0"


def env_class(game: str) -> type[BalanceEnv]:
    """The AEC environment class of the registered game ``game``."""
    title = get_game(game).display_name.replace("-", "")
    return type(f"{title}Env", (BalanceEnv,), {
        "game_name": game, "__module__": f"balance3d.envs.{game}_{VERSION}",
        "metadata": {"render_modes": list(RENDER_MODES), "name": f"{game}_{VERSION}",
                     "is_parallelizable": False, "render_fps": 2}})


def game_module(game: str) -> types.ModuleType:
    """The module ``balance3d.envs.<game>_v0``: ``raw_env`` and ``env``."""
    raw_env = env_class(game)

    def env(**kwargs: Any):
        """The game's environment, wrapped: an out-of-bounds discrete action is an
        error and the order of calls is checked (PettingZoo's wrappers)."""
        made = raw_env(**kwargs)
        if made.action_mode == "discrete":
            made = wrappers.AssertOutOfBoundsWrapper(made)
        return wrappers.OrderEnforcingWrapper(made)

    name = f"balance3d.envs.{game}_{VERSION}"
    module = types.ModuleType(name, f"The {get_game(game).display_name} environment "
                                    f"(PettingZoo AEC): ``raw_env`` and ``env``.")
    module.raw_env, module.env = raw_env, env
    setattr(module, raw_env.__name__, raw_env)
    env.__module__ = name
    return module


def install() -> dict[str, types.ModuleType]:
    """Make every game's module importable (``sys.modules``); name -> module."""
    made = {}
    for game in game_names():
        module = game_module(game)
        sys.modules[module.__name__] = module
        made[module.__name__.rsplit(".", 1)[1]] = module
    return made
