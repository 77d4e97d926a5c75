"""The drop gesture on a real Tilted game: picking, turning, standing, lifting,
the ghost's pose and landing point, and releases the game refuses or takes.

Every situation starts with the beam's +x end on the table, so the high side is
beam-frame ``s < 0``."""
from __future__ import annotations

import math

import pytest
from scipy.spatial.transform import Rotation

from balance3d.games import Drop
from balance3d.games.placement import release_pose
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame
from balance3d.gui.gesture import (DEFAULT_HEIGHT, HEIGHT_MAX, HEIGHT_MIN, HEIGHT_STEP, YAW_STEP,
                                   DropGesture, GestureError)

ACROSS = math.pi / 2
#: m, the bundled blocks' unit (scenes/tilted.toml, rules.unit): a 1u block is a cube.
UNIT = 0.025


def world_xy(state: TiltedState, s: float, t: float = 0.0) -> tuple[float, float]:
    """World (x, y) m above the beam-frame point (s, t) of the top face."""
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(s, t, frame.half[2])])[0]
    return float(x), float(y)


def top_face_z(state: TiltedState, x: float, y: float) -> float:
    """World z (m) of the beam's top face plane straight below world (x, y)."""
    frame = BeamFrame.of(state.world)
    s, t = frame.top_point_below(x, y)
    return float(frame.to_world([(s, t, frame.half[2])])[0][2])


@pytest.fixture(scope="module")
def fresh() -> TiltedState:
    return TiltedState.arranged(2, seed=0, low_end=+1, first=0)


def test_a_piece_the_game_does_not_offer_is_refused(fresh):
    gesture = DropGesture()
    assert "3u-2" not in fresh.legal_pieces()          # seat 1's block, seat 0 to play
    with pytest.raises(GestureError) as info:
        gesture.pick(fresh, "3u-2")
    assert str(info.value) == ("That is Player 2's 3-long block: pick one of your own blocks "
                               "from your tray.")
    assert "'3u-2' is not yours" in info.value.reason         # the game's own, for the log
    assert gesture.holding is None and gesture.action() is None
    gesture.pick(fresh, "3u-1")
    assert gesture.holding == "3u-1"


def test_picking_starts_over_the_release_area(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "1u-1")
    frame = BeamFrame.of(fresh.world)
    s, t = frame.top_point_below(gesture.x, gesture.y)
    assert s < 0 and abs(s) < frame.half[0] and abs(t) < frame.half[1]   # the high half
    assert gesture.check(fresh) == (True, "")


def test_turn_pose_and_lift_change_the_built_drop(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "2u-1")
    x, y = world_xy(fresh, -0.15)
    gesture.move(x, y)
    assert gesture.action() == Drop("2u-1", x, y, DEFAULT_HEIGHT, 0.0, "flat")
    gesture.turn(2)
    gesture.cycle_pose()
    gesture.lift(3)
    assert gesture.action() == Drop("2u-1", x, y, pytest.approx(DEFAULT_HEIGHT + 3 * HEIGHT_STEP),
                                    pytest.approx(2 * YAW_STEP), "edge")
    gesture.turn(-3)
    assert gesture.yaw == pytest.approx(2 * math.pi - YAW_STEP)       # kept in [0, 2 pi)
    gesture.cycle_pose()
    assert gesture.pose == "upright"
    gesture.cycle_pose()
    assert gesture.pose == "flat"


def test_lift_is_clamped(fresh):
    gesture = DropGesture()
    gesture.lift(1000)
    assert gesture.height == HEIGHT_MAX
    gesture.lift(-1000)
    assert gesture.height == HEIGHT_MIN
    # the clamps are real release heights the rules allow (rules.max_drop_height)
    assert 0 < HEIGHT_MIN < HEIGHT_MAX <= fresh.rules.max_drop_height


def test_named_constants_have_sensible_units():
    assert YAW_STEP == pytest.approx(math.radians(15))
    assert 0 < HEIGHT_STEP < HEIGHT_MAX
    assert HEIGHT_MIN <= DEFAULT_HEIGHT <= HEIGHT_MAX


