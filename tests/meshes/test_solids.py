"""The explicit solids and their mass properties against geometry: caps that cover
their outline exactly with no T-junction, closed meshes, closed-form volumes and
inertia, agreement with trimesh's own integrals, symmetric parts that keep their
drawn axes, and the letter L's principal axes from its rectangles."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
import trimesh

from balance3d.meshes import builders, solids
from balance3d.meshes.mass import mass_properties
from balance3d.meshes.part import Material, make_part
from balance3d.scene import list_scenes, load_scene
from balance3d.scene_checks import letter_glyphs

WOOD = Material("wood", density=650.0, friction=0.5)
#: Relative round-off allowed between two exact formulas evaluated in floats.
ROUND_OFF = 1e-12


def _all_parts():
    seen, out = set(), []
    for name in list_scenes():
        scene = load_scene(name)
        for pname, part in scene.parts.items():
            key = (pname, repr(sorted(scene.data["parts"][pname].items())))
            if key not in seen:
                seen.add(key)
                out.append(pytest.param(part, id=f"{name}:{pname}"))
    return out


PARTS = _all_parts()


def edge_counts(faces) -> Counter:
    """Directed edges of ``faces`` (polygons or triangles) and how often each occurs."""
    return Counter((int(f[k]), int(f[(k + 1) % len(f)])) for f in faces for k in range(len(f)))


def closed(faces) -> bool:
    """Every directed edge once, and its reverse once: closed and consistently wound."""
    counts = edge_counts(faces)
    return all(n == 1 and counts.get((b, a)) == 1 for (a, b), n in counts.items())


def t_junctions(vertices: np.ndarray, faces) -> list[tuple[int, tuple[int, int]]]:
    """(vertex, edge) pairs where a vertex lies strictly inside an edge's segment."""
    v = np.asarray(vertices, float)
    scale = float(np.abs(v).max())
    out = []
    for a, b in {tuple(sorted(e)) for e in edge_counts(faces)}:
        d = v[b] - v[a]
        t = (v - v[a]) @ d / (d @ d)
        near = np.linalg.norm(v - v[a] - t[:, None] * d, axis=1) <= 1e-12 * scale
        inside = (t > 1e-9) & (t < 1 - 1e-9) & near
        out += [(int(k), (a, b)) for k in np.flatnonzero(inside)]
    return out


@pytest.mark.parametrize("part", PARTS)
def test_every_mesh_is_closed_and_outward(part):
    assert closed(part.mesh.faces)
    volume, _, _ = mass_properties(part.mesh.vertices, part.mesh.faces)
    assert volume > 0.0


@pytest.mark.parametrize("part", [p for p in PARTS if len(p.values[0].mesh.vertices) < 500])
def test_no_mesh_has_a_t_junction(part):
    assert t_junctions(part.mesh.vertices, part.mesh.faces) == []


@pytest.mark.parametrize("glyph", ["T", "L", "H"])
def test_letter_caps_cover_the_glyph_exactly(glyph):
    g = letter_glyphs()[glyph]
    rects = np.asarray(g["rects"], float) * ([0.04 / g["columns"], 0.06 / g["rows"]] * 2)
    mesh, _ = builders.letter(rects, 0.015)
    v, tri = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    top = tri[np.all(v[tri][:, :, 2] > 0.0, axis=1)]
    a, b, c = (v[top[:, k], :2] for k in range(3))
    areas = ((b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0]) / 2.0
    assert np.all(areas > 0.0)                      # counter-clockwise seen from above
    expected = float(np.sum((rects[:, 2] - rects[:, 0]) * (rects[:, 3] - rects[:, 1])))
    assert math.fsum(areas.tolist()) == pytest.approx(expected, rel=ROUND_OFF)
    assert closed(tri) and t_junctions(v, tri) == []
    # every corner of every rectangle is a vertex of the cap
    centre = [(rects[:, 0].min() + rects[:, 2].max()) / 2,
              (rects[:, 1].min() + rects[:, 3].max()) / 2]
    corners = {(round(x - centre[0], 12), round(y - centre[1], 12))
               for r in rects for x in (r[0], r[2]) for y in (r[1], r[3])}
    cap = {(round(x, 12), round(y, 12)) for x, y in v[v[:, 2] > 0][:, :2]}
    assert corners <= cap


