"""The Tower's parts against the rules' description: chunky non-convex letter pieces
(compounds of convex pieces with the mesh's volume), rounded logo plaques, four
plinths, two dice whose faces are rules data, and their export."""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh

from balance3d.commands.models import export_scene_parts
from balance3d.meshes import Hull, builders
from balance3d.scene import load_scene

TOWER = load_scene("tower")
RULES = TOWER.rules
#: m: the rules' sizes: letter about 0.06 x 0.04 x 0.015, logo about 0.05 x 0.03 x
#: 0.015, plinths 0.10 x 0.10 x 0.02 spaced 0.30 apart.
LETTER_SIZE, LOGO_SIZE = (0.04, 0.06, 0.015), (0.05, 0.03, 0.015)
BASE_SIZE, BASE_SPACING, BASES = (0.10, 0.10, 0.02), 0.30, 4
#: m: a letter is chunky when each of its strokes is at least this wide.
MIN_STROKE = 0.01
#: A letter is non-convex when its convex hull is at least this much (relative)
#: larger than it.
NON_CONVEX = 0.1
#: Relative volume the convex pieces may differ from the mesh by (the issue's 2 %).
COMPOUND_VOLUME_TOLERANCE = 0.02
#: Die faces, as the rules list them.
DIE_1 = ["play 1", "play 2", "play 3", "play 4", "give penalty", "receive penalty"]
DIE_2 = {"letter": 2, "logo": 2, "letter or logo": 2}
#: m: the dice's side; their edges are rounded (radius strictly between 0 and half
#: the side).
DIE_SIDE = 0.02
#: m: STL stores single-precision floats (7 digits of a 0.06 m part).
EXPORT_PRECISION = 1e-8


def design_extents(part) -> np.ndarray:
    """(3,) m: the part's size along its design axes."""
    return part.design_mesh().extents


@pytest.mark.parametrize("name", RULES["letter_parts"])
def test_letter_pieces_are_chunky_non_convex_capitals(name):
    part = TOWER.parts[name]
    assert design_extents(part) == pytest.approx(LETTER_SIZE, abs=1e-12)
    hull = part.mesh.convex_hull.volume
    assert hull >= (1 + NON_CONVEX) * part.mesh.volume
    assert len(part.shapes) >= 2
    for shape in part.shapes:
        assert min(2 * h for h in shape.half_extents) >= MIN_STROKE
    assert part.shapes_volume == pytest.approx(part.mesh.volume, rel=COMPOUND_VOLUME_TOLERANCE)


#: m, a centre of mass this close to an axis of symmetry is on it (round-off).
ON_AXIS = 1e-9


def test_the_letters_are_t_l_and_h_and_differ():
    """Each letter's centre of mass (in its glyph's design frame, the glyph's box
    centred on the origin, upright along +y) lies where its shape puts it: H,
    symmetric about both axes, at the centre; T, symmetric about x = 0, on that
    axis and towards its top bar (+y); L towards its corner (-x, -y).  So no two
    letters are the same shape."""
    glyphs = {TOWER.data["parts"][name]["glyph"]: name for name in RULES["letter_parts"]}
    assert sorted(glyphs) == ["H", "L", "T"]
    centre = {g: TOWER.parts[name].design_from_body[:2, 3] for g, name in glyphs.items()}
    h, t, ell = centre["H"], centre["T"], centre["L"]
    assert abs(h[0]) < ON_AXIS and abs(h[1]) < ON_AXIS
    assert abs(t[0]) < ON_AXIS and t[1] > ON_AXIS
    assert ell[0] < -ON_AXIS and ell[1] < -ON_AXIS


def covers(mesh: trimesh.Trimesh, x: float, y: float) -> bool:
    """Whether the point (x, y) (m) lies under one of ``mesh``'s upward faces."""
    up = mesh.triangles[mesh.face_normals[:, 2] > 0.5][:, :, :2]
    a, b, c = up[:, 0], up[:, 1], up[:, 2]
    p = np.array([x, y])

    def side(u, v):
        return (v[:, 0] - u[:, 0]) * (p[1] - u[:, 1]) - (v[:, 1] - u[:, 1]) * (p[0] - u[:, 0])

    s1, s2, s3 = side(a, b), side(b, c), side(c, a)
    return bool(np.any(((s1 >= 0) & (s2 >= 0) & (s3 >= 0)) | ((s1 <= 0) & (s2 <= 0) & (s3 <= 0))))


