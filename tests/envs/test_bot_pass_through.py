"""Whole games through the environments in continuous mode, each action the bots'
own, encoded into the action space and decoded back: the same game, bit for bit,
as the bots playing on the game's API (what ``balance3d simulate`` runs).  Short
games: solo Tilted, Tri-Ba-Lance, and Tower with 5 pieces a player."""
import pytest

import balance3d.envs as envs
from balance3d.bots import make_bot
from balance3d.games import new_game
from balance3d.scene import load_scene

SEED = 3
CASES = [
    ("tilted", {"variant": "solo", "players": 1}, "tilted-solo", None),
    ("tribalance", {"players": 2}, "tribalance", None),
    ("tower", {"players": 2}, "tower",
     {"rules.letters_per_player": 3, "rules.logos_per_player": 2}),
]


def simulated(game, options, scene, overrides):
    state = new_game(game, seed=SEED, scene=load_scene(scene, overrides), **options)
    bots = [make_bot("random", SEED, s, game) for s in range(len(state.players))]
    while not state.is_over:
        state.apply(bots[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("game,options,scene,overrides", CASES)
def test_the_bots_actions_passed_through_play_the_simulated_game(game, options, scene,
                                                                 overrides):
    expected = simulated(game, options, scene, overrides)
    env = getattr(envs, f"{game}_v0").raw_env(action_mode="continuous", scene=scene,
                                              scene_overrides=overrides, **options)
    env.reset(seed=SEED)
    bots = [make_bot("random", SEED, s, game) for s in range(env.n_players)]
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = bots[env.agent_name_mapping[agent]].choose(env.state)
        encoded = env.encoding.encode(env.state, action)
        assert env.action_space(agent).contains(encoded)
        assert env.observe(agent)["choice_mask"][encoded["choice"]] == 1
        assert env.decode(encoded) == action
        env.step(encoded)
        assert "illegal" not in env.infos.get(agent, {})
    assert env.state.outcome == expected.outcome
    assert env.state.to_json() == expected.to_json()
