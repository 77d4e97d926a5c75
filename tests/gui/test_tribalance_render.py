"""Offscreen renders of a Tri-Ba-Lance table, checked by the colour of the pixels
where known points project: the plate's wood, a field's paint and its number's
ink, a placed piece's seat colour, and the marker where the plate rests on the
frame after an invalid placement.  Colours are compared by chromaticity (r, g, b
over their sum), which white light of any strength leaves unchanged."""
from __future__ import annotations

import numpy as np
import pytest

from balance3d.games.base import Place
from balance3d.games.tribalance import TribalanceState
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.gui.games.tribalance import table as tb

SIZE = (640, 360)
#: Index of the field in the bundled scene's +y corner (number 5).
CORNER_FIELD = max(range(len(TribalanceState.arranged(2).rules.fields)),
                   key=lambda i: TribalanceState.arranged(2).rules.fields[i].y)
#: Largest chromaticity distance for "this colour".
SAME_HUE = 0.02
#: The ink of a number is at most this share of its field's paint's brightness.
INK_SHARE = 0.4
#: m, how far a node's position (Panda3D keeps single precision) may be from the
#: point it was put at.
NODE_PRECISION = 1e-5
#: pixels: half size of the square searched for a number's ink.
INK_WINDOW = 3


def chroma(rgb):
    rgb = np.asarray(rgb, float)[:3]
    return rgb / max(rgb.sum(), 1e-9)


def pixel(view, image, point, half=1):
    x, y = (int(round(v)) for v in view.project(point))
    patch = image[y - half:y + half + 1, x - half:x + half + 1].reshape(-1, 3)
    return np.median(patch.astype(float), axis=0)


def assert_hue(rgb, colour, what):
    assert np.linalg.norm(chroma(rgb) - chroma(colour)) < SAME_HUE, f"{what} shows {rgb}"


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base(SIZE)


@pytest.fixture(scope="module")
def scene(base):
    """Seat 0's weight-2 piece staged on field 0 (number 1); the camera close above
    the plate."""
    from balance3d.gui.view.table import TableView

    state = TribalanceState.arranged(2, hands=[[2, 5], [1]], first=0)
    placed = next(p for p in state.hand(0) if p.startswith("2w"))
    state.stage([Place(placed, 0)])
    view = TableView(base, state, shadows=True)
    cam = view.camera
    cam.target = np.array([0.0, 0.0, 0.17])
    cam.distance, cam.heading, cam.pitch = 0.5, 0.0, 75.0
    yield state, view, placed
    view.destroy()


def top(state, x, y):
    return PlateFrame.of(state.world, state.side).top_point(x, y)


def test_the_plate_shows_its_wood_between_the_fields(scene):
    state, view, _ = scene
    image = view.image()
    # the middle of three neighbouring fields (the two at 0.052 m from the centre
    # towards +y and the one at 0.090 m): 0.030 m from each, outside their 0.024 m
    # circles, and clear of the piece on the centre field
    assert_hue(pixel(view, image, top(state, 0.0, 0.060)), tb.PLATE_WOOD, "the plate")


def test_a_fields_number_is_inked_on_its_paint(scene):
    state, view, _ = scene
    image = view.image()
    field = state.rules.fields[CORNER_FIELD]             # the +y corner, number 5
    paint = pixel(view, image, top(state, field.x + 0.010, field.y))
    assert_hue(paint, tb.FIELD_PAINT, "the field's paint")
    x, y = (int(round(v)) for v in view.project(top(state, field.x, field.y)))
    patch = image[y - INK_WINDOW:y + INK_WINDOW + 1, x - INK_WINDOW:x + INK_WINDOW + 1]
    assert patch.astype(float).sum(axis=2).min() < INK_SHARE * paint.sum()


def test_a_placed_piece_shows_its_seat_colour(scene):
    state, view, placed = scene
    image = view.image()
    pos, _ = state.world.pose(placed)
    high = state.piece_part(placed).mesh.bounds[1][2]
    # on the ring round the disc its weight is written on, towards the camera
    cap = tb.LABEL_DISC * state.piece_part(placed).mesh.bounds[1][0]
    point = np.asarray(pos) + np.array([0.0, -(cap - tb.LABEL_RING / 2.0), high + 0.0002])
    assert_hue(pixel(view, image, point), tb.piece_colour(placed), placed)


