"""PettingZoo's own API and seed tests on every game, variant and action mode.

Short episodes keep them cheap: a coarse grid (2 points, 1 yaw) and a cap of
``MAX_CYCLES`` attempts, which the suites see as a truncation of every agent."""
import warnings

import pytest
from pettingzoo.test import api_test, seed_test

import balance3d.envs as envs
from balance3d.games import game_names, get_game

#: attempts per episode in these tests.
MAX_CYCLES = 3
#: cycles the suites play (the attempts cap ends every episode first).
CYCLES = 6
CASES = [(g, v, m) for g in game_names() for v in get_game(g).variants
         for m in ("discrete", "continuous")]


def make(game, variant, mode):
    module = getattr(envs, f"{game}_v0")

    def build(**kwargs):
        return module.env(variant=variant, action_mode=mode, max_cycles=MAX_CYCLES,
                          grid_points=1, grid_yaws=1, **kwargs)
    return build


@pytest.mark.parametrize("game,variant,mode", CASES)
def test_api_and_seed_tests_pass(game, variant, mode):
    build = make(game, variant, mode)
    with warnings.catch_warnings():
        # the suites warn about what they cannot know is intended (a Dict space)
        warnings.simplefilter("ignore")
        api_test(build(), num_cycles=CYCLES)
        seed_test(build, num_cycles=CYCLES)


@pytest.mark.parametrize("mode", ["discrete", "continuous"])
@pytest.mark.parametrize("game", game_names())
def test_api_and_seed_tests_pass_with_the_state_observation(game, mode):
    module = getattr(envs, f"{game}_v0")

    def build(**kwargs):
        return module.env(action_mode=mode, observation_mode="state", max_cycles=MAX_CYCLES,
                          grid_points=1, grid_yaws=1, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(build(), num_cycles=CYCLES)
        seed_test(build, num_cycles=CYCLES)


def test_every_registered_game_has_its_module():
    for game in game_names():
        module = getattr(envs, f"{game}_v0")
        assert module.raw_env.metadata["name"] == f"{game}_v0"
        assert callable(module.env)
