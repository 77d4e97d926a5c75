"""The window's per-frame work follows what changed: ``set_poses`` moves only the
nodes whose pose changed (a frame in which nothing moved rewrites no transform);
Tower's marker on the current tower's top and the seat lines' tower figures are read
from the game again only when that tower's pieces moved, and still follow it when
they do.  The table is drawn after the other opaque bodies, before the translucent
ghost."""
from __future__ import annotations

import numpy as np
import pytest

from balance3d.games.base import Drop
from balance3d.games.tower import TowerState
from balance3d.gui.games import game_text
from balance3d.gui.games.tower import table as tt

#: m, how far a node may be from its pose (Panda3D keeps single precision).
NODE_TOLERANCE = 1e-5
#: m, how far a piece is moved by hand in these tests.
SHIFT = np.array([0.003, -0.002, 0.005])


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base((320, 180))


def two_towers() -> tuple[TowerState, str, str]:
    """Seat 0 (to play a logo) and seat 1 each with one logo lying on their base."""
    state = TowerState.arranged(2)
    mine = next(p for p in state.hand(0) if "logo" in p)
    theirs = next(p for p in state.hand(1) if "logo" in p)
    state.stage(0, [Drop(mine, -0.45, 0.0, 0.002, 0.0, "flat")])
    x, y, _ = state.world.pose(state.base(1))[0]
    state.stage(1, [Drop(theirs, float(x), float(y), 0.002, 0.0, "flat")])
    state.give_turn(0, "play 1", "logo")
    return state, mine, theirs


def poses_now(state: TowerState) -> dict:
    return {name: state.world.pose(name) for name in state.world.names}


def moved(state: TowerState, piece: str) -> None:
    """Teleport ``piece`` by :data:`SHIFT` in the World."""
    pos, quat = state.world.pose(piece)
    state.world.set_pose(piece, tuple(pos + SHIFT), tuple(quat))


def test_a_frame_in_which_nothing_moved_places_no_node(base, monkeypatch):
    from balance3d.gui.view import table as view_table

    state, mine, _ = two_towers()
    view = view_table.TableView(base, state, shadows=False)
    try:
        placed = []
        place = view_table.place

        def counting(path, position, quat):
            placed.append(path.getName())
            place(path, position, quat)

        monkeypatch.setattr(view_table, "place", counting)
        view.set_poses(poses_now(state))
        view.set_poses(poses_now(state))
        assert placed == []
        moved(state, mine)
        view.set_poses(poses_now(state))
        assert placed == [mine]
        assert np.allclose(view.node(mine).getPos(view.base.render), state.world.pose(mine)[0],
                           atol=NODE_TOLERANCE)
    finally:
        view.destroy()


def test_the_marker_is_worked_out_again_only_when_its_tower_moves(base, monkeypatch):
    from balance3d.gui.view.table import TableView

    state, mine, theirs = two_towers()
    view = TableView(base, state, shadows=False)
    try:
        asked = []
        release_area = state.release_area

        def counting():
            asked.append(1)
            return release_area()

        monkeypatch.setattr(state, "release_area", counting)
        view.set_poses(poses_now(state))
        view.set_poses(poses_now(state))
        assert asked == []
        moved(state, theirs)                  # another seat's tower: not the marker's
        view.set_poses(poses_now(state))
        assert asked == []
        moved(state, mine)
        view.set_poses(poses_now(state))
        assert len(asked) == 1
        marker = view.root.find(f"**/{tt.MARKER_LAYER}").find("marker")
        at = np.array(marker.getPos(view.base.render))
        # one piece on the tower: the marker stands over its centre, on its top
        assert np.allclose(at[:2], state.world.pose(mine)[0][:2], atol=NODE_TOLERANCE)
        top = state.world.vertices(mine)[:, 2].max()
        assert at[2] - tt.MARKER_RADIUS == pytest.approx(top, abs=NODE_TOLERANCE)
    finally:
        view.destroy()


