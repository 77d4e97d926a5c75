"""The random bot: legal actions only, drawn from its own seeded generator."""
from __future__ import annotations

import math

import numpy as np

from balance3d.bots import bot_rng, make_bot
from balance3d.bots.random_bot import HEIGHT_MAX, HEIGHT_MIN, random_drop
from balance3d.games import new_game
from balance3d.games.base import POSES, Drop, action_to_dict


def _play(seed: int, actions: int) -> list[dict]:
    """Up to ``actions`` actions of a 2-player game between random bots, checking
    each one is legal before it is applied; returns them as dicts."""
    state = new_game("tilted", players=2, seed=seed)
    bots = [make_bot("random", seed, seat) for seat in range(2)]
    played = []
    while not state.is_over and len(played) < actions:
        decisions = state.legal_decisions()
        action = bots[state.current_player].choose(state)
        assert state.is_legal(action) == (True, "")
        if isinstance(action, Drop):
            assert not decisions
            assert action.piece in state.legal_pieces()
            region, = state.release_area()["regions"]
            (x0, y0), (x1, y1) = np.min(region["polygon"], 0), np.max(region["polygon"], 0)
            assert x0 <= action.x <= x1 and y0 <= action.y <= y1
            assert HEIGHT_MIN <= action.height <= HEIGHT_MAX
            assert 0.0 <= action.yaw < math.pi and action.pose in POSES
        else:
            assert action in decisions
        state.apply(action)
        played.append(action_to_dict(action))
    return played


def test_random_bot_plays_only_legal_actions_and_repeats_itself_per_seed():
    first = _play(seed=11, actions=12)
    assert len(first) == 12
    assert any(a["type"] == "drop" for a in first)
    assert first == _play(seed=11, actions=12)
    assert first != _play(seed=12, actions=12)


def test_each_seat_has_its_own_stream_and_draws_cover_every_choice():
    state = new_game("tilted", players=2, seed=3)
    assert random_drop(state, bot_rng(3, 0)) != random_drop(state, bot_rng(3, 1))
    assert random_drop(state, bot_rng(3, 0)) == random_drop(state, bot_rng(3, 0))
    rng = bot_rng(3, 0)
    draws = [random_drop(state, rng) for _ in range(300)]
    assert {d.pose for d in draws} == set(POSES)
    assert {d.piece for d in draws} == set(state.legal_pieces())
    heights = [d.height for d in draws]
    assert HEIGHT_MIN <= min(heights) < HEIGHT_MIN + 0.005
    assert HEIGHT_MAX - 0.005 < max(heights) <= HEIGHT_MAX


def test_when_every_random_drop_is_refused_the_bot_plays_the_drop_the_game_finds(monkeypatch):
    from balance3d.bots import random_bot
    state = new_game("tilted", players=2, seed=3)
    outside = Drop(state.legal_pieces()[0], 5.0, 5.0, 0.01)      # far off the beam
    assert not state.is_legal(outside)[0]
    monkeypatch.setattr(random_bot, "random_drop", lambda state, rng: outside)
    action = make_bot("random", 3, state.current_player).choose(state)
    assert action == state.legal_release() and state.is_legal(action) == (True, "")