def test_where_the_plate_rests_on_the_frame_is_marked(base):
    from balance3d.gui.view.table import TableView

    # a weight-5 piece alone on the +y corner field puts corner 0 on the frame
    state = TribalanceState.arranged(2, hands=[[5], [1]], first=0)
    verdict = state.apply(Place(state.hand(0)[0], CORNER_FIELD))
    assert not verdict.valid and {"kind": "corner", "index": 0} in verdict.frame_contacts
    view = TableView(base, state, shadows=False)
    try:
        cam = view.camera
        cam.target = np.array([0.0, 0.1, 0.15])
        cam.distance, cam.heading, cam.pitch = 0.6, 0.0, 60.0
        image = view.image()
        frame = PlateFrame.of(state.world, state.side)
        corner = frame.to_world([(*frame.corners[0], 0.0)])[0]
        frame_top = state.world.vertices("frame")[:, 2].max()
        at = pixel(view, image, (corner[0], corner[1], frame_top))
        assert_hue(at, tb.CONTACT_COLOUR, "the frame contact at corner 0")
    finally:
        view.destroy()


def test_a_touch_of_the_frame_while_a_placement_runs_is_marked_where_it_happens(base):
    from balance3d.gui.view.table import TableView

    state = TribalanceState.arranged(2, hands=[[5], [1]], first=0)
    view = TableView(base, state, shadows=False)
    try:
        turn = state.begin(Place(state.hand(0)[0], CORNER_FIELD))
        touches = []
        for _ in range(2000):                  # 1/240 s steps: at most 8.3 s simulated
            turn.advance(1)
            touches = state.world.contacts("plate", "frame")
            if touches or turn.done:
                break
        assert touches, "the plate never touched the frame"
        view.set_poses(turn.poses())
        layer = view.root.find(f"**/{tb.CONTACT_LAYER}")
        assert not layer.isEmpty()
        marks = np.array(sorted(tuple(m.getPos(view.base.render))
                                for m in layer.findAllMatches("touch:*")))
        where = np.array(sorted(tuple(ct.position_a if ct.body_a == "plate" else ct.position_b)
                                for ct in touches))
        assert marks.shape == where.shape
        assert np.abs(marks - where).max() < NODE_PRECISION
        assert not layer.findAllMatches("contact:*")     # judged only once it ends
        turn.run()
    finally:
        view.destroy()


def line_points(node):
    """World points (m) of every vertex of the line segments under ``node``."""
    from panda3d.core import GeomVertexReader

    points = []
    for path in node.findAllMatches("**/+GeomNode"):
        for geom in path.node().getGeoms():
            reader = GeomVertexReader(geom.getVertexData(), "vertex")
            while not reader.isAtEnd():
                v = reader.getData3()
                points.append(np.array(node.getParent().getRelativePoint(path, v)))
    return points


def test_the_designers_tilt_arrow_points_downhill_by_the_tilt(base):
    from balance3d.gui.view.table import TableView

    state = TribalanceState.arranged(2, hands=[[4], [1]], first=0)
    state.stage([Place(state.hand(0)[0], 6)])        # field 6: number 3, towards +x +y
    view = TableView(base, state, shadows=False)
    try:
        assert view.root.find(f"**/{tb.TILT_LAYER}").isEmpty()
        view.set_designer(True)
        layer = view.root.find(f"**/{tb.TILT_LAYER}")
        start, tip = line_points(layer)
        frame = PlateFrame.of(state.world, state.side)
        tilt = np.degrees(np.arccos(frame.normal[2]))
        assert tilt > 0.5
        assert np.linalg.norm(start - frame.top_point(0.0, 0.0)) < NODE_PRECISION
        arrow = tip - start
        # level, as long as TILT_ARROW per degree, along the downhill direction: the
        # top face's normal seen from above leans the way the plate goes down
        assert abs(arrow[2]) < NODE_PRECISION
        assert np.linalg.norm(arrow) == pytest.approx(tb.TILT_ARROW * tilt, rel=1e-4)
        downhill = frame.normal[:2] / np.linalg.norm(frame.normal[:2])
        assert arrow[:2] / np.linalg.norm(arrow[:2]) == pytest.approx(downhill, abs=1e-4)
        field = state.rules.fields[6]
        assert arrow[:2] @ np.array([field.x, field.y]) > 0    # towards the loaded field
        view.set_designer(False)
        assert view.root.find(f"**/{tb.TILT_LAYER}").isEmpty()
    finally:
        view.destroy()
