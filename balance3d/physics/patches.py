"""Contact-patch geometry: where two parts' convex pieces meet on a contact plane.

Pure functions on numpy arrays (no engine): welding builds the
statics problem of resting bodies from these patches (see
:mod:`balance3d.physics.welding`).

A flat face touches over an area, an edge along a segment, a corner at a point.  A
curved surface touches only along its exact lowest locus: a sphere at one point, a
cylinder's side along one line (a generator) and its rim at one point.  No tolerance
widens a curved contact, because a curved contact gives no moment arm against
rolling: a cylinder on its side on a slope must roll, not stand on a strip of its
side.  Only a cylinder's flat cap touches over an area (a disc).

Units: metres.  A pose is a body position (3,) and a rotation matrix (3, 3).
"""
from __future__ import annotations

import numpy as np

from balance3d import numerics, planar
from balance3d.meshes.part import Part
from balance3d.meshes.shapes import Box, Cylinder, Hull, Sphere

#: Corners of the inscribed polygon that stands in for a cylinder's cap disc when
#: the cap lies flat on a contact (patches err small).
CYLINDER_PATCH_SEGMENTS = 32
#: Most corners kept per contact patch (dropping the corner that loses the least
#: area each time, so the kept polygon is inscribed in the true one).
MAX_PATCH_POINTS = 8
#: m: patch corners closer than this are one corner (the hair-wide margins used to
#: intersect segments leave clusters of points this close).
CORNER_MERGE = 1e-7
#: m: footprints that do not meet exactly, and any two that are points or segments,
#: are intersected with the one grown by this margin, so that a segment lying along
#: a segment meets it (the reach of two hair-wide buffers of CORNER_MERGE / 100).
MEET_MARGIN = CORNER_MERGE / 50
#: (CYLINDER_PATCH_SEGMENTS, 2): cosine and sine of each corner's angle round a cap.
_CAP_CIRCLE = numerics.unit_circle(CYLINDER_PATCH_SEGMENTS)


def quat_matrix(q) -> np.ndarray:
    """(3, 3) rotation matrix of the unit quaternion ``q`` (x, y, z, w)."""
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def piece_geometry(part: Part) -> list[tuple]:
    """Convex pieces of ``part`` in its body frame, metres, as
    ("sphere", centre (3,), radius), ("cylinder", centre (3,), unit axis (3,),
    radius, half height) or ("poly", vertices (n, 3))."""
    out = []
    for piece in part.shapes:
        rot = quat_matrix(piece.orientation)
        pos = np.asarray(piece.position, float)
        if isinstance(piece, Sphere):
            out.append(("sphere", pos, float(piece.radius)))
            continue
        if isinstance(piece, Cylinder):
            out.append(("cylinder", pos, rot[:, 2].copy(), float(piece.radius),
                        float(piece.height) / 2.0))
            continue
        if isinstance(piece, Box):
            local = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1)
                              for sz in (-1, 1)], float) * np.asarray(piece.half_extents)
        elif isinstance(piece, Hull):
            local = np.asarray(piece.vertices, float)
        else:  # pragma: no cover - every Shape kind is handled above
            raise TypeError(f"unknown collision piece {piece!r}")
        out.append(("poly", numerics.matmul(local, rot.T) + pos))
    return out


