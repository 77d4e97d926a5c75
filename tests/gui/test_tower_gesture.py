"""The generic drop gesture on Tower: over the player's own base a flat piece is
accepted, over a closed level or another base it is refused with the game's own
reason (worded for a player, the game's sentence kept for the log), and after a
"next piece vertical" card a picked piece starts on edge, the pose key
(edge -> upright -> flat) choosing among the faces the card allows."""
from __future__ import annotations

import pytest

from balance3d.games.base import Choose, Drop
from balance3d.games.tower import TowerState
from balance3d.games.tower.rules import VERTICAL
from balance3d.gui.gesture import DEFAULT_HEIGHT, DropGesture, GestureError


def base_middle(state):
    """(x, y) m, the middle of the release area (the current player's base)."""
    polygon = state.release_area()["regions"][0]["polygon"]
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return (min(xs) + max(xs)) / 2.0, (min(ys) + max(ys)) / 2.0


def test_over_the_own_base_flat_is_legal_and_over_the_other_refused():
    state = TowerState.arranged(2)
    state.give_turn(0, "play 1", "logo")
    gesture = DropGesture()
    piece = state.legal_pieces()[0]
    gesture.pick(state, piece)
    gesture.move(0.15 - 0.30, 0.0)                        # base_1's middle (the scene)
    ok, words = gesture.check(state)
    assert not ok and words.reason == state.is_legal(gesture.action())[1]
    assert "not over your base" in words.reason
    assert words == "Move the piece over your own base (the one with your name on it)."
    with pytest.raises(GestureError, match="over your own base") as info:
        gesture.release(state)
    assert info.value.reason == words.reason
    gesture.move(*base_middle(state))
    assert gesture.check(state) == (True, "")
    assert gesture.release(state).piece == piece


def test_after_a_vertical_card_a_piece_starts_on_edge_and_flat_is_refused():
    state = TowerState.arranged(2)
    state.stack_deck([VERTICAL])
    state.give_turn(0, "give penalty", "logo")
    state.apply(Choose("target", 1))                      # seat 1 draws "vertical"
    assert state.must_stand_vertically[1]
    state.give_turn(1, "play 1", "letter")
    gesture = DropGesture()
    gesture.pick(state, state.legal_pieces()[0])
    gesture.move(*base_middle(state))
    assert gesture.pose == "edge"                         # the card's demand, not flat
    assert gesture.check(state) == (True, "")
    seen = []
    for _ in range(2):
        gesture.cycle_pose()
        seen.append((gesture.pose, gesture.check(state)[0]))
    assert seen == [("upright", True), ("flat", False)]
    ok, words = gesture.check(state)
    assert "stand vertically" in words.reason and "press Tab" in words
    gesture.cycle_pose()
    drop = gesture.release(state)
    assert isinstance(drop, Drop) and drop.pose == "edge"


def test_a_new_piece_starts_flat_at_the_default_height_whatever_the_last_drop():
    state = TowerState.arranged(2)
    state.give_turn(0, "play 2", "logo")
    gesture = DropGesture()
    gesture.pick(state, state.legal_pieces()[0])
    gesture.move(*base_middle(state))
    gesture.cycle_pose()                                  # on edge,
    gesture.lift(4)                                       # raised,
    gesture.turn(3)                                       # turned
    state.apply(gesture.release(state))
    gesture.pick(state, state.legal_pieces()[0])
    assert (gesture.pose, gesture.height, gesture.yaw) == ("flat", DEFAULT_HEIGHT, 0.0)
