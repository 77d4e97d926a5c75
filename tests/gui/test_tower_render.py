"""Offscreen renders of a Tower table, checked by the colour of the pixels where
known points project: a base's wood, a placed piece's seat colour, the roll written
in front of the roller's base (ink brighter than the felt around it), and the marker
on the current tower's top.  Colours are compared by chromaticity (r, g, b over
their sum), which white light of any strength leaves unchanged."""
from __future__ import annotations

import numpy as np
import pytest

from balance3d.games.base import Drop
from balance3d.games.tower import TowerState
from balance3d.gui.games.tower import table as tt

SIZE = (640, 360)
#: Largest chromaticity distance for "this colour".
SAME_HUE = 0.02
#: The felt beside the roll is at most this share of the ink's brightness.
INK_SHARE = 0.6
#: pixels: half size of the square searched for the roll's ink.
INK_WINDOW = 4
#: m, the felt looked at beside the roll's text: this far in front of the base,
#: between the base and the letters' tops.
FELT_OFFSET = 0.003


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
    """Seat 0's logo staged flat on the back half of its base; seat 0 to play a
    logo; the camera close above seat 0's base."""
    from balance3d.gui.view.table import TableView

    state = TowerState.arranged(2)
    placed = next(p for p in state.hand(0) if "logo" in p)
    state.stage(0, [Drop(placed, -0.45, 0.02, 0.002, 0.0, "flat")])
    state.give_turn(0, "play 2", "logo")
    view = TableView(base, state, shadows=False)
    cam = view.camera
    cam.target = np.array([-0.45, -0.03, 0.02])
    cam.distance, cam.heading, cam.pitch = 0.45, 0.0, 60.0
    yield state, view, placed
    view.destroy()


def test_a_bases_top_shows_its_wood(scene):
    state, view, _ = scene
    top = state.world.vertices("base_1")[:, 2].max()
    image = view.image()
    # seat 0's base top, right of its name band's text and in front of the piece
    assert_hue(pixel(view, image, (-0.41, -0.01, top)), tt.BASE_WOOD, "the base")


def test_a_placed_piece_shows_its_seat_colour(scene):
    state, view, placed = scene
    image = view.image()
    verts = state.world.vertices(placed)
    middle = (verts.min(axis=0) + verts.max(axis=0)) / 2.0
    # beside the marker on its top
    point = (middle[0] + 0.015, middle[1], verts[:, 2].max())
    assert_hue(pixel(view, image, point), tt.piece_colour(state, placed), placed)


def test_the_roll_is_inked_in_front_of_the_rollers_base(scene):
    state, view, _ = scene
    image = view.image()
    x, y, z = tt.roll_point(state, 0)
    base_front = tt.base_box(state, 0)[1]
    felt = pixel(view, image, (x, base_front - FELT_OFFSET, z))
    assert_hue(felt, tt.FELT, "the felt beside the roll")
    px, py = (int(round(v)) for v in view.project((x, y, z)))
    patch = image[py - INK_WINDOW:py + INK_WINDOW + 1, px - INK_WINDOW:px + INK_WINDOW + 1]
    assert patch.astype(float).sum(axis=2).max() * INK_SHARE > felt.sum()   # bright ink


def test_the_marker_shows_on_the_towers_top(scene):
    state, view, _ = scene
    image = view.image()
    point = tt.top_marker(state)
    assert_hue(pixel(view, image, point), tt.MARKER_COLOUR, "the marker")
