"""A drop tried to its end and kept is adopted when played: the game it gives is
the game playing it gives, bit for bit, without its physics run again.

The Tower planner keeps the trial of the drop it plays
(:meth:`~balance3d.games.tower.state.TowerState.keep_trial`);
:meth:`~balance3d.games.tower.state.TowerState.apply` of that drop on the unchanged
state adopts it.  A planner game whose trials are kept saves the same record as one
whose drops are all played out; a drop adopted steps no World; a kept trial that
does not fit the state (another drop, or the game changed since) is not adopted.
A trial its reading ended early is kept when asked (the planner plays the last
drop it tried when none stood) unless another trial has begun since.
"""
from __future__ import annotations

import pytest

from balance3d.bots.trials import _THREAD, keep_last_trial, try_action
from balance3d.games import Drop, new_game
from balance3d.games.tower import rays
from balance3d.games.tower.planner import PlannerBot, TrialReading, stands
from balance3d.physics.world import World

#: Actions of the seeded 2-player planner games compared.
ACTIONS = 24


class PlayedOut(PlannerBot):
    """The planner with no trial kept: every drop is played out when applied."""

    @staticmethod
    def trial(state, drop):
        answer = try_action(state, drop, TrialReading(state, drop))
        return answer if isinstance(answer, bool) else stands(answer)


def game(bot: type[PlannerBot], actions: int = ACTIONS):
    state = new_game("tower", players=2, seed=4)
    bots = [bot(4, seat) for seat in range(2)]
    for _ in range(actions):
        if state.is_over:
            break
        state.apply(bots[state.current_player].choose(state))
    return state, bots


@pytest.fixture
def steps(monkeypatch) -> dict[str, int]:
    """Time steps taken by Worlds other than this thread's scratch World."""
    counted = {"steps": 0}
    step = World.step

    def counting(world, n=1):
        if world is not getattr(_THREAD, "world", None):
            counted["steps"] += n
        return step(world, n)

    monkeypatch.setattr(World, "step", counting)
    return counted


def test_a_game_of_kept_trials_is_the_game_played_out():
    kept, _ = game(PlannerBot)
    out, _ = game(PlayedOut)
    assert sum(isinstance(v, dict) and v.get("kind") == "TowerDropVerdict"
               for v in (h["verdict"] for h in kept.history)) >= 8
    assert kept.to_json() == out.to_json()


def drop_ahead(bot, state):
    """``state`` played on by ``bot`` to the next drop."""
    while state.legal_decisions():
        state.apply(bot.choose(state))
    return state


def test_the_drop_played_is_adopted_without_physics(steps):
    state, bots = game(PlannerBot, 6)
    drop_ahead(bots[state.current_player], state)
    drop = bots[state.current_player].choose(state)
    assert isinstance(drop, Drop)
    expected = state.clone().apply(drop).to_dict()
    steps["steps"] = 0
    verdict = state.apply(drop)
    assert steps["steps"] == 0
    assert verdict.to_dict() == expected
    assert rays.placed_as(state.world, state._snapshot)


def test_a_kept_trial_that_does_not_fit_is_not_adopted(steps):
    state, bots = game(PlannerBot, 6)
    drop_ahead(bots[state.current_player], state)
    drop = bots[state.current_player].choose(state)
    other = Drop(drop.piece, drop.x + 0.002, drop.y, drop.height, drop.yaw, drop.pose)
    assert state.is_legal(other)[0]
    twin = state.clone()
    steps["steps"] = 0
    assert state.apply(other).to_dict() == twin.apply(other).to_dict()
    assert steps["steps"] > 0
    assert state.to_json() == twin.to_json()


def test_a_kept_trial_is_not_adopted_once_the_game_changed(steps):
    state, bots = game(PlannerBot, 6)
    drop_ahead(bots[state.current_player], state)
    seat = state.current_player
    drop = bots[seat].choose(state)
    state.load_dice(("play 1", "letter"))
    twin = state.clone()
    steps["steps"] = 0
    assert state.apply(drop).to_dict() == twin.apply(drop).to_dict()
    assert steps["steps"] > 0
    assert state.to_json() == twin.to_json()


def ends_at_once(world) -> bool:
    """A trial reading that ends the trial at its first reading."""
    return False


def test_a_trial_ended_early_is_kept_when_asked(steps):
    state, bots = game(PlannerBot, 6)
    drop_ahead(bots[state.current_player], state)
    drop = next(bots[state.current_player].legal_candidates(state))
    assert try_action(state, drop, ends_at_once) is False
    assert keep_last_trial(state, drop)
    expected = state.clone().apply(drop).to_dict()
    steps["steps"] = 0
    assert state.apply(drop).to_dict() == expected
    assert steps["steps"] == 0


def test_a_trial_is_not_kept_once_another_began(steps):
    state, bots = game(PlannerBot, 6)
    drop_ahead(bots[state.current_player], state)
    first, second, *_ = [*bots[state.current_player].legal_candidates(state), None]
    assert second is not None
    try_action(state, first, ends_at_once)
    try_action(state, second, ends_at_once)
    assert not keep_last_trial(state, first)
    twin = state.clone()
    steps["steps"] = 0
    assert state.apply(first).to_dict() == twin.apply(first).to_dict()
    assert steps["steps"] > 0
