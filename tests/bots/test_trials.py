"""Trials in trial copies: a copy plays an action to the verdict a clone gives it
(physics is deterministic), leaves the state as it was, and reuses its thread's
scratch World; the Tower planner, trying its drops that way and checking no more
legality than it tries, chooses exactly what it chose trying each drop in a clone
after checking every candidate."""
from __future__ import annotations

import pytest

from balance3d.bots import make_bot
from balance3d.bots.trials import scratch_world, try_action
from balance3d.games import Drop, GameError, new_game
from balance3d.games.base import action_to_dict
from balance3d.games.tower.planner import MAX_TRIALS, PlannerBot, stands

#: Actions of a seeded 2-player Tower planner game played before the states tried
#: here (the towers then hold a few pieces each), and how many actions are compared.
SETUP_ACTIONS, COMPARED_ACTIONS = 6, 10


class CloneTrials(PlannerBot):
    """The planner trying drops the way it did before trial copies: every
    candidate's legality checked first, each trial in ``state.clone()``."""

    def legal_candidates(self, state, candidates=None):
        return [d for d in self.candidates(state) if state.is_legal(d)[0]][:MAX_TRIALS]

    @staticmethod
    def trial(state, drop):
        return stands(state.clone().apply(drop))


def played(actions: int):
    """A 2-player Tower game of planners after ``actions`` actions, and its bots."""
    state = new_game("tower", players=2, seed=0)
    bots = [make_bot("planner", 0, seat, "tower") for seat in range(2)]
    for _ in range(actions):
        state.apply(bots[state.current_player].choose(state))
    return state, bots


def drop_phase(state, bots):
    """``state`` played on by ``bots`` to the next drop."""
    while state.legal_decisions():
        state.apply(bots[state.current_player].choose(state))
    return state


@pytest.fixture(scope="module")
def mid_game():
    state, bots = played(SETUP_ACTIONS)
    return drop_phase(state, bots), bots


def test_a_trial_copy_gets_the_clones_verdict_and_leaves_the_state(mid_game):
    state, bots = mid_game
    drop = next(bots[state.current_player].legal_candidates(state))
    before = state.to_json()
    in_clone = state.clone().apply(drop).to_dict()
    assert try_action(state, drop).to_dict() == in_clone
    assert try_action(state, drop).to_dict() == in_clone   # the scratch World was dirty
    assert state.to_json() == before


def test_a_trial_copy_plays_on_as_the_clone(mid_game):
    state, bots = mid_game
    drop = next(bots[state.current_player].legal_candidates(state))
    clone, copy = state.clone(), state.trial_copy(scratch_world(state))
    clone.apply(drop)
    copy.apply(drop)
    assert copy.table_dict() == clone.table_dict()
    # it starts with no history or events: it holds only this action's
    assert copy.history == clone.history[len(state.history):]
    assert ([e.to_dict() for e in copy.events]
            == [e.to_dict() for e in clone.events[len(state.events):]])


def test_the_scratch_world_is_kept_per_thread_and_scene(mid_game):
    state, _ = mid_game
    world = scratch_world(state)
    assert scratch_world(state.clone()) is world          # the same scene object
    other = new_game("tilted", players=2, seed=0)
    assert scratch_world(other) is not world
    assert scratch_world(state) is not world              # one scene at a time


def test_no_trial_copy_while_a_turn_runs(mid_game):
    state, bots = mid_game
    twin = state.clone()
    turn = twin.begin(next(bots[twin.current_player].legal_candidates(twin)))
    with pytest.raises(GameError, match="while a turn runs"):
        twin.trial_copy(scratch_world(twin))
    turn.cancel()


def test_the_planner_checks_the_legality_of_no_more_drops_than_it_tries(monkeypatch,
                                                                        mid_game):
    state, bots = mid_game
    bot = bots[state.current_player]
    every = [d for d in bot.candidates(state) if state.is_legal(d)[0]]
    checked = []
    is_legal = type(state).is_legal

    def counted(self, action):
        checked.append(action)
        return is_legal(self, action)
    monkeypatch.setattr(type(state), "is_legal", counted)
    legal = list(bot.legal_candidates(state))
    assert legal == every[:MAX_TRIALS]
    assert checked == bot.candidates(state)[:len(checked)]   # in order, then stops
    assert checked[-1] == legal[-1] or len(legal) < MAX_TRIALS


def test_the_planner_chooses_what_it_chose_trying_in_clones():
    state, bots = played(0)
    old = [CloneTrials(0, seat) for seat in range(2)]
    drops = 0
    for _ in range(COMPARED_ACTIONS):
        seat = state.current_player
        chosen = bots[seat].choose(state)
        assert action_to_dict(old[seat].choose(state)) == action_to_dict(chosen)
        drops += isinstance(chosen, Drop)
        state.apply(chosen)
    assert drops >= COMPARED_ACTIONS // 2
