"""Where a :class:`~balance3d.games.base.Drop` puts a piece: its release pose.

The pose words name which of the piece's design-frame dimensions stands vertical:
"flat" the thinnest, "edge" the middle one, "upright" the longest.  The yaw then
turns the piece about the vertical.  The release height is measured from the
highest surface under the piece's footprint (vertical rays through the footprint's
corners and centre).
"""
from __future__ import annotations

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games.base import POSES, Drop
from balance3d.meshes.part import Part
from balance3d.physics.world import World
from balance3d.scene import body_pose

#: Rotation taking each design axis (0 = x, 1 = y, 2 = z) to the vertical.
_TO_VERTICAL = {
    0: Rotation.from_euler("y", -np.pi / 2),
    1: Rotation.from_euler("x", np.pi / 2),
    2: Rotation.identity(),
}


def pose_rotation(part: Part, pose: str, yaw: float) -> Rotation:
    """World orientation of ``part``'s design frame for ``pose`` and ``yaw`` (rad)."""
    if pose not in POSES:
        raise ValueError(f"pose must be one of {', '.join(POSES)}, got {pose!r}")
    extents = part.design_mesh().extents
    order = np.argsort(extents, kind="stable")
    axis = int(order[POSES.index(pose)])
    return Rotation.from_euler("z", yaw) * _TO_VERTICAL[axis]


def release_pose(world: World, part: Part, drop: Drop) -> tuple[tuple, tuple]:
    """Body-frame ``(position (3,) m, quaternion xyzw)`` at which ``drop`` releases
    ``part``: bounding-box centre over (x, y), lowest point ``height`` above the
    highest surface beneath."""
    rot = pose_rotation(part, drop.pose, drop.yaw)
    verts = rot.apply(part.design_mesh().vertices)
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    centre = (lo + hi) / 2.0
    shift = np.array([drop.x - centre[0], drop.y - centre[1]])
    corners = np.array([[lo[0], lo[1]], [lo[0], hi[1]], [hi[0], lo[1]], [hi[0], hi[1]],
                        [centre[0], centre[1]]]) + shift
    surface = world.height_below(corners)
    origin = (shift[0], shift[1], max(surface, 0.0) + drop.height - lo[2])
    return body_pose(part, origin, tuple(rot.as_quat()))