def test_letters_reject_overlaps_and_pieces():
    with pytest.raises(ValueError, match="overlap"):
        builders.letter([[0, 0, 2, 1], [1, 0, 3, 1]], 0.01)
    with pytest.raises(ValueError, match="connected"):
        builders.letter([[0, 0, 1, 1], [1, 1, 2, 2]], 0.01)


def test_circle_is_exactly_symmetric():
    n = builders.ROUND_SECTIONS
    points = solids.circle(n)
    assert points[0] == (1.0, 0.0) and points[n // 4] == (0.0, 1.0)
    assert points[n // 2] == (-1.0, 0.0) and points[3 * n // 4] == (0.0, -1.0)
    for k in range(n):
        c, s = points[k]
        assert points[(n - k) % n] == (c, -s + 0.0)
        assert points[(n // 4 - k) % n] == (s, c)
        assert abs(math.hypot(c, s) - 1.0) <= 2e-16
        assert c == pytest.approx(math.cos(2 * math.pi * k / n), abs=1e-15)
    with pytest.raises(ValueError):
        solids.circle(12)


def test_icosphere_vertices_lie_on_the_sphere():
    r = 0.06
    vertices, faces = solids.icosphere(r, builders.SPHERE_SUBDIVISIONS)
    assert len(vertices) == 10 * 4 ** builders.SPHERE_SUBDIVISIONS + 2
    assert len(vertices) - 3 * len(faces) // 2 + len(faces) == 2      # Euler
    assert np.linalg.norm(vertices, axis=1) == pytest.approx(r, rel=1e-15)
    assert closed(faces)


# ------------------------------------------------------------------ mass properties
def test_box_mass_properties_are_exact():
    a, b, c = 0.15, 0.025, 0.04
    part = make_part("box", *builders.box((a, b, c)), WOOD)
    m = 650.0 * a * b * c
    assert part.mass == pytest.approx(m, rel=ROUND_OFF)
    assert part.inertia == pytest.approx(
        [m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12],
        rel=ROUND_OFF)
    assert np.abs(part.design_from_body[:3, 3]).max() <= ROUND_OFF * a


def test_cylinder_prism_mass_properties_match_the_polygon_formulas():
    """A prism on a regular n-gon of circumradius r: area n r^2 sin(a) / 2 and polar
    moment area r^2 (2 + cos a) / 6 per unit thickness, a = 2 pi / n."""
    r, h, n = 0.012, 0.028, builders.ROUND_SECTIONS
    part = make_part("cyl", *builders.cylinder(r, h), WOOD)
    alpha = 2 * math.pi / n
    area = n * r * r * math.sin(alpha) / 2
    m = 650.0 * area * h
    polar = m * r * r * (2 + math.cos(alpha)) / 6
    assert part.mass == pytest.approx(m, rel=ROUND_OFF)
    assert part.inertia == pytest.approx([polar / 2 + m * h * h / 12] * 2 + [polar],
                                         rel=ROUND_OFF)


def test_triangle_plate_mass_properties_match_the_formula():
    a, t = 0.40, 0.01
    part = make_part("plate", *builders.triangle_plate(a, t), WOOD)
    m = 650.0 * math.sqrt(3) / 4 * a * a * t
    in_plane = m * a * a / 24
    assert part.mass == pytest.approx(m, rel=ROUND_OFF)
    assert part.inertia == pytest.approx(
        [in_plane + m * t * t / 12, in_plane + m * t * t / 12, 2 * in_plane], rel=ROUND_OFF)


@pytest.mark.parametrize("part", PARTS)
def test_mass_properties_agree_with_trimesh_within_round_off(part):
    design = part.design_vertices()
    volume, centre, tensor = mass_properties(design, part.mesh.faces)
    other = trimesh.Trimesh(design, part.mesh.faces, process=False)
    size = float(np.max(part.extents))
    assert volume == pytest.approx(other.volume, rel=ROUND_OFF)
    assert np.allclose(centre, other.center_mass, rtol=0, atol=ROUND_OFF * size)
    reference = np.asarray(other.moment_inertia)      # density 1
    assert np.allclose(tensor, reference, rtol=0, atol=ROUND_OFF * np.abs(reference).max())


# ------------------------------------------------------------------ axes
SYMMETRIC = ["table", "beam", "fulcrum", "block_1", "base", "letter_T", "letter_H", "logo",
             "die", "stand", "ball", "plate", "frame", "piece_1"]


@pytest.mark.parametrize("name", SYMMETRIC)
def test_symmetric_parts_keep_their_drawn_axes(name):
    scene = next(load_scene(s) for s in list_scenes() if name in load_scene(s).parts)
    part = scene.parts[name]
    assert np.array_equal(part.design_from_body[:3, :3], np.eye(3))


def test_the_letter_l_turns_to_the_principal_axes_of_its_rectangles():
    """The L's in-plane principal angle from its two rectangles' second moments
    (tan 2 theta = 2 Ixy / (Ixx - Iyy) of the area about its centroid)."""
    scene = load_scene("tower")
    spec = scene.data["parts"]["letter_L"]
    g = letter_glyphs()[spec["glyph"]]
    rects = np.asarray(g["rects"], float) * ([spec["width"] / g["columns"],
                                              spec["height"] / g["rows"]] * 2)
    areas = (rects[:, 2] - rects[:, 0]) * (rects[:, 3] - rects[:, 1])
    cx, cy = (rects[:, 0] + rects[:, 2]) / 2, (rects[:, 1] + rects[:, 3]) / 2
    gx, gy = areas @ cx / areas.sum(), areas @ cy / areas.sum()
    w, h = rects[:, 2] - rects[:, 0], rects[:, 3] - rects[:, 1]
    sxx = float(np.sum(areas * (h * h / 12 + (cy - gy) ** 2)))     # integral of y^2
    syy = float(np.sum(areas * (w * w / 12 + (cx - gx) ** 2)))     # integral of x^2
    sxy = float(np.sum(areas * (cx - gx) * (cy - gy)))
    angle = 0.5 * math.atan2(-2 * sxy, sxx - syy)                   # principal axis of Ixx
    part = scene.parts["letter_L"]
    axes = part.design_from_body[:3, :3]                            # body axes, columns
    assert np.abs(axes[:, 2]) == pytest.approx([0.0, 0.0, 1.0], abs=1e-15)  # thickness axis
    turned = [math.atan2(axes[1, k], axes[0, k]) for k in range(2)]
    offsets = [((t - angle + math.pi / 2) % math.pi) - math.pi / 2 for t in turned]
    assert min(abs(o) for o in offsets) == pytest.approx(0.0, abs=1e-12)
    bx0 = float(rects[:, 0].min() + rects[:, 2].max()) / 2
    by0 = float(rects[:, 1].min() + rects[:, 3].max()) / 2
    assert part.design_from_body[:2, 3] == pytest.approx([gx - bx0, gy - by0], abs=1e-15)


def test_a_mirror_symmetric_glyph_gives_exactly_mirrored_pieces():
    """The H's legs sit at exactly opposite x and the T's bar and stem on one line:
    one ulp between the H's legs made a flat H settle tilted by about 1 um."""
    parts = load_scene("tower").parts
    left, right, bar = (np.asarray(s.position) for s in parts["letter_H"].shapes)
    assert left[0] == -right[0] and left[1] == right[1]
    assert abs(bar[0]) <= ROUND_OFF * abs(left[0])
    top, stem = (np.asarray(s.position) for s in parts["letter_T"].shapes)
    assert top[0] == stem[0]
    vertices = np.asarray(parts["letter_H"].design_vertices())
    xs = sorted({round(float(x), 15) for x in vertices[:, 0]})
    assert xs == sorted(-x for x in xs)
