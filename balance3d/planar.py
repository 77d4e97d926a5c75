"""Convex geometry in a plane, in Python floats and a fixed order.

The contact patches, the support outlines of the impact check and the judges'
footprints are convex hulls and intersections of convex sets.  GEOS (through
shapely) computes them too, but the order of a hull's corners, where its ring
starts and the last bits of a clipped corner are the library's choice and have
changed between its versions; a patch corner feeds the statics, and a different
bit there can grow into another game.  These functions give the same bits
everywhere: every value is a sequence of IEEE 754 operations on the inputs,
taken in the order written here.

A convex set is given by its corners, (k, 2) float: k = 0 is empty, 1 a point, 2 a
segment and k >= 3 a polygon, anticlockwise, as :func:`convex_hull` returns it.
Units are the caller's (metres in the physics).
"""
from __future__ import annotations

import math

import numpy as np

#: A half-plane ``n . x <= c`` as ((n0, n1), c); ``n`` is a unit vector.
HalfPlane = tuple[tuple[float, float], float]


def convex_hull(points) -> np.ndarray:
    """Corners (k, 2) of the convex hull of ``points`` (n, 2): anticlockwise from
    the lowest point in (x, y) order, no corner repeated and none on a straight
    stretch (Andrew's monotone chain).  One distinct point gives (1, 2), collinear
    points their two ends, no points (0, 2)."""
    pts = sorted(set(map(tuple, np.asarray(points, dtype=float).reshape(-1, 2).tolist())))
    if len(pts) <= 2:
        return np.array(pts, dtype=float).reshape(-1, 2)
    lower: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and _turn(lower[-2], lower[-1], p) <= 0.0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[float, float]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and _turn(upper[-2], upper[-1], p) <= 0.0:
            upper.pop()
        upper.append(p)
    ring = lower[:-1] + upper[:-1]
    if len(ring) < 2:    # every point on one line, ends equal after rounding
        ring = [pts[0], pts[-1]]
    return np.array(ring, dtype=float)


