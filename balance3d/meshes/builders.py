"""Free functions that build every part of the three games as design-frame meshes.

Each builder returns ``(mesh, shapes)``: a watertight :class:`trimesh.Trimesh` in the
part's design frame and the convex collision pieces (see :mod:`shapes`) that make it
up.  Convex parts are one piece; non-convex parts (letters, the Tri-Ba-Lance frame)
are compounds of convex pieces that tile the mesh without overlap.  All lengths are
metres.  Pass the result to :func:`balance3d.meshes.part.make_part` for mass
properties.

The vertices and faces come from :mod:`balance3d.meshes.solids`, in a fixed order
and with the same bits everywhere; trimesh only holds them (``process=False``: it
neither merges nor reorders anything).  A hull piece lists its solid's own faces.
"""
from __future__ import annotations

import math

import numpy as np
import trimesh

from balance3d.meshes import solids
from balance3d.meshes.shapes import Box, Cylinder, Shape, Sphere, hull_of

#: Facets used to tessellate round meshes (cylinders, stadium ends); a multiple of 8.
ROUND_SECTIONS = 48
#: Icosphere subdivision level for spheres (volume within 0.1 % of the true sphere).
SPHERE_SUBDIVISIONS = 4
#: Steps per quarter circle between a rounded box's face normals on its edges and
#: corners (every 18 degrees; 200 vertices in all).
ROUNDED_CORNER_SEGMENTS = 5

Built = tuple[trimesh.Trimesh, tuple[Shape, ...]]


def _positive(name: str, value: float) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive length in metres, got {value!r}")
    return value


def _size(size) -> tuple[float, float, float]:
    values = tuple(_positive("size", s) for s in size)
    if len(values) != 3:
        raise ValueError(f"size must have 3 values, got {len(values)}")
    return values


def _mesh(solid: solids.Solid) -> trimesh.Trimesh:
    vertices, faces = solid
    return trimesh.Trimesh(vertices, solids.triangles(faces), process=False)


def _hull_part(solid: solids.Solid) -> Built:
    """A convex part: its mesh and one hull piece with the solid's own faces."""
    return _mesh(solid), (hull_of(*solid),)


def box(size) -> Built:
    """Box of ``size`` (3,) metres (x, y, z), centred on the origin."""
    half = tuple(s / 2.0 for s in _size(size))
    return _mesh(solids.box(half)), (Box(half),)


def cylinder(radius: float, height: float) -> Built:
    """Cylinder of ``radius`` and ``height`` (metres) along z, centred on the origin:
    a prism of :data:`ROUND_SECTIONS` corners on the circle, the first on +x."""
    radius, height = _positive("radius", radius), _positive("height", height)
    outline = [(radius * c, radius * s) for c, s in solids.circle(ROUND_SECTIONS)]
    return _mesh(solids.prism(outline, -height / 2.0, height / 2.0)), (Cylinder(radius, height),)


def sphere(radius: float) -> Built:
    """Sphere of ``radius`` metres centred on the origin."""
    radius = _positive("radius", radius)
    return _mesh(solids.icosphere(radius, SPHERE_SUBDIVISIONS)), (Sphere(radius),)


def triangular_prism(width: float, height: float, length: float) -> Built:
    """Fulcrum: isosceles triangle (base ``width`` along x, apex ``height`` up z),
    extruded ``length`` along y.  Design origin: centre of the base face (z = 0), so
    the apex line is at z = height, x = 0."""
    width, height = _positive("width", width), _positive("height", height)
    length = _positive("length", length)
    outline = [(-width / 2.0, 0.0), (width / 2.0, 0.0), (0.0, height)]
    vertices, faces = solids.prism(outline, -length / 2.0, length / 2.0)
    # turn a quarter about x: (x, y, z) -> (x, -z, y), exactly
    turned = np.stack([vertices[:, 0], -vertices[:, 2] + 0.0, vertices[:, 1]], axis=1)
    return _hull_part((turned, faces))


def triangle_outline(side: float) -> np.ndarray:
    """(3, 2) float, metres: corners of an equilateral triangle of ``side`` with its
    centroid on the origin and one corner on the +y axis, counter-clockwise."""
    circumradius = side / math.sqrt(3.0)
    return np.array([[0.0, circumradius], [-side / 2.0, -circumradius / 2.0],
                     [side / 2.0, -circumradius / 2.0]])


def triangle_plate(side: float, thickness: float) -> Built:
    """Equilateral plate of ``side`` and ``thickness`` (metres); centroid at the origin,
    mid-thickness at z = 0, a corner on +y."""
    side, thickness = _positive("side", side), _positive("thickness", thickness)
    return _hull_part(solids.prism(triangle_outline(side).tolist(),
                                   -thickness / 2.0, thickness / 2.0))


