"""Offscreen renders of a Tilted table (p3headlessgl: Mesa's OpenGL with shaders
and shadows), checked by the colour of the pixels where known points project: the
beam's wood lit on its top face, each staged block's length tint, the section
values' ink, the fulcrum, the felt beside the beam; poses moving pixels; the ghost
turning red when illegal.  Colours are compared by chromaticity (r, g, b over
their sum), which white light of any strength leaves unchanged."""
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.games.base import Drop
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame, table_top
from balance3d.gui.games.tilted import table as tilted_table
from balance3d.gui.view.grain import GRAIN_DEPTH, grain_levels
from balance3d.gui.view.lights import AMBIENT, FILL, SUN

SIZE = (640, 360)
#: pixels: half size of the square window read round a projected point.
WINDOW = 1
#: Largest chromaticity distance for "this colour" (8-bit rounding and blending
#: at an edge stay well below; the palette's closest pair is 0.03 apart).
SAME_HUE = 0.02
#: Relative tolerance on a lit face's brightness against Lambert's law.
LAMBERT_TOLERANCE = 0.06

PALETTE = {
    "beam": tilted_table.BEAM_WOOD, "fulcrum": tilted_table.FULCRUM_WOOD,
    "felt": tilted_table.FELT,
    **{f"{k}u": tint for k, tint in enumerate(tilted_table.BLOCK_TINTS, start=1)},
}


def chroma(rgb):
    rgb = np.asarray(rgb, float)[:3]
    return rgb / max(rgb.sum(), 1e-9)


def nearest(rgb):
    c = chroma(rgb)
    return min(PALETTE, key=lambda name: np.linalg.norm(chroma(PALETTE[name]) - c))


def pixel(view, image, point):
    xy = view.project(point)
    assert xy is not None, f"{point} is outside the view"
    x, y = (int(round(v)) for v in xy)
    patch = image[y - WINDOW:y + WINDOW + 1, x - WINDOW:x + WINDOW + 1].reshape(-1, 3)
    return np.median(patch.astype(float), axis=0)


def window(view, image, point, half):
    x, y = (int(round(v)) for v in view.project(point))
    return image[y - half:y + half + 1, x - half:x + half + 1].astype(float)


def assert_shows(view, image, point, name):
    rgb = pixel(view, image, point)
    assert nearest(rgb) == name, f"{point} shows {rgb} ({nearest(rgb)}), not {name}"
    assert np.linalg.norm(chroma(rgb) - chroma(PALETTE[name])) < SAME_HUE


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base(SIZE)   # no skip: a missing buffer fails with the reason


@pytest.fixture(scope="module")
def view(base):
    from balance3d.gui.view.table import TableView

    state = TiltedState.arranged(2, seed=1, low_end=+1)
    # two blocks on the high (-x) half, not enough to tip the beam
    state.stage([Drop("1u-1", -0.05, 0.0, 0.003), Drop("2u-2", -0.14, 0.0, 0.003)])
    table_view = TableView(base, state, shadows=True)
    cam = table_view.camera
    cam.target = np.array([-0.05, -0.02, 0.03])
    cam.distance, cam.heading, cam.pitch = 0.55, 0.0, 60.0
    yield table_view
    table_view.destroy()


def beam_point(state, s, t):
    frame = BeamFrame.of(state.world)
    return frame.to_world([(s, t, frame.half[2])])[0]


def test_beam_top_shows_lit_wood(view):
    image = view.image()
    state = view.state
    point = beam_point(state, 0.23, 0.02)   # clear of lines, values, blocks
    assert_shows(view, image, point, "beam")
    # brightness: Lambert's law for the top face's normal under the three lights
    normal = BeamFrame.of(state.world).rotation[:, 2]
    sun, fill = view.lights[1], view.lights[2]
    render = view.base.render
    light = AMBIENT
    for path, strength in ((sun, SUN), (fill, FILL)):
        towards = -np.array(path.getQuat(render).getForward())
        light += strength * max(float(np.dot(normal, towards)), 0.0)
    # the grain darkens by a factor in [1 - GRAIN_DEPTH, 1]
    brightest = np.asarray(PALETTE["beam"][:3]) * light * 255.0
    seen = pixel(view, image, point)
    assert np.all(seen <= brightest * (1 + LAMBERT_TOLERANCE) + 3.0)
    assert np.all(seen >= brightest * (1 - GRAIN_DEPTH) * (1 - LAMBERT_TOLERANCE) - 3.0)