def _turn(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Twice the signed area of the triangle o, a, b (positive: anticlockwise)."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def half_planes(corners, slack: float = 0.0) -> list[HalfPlane]:
    """The half-planes whose intersection is the convex set ``corners`` (k, 2),
    k >= 1 (see the module docstring), grown by ``slack`` >= 0 on every side: a
    polygon's edges moved out by ``slack``; a segment as the strip of half-width
    ``slack`` along it, cut ``slack`` beyond its ends; a point as the square of
    half-side ``slack`` around it."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    if len(pts) == 1:
        (x, y), = pts
        return [((1.0, 0.0), x + slack), ((-1.0, 0.0), slack - x),
                ((0.0, 1.0), y + slack), ((0.0, -1.0), slack - y)]
    if len(pts) == 2:
        (ax, ay), (bx, by) = pts
        length = math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay))
        if not length > 0.0:
            return half_planes([pts[0]], slack)
        dx, dy = (bx - ax) / length, (by - ay) / length
        return [((dy, -dx), dy * ax - dx * ay + slack),
                ((-dy, dx), dx * ay - dy * ax + slack),
                ((dx, dy), dx * bx + dy * by + slack),
                ((-dx, -dy), slack - dx * ax - dy * ay)]
    planes = []
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + 1) % len(pts)]
        length = math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay))
        nx, ny = (by - ay) / length, (ax - bx) / length
        planes.append(((nx, ny), nx * ax + ny * ay + slack))
    return planes


def clip(subject, planes: list[HalfPlane]) -> np.ndarray:
    """Corners (m, 2) of the part of the convex set ``subject`` (k, 2) inside every
    one of ``planes`` (:func:`half_planes`), by Sutherland and Hodgman's clipping,
    one plane after the other in the given order (a point on a plane's line is
    inside).  The corners may repeat; (0, 2) when nothing is left."""
    ring = [tuple(p) for p in np.asarray(subject, dtype=float).reshape(-1, 2).tolist()]
    for (nx, ny), c in planes:
        if not ring:
            break
        out = []
        level = [nx * x + ny * y - c for x, y in ring]
        for i, (x, y) in enumerate(ring):
            j = (i + 1) % len(ring)
            here, there = level[i], level[j]
            if here <= 0.0:
                out.append((x, y))
            if (here <= 0.0) != (there <= 0.0):
                t = here / (here - there)
                qx, qy = ring[j]
                out.append((x + t * (qx - x), y + t * (qy - y)))
        ring = out
    return np.array(ring, dtype=float).reshape(-1, 2)


def intersect(a, b, slack: float = 0.0) -> np.ndarray:
    """Corners (m, 2) of the convex set ``a`` (k, 2) within ``b`` (j, 2) grown by
    ``slack`` (:func:`half_planes`), repeats possible; (0, 2) when they do not meet
    or either is empty.  Whichever is given first, the set of smaller area is
    clipped by the half-planes of the other: a point, a segment or a sliver
    meeting a polygon keeps its whole length (clipped by a strip of no width, it
    would keep what rounding leaves on the line).  Two points or segments meet
    only within a ``slack`` > 0."""
    a = np.asarray(a, dtype=float).reshape(-1, 2)
    b = np.asarray(b, dtype=float).reshape(-1, 2)
    if len(a) == 0 or len(b) == 0:
        return np.zeros((0, 2))
    if area(b) < area(a):
        a, b = b, a
    return clip(a, half_planes(b, slack))


def centroid(corners) -> tuple[float, float]:
    """Centre of area of the convex polygon ``corners`` (k, 2), k >= 3, added
    triangle by triangle from the first corner.  Raises ValueError for a polygon
    without area."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    ox, oy = pts[0]
    area = cx = cy = 0.0
    for (ax, ay), (bx, by) in zip(pts[1:-1], pts[2:]):
        twice = (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
        area += twice
        cx += twice * (ox + ax + bx)
        cy += twice * (oy + ay + by)
    if area == 0.0:
        raise ValueError(f"centroid: the polygon {pts} has no area")
    return cx / (3.0 * area), cy / (3.0 * area)


def area(corners) -> float:
    """Area of the simple polygon ``corners`` (k, 2), either way round: 0 for fewer
    than three corners, else the shoelace sum, triangle by triangle from the first
    corner."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    if len(pts) < 3:
        return 0.0
    (ox, oy), total = pts[0], 0.0
    for (ax, ay), (bx, by) in zip(pts[1:-1], pts[2:]):
        total += (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)
    return abs(total) / 2.0


def overlap_area(a, b) -> float:
    """Area shared by the convex polygons ``a`` and ``b`` (k, 2), anticlockwise."""
    return area(convex_hull(intersect(a, b)))


def contains(corners, x, y) -> np.ndarray:
    """Which of the points (``x``, ``y``) (arrays of one shape) lie in the convex
    polygon ``corners`` (k, 2), k >= 3, anticlockwise, or on its boundary: on the
    left of, or on, every edge.  Returns bool of the points' shape."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    inside = np.ones(np.broadcast(x, y).shape, dtype=bool)
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + 1) % len(pts)]
        inside &= (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0.0
    return inside


def boundary_distance(corners, x: float, y: float) -> float:
    """Distance from the point (x, y) to the nearest point of the boundary of the
    convex polygon ``corners`` (k, 2), k >= 3: the least over its edges, in order."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    best = math.inf
    for i, (ax, ay) in enumerate(pts):
        bx, by = pts[(i + 1) % len(pts)]
        ex, ey = bx - ax, by - ay
        t = ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)
        t = min(1.0, max(0.0, t))
        dx, dy = ax + t * ex - x, ay + t * ey - y
        best = min(best, math.sqrt(dx * dx + dy * dy))
    return best


def boundary_points(corners, spacing: float) -> np.ndarray:
    """(m, 2): points along the boundary of the convex set ``corners`` (k, 2),
    k >= 1, from its first corner anticlockwise round to it again, ``m - 1`` equal
    steps apart, the fewest (at least one) no longer than ``spacing``."""
    pts = np.asarray(corners, dtype=float).reshape(-1, 2).tolist()
    ring = pts + pts[:1]
    lengths = [math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay))
               for (ax, ay), (bx, by) in zip(ring[:-1], ring[1:])]
    total = sum(lengths)
    count = max(2, math.ceil(total / spacing) + 1)
    out, edge, start = [], 0, 0.0
    for k in range(count):
        distance = total * k / (count - 1)
        while edge < len(lengths) - 1 and distance > start + lengths[edge]:
            start += lengths[edge]
            edge += 1
        (ax, ay), (bx, by) = ring[edge], ring[edge + 1]
        t = min(1.0, (distance - start) / lengths[edge]) if lengths[edge] > 0.0 else 0.0
        out.append((ax + t * (bx - ax), ay + t * (by - ay)))
    return np.array(out, dtype=float)


__all__ = ["HalfPlane", "area", "boundary_distance", "boundary_points", "centroid", "clip",
           "contains", "convex_hull", "half_planes", "intersect", "overlap_area"]
