"""The environments against the game API: the mask is ``State.is_legal``, illegal
attempts, seats out, rewards and the attempts cap."""
import numpy as np
import pytest

import balance3d.envs as envs
from balance3d.envs.aec import ILLEGAL_REWARD

#: Actions played per game while the masks are compared.
MASK_STEPS = 5


def raw(game, **kwargs):
    return getattr(envs, f"{game}_v0").raw_env(grid_points=2, grid_yaws=1, **kwargs)


@pytest.mark.parametrize("game,variant,players", [("tilted", "advanced", 2),
                                                  ("tribalance", "basic", 2),
                                                  ("tower", "basic", 2)])
def test_mask_agrees_with_is_legal_on_every_entry(game, variant, players):
    env = raw(game, variant=variant, players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen_drop = False
    for _ in range(MASK_STEPS):
        if not env.agents or env.state.is_over:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        enc, state = env.encoding, env.state
        expected = np.array([state.is_legal(enc.discrete(state, i))[0]
                             for i in range(enc.n_discrete)], dtype=np.int8)
        assert np.array_equal(mask, expected)
        seen_drop |= bool(mask[:enc.n_drops].any())
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen_drop


#: (game, variant, seed, policy, steps at most, refusal codes the masks must meet):
#: a drop asked while a decision is due and the reverse, bids above the coins held,
#: blocks of lengths not held (Tilted); pieces not held, a level closed by a piece
#: above it, a decision value not on offer (Tower); taken fields (Tri-Ba-Lance).
REASON_CASES = [
    ("tilted", "advanced", 3, "random", 12, {"drop_asked", "decision_asked", "bid_high",
                                             "not_yours"}),
    ("tower", "basic", 3, "random", 14, {"drop_asked", "decision_asked", "decision_value",
                                         "not_yours", "level_closed"}),
    ("tribalance", "basic", 3, "first", 4, {"field_taken"}),
]


@pytest.mark.parametrize("game,variant,seed,policy,steps,codes", REASON_CASES)
def test_the_mask_agrees_with_is_legal_where_entries_are_illegal_for_different_reasons(
        game, variant, seed, policy, steps, codes):
    env = raw(game, variant=variant, players=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen: set[str] = set()
    for _ in range(steps):
        if env.state.is_over or codes <= seen:
            break
        enc, state = env.encoding, env.state
        verdicts = [state.is_legal(enc.discrete(state, i)) for i in range(enc.n_discrete)]
        mask = env.observe(env.agent_selection)["action_mask"]
        assert mask.tolist() == [int(ok) for ok, _ in verdicts]
        seen |= {reason.code for ok, reason in verdicts if not ok}
        legal = np.flatnonzero(mask)
        env.step(int(rng.choice(legal) if policy == "random" else legal[0]))
    assert codes <= seen


def test_an_illegal_attempt_gives_the_reason_a_penalty_and_the_same_agent():
    env = raw("tilted", action_mode="continuous")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.state.to_json()
    # a 1u block released 0.5 m off the beam, to the side: not over its high half
    env.step({"choice": 0, "release": np.array([0.0, 0.5, 0.0, 0.01])})
    assert env.agent_selection == agent
    assert "illegal" in env.infos[agent] and env.infos[agent]["illegal"]
    assert env._cumulative_rewards[agent] == ILLEGAL_REWARD
    assert env.state.to_json() == before
    assert env.attempts == 1


def test_a_seat_that_passes_out_terminates_alone():
    env = raw("tribalance", players=3)
    env.reset(seed=1)
    first = env.agent_selection
    env.step(env.encoding.n_drops + env.encoding.decisions.index("pass"))
    assert env.terminations[first]
    assert not any(env.terminations[a] for a in env.agents if a != first)
    # each player of 3 holds weights 1-4 twice and 5 once; held weight counts against
    assert env._cumulative_rewards[first] == -(2 * (1 + 2 + 3 + 4) + 5)
    env.step(None)
    assert first not in env.agents and len(env.agents) == 2
    assert env.agent_selection == env.possible_agents[env.state.current_player]


def test_final_rewards_are_the_scores_when_everyone_passes():
    env = raw("tribalance", players=2)
    env.reset(seed=2)
    total = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        total[agent] = total.get(agent, 0.0) + reward
        env.step(None if terminated or truncated else env.encoding.n_drops)
    # 2 players hold weights 1-4 three times and 5 once: -(3 * 10 + 5) points each
    assert total == {"player_0": -35.0, "player_1": -35.0}


def test_per_turn_rewards_follow_the_score_changes():
    env = raw("tribalance", players=2, rewards="per_turn")
    env.reset(seed=2)
    agent = env.agent_selection
    seat = env.agent_name_mapping[agent]
    place = env.state.legal_release()
    env.play(place)
    field = env.state.rules.fields[place.field]
    weight = int(place.piece.split("w-")[0])
    assert ": valid" in env.infos[agent]["verdict"]
    # a placed piece counts weight x field number and no longer its weight held
    assert env._cumulative_rewards[agent] == weight * field.number + weight
    assert env.state.scores[seat] == -35 + weight * field.number + weight


def test_max_cycles_truncates_every_live_agent_after_that_many_attempts():
    env = raw("tilted", players=3, action_mode="continuous", max_cycles=3)
    env.reset(seed=4)
    for k in range(3):
        assert not any(env.truncations.values())
        env.step({"choice": 0, "release": np.array([0.0, 0.5, 0.0, 0.01])})
    assert all(env.truncations.values()) and len(env.truncations) == 3
    while env.agents:
        env.step(None)


def test_bids_are_capped_at_the_scenes_coins():
    env = raw("tilted", variant="advanced")
    bids = [d for d in env.encoding.decisions if d.startswith("bid:")]
    assert bids[-1] == f"bid:{env.state.rules.coins}" and bids[0] == "bid:1"


def test_the_observation_has_the_layout_size_and_the_seats():
    env = raw("tower", players=3)
    env.reset(seed=0)
    obs = env.observe("player_2")["observation"]
    assert obs.shape == (2 * 3 + env.encoding.layout.size,)
    assert list(obs[:3]) == [0.0, 0.0, 1.0]
    assert obs[3 + env.state.current_player] == 1.0
    assert env.observation_space("player_2")["observation"].contains(obs)


def test_play_acts_for_the_current_player_while_a_terminated_agent_is_selected():
    env = raw("tribalance", players=3)
    env.reset(seed=1)
    env.step(env.encoding.n_drops + env.encoding.decisions.index("pass"))
    assert env.agent_selection == "player_0" and env.terminations["player_0"]
    env.play(env.state.legal_release())   # the Gymnasium env plays bots like this
    assert "verdict" in env.infos["player_1"] and "verdict" not in env.infos["player_0"]
    assert env.state.current_player == 2


@pytest.mark.parametrize("game", ["tilted", "tribalance", "tower"])
def test_the_state_observation_holds_the_vector_s_numbers_by_field(game):
    vector_env, state_env = raw(game), raw(game, observation_mode="state")
    for env in (vector_env, state_env):
        env.reset(seed=2)
    agent = vector_env.agent_selection
    vector = vector_env.observe(agent)["observation"]
    fields = state_env.observe(agent)["observation"]
    assert state_env.observation_space(agent).contains(state_env.observe(agent))
    # the seats first, then the layout's fields in order, flattened: the vector
    keys = ["observer", "acting", *(f[0] for f in state_env.encoding.layout.fields)]
    assert list(fields) == keys
    assert np.array_equal(np.concatenate([fields[k].ravel() for k in keys]), vector)


def test_the_state_observation_names_the_tilted_beam_coins_and_phase():
    env = raw("tilted", players=3, observation_mode="state")
    env.reset(seed=4)
    fields = env.observe(env.agent_selection)["observation"]
    state = env.state
    position, orientation = state.world.pose("beam")
    assert np.array_equal(fields["beam"][0], np.concatenate([[1.0], position, orientation]))
    assert fields["coins"].tolist() == [float(c) for c in state.scores]
    assert fields["observer"].tolist() == fields["acting"].tolist()
    assert fields["acting"][state.current_player] == 1.0 and fields["acting"].sum() == 1.0
    phases = [p.value for p in type(state.phase)]
    assert fields["phase"].tolist() == [float(p == state.phase.value) for p in phases]
