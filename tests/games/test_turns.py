"""Running turns: a physical action played step by step ends in exactly the verdict
``apply`` gives, each step is computed when asked for, and the state refuses
anything else while a turn runs."""
from __future__ import annotations

import json

import numpy as np
import pytest

from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import Choose, Drop, GameError, IllegalActionError, load_state, new_game
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame
from balance3d.physics.world import InvalidStateError

SEED = 5


def _record(step_by_step: bool, actions: int = 8) -> str:
    """The record of the first ``actions`` actions of a 2-player random game, each
    action applied whole or advanced one time step at a time (reading every body's
    pose after each step)."""
    state = new_game("tilted", players=2, seed=SEED, bots=["random", "random"])
    bots = [make_bot("random", SEED, seat) for seat in range(2)]
    recorder = rec.Recorder(state)
    for _ in range(actions):
        if state.is_over:
            break
        action = bots[state.current_player].choose(state)
        if not step_by_step:
            recorder.apply(action)
            continue
        turn = recorder.begin(action)
        while not turn.done:
            assert turn.verdict is None
            assert set(turn.poses()) == set(state.world.names)
            turn.advance(1)
    return rec.dumps(recorder.record())


def test_records_made_frame_by_frame_and_by_apply_are_byte_identical():
    whole = _record(step_by_step=False)
    assert '"type": "drop"' in whole
    assert _record(step_by_step=True) == whole


def _drop_on_the_high_side(state: TiltedState) -> Drop:
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(-state.low_end * 0.15, 0.0, frame.half[2])])[0]
    return Drop(state.hand(state.current_player)[0], float(x), float(y), 0.02)


def test_one_step_moves_the_clock_by_one_time_step_and_leaves_no_verdict():
    state = TiltedState.arranged(2, seed=1, low_end=+1, first=0)
    drop = _drop_on_the_high_side(state)
    turn = state.begin(drop)
    dt = state.world.settings.time_step
    g = state.world.settings.gravity
    start = state.world.time
    z0 = turn.poses()[drop.piece][0][2]
    turn.advance(1)
    assert state.world.time - start == pytest.approx(dt, rel=1e-9)
    assert turn.verdict is None and not turn.done and state.history == []
    # Released at rest, the block has fallen freely for one step: semi-implicit
    # Euler moves it g dt^2 (the exact fall, g dt^2 / 2, is a lower bound).
    fallen = z0 - turn.poses()[drop.piece][0][2]
    assert 0.5 * g * dt ** 2 <= fallen <= 1.0001 * g * dt ** 2
    # advance_time(s) runs round(s / dt) more steps
    turn.advance_time(10 * dt)
    assert state.world.time - start == pytest.approx(11 * dt, rel=1e-9)
    verdict = turn.run()
    assert turn.done and turn.verdict is verdict
    assert state.history[-1]["verdict"] == verdict.to_dict()


def test_a_stepped_drop_ends_with_the_verdict_apply_gives():
    state = TiltedState.arranged(2, seed=1, low_end=+1, first=0)
    drop = _drop_on_the_high_side(state)
    other = state.clone()
    turn = state.begin(drop)
    steps = 0
    while turn.advance(1) is None:
        steps += 1
    assert steps > 10
    assert turn.verdict == other.apply(drop)
    assert state.to_json() == other.to_json()


def test_the_state_refuses_other_actions_and_saving_while_a_turn_runs():
    state = TiltedState.arranged(2, seed=1, low_end=+1, first=0)
    drop = _drop_on_the_high_side(state)
    turn = state.begin(drop)
    assert state.running is turn
    ok, reason = state.is_legal(drop)
    assert not ok and "a turn is running" in reason
    with pytest.raises(IllegalActionError, match="a turn is running"):
        state.apply(Choose("buy", True))
    with pytest.raises(IllegalActionError, match="a turn is running"):
        state.begin(drop)
    with pytest.raises(GameError, match="while a turn runs"):
        state.clone()
    turn.run()
    assert state.running is None
    assert state.is_legal(drop)[0] is False    # the block is on the beam now
    state.clone()


def test_a_decision_gives_an_already_finished_turn():
    state = TiltedState.arranged(2, seed=1, low_end=+1, first=0, coins=[5, 5])
    state.apply(_drop_on_the_high_side(state))
    assert state.phase == "buy"
    start = state.world.time
    turn = state.begin(Choose("buy", False))
    assert turn.done and turn.verdict.buy is False and state.running is None
    assert turn.advance(5) is turn.verdict and state.world.time == start
    assert np.all([len(p) == 2 for p in turn.poses().values()])


def test_a_cancelled_turn_or_a_failing_step_leaves_the_state_as_before(monkeypatch):
    state = TiltedState.arranged(2, seed=1, low_end=+1, first=0)
    drop = _drop_on_the_high_side(state)
    before = state.to_json()
    start = state.world.time
    turn = state.begin(drop)
    turn.advance(30)
    turn.cancel()
    assert state.running is None and not turn.done and state.to_json() == before
    assert state.world.time == start and drop.piece not in state.world.names
    turn = state.begin(drop)
    turn.advance(5)

    def broken(n: int = 1) -> None:
        raise InvalidStateError("body 'x' has a non-finite pose")

    monkeypatch.setattr(state.world, "step", broken)
    with pytest.raises(InvalidStateError):
        turn.advance(1)
    monkeypatch.undo()
    assert state.running is None and state.to_json() == before
    # and it plays on as a copy saved before the action does
    assert state.apply(drop) == load_state(json.loads(before)).apply(drop)
