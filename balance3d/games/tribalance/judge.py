"""Tri-Ba-Lance's judge: what the World says about the plate and the pieces on it.

Pure reading of a :class:`~balance3d.physics.World` (poses, contacts, the support
graph); nothing here changes the world or knows the game's players.

Frames and units
    Lengths are metres, angles radians unless named ``_deg``.  The *plate frame* is
    the plate part's design frame: origin at the plate's centroid at mid-thickness,
    z out of its top face, one corner on +y (the scene's fields are given in it).
    Corners are numbered as the plate's outline lists them: 0 on +y, 1 and 2
    counter-clockwise from it seen from above; side ``i`` joins corner ``i`` and
    corner ``i + 1``.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from balance3d import numerics
from balance3d.games import support
from balance3d.games.placement import design_extents
from balance3d.games.tribalance.rules import FRAME, FRAME_MIN_FORCE, FRAME_REST_GAP, PLATE
from balance3d.meshes.builders import triangle_outline
from balance3d.physics.world import World


@dataclass(frozen=True)
class PlateFrame:
    """The plate's design frame in the world now.

    origin : (3,) m, world position of the plate's centroid at mid-thickness.
    rotation : (3, 3) world-from-plate rotation.  thickness : m.
    corners : (3, 2) m, the corners in the plate frame.
    """

    origin: np.ndarray
    rotation: np.ndarray
    thickness: float
    corners: np.ndarray

    @classmethod
    def of(cls, world: World, side: float) -> "PlateFrame":
        """The plate frame of ``world`` now, for a plate of ``side`` m."""
        part = world.part(PLATE)
        position, quat = world.pose(PLATE)
        offset = part.design_from_body
        rot = numerics.matmul(numerics.quat_matrix(quat), offset[:3, :3].T)
        origin = np.asarray(position, float) - numerics.matmul(rot, offset[:3, 3])
        return cls(origin, rot, _thickness(part), triangle_outline(side))

    @property
    def normal(self) -> np.ndarray:
        """(3,) the top face's unit normal in the world."""
        return self.rotation[:, 2]

    def to_world(self, points) -> np.ndarray:
        """(n, 3) plate-frame points (m) -> (n, 3) world points (m)."""
        return (numerics.matmul(np.asarray(points, float).reshape(-1, 3), self.rotation.T)
                + self.origin)

    def to_plate(self, points) -> np.ndarray:
        """(n, 3) world points (m) -> (n, 3) plate-frame points (m)."""
        return numerics.matmul(np.asarray(points, float).reshape(-1, 3) - self.origin,
                               self.rotation)

    def top_point(self, x: float, y: float) -> np.ndarray:
        """(3,) m, world position of the point ``(x, y)`` of the top face."""
        return self.to_world([(x, y, self.thickness / 2)])[0]


@functools.lru_cache(maxsize=16)
def _thickness(part) -> float:
    """m, the thickness of the plate ``part`` (its design mesh's z extent)."""
    return float(design_extents(part)[2])


def tilt(frame: PlateFrame) -> tuple[float, float]:
    """``(angle, direction)`` of the plate's tilt: the angle (rad) between its top
    face's normal and the vertical, and the direction (rad, world frame, from +x
    towards +y) in which the plate slopes down, seen from above (0 when level)."""
    n = frame.normal
    angle = math.acos(min(1.0, max(-1.0, float(n[2]))))
    direction = math.atan2(float(n[1]), float(n[0])) if angle > 0.0 else 0.0
    return angle, direction


def frame_contacts(world: World, frame: PlateFrame, corner_zone: float, *,
                   min_force: float = FRAME_MIN_FORCE,
                   rest_gap: float = FRAME_REST_GAP) -> list[dict]:
    """Where the plate rests on the frame: one entry per corner or side resting,
    ``{"kind": "corner" | "side", "index": i}`` (see the module docstring), sorted.

    A contact point of the last step rests when it bears at least ``min_force`` N or
    its signed distance is at most ``rest_gap`` m; a point merely within the
    engine's contact distance does not.  A resting point within ``corner_zone`` m of
    a corner (in the plate frame, seen from above) is at that corner, else on the
    side nearest to it."""
    found = set()
    for ct in world.contacts(PLATE, FRAME):
        if ct.normal_force < min_force and ct.distance > rest_gap:
            continue
        point = ct.position_a if ct.body_a == PLATE else ct.position_b
        q = frame.to_plate(point)[0, :2]
        gaps = numerics.norm(frame.corners - q)
        if gaps.min() <= corner_zone:
            found.add(("corner", int(np.argmin(gaps))))
            continue
        sides = []
        for i in range(3):
            a, b = frame.corners[i], frame.corners[(i + 1) % 3]
            u = np.clip(numerics.dot(q - a, b - a) / numerics.dot(b - a, b - a), 0.0, 1.0)
            sides.append(float(numerics.norm(a + u * (b - a) - q)))
        found.add(("side", int(np.argmin(sides))))
    return [{"kind": kind, "index": index} for kind, index in sorted(found)]


def on_plate(world: World, pieces: list[str], distance: float) -> set[str]:
    """The pieces among ``pieces`` resting on the plate: touching it within
    ``distance`` m, or resting on a piece that does (support graph), and touching
    no static body (a piece touching the frame, the ball, the stand or the table
    has left the plate)."""
    static = [n for n in world.names if world.is_static(n)]
    graph = world.support_graph()
    on = support.resting_on({p for p in pieces
                             if world.contacts(p, PLATE, max_distance=distance)},
                            pieces, graph)
    return {p for p in on if not any(world.contacts(p, s, max_distance=distance)
                                     for s in static)}