def triangle_frame(side: float, bar_width: float, bar_height: float) -> Built:
    """Triangular frame: three mitred bars of ``bar_width`` x ``bar_height`` (metres)
    whose inner edges form an equilateral triangle of ``side``.  Design origin: the
    centroid, at the bars' top face (z = 0; the bars occupy z in [-bar_height, 0]).
    The three bars are the convex pieces; they meet on the mitre lines without
    overlap."""
    side = _positive("side", side)
    bar_width, bar_height = _positive("bar_width", bar_width), _positive("bar_height", bar_height)
    inner = triangle_outline(side).tolist()
    outer = triangle_outline(side + 2.0 * math.sqrt(3.0) * bar_width).tolist()
    shapes = []
    for i in range(3):
        j = (i + 1) % 3
        bar = [inner[j], inner[i], outer[i], outer[j]]
        shapes.append(hull_of(*solids.prism(bar, -bar_height, 0.0)))
    return _mesh(solids.ring(inner, outer, -bar_height, 0.0)), tuple(shapes)


def letter(rects, thickness: float) -> Built:
    """Extruded letter made of non-overlapping rectangles ``rects`` ((n, 4) x0, y0,
    x1, y1 metres, in the letter's plane), ``thickness`` metres along z.  Design
    origin: centre of the letter's bounding box, mid-thickness.  Each rectangle is a
    convex box piece, so the compound's volume equals the mesh's exactly."""
    thickness = _positive("thickness", thickness)
    rects = np.asarray(rects, dtype=float)
    if rects.ndim != 2 or rects.shape[1] != 4 or len(rects) == 0:
        raise ValueError("a letter needs rectangles given as [x0, y0, x1, y1] rows")
    if np.any(rects[:, 2] <= rects[:, 0]) or np.any(rects[:, 3] <= rects[:, 1]):
        raise ValueError("each rectangle needs x1 > x0 and y1 > y0")
    cx = (float(rects[:, 0].min()) + float(rects[:, 2].max())) / 2.0
    cy = (float(rects[:, 1].min()) + float(rects[:, 3].max())) / 2.0
    moved = [(x0 - cx, y0 - cy, x1 - cx, y1 - cy) for x0, y0, x1, y1 in rects.tolist()]
    mesh = _mesh(solids.rectangle_union(moved, -thickness / 2.0, thickness / 2.0))
    shapes = tuple(
        Box(((x1 - x0) / 2.0, (y1 - y0) / 2.0, thickness / 2.0),
            position=((x0 + x1) / 2.0, (y0 + y1) / 2.0, 0.0))
        for x0, y0, x1, y1 in moved)
    return mesh, shapes


def stadium(length: float, width: float, thickness: float) -> Built:
    """Logo plaque: a stadium (rectangle with half-disc ends) ``length`` along x,
    ``width`` along y, ``thickness`` along z (metres); centred on the origin.  Each
    end is a half circle of :data:`ROUND_SECTIONS` / 2 facets.  Convex: one hull
    piece."""
    length, width = _positive("length", length), _positive("width", width)
    thickness = _positive("thickness", thickness)
    if length < width:
        raise ValueError(f"stadium length {length} must be at least its width {width}")
    r = width / 2.0
    core = length / 2.0 - r
    circle = solids.circle(ROUND_SECTIONS)
    quarter = ROUND_SECTIONS // 4
    if core > 0.0:
        right = [circle[k % ROUND_SECTIONS] for k in range(3 * quarter, 5 * quarter + 1)]
        left = circle[quarter:3 * quarter + 1]
        outline = ([(core + r * c, r * s) for c, s in right]
                   + [(-core + r * c, r * s) for c, s in left])
    else:
        outline = [(r * c, r * s) for c, s in circle]
    return _hull_part(solids.prism(outline, -thickness / 2.0, thickness / 2.0))


def rounded_box(size, radius: float) -> Built:
    """Box of ``size`` (3,) metres (x, y, z) whose edges and corners are rounded to
    ``radius`` metres (at most half its smallest side), centred on the origin
    (:func:`balance3d.meshes.solids.rounded_box`, :data:`ROUNDED_CORNER_SEGMENTS`
    faces per quarter circle).  Convex: one hull piece."""
    size = _size(size)
    radius = _positive("radius", radius)
    if radius > min(size) / 2.0:
        raise ValueError(f"rounding radius {radius} exceeds half the smallest side "
                         f"{min(size) / 2.0}")
    half = tuple(s / 2.0 for s in size)
    return _hull_part(solids.rounded_box(half, radius, ROUNDED_CORNER_SEGMENTS))

