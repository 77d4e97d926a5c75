"""Free functions that build every part of the three games as design-frame meshes.

Each builder returns ``(mesh, shapes)``: a watertight :class:`trimesh.Trimesh` in the
part's design frame and the convex collision pieces (see :mod:`shapes`) that make it
up.  Convex parts are one piece; non-convex parts (letters, the Tri-Ba-Lance frame)
are compounds of convex pieces that tile the mesh without overlap.  All lengths are
metres.  Pass the result to :func:`balance3d.meshes.part.make_part` for mass
properties.
"""
from __future__ import annotations

import numpy as np
import shapely.geometry as sg
import shapely.affinity
import shapely.ops
import trimesh

from balance3d.meshes.shapes import Box, Cylinder, Hull, Shape, Sphere

#: Facets used to tessellate round meshes (cylinders, stadium ends).
ROUND_SECTIONS = 48
#: Icosphere subdivision level for spheres (volume within 0.1 % of the true sphere).
SPHERE_SUBDIVISIONS = 4
#: Icosphere subdivision level of a rounded box's corners (162 points each).
ROUNDED_CORNER_SUBDIVISIONS = 2

Built = tuple[trimesh.Trimesh, tuple[Shape, ...]]


def _positive(name: str, value: float) -> float:
    value = float(value)
    if not (np.isfinite(value) and value > 0.0):
        raise ValueError(f"{name} must be a positive length in metres, got {value!r}")
    return value


def box(size) -> Built:
    """Box of ``size`` (3,) metres (x, y, z), centred on the origin."""
    size = np.array([_positive("size", s) for s in size], dtype=float)
    if size.shape != (3,):
        raise ValueError(f"size must have 3 values, got {size.shape}")
    mesh = trimesh.creation.box(extents=size)
    return mesh, (Box(tuple(size / 2.0)),)


def cylinder(radius: float, height: float) -> Built:
    """Cylinder of ``radius`` and ``height`` (metres) along z, centred on the origin."""
    radius, height = _positive("radius", radius), _positive("height", height)
    mesh = trimesh.creation.cylinder(radius=radius, height=height, sections=ROUND_SECTIONS)
    return mesh, (Cylinder(radius, height),)


def sphere(radius: float) -> Built:
    """Sphere of ``radius`` metres centred on the origin."""
    radius = _positive("radius", radius)
    mesh = trimesh.creation.icosphere(subdivisions=SPHERE_SUBDIVISIONS, radius=radius)
    return mesh, (Sphere(radius),)


def _prism(outline: np.ndarray, thickness: float) -> Built:
    """Convex polygon ``outline`` (n, 2) in xy extruded over z in [-t/2, t/2]."""
    polygon = sg.Polygon(outline)
    mesh = trimesh.creation.extrude_polygon(polygon, thickness)
    mesh.apply_translation((0.0, 0.0, -thickness / 2.0))
    return mesh, (Hull(tuple(map(tuple, mesh.vertices))),)


def triangular_prism(width: float, height: float, length: float) -> Built:
    """Fulcrum: isosceles triangle (base ``width`` along x, apex ``height`` up z),
    extruded ``length`` along y.  Design origin: centre of the base face (z = 0), so
    the apex line is at z = height, x = 0."""
    width, height = _positive("width", width), _positive("height", height)
    length = _positive("length", length)
    outline = np.array([[-width / 2, 0.0], [width / 2, 0.0], [0.0, height]])
    mesh, _ = _prism(outline, length)
    rotate = trimesh.transformations.rotation_matrix(np.pi / 2, (1, 0, 0))
    mesh.apply_transform(rotate)
    return mesh, (Hull(tuple(map(tuple, mesh.vertices))),)


def triangle_outline(side: float) -> np.ndarray:
    """(3, 2) float, metres: corners of an equilateral triangle of ``side`` with its
    centroid on the origin and one corner on the +y axis."""
    circumradius = side / np.sqrt(3.0)
    angles = np.pi / 2 + np.array([0.0, 2 * np.pi / 3, 4 * np.pi / 3])
    return circumradius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def triangle_plate(side: float, thickness: float) -> Built:
    """Equilateral plate of ``side`` and ``thickness`` (metres); centroid at the origin,
    mid-thickness at z = 0, a corner on +y."""
    side, thickness = _positive("side", side), _positive("thickness", thickness)
    return _prism(triangle_outline(side), thickness)


