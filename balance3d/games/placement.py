"""Where a :class:`~balance3d.games.base.Drop` puts a piece: its release pose.

The pose words name which of the piece's design-frame dimensions stands vertical:
"flat" the thinnest, "edge" the middle one, "upright" the longest.  The yaw then
turns the piece about the vertical.  The release height is measured from the
highest surface under the piece's footprint: vertical rays through a grid of points
``RAY_SPACING`` apart covering the footprint (the convex hull of the piece seen from
above) and along its outline, so anything wider than ``RAY_SPACING`` beneath the
piece is seen.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from balance3d import numerics, planar
from balance3d.games.base import POSES, Drop, Refusal
from balance3d.meshes.part import Part
from balance3d.physics.world import World
from balance3d.scene import body_pose

#: m, spacing of the vertical rays that find the surface beneath a released piece.
RAY_SPACING = 0.004

#: Rotation (quaternion xyzw) taking each design axis (0 = x, 1 = y, 2 = z) to the
#: vertical.
_TO_VERTICAL = {
    0: numerics.quat_from_rpy((0.0, -math.pi / 2, 0.0)),
    1: numerics.quat_from_rpy((math.pi / 2, 0.0, 0.0)),
    2: np.array([0.0, 0.0, 0.0, 1.0]),
}


@functools.lru_cache(maxsize=64)
def design_vertices(part: Part) -> np.ndarray:
    """(n, 3) m: ``part``'s mesh vertices in its design frame (the body-frame mesh
    moved by ``design_from_body`` with :func:`balance3d.numerics.transform_points`,
    not by trimesh's BLAS product).  Read-only.  Kept for the 64 parts asked for
    last (each array a few kB; the part, kept with it, is its scene's)."""
    verts = numerics.transform_points(part.design_from_body, part.mesh.vertices)
    verts.setflags(write=False)
    return verts


def design_extents(part: Part) -> np.ndarray:
    """(3,) m: the size of ``part`` along its design axes."""
    verts = design_vertices(part)
    return verts.max(axis=0) - verts.min(axis=0)


def pose_rotation(part: Part, pose: str, yaw: float) -> np.ndarray:
    """World orientation (4,) quaternion xyzw of ``part``'s design frame for
    ``pose`` and ``yaw`` (rad)."""
    if pose not in POSES:
        raise ValueError(f"pose must be one of {', '.join(POSES)}, got {pose!r}")
    extents = design_extents(part)
    order = np.argsort(extents, kind="stable")
    axis = int(order[POSES.index(pose)])
    return numerics.quat_multiply(numerics.quat_from_rpy((0.0, 0.0, yaw)), _TO_VERTICAL[axis])


def footprint_points(outline_xy: np.ndarray, spacing: float = RAY_SPACING) -> np.ndarray:
    """(n, 2) m: points covering the convex hull of ``outline_xy`` ((k, 2) m) on a
    grid ``spacing`` apart, plus points every ``spacing`` along its boundary."""
    hull = planar.convex_hull(outline_xy)
    rim = planar.boundary_points(hull, spacing)
    if len(hull) < 3:
        return rim
    (x0, y0), (x1, y1) = hull.min(axis=0), hull.max(axis=0)
    xs = np.arange(x0, x1 + spacing, spacing)
    ys = np.arange(y0, y1 + spacing, spacing)
    gx, gy = (g.ravel() for g in np.meshgrid(xs, ys))
    inside = planar.contains(hull, gx, gy)
    return np.vstack([np.column_stack([gx[inside], gy[inside]]), rim])


def release_pose(world: World, part: Part, drop: Drop,
                 surface: float | None = None) -> tuple[tuple, tuple]:
    """Body-frame ``(position (3,) m, quaternion xyzw)`` at which ``drop`` releases
    ``part``: bounding-box centre over (x, y), lowest point ``height`` above the
    highest surface beneath its footprint (``surface``, m, when the caller has
    already cast the footprint's rays, :func:`footprint_points`; else cast here)."""
    rot = pose_rotation(part, drop.pose, drop.yaw)
    verts = numerics.rotate(rot, design_vertices(part))
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    centre = (lo + hi) / 2.0
    shift = np.array([drop.x - centre[0], drop.y - centre[1]])
    if surface is None:
        surface = world.height_below(footprint_points(verts[:, :2] + shift))
    origin = (shift[0], shift[1], max(surface, 0.0) + drop.height - lo[2])
    return body_pose(part, origin, tuple(float(v) for v in rot))


def drop_fields_refusal(drop: Drop, max_height: float) -> Refusal | None:
    """Why the fields of ``drop`` cannot be played, read before anything of the game:
    a pose not among :data:`~balance3d.games.base.POSES`, an ``x``, ``y``,
    ``height`` or ``yaw`` that is not a finite number, or a release height (m) not in
    (0, ``max_height``]; None when every field can be.  The refusal's code is
    "malformed" (with the ``field``) or "height" (with ``height`` and ``most``)."""
    if drop.pose not in POSES:
        return Refusal(f"pose must be one of {', '.join(POSES)}", "malformed", field="pose")
    for key in ("x", "y", "height", "yaw"):
        value = getattr(drop, key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            return Refusal(f"{key} must be a finite number", "malformed", field=key)
    if not 0.0 < drop.height <= max_height:
        return Refusal(f"the release height must be in (0, {max_height}] m", "height",
                       piece=drop.piece, height=drop.height, most=max_height)
    return None