def test_the_seat_lines_read_a_tower_again_only_when_it_moved(monkeypatch):
    from balance3d.gui.games.tower import figures

    state, mine, theirs = two_towers()
    text = game_text("tower")
    reads = []
    for name in ("tower_height", "is_vertical"):
        def counting(*args, _read=getattr(figures, name), _name=name):
            reads.append(_name)
            return _read(*args)
        monkeypatch.setattr(figures, name, counting)
    before = text.seat_line(state, 0)
    assert sorted(reads) == ["is_vertical", "tower_height"]    # one piece on the tower
    assert text.seat_line(state, 0) == before and len(reads) == 2
    moved(state, theirs)                      # seat 1's tower: not seat 0's figures
    assert text.seat_line(state, 0) == before and len(reads) == 2
    height = state.heights[0]
    moved(state, mine)                        # lifted by SHIFT[2]: its top rises as much
    after = text.seat_line(state, 0)
    assert sorted(reads[2:]) == ["is_vertical", "tower_height"]
    assert f"tower {height * 1000:.1f} mm" in before
    assert f"tower {(height + SHIFT[2]) * 1000:.1f} mm" in after
    assert f"{state.vertical_pieces(0)} vertical" in after


def test_the_marker_goes_when_no_drop_is_asked_for(base):
    from balance3d.gui.view.table import TableView

    state, _, _ = two_towers()
    view = TableView(base, state, shadows=False)
    try:
        marker = f"**/{tt.MARKER_LAYER}/marker"
        assert not view.root.find(marker).isEmpty()
        state.give_turn(1, "receive penalty", "logo")     # a decision, not a drop
        view.set_poses(poses_now(state))
        assert view.root.find(marker).isEmpty()
    finally:
        view.destroy()


def test_the_table_is_drawn_after_the_opaque_bodies_and_before_the_ghost(base):
    from panda3d.core import CullBinManager

    from balance3d.gui.view.table import TableView

    state, mine, _ = two_towers()
    view = TableView(base, state, shadows=False)
    try:
        bins = CullBinManager.getGlobalPtr()

        def sort(path):
            return bins.getBinSort(bins.findBin(path.getBinName() or "opaque"))

        view.show_ghost(state.piece_part(mine), state.world.pose(mine), True)
        ghost = view.root.find("**/ghost")
        assert sort(view.node(mine)) < sort(view.node("table")) < sort(ghost)
        assert sort(view.node(state.base(0))) < sort(view.node("table"))
    finally:
        view.destroy()


def test_no_marker_while_the_released_piece_falls_and_back_after(base, monkeypatch):
    from balance3d.gui.view.table import TableView

    state, mine, _ = two_towers()
    state.give_turn(0, "play 2", "logo")      # seat 0 drops again after this piece
    view = TableView(base, state, shadows=False)
    try:
        marker = f"**/{tt.MARKER_LAYER}/marker"
        assert not view.root.find(marker).isEmpty()
        piece = next(p for p in state.hand(0) if "logo" in p and p != mine)
        x, y, _ = state.world.pose(mine)[0]
        turn = state.begin(Drop(piece, float(x), float(y), 0.02, 0.0, "flat"))
        asked = []
        release_area = state.release_area
        monkeypatch.setattr(state, "release_area", lambda: asked.append(1) or release_area())
        turn.advance(5)                       # the piece is still in the air
        view.set_poses(poses_now(state))
        assert view.root.find(marker).isEmpty() and asked == []
        turn.advance(1)
        view.set_poses(poses_now(state))      # it moved, but no drop is asked for
        assert asked == []
        turn.run()
        view.set_poses(poses_now(state))
        assert state.running is None and state.current_player == 0
        assert not view.root.find(marker).isEmpty()     # asked to drop again: back
        at = np.array(view.root.find(marker).getPos(view.base.render))
        assert np.allclose(at[:2], state.world.pose(piece)[0][:2], atol=0.002)
    finally:
        view.destroy()