def test_wood_shows_grain_and_the_felt_does_not(view):
    image = view.image()
    state = view.state
    # across the grain (the beam's width) the wood's brightness goes up and down
    across = [pixel(view, image, beam_point(state, 0.23, t)).sum()
              for t in np.linspace(-0.026, 0.026, 27)]
    assert (max(across) - min(across)) / max(across) > GRAIN_DEPTH / 2
    top = table_top(state.world)
    felt = [pixel(view, image, (x, -0.065, top)).sum() for x in np.linspace(-0.2, -0.16, 9)]
    assert (max(felt) - min(felt)) / max(felt) < 0.03


def test_the_grain_is_the_same_every_time():
    first = grain_levels()
    assert np.array_equal(first, grain_levels())
    assert first.min() >= 1 - GRAIN_DEPTH and first.max() <= 1.0
    # it tiles: the last row and column continue into the first ones smoothly
    step = np.abs(np.diff(first, axis=0)).max()
    assert np.abs(first[0] - first[-1]).max() <= 1.5 * step


def test_staged_blocks_show_their_length_tint(view):
    image = view.image()
    world = view.state.world
    for name, tint in (("1u-1", "1u"), ("2u-2", "2u")):
        pos, _ = world.pose(name)
        top = world.vertices(name)[:, 2].max()
        assert_shows(view, image, (pos[0], pos[1], top), tint)


def test_section_values_are_inked_on_the_wood(view):
    image = view.image()
    state = view.state
    # the "1" of the +x end's outer section, standing along the beam: a dark stroke
    # across its middle, somewhere within the digit's width (21 mm across the beam)
    beside = beam_point(state, 0.25, 0.022)
    wood = pixel(view, image, beside).sum()
    ink = min(window(view, image, beam_point(state, 0.25, t), 1).sum(axis=2).min()
              for t in np.linspace(-0.01, 0.01, 9))
    assert ink < 0.5 * wood
    # and no ink on the bare wood beside it
    assert window(view, image, beside, 2).sum(axis=2).min() > 0.7 * wood


def test_fulcrum_shows_under_the_beam(view):
    image = view.image()
    world = view.state.world
    front = world.vertices("fulcrum")[:, 1].min()
    # low on its front face: a design/body frame mix-up would lift it off here
    assert_shows(view, image, (0.0, front, 0.004), "fulcrum")


def test_beside_the_beam_is_the_table(view):
    image = view.image()
    top = table_top(view.state.world)
    assert_shows(view, image, (-0.1, -0.06, top), "felt")


def test_set_poses_moves_the_pixels(view):
    state = view.state
    world = state.world
    top = table_top(world)
    name = "2u-2"
    old_pos, old_quat = world.pose(name)
    old_top = world.vertices(name)[:, 2].max()
    # lay it on the felt in front of the beam, turned a quarter about z (xyzw)
    quat = Rotation.from_euler("z", 90, degrees=True).as_quat()
    new = np.array([-0.12, -0.07, top + 0.0125])
    view.set_poses({name: (new, quat)})
    try:
        image = view.image()
        for dy in (-0.018, 0.0, 0.018):   # its 50 mm length now runs along y
            assert_shows(view, image, (new[0], new[1] + dy, top + 0.025), "2u")
        assert_shows(view, image, (new[0] + 0.018, new[1], top), "felt")
        assert nearest(pixel(view, image, (old_pos[0], old_pos[1], old_top))) == "beam"
    finally:
        view.set_poses({name: (old_pos, old_quat)})


def test_ghost_takes_the_seats_colour_and_is_grey_when_refused(view):
    part = view.table.piece_part(view.state, "3u-1")
    top = table_top(view.state.world)
    pose = ((-0.1, -0.065, top + 0.03), (0.0, 0.0, 0.0, 1.0))
    centre = (-0.1, -0.065, top + 0.0425)

    def spread():
        """max - min channel over max: 0 for grey."""
        rgb = np.asarray(pixel(view, view.image(), centre), float)
        return (rgb.max() - rgb.min()) / max(rgb.max(), 1.0), rgb

    seat = view.table.seat_colour(view.state, view.state.current_player)
    try:
        view.show_ghost(part, pose, legal=False)
        grey, refused = spread()
        view.show_ghost(part, pose, legal=True)
        vivid, legal = spread()
    finally:
        view.hide_ghost()
    # legal: the seat's colour shows through (its strongest channel strongest);
    # refused: greyed out, the table's colour beneath, not the seat's
    assert int(np.argmax(legal)) == int(np.argmax(seat[:3])) and vivid > 0.3
    assert int(np.argmax(refused)) != int(np.argmax(seat[:3])) and grey < vivid


