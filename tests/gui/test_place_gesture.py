"""The place gesture on Tri-Ba-Lance: only the game's pieces can be picked; the field
under the pointer builds the Place; a taken field is refused with the game's own
reason and nothing changes; a legal release is exactly the Place a bot sends; and
the window picks this gesture from the game's action types."""
from __future__ import annotations

import numpy as np
import pytest
import shapely

from balance3d.games import new_game
from balance3d.games.base import Place
from balance3d.games.tribalance import TribalanceState
from balance3d.gui.gesture import DropGesture, GestureError
from balance3d.gui.place_gesture import NO_FIELD, PlaceGesture, gesture_for


def field_centre(state, field):
    """World (x, y) m of ``field``'s middle on the plate now (from its region)."""
    area = state.release_area()
    region, = [r for r in [*area["regions"], *area["taken"]] if r["field"] == field]
    c = shapely.Polygon(region["polygon"]).centroid
    return c.x, c.y


def test_the_window_picks_the_gesture_from_the_games_action_types():
    assert isinstance(gesture_for(new_game("tribalance", 2)), PlaceGesture)
    assert isinstance(gesture_for(new_game("tilted", 2)), DropGesture)


def test_an_opponents_piece_cannot_be_picked():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    other = state.hand(1)[0]
    with pytest.raises(GestureError) as info:
        gesture.pick(state, other)
    weight = other.split("w-")[0]
    assert str(info.value) == (f"That is Player 2's weight-{weight} piece: pick one of your own "
                               f"pieces from your tray.")
    assert f"{other!r} is not yours" in info.value.reason
    assert gesture.holding is None


def test_the_field_under_the_pointer_builds_its_place():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    piece = state.hand(0)[0]
    gesture.pick(state, piece)
    for field in (0, 7, 14):
        gesture.move(*field_centre(state, field))
        assert gesture.action() == Place(piece, field)
        assert gesture.check(state) == (True, "")
        # the readout names the field by its painted number, never its index
        number = state.rules.fields[field].number
        assert gesture.readout(state).startswith(f"over the {number} ")
        assert f"field {field}" not in gesture.readout(state)
    # off the plate: no field, no action, and the status says why
    gesture.move(0.0, -0.5)
    assert gesture.action() is None and gesture.readout(state) == ""
    assert gesture.check(state) == (False, NO_FIELD)
    with pytest.raises(GestureError, match=NO_FIELD):
        gesture.release(state)
    assert gesture.holding == piece


def test_a_taken_field_is_refused_with_the_games_reason_and_nothing_changes():
    state = TribalanceState.arranged(2, hands=[[1, 2], [1, 2]], first=0)
    field = 0                                   # the plate's middle field, painted 1
    first = state.hand(0)[0]
    state.apply(Place(first, field))
    gesture = PlaceGesture()
    piece = state.hand(1)[0]
    gesture.pick(state, piece)
    gesture.move(*field_centre(state, field))
    before = state.to_dict()
    ok, words = gesture.check(state)
    assert not ok and words.reason == state.is_legal(Place(piece, field))[1]
    assert words.reason == f"field {field} is taken by {first}"     # the log keeps the ids
    assert words == ("The 1 in the middle is taken (Player 1's weight-1 piece stands "
                     "there): point at a free field.")
    with pytest.raises(GestureError, match="The 1 in the middle is taken"):
        gesture.release(state)
    assert gesture.holding == piece and state.to_dict() == before


def test_a_legal_release_is_exactly_the_bots_place_and_goes_idle():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    piece = state.hand(0)[2]
    gesture.pick(state, piece)
    gesture.move(*field_centre(state, 9))
    place = gesture.release(state)
    assert place == Place(piece, 9) and type(place) is Place
    assert gesture.holding is None and gesture.action() is None
    verdict = state.apply(place)
    assert verdict.piece == piece and verdict.field == 9


def test_the_ghost_stands_upright_on_the_field_under_the_pointer():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    piece = state.hand(0)[0]
    gesture.pick(state, piece)
    x, y = field_centre(state, 4)
    gesture.move(x + 0.003, y - 0.002)          # inside the field, off its middle
    (px, py, pz), quat = gesture.ghost_pose(state)
    low = state.piece_part(piece).mesh.bounds[0][2]
    region, = [r for r in state.release_area()["regions"] if r["field"] == 4]
    assert (px, py) == pytest.approx((x, y), abs=1e-9)
    assert pz + low == pytest.approx(region["top_z"], abs=1e-12)
    assert np.allclose(quat, (0, 0, 0, 1))


def test_turning_standing_and_lifting_change_no_place():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    gesture.pick(state, state.hand(0)[0])
    gesture.move(*field_centre(state, 1))
    before = gesture.action()
    gesture.turn(3)
    gesture.cycle_pose()
    gesture.lift(2)
    assert gesture.action() == before


def test_cancel_goes_idle():
    state = TribalanceState.arranged(2, first=0)
    gesture = PlaceGesture()
    gesture.pick(state, state.hand(0)[0])
    gesture.cancel()
    assert gesture.holding is None
    ok, words = gesture.check(state)
    assert not ok and words == "Pick a piece from your tray first."
