"""Every part of every bundled scene: mesh, mass properties, collision pieces, export."""
from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh
from scipy.spatial import Delaunay
from scipy.spatial.transform import Rotation

from balance3d.commands.models import FORMATS, export_scene_parts
from balance3d.meshes import Box, Cylinder, Hull, Sphere, builders
from balance3d.meshes.part import Material, make_part
from balance3d.scene import list_scenes, load_scene

WOOD = Material("wood", density=650.0, friction=0.5)


def _unique_parts():
    """(id, scene name, part name) for each distinct part spec of the bundled scenes
    (the Tilted variants share the basic scene's parts)."""
    seen, out = set(), []
    for name in list_scenes():
        scene = load_scene(name)
        for pname, spec in scene.data["parts"].items():
            key = (pname, repr(sorted(spec.items())))
            if key not in seen:
                seen.add(key)
                out.append(pytest.param(name, pname, id=f"{name}:{pname}"))
    return out


PARTS = _unique_parts()


def part_of(scene: str, name: str):
    return load_scene(scene).parts[name]


def tensor(mesh: trimesh.Trimesh, density: float) -> np.ndarray:
    """Inertia tensor about the centre of mass, kg m^2, straight from trimesh."""
    copy = trimesh.Trimesh(mesh.vertices, mesh.faces, process=False)
    copy.density = density
    return np.asarray(copy.moment_inertia)


# ------------------------------------------------------------------ every part
@pytest.mark.parametrize("scene,name", PARTS)
def test_mesh_is_watertight_with_positive_volume(scene, name):
    part = part_of(scene, name)
    assert part.mesh.is_watertight
    assert part.mesh.is_winding_consistent
    assert part.mesh.volume > 0


@pytest.mark.parametrize("scene,name", PARTS)
def test_mass_is_density_times_volume_or_the_override(scene, name):
    loaded = load_scene(scene)
    part, spec = loaded.parts[name], loaded.data["parts"][name]
    if "mass" in spec:
        assert part.mass == pytest.approx(spec["mass"], rel=1e-12)
    else:
        density = loaded.materials[spec["material"]].density
        assert part.mass == pytest.approx(density * part.mesh.volume, rel=1e-12)


@pytest.mark.parametrize("scene,name", PARTS)
def test_centre_of_mass_is_the_body_origin(scene, name):
    part = part_of(scene, name)
    size = float(np.max(part.mesh.extents))
    assert np.allclose(part.mesh.center_mass, 0.0, atol=1e-12 * size)
    # and the design frame puts it where the design mesh has it
    design = part.design_mesh()
    assert np.allclose(design.center_mass, part.design_from_body[:3, 3], atol=1e-12 * size)


@pytest.mark.parametrize("scene,name", PARTS)
def test_inertia_is_diagonal_in_the_body_frame(scene, name):
    part = part_of(scene, name)
    density = part.mass / part.mesh.volume
    body = tensor(part.mesh, density)
    scale = float(np.max(part.inertia))
    assert np.allclose(body, np.diag(part.inertia), rtol=0, atol=1e-9 * scale)
    assert np.all(part.inertia > 0)