def test_the_t_is_a_t():
    """A bar across the whole top quarter, a stem a third wide down the middle."""
    mesh = TOWER.parts["letter_T"].design_mesh()
    w, h, t = LETTER_SIZE

    def inside(x: float, y: float) -> bool:
        return covers(mesh, x, y)

    assert inside(-0.45 * w, 0.45 * h) and inside(0.45 * w, 0.45 * h)
    assert inside(0.0, -0.45 * h)
    assert not inside(-0.45 * w, -0.45 * h) and not inside(0.45 * w, -0.45 * h)


def test_logo_pieces_are_rounded_plaques():
    """Convex, with half-disc ends: every outline point beyond the straight sides
    lies on a circle of half the width around its end's centre."""
    part = TOWER.parts[RULES["logo_part"]]
    mesh = part.design_mesh()
    assert mesh.extents == pytest.approx(LOGO_SIZE, abs=1e-12)
    assert mesh.volume == pytest.approx(mesh.convex_hull.volume, rel=1e-9)
    length, width, _ = LOGO_SIZE
    r = width / 2
    ends = mesh.vertices[np.abs(mesh.vertices[:, 0]) > length / 2 - r + 1e-9]
    assert len(ends) > 0
    centres = np.sign(ends[:, 0]) * (length / 2 - r)
    assert np.hypot(ends[:, 0] - centres, ends[:, 1]) == pytest.approx(r, abs=1e-12)
    assert len(part.shapes) == 1


def test_four_static_plinths_spaced_as_the_rules_say():
    bases = [b for b in TOWER.bodies if TOWER.parts[b.part].static and b.part != "table"]
    assert len(bases) == BASES
    for spec in bases:
        assert design_extents(TOWER.parts[spec.part]) == pytest.approx(BASE_SIZE, abs=1e-12)
        assert spec.position[2] == pytest.approx(BASE_SIZE[2] / 2)   # on the table top
    xs = sorted(b.position[0] for b in bases)
    assert np.diff(xs) == pytest.approx([BASE_SPACING] * (BASES - 1))


def test_the_dice_are_rounded_cubes_with_their_faces_as_rules_data():
    die = TOWER.parts["die"]
    assert design_extents(die) == pytest.approx([DIE_SIDE] * 3, abs=1e-12)
    radius = TOWER.data["parts"]["die"]["radius"]
    assert 0.0 < radius < DIE_SIDE / 2
    # rounded: less than the cube, more than the cube less its edges' square corners
    edge_loss = 12 * (1 - math.pi / 4) * radius ** 2 * (DIE_SIDE - 2 * radius)
    corner_loss = 8 * (radius ** 3 - math.pi / 6 * radius ** 3)
    exact = DIE_SIDE ** 3 - edge_loss - corner_loss
    assert die.mesh.volume == pytest.approx(exact, rel=0.005)
    assert isinstance(die.shapes[0], Hull) and len(die.shapes) == 1
    assert not die.static
    assert RULES["die_1"] == DIE_1
    assert {face: RULES["die_2"].count(face) for face in RULES["die_2"]} == DIE_2


def test_rounded_box_rejects_a_radius_beyond_half_its_side():
    with pytest.raises(ValueError, match="radius"):
        builders.rounded_box((0.02, 0.02, 0.01), 0.006)


@pytest.mark.parametrize("file_format", ["obj", "stl"])
def test_models_export_writes_every_tower_part(tmp_path, file_format):
    written = {p.stem: p for p in export_scene_parts(TOWER, tmp_path, file_format)}
    for name in [*RULES["letter_parts"], RULES["logo_part"], "base", "die"]:
        mesh = trimesh.load(written[name], force="mesh")
        part = TOWER.parts[name]
        assert mesh.is_watertight
        assert mesh.volume == pytest.approx(part.mesh.volume, rel=1e-6)
        assert mesh.extents == pytest.approx(design_extents(part), abs=EXPORT_PRECISION)