def cylinder_contact_points(centre: np.ndarray, axis: np.ndarray, radius: float,
                            half_height: float, down: np.ndarray,
                            tolerance: float) -> np.ndarray:
    """(k, 3): the points of a cylinder (world ``centre``, unit ``axis``, m) that
    touch a plane lying towards ``down`` (unit vector), the cylinder being moved
    along ``down`` until it meets the plane.

    * A cap touches over its whole disc (the inscribed polygon of
      :data:`CYLINDER_PATCH_SEGMENTS` corners) when it faces the plane and its rim
      lies within ``tolerance`` of it everywhere.
    * Otherwise each cap's rim touches at most at its one lowest point, when that
      point lies within ``tolerance`` of the lowest point of the cylinder: one rim
      point (a cylinder resting on its rim) or both (its side along a line).
    """
    along = numerics.dot3(down, axis)
    across = down - along * axis                 # ``down`` across the axis
    spread = numerics.norm3(across)              # sine of the axis's tilt from ``down``
    points, heights = [], []
    for end in (-1.0, 1.0):
        cap = centre + end * half_height * axis
        if end * along > 0.0 and 2.0 * radius * spread <= tolerance:
            u = np.array([1.0, 0.0, 0.0]) if abs(axis[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
            u = numerics.cross(axis, u)
            u /= numerics.norm3(u)
            v = numerics.cross(axis, u)
            ring = cap + radius * (_CAP_CIRCLE[:, :1] * u + _CAP_CIRCLE[:, 1:] * v)
            points.append(ring)
            heights.append(numerics.dot(ring, down))
            continue
        lowest = cap + (radius / spread) * across if spread > 0.0 else cap
        points.append(lowest[None, :])
        heights.append(np.array([numerics.dot3(lowest, down)]))
    everything = np.concatenate(points)
    depth = -np.concatenate(heights)             # larger further from the plane
    return everything[depth <= depth.min() + tolerance]


def footprint(pieces: list[tuple], position: np.ndarray, rotation: np.ndarray,
              origin: np.ndarray, normal: np.ndarray, frame: np.ndarray, sign: float,
              tolerance: float) -> list:
    """Where a body's convex ``pieces`` (:func:`piece_geometry`) touch the contact
    plane through ``origin`` with unit ``normal``, as convex sets (k, 2) in the
    plane's coordinates (:mod:`balance3d.planar`; ``frame``: (2, 3) unit
    tangents).  The body lies on the ``sign`` side of the plane (+1: towards
    ``normal``); a piece touches when its lowest point is within ``tolerance`` of
    the plane, and touches there with its points within ``tolerance`` of that
    lowest point (exactly its lowest locus for curved
    surfaces).  Body pose: ``position`` (3,) m, ``rotation`` (3, 3)."""
    down = -sign * normal
    shapes = []
    for kind, *data in pieces:
        if kind == "sphere":
            point = numerics.matmul(rotation, data[0]) + position + data[1] * down
            if sign * numerics.dot3(point - origin, normal) <= tolerance:
                shapes.append(numerics.matmul(frame, point - origin)[None, :])
            continue
        if kind == "cylinder":
            centre, axis, radius, half = data
            verts = cylinder_contact_points(numerics.matmul(rotation, centre) + position,
                                            numerics.matmul(rotation, axis),
                                            radius, half, down, tolerance)
            if float((sign * numerics.dot(verts - origin, normal)).min()) > tolerance:
                continue
            shapes.append(planar.convex_hull(numerics.matmul(verts - origin, frame.T)))
            continue
        verts = numerics.matmul(data[0], rotation.T) + position
        depth = sign * numerics.dot(verts - origin, normal)
        low = depth.min()
        if low > tolerance:
            continue
        near = verts[depth <= low + tolerance]
        shapes.append(planar.convex_hull(numerics.matmul(near - origin, frame.T)))
    return shapes


def reduce_polygon(points: np.ndarray, keep: int) -> np.ndarray:
    """At most ``keep`` corners of the convex polygon ``points`` ((n, 2), in order),
    dropping each time the corner whose removal loses the least area."""
    pts = [tuple(p) for p in points]
    while len(pts) > keep:
        n = len(pts)
        areas = [abs((pts[i][0] - pts[i - 1][0]) * (pts[(i + 1) % n][1] - pts[i - 1][1])
                     - (pts[(i + 1) % n][0] - pts[i - 1][0]) * (pts[i][1] - pts[i - 1][1]))
                 for i in range(n)]
        del pts[int(np.argmin(areas))]
    return np.asarray(pts)


def corners(points) -> np.ndarray:
    """(k, 2): the corners of the convex hull of ``points`` ((n, 2); a segment's
    ends, a point), corners closer than :data:`CORNER_MERGE` merged, at most
    :data:`MAX_PATCH_POINTS`."""
    hull = planar.convex_hull(points)
    if len(hull) < 3:
        return hull
    kept: list[np.ndarray] = []
    for point in hull:
        if not kept or numerics.norm(point - kept[-1]) > CORNER_MERGE:
            kept.append(point)
    if len(kept) > 1 and numerics.norm(kept[0] - kept[-1]) <= CORNER_MERGE:
        kept.pop()
    if len(kept) < 3:
        return np.asarray(kept)
    return reduce_polygon(np.asarray(kept), MAX_PATCH_POINTS)


def contact_patch(pieces_a: list[tuple], pose_a: tuple, pieces_b: list[tuple],
                  pose_b: tuple, origin: np.ndarray, normal: np.ndarray,
                  frame: np.ndarray, tolerance: float) -> np.ndarray:
    """(k, 3) m: the corners of the patch where body a (on the ``normal`` side of
    the contact plane through ``origin``) meets body b: the convex hull of where
    their pieces' footprints (:func:`footprint`) intersect; empty (0, 3) when they
    do not meet.  Poses are (position (3,) m, rotation (3, 3)); ``frame`` is (2, 3)
    unit tangents of the plane."""
    mine = footprint(pieces_a, *pose_a, origin, normal, frame, 1.0, tolerance)
    theirs = footprint(pieces_b, *pose_b, origin, normal, frame, -1.0, tolerance)
    meets = []
    for p in mine:
        for q in theirs:
            inter = planar.intersect(p, q)
            if len(inter) == 0 or (len(p) < 3 and len(q) < 3):
                inter = planar.intersect(p, q, MEET_MARGIN)
            meets.append(inter)
    flat = corners(np.concatenate(meets)) if meets else np.zeros((0, 2))
    return origin + numerics.matmul(flat, frame) if len(flat) else np.zeros((0, 3))
