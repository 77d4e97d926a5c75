"""The parts' solids as explicit vertex and face lists, in a fixed order.

A solid is ``(vertices, faces)``: vertices (n, 3) float, metres; faces a tuple of
convex planar polygons, each a tuple of vertex indices listed counter-clockwise
seen from outside.  Nothing here calls a triangulation, hull or linear-algebra
library: coordinates follow from the dimensions by single IEEE 754 operations on
Python floats, and angles from Python's :mod:`math` one value at a time, reduced to
the first octant so that mirrored points are exact mirrors.  The same dimensions
give the same bits on every machine and with every library version.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

Faces = tuple[tuple[int, ...], ...]
Solid = tuple[np.ndarray, Faces]


def circle(sections: int) -> list[tuple[float, float]]:
    """(cos, sin) of the angles 2 pi k / ``sections``, k = 0 .. sections - 1.

    ``sections`` must be a multiple of 8: the first octant comes from :mod:`math`,
    the rest by the circle's symmetries, so the points on the axes are exact and
    each point's mirror images are exact sign changes and swaps."""
    if sections <= 0 or sections % 8:
        raise ValueError(f"a circle needs a positive multiple of 8 sections, got {sections}")
    eighth = sections // 8
    first = [(math.cos(math.pi * 2 * k / sections), math.sin(math.pi * 2 * k / sections))
             for k in range(eighth)]
    half = math.sqrt(0.5)
    first.append((half, half))
    points = []
    for k in range(sections):
        quarter, rest = divmod(k, 2 * eighth)
        c, s = first[rest] if rest <= eighth else first[2 * eighth - rest][::-1]
        for _ in range(quarter):
            c, s = -s, c
        points.append((c + 0.0, s + 0.0))   # + 0.0 turns -0.0 into 0.0
    return points


def prism(outline: Sequence[tuple[float, float]], z0: float, z1: float) -> Solid:
    """The convex polygon ``outline`` ((n, 2) metres, counter-clockwise, no three
    corners on a line) extruded over z in [``z0``, ``z1``].  Vertices: the bottom
    ring, then the top ring, in the outline's order.  Faces: the bottom, the top,
    then one quad per outline edge."""
    n = len(outline)
    vertices = [(float(x), float(y), z0) for x, y in outline]
    vertices += [(float(x), float(y), z1) for x, y in outline]
    faces = [tuple(range(n - 1, -1, -1)), tuple(range(n, 2 * n))]
    faces += [(i, (i + 1) % n, n + (i + 1) % n, n + i) for i in range(n)]
    return np.array(vertices, dtype=float), tuple(faces)


def box(half: Sequence[float]) -> Solid:
    """Box of half extents ``half`` (3,) metres centred on the origin."""
    hx, hy, hz = (float(h) for h in half)
    return prism([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)], -hz, hz)