def triangle_frame(side: float, bar_width: float, bar_height: float) -> Built:
    """Triangular frame: three mitred bars of ``bar_width`` x ``bar_height`` (metres)
    whose inner edges form an equilateral triangle of ``side``.  Design origin: the
    centroid, at the bars' top face (z = 0; the bars occupy z in [-bar_height, 0]).
    The three bars are the convex pieces; they meet on the mitre lines without
    overlap."""
    side = _positive("side", side)
    bar_width, bar_height = _positive("bar_width", bar_width), _positive("bar_height", bar_height)
    inner = triangle_outline(side)
    outer = triangle_outline(side + 2.0 * np.sqrt(3.0) * bar_width)
    shapes: list[Shape] = []
    meshes = []
    for i in range(3):
        j = (i + 1) % 3
        quad = np.array([inner[i], inner[j], outer[j], outer[i]])
        mesh, (hull,) = _prism(quad, bar_height)
        mesh.apply_translation((0.0, 0.0, -bar_height / 2.0))
        meshes.append(mesh)
        shapes.append(Hull(tuple(map(tuple, mesh.vertices))))
    ring = sg.Polygon(triangle_outline(side + 2.0 * np.sqrt(3.0) * bar_width), [inner])
    mesh = trimesh.creation.extrude_polygon(ring, bar_height)
    mesh.apply_translation((0.0, 0.0, -bar_height))
    return mesh, tuple(shapes)


def rectangles_outline(rects) -> sg.Polygon:
    """Union of axis-aligned rectangles ``rects`` ((n, 4): x0, y0, x1, y1 metres)."""
    polys = [sg.box(*r) for r in rects]
    union = shapely.ops.unary_union(polys)
    if union.geom_type != "Polygon":
        raise ValueError("rectangles do not form one connected shape")
    return union


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
    outline = rectangles_outline(rects)
    area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects)
    if not np.isclose(outline.area, area, rtol=1e-9):
        raise ValueError("a letter's rectangles overlap")
    minx, miny, maxx, maxy = outline.bounds
    centre = np.array([(minx + maxx) / 2, (miny + maxy) / 2])
    outline = shapely.affinity.translate(outline, -centre[0], -centre[1])
    mesh = trimesh.creation.extrude_polygon(outline, thickness)
    mesh.apply_translation((0.0, 0.0, -thickness / 2.0))
    shapes = tuple(
        Box(((r[2] - r[0]) / 2, (r[3] - r[1]) / 2, thickness / 2),
            position=((r[0] + r[2]) / 2 - centre[0], (r[1] + r[3]) / 2 - centre[1], 0.0))
        for r in rects
    )
    return mesh, shapes


def stadium(length: float, width: float, thickness: float) -> Built:
    """Logo plaque: a stadium (rectangle with half-disc ends) ``length`` along x,
    ``width`` along y, ``thickness`` along z (metres); centred on the origin.
    Convex: one hull piece."""
    length, width = _positive("length", length), _positive("width", width)
    thickness = _positive("thickness", thickness)
    if length < width:
        raise ValueError(f"stadium length {length} must be at least its width {width}")
    r = width / 2.0
    core = sg.LineString([(-(length / 2 - r), 0.0), (length / 2 - r, 0.0)])
    outline = core.buffer(r, quad_segs=ROUND_SECTIONS // 4) if length > width else sg.Point(0, 0).buffer(r, quad_segs=ROUND_SECTIONS // 4)
    return _prism(np.asarray(outline.exterior.coords)[:-1], thickness)


def rounded_box(size, radius: float) -> Built:
    """Box of ``size`` (3,) metres (x, y, z) whose edges and corners are rounded to
    ``radius`` metres (at most half its smallest side), centred on the origin: the
    convex hull of a sphere of ``radius`` in each corner of the box shrunk by
    ``radius``.  Convex: one hull piece."""
    size = np.array([_positive("size", s) for s in size], dtype=float)
    if size.shape != (3,):
        raise ValueError(f"size must have 3 values, got {size.shape}")
    radius = _positive("radius", radius)
    if radius > size.min() / 2.0:
        raise ValueError(f"rounding radius {radius} exceeds half the smallest side "
                         f"{size.min() / 2.0}")
    ball = trimesh.creation.icosphere(subdivisions=ROUNDED_CORNER_SUBDIVISIONS, radius=radius)
    inner = size / 2.0 - radius
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1)
                        for sz in (-1, 1)]) * inner
    points = (corners[:, None, :] + ball.vertices[None, :, :]).reshape(-1, 3)
    mesh = trimesh.convex.convex_hull(points)
    return mesh, (Hull(tuple(map(tuple, mesh.vertices))),)