def test_landing_marker_rings_the_point(view):
    from balance3d.gui.view.overlays import MARKER_COLOUR, MARKER_RADII

    top = table_top(view.state.world)
    point = np.array([-0.12, -0.065, top])
    on_ring = point + (sum(MARKER_RADII) / 2.0, 0.0, 0.0)
    view.show_marker(point)
    try:
        image = view.image()
        ring = pixel(view, image, on_ring)
        assert np.linalg.norm(chroma(ring) - chroma(MARKER_COLOUR)) < SAME_HUE
        assert_shows(view, image, point, "felt")   # the ring's middle is open
    finally:
        view.hide_marker()
    assert_shows(view, view.image(), on_ring, "felt")


def _flip(ct):
    """The same contact seen from its other body."""
    return type(ct)(ct.body_b, ct.body_a, ct.position_b, ct.position_a,
                    tuple(-v for v in ct.normal), ct.distance, ct.normal_force)


def cyan_near(view, image, point, half=3):
    from balance3d.gui.view.overlays import FORCE_COLOUR

    patch = window(view, image, point, half).reshape(-1, 3)
    return min(np.linalg.norm(chroma(p) - chroma(FORCE_COLOUR)) for p in patch) < SAME_HUE


def test_contact_forces_show_as_arrows_over_the_bodies(view):
    from balance3d.gui.view.overlays import FORCE_LENGTH, FORCE_MAX_LENGTH

    world = view.state.world
    contacts = [ct for ct in world.contacts("1u-1") if ct.normal_force > 0.0]
    assert contacts, "the staged block rests on something"
    ct = max(contacts, key=lambda c: c.normal_force)
    length = min(FORCE_LENGTH * ct.normal_force, FORCE_MAX_LENGTH)
    # the block rests on the beam: the arrow is the beam's push on it, upwards
    support = ct if ct.body_a == "1u-1" else _flip(ct)
    assert support.normal[2] > 0.9
    middle = np.asarray(support.position_b) + np.asarray(support.normal) * length / 2.0
    view.show_forces(world.contacts())
    try:
        assert cyan_near(view, view.image(), middle)
    finally:
        view.hide_forces()
    assert not cyan_near(view, view.image(), middle)


def test_offscreen_base_is_made_once_and_resized(base):
    from balance3d.gui.view.offscreen import offscreen_base

    try:
        again = offscreen_base((320, 200))
        assert again is base
        assert (base.win.getXSize(), base.win.getYSize()) == (320, 200)
        texture = base.win.getScreenshot()
        assert (texture.getXSize(), texture.getYSize()) == (320, 200)
    finally:
        offscreen_base(SIZE)
    assert (base.win.getXSize(), base.win.getYSize()) == SIZE


def test_a_block_casts_its_shadow_away_from_the_sun(view, base):
    """In a second view on the same base (lights made anew): the felt beside a
    block on the sun's far side is in shadow, lit only by the ambient and fill
    lights; on its near side it is lit by the sun too (Lambert, flat felt)."""
    from balance3d.gui.view.table import TableView

    view.root.hide()
    state = TiltedState.arranged(2, seed=1, low_end=+1)
    fresh = TableView(base, state, shadows=True)
    try:
        cam = fresh.camera
        cam.target = np.array([-0.1, -0.06, 0.0])
        cam.distance, cam.heading, cam.pitch = 0.45, 0.0, 60.0
        top = table_top(state.world)
        half = 0.0125   # 1u block: 25 mm cube, resting on the felt
        x0, y0 = -0.1, -0.06
        fresh.set_poses({"1u-1": ((x0, y0, top + half), (0.0, 0.0, 0.0, 1.0))})
        render = base.render
        sun, fill = fresh.lights[1], fresh.lights[2]
        towards_sun = -np.array(sun.getQuat(render).getForward())
        towards_fill = -np.array(fill.getQuat(render).getForward())
        assert towards_sun[0] < 0 and towards_sun[2] > 0   # shadows fall towards +x
        # the shadow of the top face reaches this far past the +x face
        reach = 2 * half * -towards_sun[0] / towards_sun[2]
        shade = (x0 + half + reach / 2.0, y0, top)
        lit = (x0 - half - reach / 2.0, y0, top)
        image = fresh.image()
        ambient_fill = AMBIENT + FILL * max(towards_fill[2], 0.0)
        expected = ambient_fill / (ambient_fill + SUN * towards_sun[2])
        ratio = pixel(fresh, image, shade).sum() / pixel(fresh, image, lit).sum()
        assert ratio == pytest.approx(expected, abs=0.05)
        assert_shows(fresh, image, shade, "felt")
    finally:
        fresh.destroy()
        view.root.show()


