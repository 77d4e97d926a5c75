"""Tilted's table: the trays hold exactly the blocks that are not in the World, at
distinct places on the table top that overlap nothing; the section values drawn
on the beam lie on its top face inside the section they name (scene's rules)."""
import itertools
import tomllib

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.games.base import Drop
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame, table_top
from balance3d.gui.games import game_table
from balance3d.gui.games.tilted import table as tilted_table
from balance3d.resources import scenes_dir
from tray_checks import footprint

#: m^2, footprints sharing less than this area do not overlap (rounding).
TOUCH_AREA = 1e-10
#: m, distance within which a resting piece's lowest point meets the table top.
REST_TOLERANCE = 1e-9


def all_blocks(state):
    return {f"{k}u-{s}" for k in range(1, 7) for s in range(1, state.rules.sets + 1)}


def slot_vertices(table, state, piece, slot):
    pos, quat = slot
    return Rotation.from_quat(quat).apply(table.piece_part(state, piece).mesh.vertices) + pos


def check_trays(state):
    table = game_table("tilted")
    trays = table.trays(state)
    in_world = set(state.world.names)
    laid = [p for t in trays for p in t.pieces]
    # every block is in the World or in exactly one tray
    assert len(laid) == len(set(laid))
    assert set(laid) == all_blocks(state) - in_world
    assert set(laid).isdisjoint(in_world)
    seats = {t.seat: t for t in trays}
    for seat in range(len(state.players)):
        assert list(seats[seat].pieces) == [p for p in state.hand(seat) if p not in in_world]
        assert seats[seat].label == state.players[seat].name
    assert list(seats[None].pieces) == [p for p in state.supply if p not in in_world]
    # on the table top, inside its edges, apart from each other and from the beam
    world = state.world
    top = table_top(world)
    edge = footprint(world.vertices("table"))
    keep_off = [footprint(world.vertices(n)) for n in world.names if n != "table"]
    shapes = []
    for tray in trays:
        assert len(tray.slots) == len(tray.pieces)
        for piece, slot in zip(tray.pieces, tray.slots):
            verts = slot_vertices(table, state, piece, slot)
            assert verts[:, 2].min() == pytest.approx(top, abs=REST_TOLERANCE)
            shape = footprint(verts)
            assert edge.contains(shape), f"{piece} lies off the table"
            for other in keep_off:
                assert shape.intersection(other).area < TOUCH_AREA, f"{piece} under the beam"
            shapes.append((piece, shape))
    for (a, sa), (b, sb) in itertools.combinations(shapes, 2):
        assert sa.intersection(sb).area < TOUCH_AREA, f"{a} overlaps {b}"
    return trays


def test_two_players_trays_hold_the_hands_and_the_supply():
    state = TiltedState.arranged(2, seed=3)
    trays = check_trays(state)
    assert [len(t.pieces) for t in trays] == [6, 6, 18]


def test_staged_blocks_leave_the_trays():
    state = TiltedState.arranged(2, seed=3, low_end=-1)
    state.stage([Drop("3u-1", 0.2, 0.0, 0.005), Drop("4u-3", 0.12, 0.0, 0.005)])
    trays = check_trays(state)
    laid = {p for t in trays for p in t.pieces}
    assert "3u-1" not in laid and "4u-3" not in laid


def test_a_block_falling_in_its_turn_is_no_longer_in_its_tray():
    state = TiltedState.arranged(2, seed=3, low_end=-1, first=0)
    turn = state.begin(Drop("4u-1", 0.15, 0.0, 0.05))
    try:
        turn.advance(5)   # falling: in the World, still in the hand until the verdict
        assert "4u-1" in state.world.names and "4u-1" in state.hand(0)
        trays = check_trays(state)
        assert "4u-1" not in trays[0].pieces and len(trays[0].pieces) == 5
    finally:
        turn.cancel()


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_has_its_tray_and_a_full_supply_fits(players):
    hands = [[1]] + [[] for _ in range(players - 1)]   # everything else in the supply
    state = TiltedState.arranged(players, seed=5, hands=hands)
    trays = check_trays(state)
    assert len(trays) == players + 1
    assert len(trays[-1].pieces) == 5 * 6 - 1


def test_a_long_hand_wraps_into_rows_without_overlap():
    state = TiltedState.arranged(4, seed=2, hands=[[6, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3],
                                                   [1], [2], [3]])
    check_trays(state)


@pytest.fixture(scope="module")
def view():
    from balance3d.gui.view.offscreen import offscreen_base
    from balance3d.gui.view.table import TableView

    base = offscreen_base((640, 360))
    state = TiltedState.arranged(2, seed=1, low_end=+1)
    table_view = TableView(base, state, shadows=False)
    yield table_view
    table_view.destroy()