def icosphere(radius: float, subdivisions: int) -> Solid:
    """Icosahedron split ``subdivisions`` times (each triangle into four at its edge
    midpoints, pushed out to the sphere), radius ``radius`` metres: 10 * 4**s + 2
    vertices on the sphere, triangles only."""
    t = (1.0 + math.sqrt(5.0)) / 2.0
    points = np.array([[-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0],
                       [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
                       [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1]], dtype=float)
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11),
             (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6), (7, 1, 8),
             (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9),
             (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    points = _unit(points)
    for _ in range(subdivisions):
        middle: dict[tuple[int, int], int] = {}
        fresh: list[np.ndarray] = []

        def midpoint(a: int, b: int) -> int:
            key = (min(a, b), max(a, b))
            if key not in middle:
                middle[key] = len(points) + len(fresh)
                fresh.append((points[key[0]] + points[key[1]]) / 2.0)
            return middle[key]

        split = []
        for a, b, c in faces:
            ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
            split += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        points = np.concatenate([points, _unit(np.array(fresh))])
        faces = split
    return points * radius, tuple(faces)


def _unit(points: np.ndarray) -> np.ndarray:
    """Each row of ``points`` (n, 3) divided by its length (squares added x, y, z)."""
    length = np.sqrt(points[:, 0] * points[:, 0] + points[:, 1] * points[:, 1]
                     + points[:, 2] * points[:, 2])
    return points / length[:, None]


def rounded_box(half: Sequence[float], radius: float, segments: int) -> Solid:
    """Box of half extents ``half`` (3,) metres with edges and corners rounded to
    ``radius``: the Minkowski sum of the box shrunk by ``radius`` and a polyhedral
    ball of ``radius`` whose faces touch the sphere (face normals every 90 /
    ``segments`` degrees along parallels and meridians, one on each axis).

    That ball's face normals lie on the three coordinate great circles wherever
    those cross it, so the sum has the ball's faces exactly: each is the ball's face
    with every corner moved out to the box corner of its octant.  Every face lies at
    ``radius`` beyond the inner box, so the same call with ``radius - d`` and ``half
    - d`` is this solid with every face moved in by ``d``."""
    inner = [float(h) - radius for h in half]
    table = circle(8 * segments)          # angles in steps of 45 / segments degrees
    g = table[1][0]                       # cos of half a face's angular size
    vertices = []
    for row in range(2 * segments):       # parallels between the rings of normals
        cos_lat, sin_lat = table[(2 * (row - segments) + 1) % (8 * segments)]
        rho = radius * cos_lat / (g * g)
        z = radius * sin_lat / g
        for col in range(4 * segments):   # meridians between the normals
            cos_lon, sin_lon = table[2 * col + 1]
            point = (rho * cos_lon, rho * sin_lon, z)
            vertices.append(tuple(p + math.copysign(i, p) for p, i in zip(point, inner)))
    around = 4 * segments

    def at(row: int, col: int) -> int:
        return row * around + col % around

    faces = [tuple(at(0, col) for col in range(around - 1, -1, -1))]
    for ring in range(1, 2 * segments):
        faces += [(at(ring - 1, col - 1), at(ring - 1, col), at(ring, col), at(ring, col - 1))
                  for col in range(around)]
    faces.append(tuple(at(2 * segments - 1, col) for col in range(around)))
    return np.array(vertices, dtype=float), tuple(faces)


def rectangle_union(rects: Sequence[Sequence[float]], z0: float, z1: float) -> Solid:
    """Union of axis-aligned rectangles ``rects`` ((n, 4): x0, y0, x1, y1 metres)
    extruded over z in [``z0``, ``z1``], on the grid of every rectangle's edges: each
    grid cell inside the union is a square of both caps, each grid edge on the
    outline a quad of the wall.  Caps and walls share every grid point on the
    outline, so the mesh has no T-junction.

    Raises ValueError when rectangles overlap or do not form one shape connected
    along edges."""
    xs = sorted({float(r[0]) for r in rects} | {float(r[2]) for r in rects})
    ys = sorted({float(r[1]) for r in rects} | {float(r[3]) for r in rects})
    inside: set[tuple[int, int]] = set()
    for r in rects:
        cells = {(i, j) for i in range(xs.index(float(r[0])), xs.index(float(r[2])))
                 for j in range(ys.index(float(r[1])), ys.index(float(r[3])))}
        if cells & inside:
            raise ValueError("a letter's rectangles overlap")
        inside |= cells
    _check_connected(inside)
    cells = sorted(inside, key=lambda c: (c[1], c[0]))
    corners = sorted({(i + di, j + dj) for i, j in cells for di in (0, 1) for dj in (0, 1)},
                     key=lambda c: (c[1], c[0]))
    index = {c: k for k, c in enumerate(corners)}
    n = len(corners)
    vertices = [(xs[i], ys[j], z) for z in (z0, z1) for i, j in corners]
    faces = []
    for i, j in cells:
        square = (index[i, j], index[i + 1, j], index[i + 1, j + 1], index[i, j + 1])
        faces.append(square[::-1])
        faces.append(tuple(k + n for k in square))
    for i, j in cells:
        edges = (((i, j), (i + 1, j), (i, j - 1)), ((i + 1, j), (i + 1, j + 1), (i + 1, j)),
                 ((i + 1, j + 1), (i, j + 1), (i, j + 1)), ((i, j + 1), (i, j), (i - 1, j)))
        for a, b, neighbour in edges:
            if neighbour not in inside:
                faces.append((index[a], index[b], index[b] + n, index[a] + n))
    return np.array(vertices, dtype=float), tuple(faces)


def _check_connected(cells: set[tuple[int, int]]) -> None:
    """Raise ValueError unless ``cells`` (grid indices) are connected along edges."""
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        i, j = todo.pop()
        for near in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    if seen != cells:
        raise ValueError("rectangles do not form one connected shape")


def ring(inner: Sequence[tuple[float, float]], outer: Sequence[tuple[float, float]],
         z0: float, z1: float) -> Solid:
    """The region between two convex polygons with as many corners, ``inner`` inside
    ``outer`` ((n, 2) metres, counter-clockwise, corner k of one facing corner k of
    the other), extruded over z in [``z0``, ``z1``].  Each cap is n quads (corner k
    to k + 1 of both polygons); vertices: inner then outer corners, bottom then
    top."""
    n = len(inner)
    vertices = [(float(x), float(y), z) for z in (z0, z1)
                for polygon in (inner, outer) for x, y in polygon]

    def at(level: int, which: int, k: int) -> int:
        return level * 2 * n + which * n + k % n

    faces = []
    for k in range(n):
        quad = (at(1, 0, k + 1), at(1, 0, k), at(1, 1, k), at(1, 1, k + 1))
        faces.append(quad)
        faces.append(tuple(v - 2 * n for v in quad[::-1]))
        faces.append((at(0, 1, k), at(0, 1, k + 1), at(1, 1, k + 1), at(1, 1, k)))
        faces.append((at(0, 0, k + 1), at(0, 0, k), at(1, 0, k), at(1, 0, k + 1)))
    return np.array(vertices, dtype=float), tuple(faces)


def triangles(faces: Faces) -> np.ndarray:
    """(m, 3) int: each polygon of ``faces`` split into a fan from its first corner,
    in the order the faces are listed."""
    out = [(face[0], face[k], face[k + 1]) for face in faces for k in range(1, len(face) - 1)]
    return np.array(out, dtype=np.int64)
