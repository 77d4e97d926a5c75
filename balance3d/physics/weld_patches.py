"""Contact patches of two resting bodies, from their parts' exact geometry.

Bullet reports up to four points per manifold; the statics check needs the whole
area two parts share.  :class:`ContactPatches` turns the points Bullet finds into
patches (:func:`balance3d.physics.patches.contact_patch`), one per direction of
contact, and remembers recent ones (:mod:`balance3d.physics.caches`).
"""
from __future__ import annotations

import math

import numpy as np

from balance3d import numerics
from balance3d.meshes.part import Part
from balance3d.physics.caches import cache
from balance3d.physics.engine_contacts import ContactPoint
from balance3d.physics.patches import contact_patch, piece_geometry, quat_matrix
from balance3d.physics.statics import tangents

#: Contact patches each thread remembers (least recently used dropped first;
#: :mod:`balance3d.physics.caches` switches and empties them), by
#: the two parts, the settings, both poses and Bullet's points (their bits): every
#: input of :meth:`ContactPatches.patch`, so a remembered patch is the patch, bit for
#: bit.  Worlds rebuilt from one snapshot meet the same resting pairs again and again.
#: An entry holds about 0.8 kB, so a thread's cache at most about 3.5 MB.
PATCH_CACHE_SIZE = 4096
#: degrees: contact points of one pair whose normals are this close share a patch.
PATCH_NORMAL_ANGLE_DEG = 10.0


class ContactPatches:
    """Contact patches of the World's bodies (and each part's convex pieces and
    bounding radius, computed once per part)."""

    def __init__(self, world) -> None:
        self.world = world
        self._geometry: dict[int, tuple[Part, list, float]] = {}

    def _part(self, name: str) -> Part:
        return self.world.body(name).part

    def pieces(self, name: str) -> tuple[list, float]:
        """Convex pieces of body ``name`` (body frame) and its bounding radius, m."""
        part = self._part(name)
        entry = self._geometry.get(id(part))
        if entry is None or entry[0] is not part:
            radius = float(numerics.norm(part.mesh.vertices).max())
            entry = (part, piece_geometry(part), radius)
            self._geometry[id(part)] = entry
        return entry[1], entry[2]

    def patches(self, a: str, b: str,
                points: list[ContactPoint]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Contact patches of bodies ``a`` and ``b``, which Bullet finds touching at
        ``points`` (``a`` as body A): one patch per direction of contact (two
        non-convex parts can touch in several places, at different angles; points
        whose normals are within :data:`PATCH_NORMAL_ANGLE_DEG` share a patch).  See
        :meth:`patch`."""
        limit = math.cos(math.radians(PATCH_NORMAL_ANGLE_DEG))
        clusters: list[tuple[np.ndarray, list]] = []
        for p in sorted(points, key=lambda p: p.distance):        # deepest first
            normal = np.asarray(p.normal, float) / numerics.norm3(p.normal)
            for direction, members in clusters:
                if numerics.dot3(direction, normal) >= limit:
                    members.append(p)
                    break
            else:
                clusters.append((normal, [p]))
        return [self.patch(a, b, members) for _, members in clusters]

    def patch(self, a: str, b: str, points: list[ContactPoint]) -> tuple[np.ndarray, np.ndarray]:
        """Contact patch of bodies ``a`` and ``b`` touching at ``points`` (``a`` as
        body A, all in one direction).  Returns ((k, 3) m patch corners, (3,) unit
        normal from ``b`` towards ``a``).  The patch is the convex hull of where the
        two parts' convex pieces meet: each piece's vertices within
        ``weld_patch_tolerance`` of the contact plane through the deepest point,
        intersected."""
        w = self.world
        c, tol = w.settings.length_scale, w.settings.weld_patch_tolerance
        pose_a, pose_b = w.pose(a), w.pose(b)
        patches = cache("patches", PATCH_CACHE_SIZE)
        if patches is None:
            return self._patch(a, b, points, pose_a, pose_b)
        key = (self._part(a), self._part(b), c, tol, np.concatenate([*pose_a, *pose_b]).tobytes(),
               np.array([[*p.position_a, *p.position_b, *p.normal, p.distance] for p in points],
                        float).tobytes())
        if key not in patches:
            patches.put(key, self._patch(a, b, points, pose_a, pose_b))
        corners, normal = patches.get(key)
        return corners.copy(), normal.copy()

    def _patch(self, a: str, b: str, points: list[ContactPoint], pose_a: tuple,
               pose_b: tuple) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`patch` computed, with the bodies' poses ((3,) m, (4,) xyzw)."""
        tol = self.world.settings.weld_patch_tolerance
        deepest = min(points, key=lambda p: p.distance)
        normal = np.asarray(deepest.normal, float)
        normal /= numerics.norm3(normal)
        origin = (np.asarray(deepest.position_a) + np.asarray(deepest.position_b)) / 2.0
        frame = np.stack(tangents(normal))

        corners = contact_patch(self.pieces(a)[0], (pose_a[0], quat_matrix(pose_a[1])),
                                self.pieces(b)[0], (pose_b[0], quat_matrix(pose_b[1])),
                                origin, normal, frame, tol)
        if len(corners) == 0:   # the exact geometry disagrees with Bullet: trust Bullet
            mids = [(np.asarray(p.position_a) + np.asarray(p.position_b)) / 2.0 for p in points]
            return np.asarray(mids), normal
        return corners, normal