def test_section_values_lie_on_the_beam_top_inside_their_section(view):
    with open(scenes_dir() / "tilted.toml", "rb") as handle:
        sections = tomllib.load(handle)["rules"]["sections"]
    state = view.state
    frame = BeamFrame.of(state.world)
    beam = view.node("beam")
    labels = beam.findAllMatches("**/label:*")
    found = []
    for label in labels:
        value = int(label.getName().split(":", 1)[1])
        point = label.getPos(view.base.render)
        s, t, z = frame.to_beam([tuple(point)])[0]
        assert z == pytest.approx(frame.half[2], abs=0.001), "not on the top face"
        assert abs(t) < frame.half[1]
        start, stop = next((a, b) for a, b, v in sections if a < abs(s) < b and v == value)
        found.append((value, np.sign(s), start))
    # each section long enough for a readable digit, each side, exactly once
    expected = sorted((v, side, a) for a, b, v in sections for side in (-1.0, 1.0)
                      if b - a >= tilted_table.MIN_LABEL_SECTION)
    assert sorted(found) == expected
    # the shorter (centre) sections' value, once, on the table in front of the fulcrum
    short = {v for a, b, v in sections if b - a < tilted_table.MIN_LABEL_SECTION}
    assert short == {0}
    fulcrum = state.world.vertices("fulcrum")
    front = [n for n in view.decor.findAllMatches("**/label:0")]
    assert len(front) == 1
    x, y, _ = front[0].getPos(view.base.render)
    assert fulcrum[:, 0].min() < x < fulcrum[:, 0].max() and y < fulcrum[:, 1].min()


def test_section_value_labels_tilt_with_the_beam(view):
    frame = BeamFrame.of(view.state.world)
    assert abs(frame.rotation[2, 0]) > 0.05   # the beam is tipped
    label = view.node("beam").find("**/label:1")
    s, _, z = frame.to_beam([tuple(label.getPos(view.base.render))])[0]
    assert 0.2 < abs(s) < frame.half[0] and z == pytest.approx(frame.half[2], abs=0.001)
    heights = sorted(lab.getZ(view.base.render)
                     for lab in view.node("beam").findAllMatches("**/label:1"))
    # the two "1" labels sit near the two ends: one low, one high
    assert heights[1] - heights[0] > 0.5 * frame.half[0] * abs(frame.rotation[2, 0])


def test_designer_centre_of_mass_is_the_beam_with_its_load():
    from balance3d.gui.view.offscreen import offscreen_base
    from balance3d.gui.view.table import TableView

    with open(scenes_dir() / "shared" / "common.toml", "rb") as handle:
        density = tomllib.load(handle)["materials"]["wood"]["density"]
    state = TiltedState.arranged(2, seed=1, low_end=+1)
    state.stage([Drop("2u-1", -0.15, 0.0, 0.003)])
    world = state.world
    # masses from the scene's sizes and the wood's density (kg)
    beam_mass = density * 0.60 * 0.06 * 0.012
    block_mass = density * 0.05 * 0.025 * 0.025
    expected = (beam_mass * world.pose("beam")[0] + block_mass * world.pose("2u-1")[0]) \
        / (beam_mass + block_mass)
    view = TableView(offscreen_base((640, 360)), state, shadows=False)
    try:
        assert view.base.render.find("**/centre-of-mass").isEmpty()   # designer off
        view.set_designer(True)
        marker = view.base.render.find("**/centre-of-mass")
        assert np.allclose(marker.getPos(view.base.render), expected, atol=1e-6)
        # the load on the -x half pulls it off the beam's centre towards -x
        assert expected[0] < world.pose("beam")[0][0] - 0.005
        view.set_designer(False)
        assert view.base.render.find("**/centre-of-mass").isEmpty()
    finally:
        view.destroy()


def test_an_arrow_in_front_of_the_beam_points_to_its_high_end(view):
    state = view.state
    assert state.low_end == +1                        # the high end is the beam's -x end
    frame = BeamFrame.of(state.world)
    high_tip = frame.to_world([(-frame.half[0], 0.0, 0.0)])[0]
    arrow = view.decor.find("**/high-arrow")
    assert not arrow.isEmpty()
    start = np.array(arrow.getPos(view.base.render))
    heading = np.radians(arrow.getH(view.base.render))
    pointing = np.array([np.cos(heading), np.sin(heading)])
    towards = (high_tip - frame.to_world([(0.0, 0.0, 0.0)])[0])[:2]
    assert pointing @ towards / np.linalg.norm(towards) > 0.99   # along the beam, outwards
    assert (high_tip - start)[:2] @ towards > 0.0                # from the centre side
    assert start[1] < frame.to_world([(0.0, -frame.half[1], 0.0)])[0][1]   # in front


def test_the_arrow_is_a_closed_slab_of_its_outline():
    """The arrow's hand-made triangulation closes: a watertight solid 0.2 mm thick
    whose volume is its outline's area (shaft rectangle plus head triangle) times
    that thickness, reaching from x = 0 to its length."""
    length = 0.1
    mesh = tilted_table.arrow_mesh(length)
    neck = length - tilted_table.ARROW_HEAD_LENGTH
    area = neck * tilted_table.ARROW_SHAFT \
        + 0.5 * tilted_table.ARROW_HEAD_LENGTH * tilted_table.ARROW_HEAD
    assert mesh.is_watertight and mesh.is_winding_consistent
    assert mesh.volume == pytest.approx(area * 0.0002, rel=1e-9)
    assert mesh.bounds[:, 0] == pytest.approx([0.0, length])
    assert mesh.bounds[:, 2] == pytest.approx([0.0, 0.0002])
