"""The Gymnasium ids: Gymnasium's own checker, seeding byte for byte, a named bot
as the opponents, and AsyncVectorEnv."""
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import balance3d.envs
from balance3d.games import game_names

IDS = [balance3d.envs.gym_id(g) for g in game_names()]
#: attempts per episode here (Tower's first turn may take several drops).
MAX_CYCLES = 30
SMALL = {"grid_points": 1, "grid_yaws": 1, "max_cycles": MAX_CYCLES}


def test_the_ids_are_registered_on_import():
    assert sorted(IDS) == ["balance3d/Tilted-v0", "balance3d/Tower-v0",
                           "balance3d/Tribalance-v0"]
    for env_id in IDS:
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("mode", ["discrete", "continuous"])
@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes(env_id, mode):
    env = gymnasium.make(env_id, action_mode=mode, opponents="random", **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # advice on Box ranges, not errors
        check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_with_the_state_observation(env_id):
    env = gymnasium.make(env_id, observation_mode="state", opponents="random", **SMALL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)


def _episode_bytes(env, seed, steps):
    obs, _ = env.reset(seed=seed)
    out = [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, _ = env.step(action)
        out += [obs["observation"].tobytes(), np.float64(reward).tobytes()]
        if terminated or truncated:
            break
    return out


def test_reset_with_a_seed_replays_the_episode_byte_for_byte():
    first = gymnasium.make("balance3d/Tribalance-v0", opponents="random", **SMALL)
    second = gymnasium.make("balance3d/Tribalance-v0", opponents="random", **SMALL)
    a = _episode_bytes(first, 5, 3)
    assert a == _episode_bytes(second, 5, 3)
    assert a == _episode_bytes(first, 5, 3)       # again, after another episode


def test_the_planner_plays_the_other_seats():
    env = gymnasium.make("balance3d/Tilted-v0", players=2, **SMALL)
    env.reset(seed=7)
    aec = env.unwrapped.aec
    assert env.unwrapped.opponents == "planner"
    assert aec.state.current_player == 0
    # the planner's seat moved first when the dice gave it the first turn
    assert all(h["player"] == 1 for h in aec.state.history)


def test_async_vector_env_gives_each_worker_its_seed():
    make = [lambda: gymnasium.make("balance3d/Tribalance-v0", opponents="random", **SMALL)
            for _ in range(2)]
    vector = gymnasium.vector.AsyncVectorEnv(make)
    try:
        obs, _ = vector.reset(seed=[11, 12])
    finally:
        vector.close()
    single = gymnasium.make("balance3d/Tribalance-v0", opponents="random", **SMALL)
    for i, seed in enumerate((11, 12)):
        expected, _ = single.reset(seed=seed)
        assert obs["observation"][i].tobytes() == expected["observation"].tobytes()


def test_a_seeded_reset_starts_the_game_simulate_starts():
    from balance3d.games import new_game
    env = gymnasium.make("balance3d/Tribalance-v0", players=3, opponents="random", **SMALL)
    env.reset(seed=9)
    assert env.unwrapped.aec.state.to_json() == new_game("tribalance", players=3,
                                                         seed=9).to_json()


def test_passing_out_ends_the_agents_episode_with_its_score():
    env = gymnasium.make("balance3d/Tribalance-v0", players=3, opponents="random", **SMALL)
    obs, _ = env.reset(seed=1)
    enc = env.unwrapped.aec.encoding
    _, reward, terminated, truncated, info = env.step(enc.n_drops + enc.decisions.index("pass"))
    assert terminated and not truncated and "out" in info["verdict"]
    # each of 3 players holds weights 1-4 twice and 5 once, all counted against it
    assert reward == -(2 * (1 + 2 + 3 + 4) + 5)
