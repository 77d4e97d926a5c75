"""Tower's table: the trays hold exactly the pieces that are not in the World (each
seat's unplayed pieces, and those that left the game), lying on the table top apart
from each other and off the bases; each base is banded in its seat's colour and
named on the seat's mat in front of it; the roll is written beside the roller's base and the marker sits on the
current tower's top."""
from __future__ import annotations

import numpy as np
import pytest
import shapely
from scipy.spatial.transform import Rotation

from balance3d.games.base import Drop
from balance3d.games.tower import TowerState
from balance3d.games.tower.judge import base_outline
from balance3d.gui.games import game_table
from balance3d.gui.games.tower import table as tt

from tray_checks import assert_trays_lie_apart

TABLE = game_table("tower")
#: m, how far a mark's node may be from where it belongs (Panda3D keeps single
#: precision; a mark is lifted by at most 1 mm).
MARK_TOLERANCE = 0.001


def check_trays(state):
    trays = TABLE.trays(state)
    in_world = set(state.world.names)
    laid = [p for t in trays for p in t.pieces]
    assert len(laid) == len(set(laid)) and set(laid).isdisjoint(in_world)
    every = {p for s in range(len(state.players)) for p in state.hand(s)} | set(state.removed)
    assert set(laid) == every - in_world
    for seat in range(len(state.players)):
        tray, = [t for t in trays if t.seat == seat]
        assert list(tray.pieces) == state.hand(seat)
        assert tray.label == state.players[seat].name
    gone, = [t for t in trays if t.seat is None]
    assert list(gone.pieces) == state.removed
    assert_trays_lie_apart(TABLE, state, trays)
    return trays


@pytest.mark.parametrize("players", [2, 4])
def test_trays_hold_every_piece_of_every_seat_at_the_start(players):
    state = TowerState.arranged(players)
    trays = check_trays(state)
    assert sum(len(t.pieces) for t in trays) == players * 24


def test_played_and_removed_pieces_leave_the_seat_trays():
    state = TowerState.arranged(2)
    played = next(p for p in state.hand(0) if "logo" in p)
    state.stage(0, [Drop(played, -0.45, 0.0, 0.002, 0.0, "flat")])
    state.keep_only(1, state.hand(1)[:5])
    trays = check_trays(state)
    assert played not in {p for t in trays for p in t.pieces}
    gone, = [t for t in trays if t.seat is None]
    assert len(gone.pieces) == 24 - 5


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base((320, 180))


def labels(view):
    return [(path.getName().split(":", 1)[1], np.array(path.getPos(view.base.render)))
            for path in view.decor.findAllMatches("**/label:*")]


def test_each_base_is_banded_in_its_seats_colour_and_named_on_the_mat_before_it(base):
    from balance3d.gui.view.table import TableView

    state = TowerState.arranged(4)
    state.give_turn(0, "play 1", "letter")
    view = TableView(base, state, shadows=False)
    try:
        world = state.world
        found = labels(view)
        centres = [np.mean(world.vertices(state.base(s))[:, :2], axis=0) for s in range(4)]
        for seat, player in enumerate(state.players):
            outline = base_outline(world, state.base(seat))
            top = world.vertices(state.base(seat))[:, 2].max()
            band = view.decor.find(f"**/base-band:{seat}")
            assert not band.isEmpty(), f"{player.name}'s base has no band"
            assert np.allclose(band.getColor(), TABLE.seat_colour(state, seat), atol=1 / 255)
            middle = np.array(band.getBounds().getCenter())
            assert outline.contains(shapely.Point(middle[:2]))
            assert 0.0 <= band.getPos(view.base.render)[2] - top < MARK_TOLERANCE
            # no name on a base (too small to read); the name stands in front of
            # the seat's own base, nearer it than any other base
            named = [p for text, p in found if text == player.name]
            assert named
            for point in named:
                assert not any(base_outline(world, state.base(s)).contains(
                    shapely.Point(point[:2])) for s in range(4))
                assert point[1] < outline.bounds[1]
                nearest = min(range(4), key=lambda s: abs(centres[s][0] - point[0]))
                assert nearest == seat, (player.name, point, nearest)
    finally:
        view.destroy()


def test_the_roll_and_a_drawn_card_are_written_beside_the_rollers_base(base):
    from balance3d.gui.view.table import TableView

    state = TowerState.arranged(2)
    state.stack_deck(["u-decide"])
    state.give_turn(1, "receive penalty", "logo")     # seat 0 chooses the penalty next
    view = TableView(base, state, shadows=False)
    try:
        text = "dice: receive penalty / logo  card: u-decide"
        found = [p for t, p in labels(view) if t == text]
        assert len(found) == 1
        x0, y0, x1, y1 = base_outline(state.world, state.base(1)).bounds
        # in front of seat 1's base (towards the camera), between it and its mat
        assert x0 < found[0][0] < x1 and found[0][1] < y0
        mat = tt.mat_extent(state, 1, 24)
        assert found[0][1] > mat[3]
    finally:
        view.destroy()


def test_the_marker_sits_on_the_current_towers_top(base):
    from balance3d.gui.view.table import TableView

    state = TowerState.arranged(2)
    piece = next(p for p in state.hand(0) if "logo" in p)
    state.stage(0, [Drop(piece, -0.45, 0.0, 0.002, 0.0, "flat")])
    state.give_turn(0, "play 1", "logo")
    view = TableView(base, state, shadows=False)
    try:
        layer = view.root.find(f"**/{tt.MARKER_LAYER}")
        marker = np.array(layer.find("marker").getPos(view.base.render))
        top = state.world.vertices(piece)[:, 2].max()
        centre = state.world.pose(piece)[0]
        assert np.allclose(marker[:2], centre[:2], atol=MARK_TOLERANCE)
        assert marker[2] - tt.MARKER_RADIUS == pytest.approx(top, abs=MARK_TOLERANCE)
    finally:
        view.destroy()


def test_the_designer_marks_a_towers_centre_of_mass_over_its_base(base):
    from balance3d.gui.view.table import TableView

    state = TowerState.arranged(2)
    piece = next(p for p in state.hand(0) if "logo" in p)
    state.stage(0, [Drop(piece, -0.45, 0.0, 0.002, 0.0, "flat")])
    state.give_turn(0, "play 1", "logo")
    view = TableView(base, state, shadows=False)
    try:
        assert view.root.find(f"**/{tt.COM_LAYER}").isEmpty()
        view.set_designer(True)
        com = view.root.find(f"**/{tt.COM_LAYER}").find("com:0")
        # one uniform piece: its centre of mass is its mesh's centroid, carried by
        # its pose into the world
        pos, quat = state.world.pose(piece)
        expected = (Rotation.from_quat(quat).apply(state.piece_part(piece).mesh.center_mass)
                    + pos)
        assert np.allclose(np.array(com.getPos(view.base.render)), expected, atol=1e-5)
        assert np.allclose(tuple(com.getColor())[:3], tt.COM_OVER[:3], atol=1e-3)
    finally:
        view.destroy()