def test_ghost_pose_is_the_release_pose_and_sits_height_above_the_landing_point(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "1u-1")
    x, y = world_xy(fresh, -0.15)
    gesture.move(x, y)
    pos, quat = gesture.ghost_pose(fresh)
    assert (pos, quat) == release_pose(fresh.world, fresh.piece_part("1u-1"), gesture.action())
    # the beam's top face rises towards the high (-x) end: under a 1u cube the highest
    # point of the plane is at its outer corners, half a unit further out
    corners = [(x + dx, y + dy) for dx in (-UNIT / 2, UNIT / 2) for dy in (-UNIT / 2, UNIT / 2)]
    surface = max(top_face_z(fresh, cx, cy) for cx, cy in corners)
    assert surface > top_face_z(fresh, x, y) + 1e-3        # a tilt the test can see
    landing = gesture.landing_point(fresh)
    assert landing == pytest.approx([x, y, surface], abs=2e-5)
    verts = Rotation.from_quat(quat).apply(fresh.piece_part("1u-1").mesh.vertices) + pos
    assert verts[:, 2].min() == pytest.approx(surface + DEFAULT_HEIGHT, abs=2e-5)
    gesture.cancel()
    assert gesture.ghost_pose(fresh) is None and gesture.landing_point(fresh) is None


def test_release_on_the_low_side_is_refused_and_keeps_holding(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "1u-1")
    gesture.move(*world_xy(fresh, +0.15))             # the low side
    before = fresh.to_json()
    ok, reason = gesture.check(fresh)
    assert not ok and "high side" in reason
    with pytest.raises(GestureError, match="high side"):
        gesture.release(fresh)
    assert gesture.holding == "1u-1"
    assert fresh.to_json() == before


def test_release_over_an_occupied_spot_is_refused_with_the_games_reason(monkeypatch):
    # As in the game's own tests: a real release pose is always above what lies
    # beneath, so the overlap is forced by putting the release pose on a block
    # already on the beam; the refusal and its words are the game's.
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[6, 1], [6, 6, 1]])
    x, y = world_xy(state, 0.25)
    staged = Drop("6u-2", x, y, 0.002, ACROSS)
    x, y = world_xy(state, -0.15)
    state.stage([staged, Drop("6u-3", x, y, 0.002)])
    occupied = state.world.pose("6u-3")
    monkeypatch.setattr("balance3d.games.tilted.drops.release_pose",
                        lambda world, part, action: (tuple(occupied[0]), tuple(occupied[1])))
    gesture = DropGesture()
    gesture.pick(state, "6u-1")
    gesture.move(x, y)
    before = state.to_json()
    with pytest.raises(GestureError, match="start inside .*the 6-long block on the beam") as info:
        gesture.release(state)
    assert "overlap" in info.value.reason and "6u-3" in info.value.reason
    assert gesture.holding == "6u-1" and state.to_json() == before


def test_release_above_a_frozen_block_is_refused():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[1, 2], [6, 1, 3, 4, 5]])
    state.stage([Drop("3u-2", *world_xy(state, 0.20), 0.002, ACROSS),   # low side
                 Drop("6u-2", *world_xy(state, 0.0), 0.002),            # across the centre line
                 Drop("1u-2", *world_xy(state, -0.03), 0.002)])         # on 6u-2
    state.apply(Drop("1u-1", *world_xy(state, -0.15), 0.002))
    assert "6u-2" in state.frozen and state.current_player == 1
    gesture = DropGesture()
    gesture.pick(state, "4u-2")
    gesture.turn(6)                                    # across the beam
    gesture.move(*world_xy(state, -state.low_end * 0.06))
    before = state.to_json()
    with pytest.raises(GestureError, match="A frozen block lies there") as info:
        gesture.release(state)
    assert "frozen block 6u-2" in info.value.reason
    assert gesture.holding == "4u-2" and state.to_json() == before


def test_a_legal_release_returns_the_drop_shown_and_goes_idle(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "3u-1")
    gesture.move(*world_xy(fresh, -0.2, 0.005))
    gesture.turn(1)
    gesture.cycle_pose()
    gesture.lift(-1)
    shown = (gesture.holding, gesture.x, gesture.y, gesture.height, gesture.yaw, gesture.pose)
    assert gesture.check(fresh) == (True, "")
    drop = gesture.release(fresh)
    assert (drop.piece, drop.x, drop.y, drop.height, drop.yaw, drop.pose) == shown
    assert gesture.holding is None
    with pytest.raises(GestureError, match="Pick a piece from your tray first") as info:
        gesture.release(fresh)
    assert info.value.reason == "nothing to release: no piece is held"


def test_cancel_goes_idle(fresh):
    gesture = DropGesture()
    gesture.pick(fresh, "1u-1")
    gesture.cancel()
    assert gesture.holding is None and gesture.action() is None
    ok, words = gesture.check(fresh)
    assert not ok and words == "Pick a piece from your tray first."
    assert words.reason == "no piece is held"


def test_no_piece_can_be_picked_outside_a_drop_phase():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0)
    state.apply(Drop("1u-1", *world_xy(state, -0.15), 0.002))
    assert state.phase == "buy"
    with pytest.raises(GestureError, match="Answer the question first") as info:
        DropGesture().pick(state, "2u-1")
    assert "decision, not a drop" in info.value.reason