def test_a_plumb_line_joins_the_ghost_to_its_landing_ring(view):
    from balance3d.gui.view.overlays import MARKER_COLOUR

    part = view.table.piece_part(view.state, "1u-1")
    top = table_top(view.state.world)
    x, y = -0.15, -0.065
    high = top + 0.08
    middle = (x, y, (top + high) / 2.0)

    def yellow_near(image):
        patch = window(view, image, middle, 2).reshape(-1, 3)
        return min(np.linalg.norm(chroma(p) - chroma(MARKER_COLOUR)) for p in patch) < SAME_HUE

    try:
        view.show_ghost(part, ((x, y, high), (0.0, 0.0, 0.0, 1.0)), legal=True)
        view.show_marker((x, y, top))
        assert yellow_near(view.image())
        view.hide_ghost()
        assert not yellow_near(view.image())
    finally:
        view.hide_ghost()
        view.hide_marker()


def test_the_held_tray_piece_rises_and_glows_until_put_back(view):
    from balance3d.gui.view.table import HELD_LIFT

    state = view.state
    piece = next(p for p in state.hand(state.current_player) if p not in state.world.names)
    node = view.node(piece)
    z = node.getZ()
    top = table_top(state.world)
    pose = ((-0.1, -0.065, top + 0.03), (0.0, 0.0, 0.0, 1.0))
    try:
        view.show_ghost(view.table.piece_part(state, piece), pose, True, held=piece)
        assert view.held == piece
        assert node.getZ() == pytest.approx(z + HELD_LIFT)
        glow = node.getColorScale()
        assert min(glow[0], glow[1], glow[2]) > 1.0             # lit brighter
        view.show_ghost(view.table.piece_part(state, piece), pose, False, held=piece)
        assert node.getZ() == pytest.approx(z + HELD_LIFT)      # lifted once, not twice
    finally:
        view.hide_ghost()
    assert view.held is None and node.getZ() == pytest.approx(z)
    assert tuple(node.getColorScale()) == (1.0, 1.0, 1.0, 1.0)


def _edge_share(view, image, centre, half):
    """The share of pixels in a (2 half + 1)^2 window round ``centre`` whose
    brightness lies in the middle half between the darkest and the brightest: the
    pixels an edge covers in part."""
    patch = window(view, image, centre, half).sum(axis=2)
    low, high = patch.min(), patch.max()
    middle = (patch > low + 0.25 * (high - low)) & (patch < high - 0.25 * (high - low))
    return float(middle.mean())


def test_soft_lines_fade_at_their_edges_where_hard_ones_step(view):
    from balance3d.gui.view.marks import DARK_INK, flat_rect, soft_rect

    top = table_top(view.state.world) + 0.002
    # on the bare felt between the arrow and the front mat, turned 20 degrees so the
    # edges cross pixels at every phase: a 2 mm line, 24 mm long, each way
    centres = {flat_rect: (-0.16, -0.066, top), soft_rect: (-0.09, -0.066, top)}
    marks = view.decor.attachNewNode("line-test")
    try:
        for draw, centre in centres.items():
            pivot = marks.attachNewNode(draw.__name__)
            pivot.setPos(*centre)
            pivot.setH(20.0)
            draw(pivot, "line", (-0.001, -0.012, 0.001, 0.012), 0.0, DARK_INK)
        image = view.image()
        hard, soft = (_edge_share(view, image, centres[draw], 5)
                      for draw in (flat_rect, soft_rect))
    finally:
        marks.removeNode()
    # a hard edge leaves only the felt's and the ink's own shades; a soft one
    # half-covers a pixel at about every other row on each side
    assert hard < 0.02, hard
    assert soft > 0.05, soft
