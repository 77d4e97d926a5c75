"""Tri-Ba-Lance's table: the trays hold exactly the pieces that are not in the World,
standing on the table top apart from each other and off the plate, frame and
stand; the field circles and numbers lie on the plate's top face at the scene's
field positions and rock with the plate."""
from __future__ import annotations

import tomllib

import numpy as np
import pytest

from balance3d.games.base import Place
from balance3d.games.tribalance import TribalanceState
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.gui.games import game_table
from balance3d.resources import scenes_dir

from tray_checks import assert_trays_lie_apart

TABLE = game_table("tribalance")
#: m, how close a mark's position comes to where the scene puts it.
MARK_TOLERANCE = 1e-6


def check_trays(state):
    trays = TABLE.trays(state)
    in_world = set(state.world.names)
    laid = [p for t in trays for p in t.pieces]
    assert len(laid) == len(set(laid)) and set(laid).isdisjoint(in_world)
    for seat in range(len(state.players)):
        tray, = [t for t in trays if t.seat == seat]
        assert list(tray.pieces) == [p for p in state.hand(seat) if p not in in_world]
        assert tray.label == state.players[seat].name
    assert_trays_lie_apart(TABLE, state, trays)
    return trays


@pytest.mark.parametrize("players", [2, 3])
def test_trays_hold_every_piece_of_every_seat_at_the_start(players):
    state = TribalanceState.arranged(players)
    trays = check_trays(state)
    # RULES: 2 players 13 pieces each (3,3,3,3,1), 3 players 9 each (2,2,2,2,1)
    assert [len(t.pieces) for t in trays] == [13 if players == 2 else 9] * players


def test_placed_pieces_leave_the_trays():
    state = TribalanceState.arranged(2, hands=[[1, 2], [1, 1]], first=0)
    first = state.hand(0)[0]
    state.apply(Place(first, 0))
    trays = check_trays(state)
    assert first in state.world.names and first not in trays[0].pieces
    assert len(trays[0].pieces) == 1 and len(trays[1].pieces) == 2


def scene_fields():
    data = tomllib.loads((scenes_dir() / "tribalance.toml").read_text())
    return data["rules"]["fields"], data["parts"]["plate"]["thickness"]


def field_label_points(view):
    """World points of the numbers drawn under the plate's node, by text."""
    plate = view.node("plate")
    return [(path.getName().split(":", 1)[1], np.array(path.getPos(view.base.render)))
            for path in plate.findAllMatches("**/label:*")]


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base((320, 180))


def test_field_numbers_lie_on_the_top_face_at_the_scenes_fields_and_rock_with_it(base):
    from balance3d.gui.view.table import TableView

    fields, thickness = scene_fields()
    state = TribalanceState.arranged(2, hands=[[4], [1]], first=0)
    # a weight-4 piece on a field numbered 3: the plate tilts, the marks with it
    state.stage([Place(state.hand(0)[0], 7)])
    view = TableView(base, state, shadows=False)
    try:
        frame = PlateFrame.of(state.world, state.side)
        assert np.degrees(np.arccos(frame.normal[2])) > 0.5
        labels = field_label_points(view)
        assert sorted(text for text, _ in labels) == sorted(str(n) for _, _, n in fields)
        expected = frame.to_world([(x, y, thickness / 2) for x, y, _ in fields])
        for text, point in labels:
            gaps = np.linalg.norm(expected - point, axis=1)
            i = int(np.argmin(gaps))
            assert str(fields[i][2]) == text
            # on the top face: lifted along the normal by no more than a mark's lift
            offset = point - expected[i]
            assert np.linalg.norm(offset - frame.normal * (offset @ frame.normal)) \
                < MARK_TOLERANCE
            assert 0.0 <= offset @ frame.normal < 0.001
        assert len({int(np.argmin(np.linalg.norm(expected - p, axis=1)))
                    for _, p in labels}) == len(fields)
    finally:
        view.destroy()
