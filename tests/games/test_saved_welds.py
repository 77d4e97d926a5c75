"""A saved game carries the World's welds: a game saved and loaded mid-way, or
cloned mid-way, plays on byte-identically to the game played straight through, and
a record keeps the World after every turn, welds included."""
from __future__ import annotations

import json

import pytest

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import RecordError, load_state, new_game

SEED = 3
#: Actions of the straight game; the copies are made after SAVED_AFTER of them.
ACTIONS, SAVED_AFTER = 14, 7


def straight_game():
    """A 2-player random Tilted game played for :data:`ACTIONS` actions: its
    recorder, the actions played and its saved state after :data:`SAVED_AFTER`."""
    state = new_game("tilted", players=2, seed=SEED, bots=["random", "random"])
    bots = [make_bot("random", SEED, seat) for seat in range(2)]
    recorder = rec.Recorder(state)
    actions, middle = [], None
    while len(actions) < ACTIONS and not state.is_over:
        if len(actions) == SAVED_AFTER:
            middle = state.to_json()
        actions.append(bots[state.current_player].choose(state))
        recorder.apply(actions[-1])
    assert len(actions) == ACTIONS, "the game must last past the saved turn"
    return recorder, actions, middle


@pytest.fixture(scope="module")
def straight():
    return straight_game()


def test_the_saved_state_holds_welded_bodies(straight):
    _, _, middle = straight
    welds = json.loads(middle)["world"]["welds"]
    assert welds["welded"], "mid-game, bodies at rest are welded"
    assert welds["contacts"], "with the contacts of their welded pairs"


def test_loaded_and_cloned_games_play_on_byte_identically(straight):
    recorder, actions, middle = straight
    loaded = load_state(json.loads(middle))
    assert loaded.to_json() == middle, "loading gives back the saved state, welds included"
    cloned = loaded.clone()
    for action in actions[SAVED_AFTER:]:
        loaded.apply(action)
        cloned.apply(action)
    assert loaded.to_json() == recorder.state.to_json()
    assert cloned.to_json() == recorder.state.to_json()


def test_a_record_keeps_the_world_with_its_welds_after_every_turn(straight):
    recorder, _, middle = straight
    record = rec.parse_record(json.loads(rec.dumps(recorder.record())))
    assert record.data["format"] == rec.FORMAT == 3
    assert record.table(SAVED_AFTER)["world"]["welds"] == json.loads(middle)["world"]["welds"]
    restored = playing.restore(record, playing.record_scene(record), after=SAVED_AFTER)
    assert restored.to_json() == middle


def test_a_state_saved_without_welds_loads_and_welds_from_scratch(straight):
    """The layout before welds were saved: the world is welded again when restored,
    and plays on to the same state."""
    recorder, actions, middle = straight
    data = json.loads(middle)
    del data["world"]["welds"]
    loaded = load_state(data)
    assert loaded.world.welded_names == []
    for action in actions[SAVED_AFTER:]:
        loaded.apply(action)
    assert json.loads(loaded.to_json())["history"] == json.loads(
        recorder.state.to_json())["history"]


@pytest.mark.parametrize("change, words", [
    (lambda w: w["welded"].append("ghost"), "'ghost'"),
    (lambda w: w["contacts"][0]["normal"].pop(), "normal"),
    (lambda w: w["contacts"][0].pop("force"), "force"),
])
def test_malformed_saved_welds_are_refused_in_one_line(straight, change, words):
    data = json.loads(straight[2])
    change(data["world"]["welds"])
    with pytest.raises(RecordError, match=words) as info:
        load_state(data)
    assert "\n" not in str(info.value)
