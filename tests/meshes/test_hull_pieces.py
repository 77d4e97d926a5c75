"""Hull pieces as the engine gets them: shrunk by the collision margin with every
face moved in by exactly that much, written to OBJ files that list the piece's own
vertices and faces, read by pybullet as that solid; and start poses against SciPy's
rotations."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.meshes import Hull, builders, solids
from balance3d.meshes.mass import volume
from balance3d.physics.hulls import face_planes, hull_obj_path, hull_obj_text, shrink_hull
from balance3d.physics.quiet import quiet_output
from balance3d.scene import body_pose, list_scenes, load_scene, rpy_to_quat

with quiet_output():
    import pybullet

MARGIN = load_scene("tower").physics.collision_margin
#: m: round-off allowed on a plane's offset (coordinates of a few centimetres).
PLANE_ROUND_OFF = 1e-15
#: m: how far a hull point pybullet reports (``getMeshData``) may lie from the file's;
#: measured up to 2.0e-6 m on the die (Bullet's own hull computation moves them).
BULLET_POINT_OFFSET = 5e-6


def _hull_pieces():
    seen, out = set(), []
    for name in list_scenes():
        for pname, part in load_scene(name).parts.items():
            for k, piece in enumerate(part.shapes):
                key = (pname, piece.vertices if isinstance(piece, Hull) else None)
                if isinstance(piece, Hull) and key not in seen:
                    seen.add(key)
                    out.append(pytest.param(piece, id=f"{name}:{pname}:{k}"))
    return out


HULLS = _hull_pieces()


@pytest.mark.parametrize("piece", HULLS)
def test_the_shrunk_hull_lies_the_margin_inside_every_face(piece):
    vertices = np.asarray(piece.vertices)
    shrunk = shrink_hull(vertices, piece.faces, MARGIN)
    normals, offsets = face_planes(vertices, piece.faces)
    after, moved = face_planes(shrunk, piece.faces)
    assert np.abs(after - normals).max() <= 1e-9           # same directions
    assert moved == pytest.approx(offsets - MARGIN, abs=PLANE_ROUND_OFF)
    # every shrunk vertex lies at least the margin inside every original face
    depth = offsets[None, :] - shrunk @ normals.T
    assert depth.min() >= MARGIN - PLANE_ROUND_OFF
    assert volume(shrunk, solids.triangles(piece.faces)) < volume(vertices,
                                                                   solids.triangles(piece.faces))


def test_a_shrunk_rounded_box_is_the_rounded_box_of_the_smaller_radius():
    half, r, k = (0.01, 0.01, 0.01), 0.002, builders.ROUNDED_CORNER_SEGMENTS
    vertices, faces = solids.rounded_box(half, r, k)
    inner, _ = solids.rounded_box([h - MARGIN for h in half], r - MARGIN, k)
    assert shrink_hull(vertices, faces, MARGIN) == pytest.approx(inner, abs=PLANE_ROUND_OFF)


def test_a_shrunk_prism_is_the_prism_of_the_offset_outline():
    """A 3-4-5 right triangle's incircle has radius 1 (cm): shrunk by d, the triangle
    is the similar one whose incircle has radius 1 - d, about the same centre."""
    outline = [(0.0, 0.0), (0.04, 0.0), (0.0, 0.03)]
    vertices, faces = solids.prism(outline, -0.005, 0.005)
    shrunk = shrink_hull(vertices, faces, MARGIN)
    scale = (0.01 - MARGIN) / 0.01
    expected = [(0.01 + (x - 0.01) * scale, 0.01 + (y - 0.01) * scale) for x, y in outline]
    assert shrunk[:3, :2] == pytest.approx(np.array(expected), abs=PLANE_ROUND_OFF)
    assert shrunk[:, 2] == pytest.approx([-0.005 + MARGIN] * 3 + [0.005 - MARGIN] * 3,
                                         abs=PLANE_ROUND_OFF)


def test_a_piece_thinner_than_twice_the_margin_is_refused():
    vertices, faces = solids.box((0.01, 0.01, 0.9 * MARGIN))
    with pytest.raises(ValueError, match="too thin"):
        shrink_hull(vertices, faces, MARGIN)


def test_planes_that_do_not_meet_in_a_point_are_refused():
    """A square pyramid's apex lies on four faces; moved in, they meet in a ridge."""
    vertices = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0], [0.3, 0, 1]]) * 0.02
    faces = ((3, 2, 1, 0), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4))
    with pytest.raises(ValueError, match="one point"):
        shrink_hull(vertices, faces, MARGIN)


def test_the_obj_file_lists_the_piece_in_its_own_order(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    vertices, faces = solids.box((0.01, 0.02, 0.03))
    text = hull_obj_text(vertices, faces)
    lines = text.splitlines()
    assert lines[:8] == [f"v {x!r} {y!r} {z!r}" for x, y, z in vertices.tolist()]
    assert lines[8] == "f 4 3 2" and lines[9] == "f 4 2 1"     # bottom face (3, 2, 1, 0)
    assert len(lines) == 8 + 12
    path = hull_obj_path(vertices, faces)
    assert open(path, encoding="ascii").read().startswith(text)


def test_pybullet_reads_the_obj_file_as_that_solid(tmp_path, monkeypatch):
    """The engine's hull of the die's file has the die's points, each once."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    die = load_scene("tower").parts["die"].shapes[0]
    path = hull_obj_path(np.asarray(die.vertices), die.faces)
    client = pybullet.connect(pybullet.DIRECT)
    try:
        shape = pybullet.createCollisionShape(pybullet.GEOM_MESH, fileName=path,
                                              physicsClientId=client)
        body = pybullet.createMultiBody(0.0, shape, physicsClientId=client)
        _, points = pybullet.getMeshData(body, -1, physicsClientId=client)
    finally:
        pybullet.disconnect(client)
    ours = np.asarray(die.vertices)
    gaps = np.abs(np.asarray(points)[:, None, :] - ours[None, :, :]).max(axis=2)
    assert len(points) == len(ours)
    assert sorted(gaps.argmin(axis=1)) == list(range(len(ours)))
    assert gaps.min(axis=1).max() <= BULLET_POINT_OFFSET


# ------------------------------------------------------------------ start poses
@pytest.mark.parametrize("rpy", [(0.0, 0.0, 0.0), (0.3, -1.2, 2.9), (math.pi / 2, 0.0, 0.1)])
def test_rpy_to_quat_turns_as_scipy_does(rpy):
    ours = Rotation.from_quat(rpy_to_quat(rpy)).as_matrix()
    assert ours == pytest.approx(Rotation.from_euler("xyz", rpy).as_matrix(), abs=1e-15)


def test_body_pose_places_the_design_origin_where_asked():
    part = load_scene("tower").parts["letter_L"]
    quat = rpy_to_quat((0.2, 0.4, -0.7))
    position, body_quat = body_pose(part, (0.1, -0.2, 0.3), quat)
    turn = Rotation.from_quat(body_quat)
    design_origin_in_body = -part.design_from_body[:3, :3].T @ part.design_from_body[:3, 3]
    assert position + turn.apply(design_origin_in_body) == pytest.approx([0.1, -0.2, 0.3],
                                                                         abs=1e-15)
    expected = Rotation.from_quat(quat) * Rotation.from_matrix(part.design_from_body[:3, :3])
    assert (turn.inv() * expected).magnitude() == pytest.approx(0.0, abs=1e-14)