@pytest.mark.parametrize("scene,name", PARTS)
def test_inertia_is_trimesh_tensor_rotated(scene, name):
    part = part_of(scene, name)
    density = part.mass / part.mesh.volume
    design = tensor(part.design_mesh(), density)
    rotation = part.design_from_body[:3, :3]  # body axes in design coordinates
    assert np.allclose(rotation @ rotation.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(rotation) == pytest.approx(1.0)
    rotated = rotation.T @ design @ rotation
    scale = float(np.max(part.inertia))
    assert np.allclose(rotated, np.diag(part.inertia), rtol=0, atol=1e-9 * scale)


@pytest.mark.parametrize("scene,name", PARTS)
def test_convex_pieces_have_the_mesh_volume(scene, name):
    part = part_of(scene, name)
    assert part.shapes_volume == pytest.approx(part.mesh.volume, rel=0.02)


def _inside(shape, points: np.ndarray, tol: float) -> np.ndarray:
    """Which of ``points`` ((n, 3), the part's body frame) lie in ``shape``."""
    rot = Rotation.from_quat(shape.orientation)
    local = rot.inv().apply(points - np.asarray(shape.position))
    if isinstance(shape, Box):
        return np.all(np.abs(local) <= np.asarray(shape.half_extents) + tol, axis=1)
    if isinstance(shape, Cylinder):
        return ((np.hypot(local[:, 0], local[:, 1]) <= shape.radius + tol)
                & (np.abs(local[:, 2]) <= shape.height / 2 + tol))
    if isinstance(shape, Sphere):
        return np.linalg.norm(local, axis=1) <= shape.radius + tol
    assert isinstance(shape, Hull)
    hull = trimesh.convex.convex_hull(np.asarray(shape.vertices))
    return Delaunay(hull.vertices).find_simplex(local) >= 0


def _winding_number(mesh: trimesh.Trimesh, points: np.ndarray) -> np.ndarray:
    """Generalised winding number of ``points`` ((n, 3)) with respect to a closed
    mesh: 1 inside, 0 outside (solid angles, van Oosterom & Strackee)."""
    out = []
    for chunk in np.array_split(points, max(1, len(points) // 50)):
        tri = mesh.triangles[None, :, :, :] - chunk[:, None, None, :]
        a, b, c = tri[..., 0, :], tri[..., 1, :], tri[..., 2, :]
        la, lb, lc = (np.linalg.norm(v, axis=-1) for v in (a, b, c))
        det = np.einsum("...i,...i", a, np.cross(b, c))
        div = (la * lb * lc + np.einsum("...i,...i", a, b) * lc
               + np.einsum("...i,...i", b, c) * la + np.einsum("...i,...i", c, a) * lb)
        out.append(2.0 * np.arctan2(det, div).sum(axis=1) / (4.0 * np.pi))
    return np.concatenate(out)


@pytest.mark.parametrize("scene,name", PARTS)
def test_convex_pieces_cover_the_mesh_in_the_body_frame(scene, name):
    part = part_of(scene, name)
    rng = np.random.default_rng(1)
    lo, hi = part.mesh.bounds
    candidates = rng.uniform(lo, hi, size=(800, 3))
    points = candidates[_winding_number(part.mesh, candidates) > 0.5]
    assert len(points) > 100
    covered = np.zeros(len(points), dtype=bool)
    for shape in part.shapes:
        covered |= _inside(shape, points, tol=1e-9)
    assert covered.all(), f"{(~covered).sum()} sample points outside every piece"


def test_compound_parts_are_compounds():
    """The non-convex parts (letters, the Tri-Ba-Lance frame) have several pieces."""
    for scene, name in [("tower", "letter_T"), ("tower", "letter_L"), ("tower", "letter_H"),
                        ("tribalance", "frame")]:
        part = part_of(scene, name)
        assert len(part.shapes) >= 2
        assert part.shapes_volume == pytest.approx(part.mesh.volume, rel=0.02)
        assert not part.mesh.is_convex


# ------------------------------------------------------------------ analytic checks
def test_box_inertia_matches_the_formula():
    a, b, c = 0.15, 0.025, 0.04
    part = make_part("box", *builders.box((a, b, c)), WOOD)
    m = 650.0 * a * b * c
    assert part.mass == pytest.approx(m, rel=1e-12)
    assert part.inertia == pytest.approx(
        [m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12],
        rel=1e-9)


def test_cylinder_inertia_matches_the_formula():
    r, h = 0.012, 0.028
    part = make_part("cyl", *builders.cylinder(r, h), WOOD)
    assert part.mesh.volume == pytest.approx(math.pi * r * r * h, rel=0.005)
    m = part.mass
    assert part.inertia == pytest.approx(
        [m * (3 * r * r + h * h) / 12, m * (3 * r * r + h * h) / 12, m * r * r / 2], rel=0.01)


def test_sphere_inertia_matches_the_formula():
    r = 0.06
    part = make_part("ball", *builders.sphere(r), WOOD)
    assert part.mesh.volume == pytest.approx(4 / 3 * math.pi * r**3, rel=0.005)
    assert part.inertia == pytest.approx([0.4 * part.mass * r * r] * 3, rel=0.005)


def test_triangle_plate_inertia_matches_the_formula():
    a, t = 0.40, 0.01
    part = make_part("plate", *builders.triangle_plate(a, t), WOOD)
    m = 650.0 * math.sqrt(3) / 4 * a * a * t
    assert part.mass == pytest.approx(m, rel=1e-9)
    in_plane = m * a * a / 24
    assert part.inertia == pytest.approx(
        [in_plane + m * t * t / 12, in_plane + m * t * t / 12, 2 * in_plane], rel=1e-9)


def test_letter_inertia_is_the_sum_of_its_boxes():
    """A letter's tensor equals its rectangles' box tensors moved to the common centre
    of mass (parallel-axis theorem): the mesh and the pieces agree."""
    part = part_of("tower", "letter_H")
    density = part.mass / part.mesh.volume
    total = np.zeros((3, 3))
    for box in part.shapes:
        hx, hy, hz = (2 * np.asarray(box.half_extents))
        m = density * hx * hy * hz
        own = np.diag([m * (hy * hy + hz * hz), m * (hx * hx + hz * hz),
                       m * (hx * hx + hy * hy)]) / 12
        d = np.asarray(box.position)
        total += own + m * (d @ d * np.eye(3) - np.outer(d, d))
    assert np.allclose(total, np.diag(part.inertia), rtol=0, atol=1e-9 * part.inertia.max())


def test_mass_override_keeps_the_shape_of_the_tensor():
    mesh, shapes = builders.cylinder(0.012, 0.012)
    light = make_part("p", mesh, shapes, WOOD)
    heavy = make_part("p", mesh, shapes, WOOD, mass=0.05)
    assert heavy.mass == 0.05
    assert heavy.inertia == pytest.approx(light.inertia * (0.05 / light.mass), rel=1e-12)


def test_tilted_part_gets_principal_axes():
    """A box drawn rotated about z: the body frame turns back to the box's own axes."""
    mesh, _ = builders.box((0.1, 0.02, 0.01))
    turn = trimesh.transformations.rotation_matrix(0.3, (0, 0, 1))
    mesh.apply_transform(turn)
    part = make_part("turned", mesh, (Hull(tuple(map(tuple, mesh.vertices)),
                                           tuple(map(tuple, mesh.faces))),), WOOD)
    assert sorted(part.mesh.extents) == pytest.approx([0.01, 0.02, 0.1], rel=1e-9)
    m = part.mass
    assert sorted(part.inertia) == pytest.approx(
        sorted([m * (0.02**2 + 0.01**2) / 12, m * (0.1**2 + 0.01**2) / 12,
                m * (0.1**2 + 0.02**2) / 12]), rel=1e-9)


@pytest.mark.parametrize("bad", [0.0, -0.01, float("nan"), float("inf")])
def test_builders_reject_bad_lengths(bad):
    with pytest.raises(ValueError, match="positive length"):
        builders.cylinder(bad, 0.01)


def test_make_part_rejects_a_bad_mass():
    with pytest.raises(ValueError, match="mass must be a positive number"):
        make_part("p", *builders.box((0.1, 0.1, 0.1)), WOOD, mass=float("nan"))


# ------------------------------------------------------------------ export
@pytest.mark.parametrize("file_format", FORMATS)
def test_export_writes_watertight_meshes(tmp_path, file_format):
    for name in ("tilted", "tribalance", "tower"):
        scene = load_scene(name)
        written = export_scene_parts(scene, tmp_path, file_format)
        assert [p.name for p in written] == [f"{part}.{file_format}" for part in scene.parts]
        for path, part in zip(written, scene.parts.values()):
            loaded = trimesh.load(path, force="mesh")
            design = part.design_mesh()
            assert loaded.is_watertight, path
            assert loaded.volume == pytest.approx(design.volume, rel=1e-5), path
            assert np.allclose(loaded.bounds, design.bounds, atol=1e-6), path
