"""Welding's view of the engine, in SI: the one boundary where engine units convert.

pybullet answers in engine units (``length_scale`` times SI lengths) with contact
tuples indexed by number.  :class:`WeldEngine` asks the World's engine queries and
converts every length, speed and force it reads to SI at once; contact tuples are
read once into :class:`ContactPoint` records.  Everything of welding past this module
(support closure, the impact check, load sampling, the statics) is in metres,
kilograms, seconds and newtons.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class ContactPoint:
    """One point Bullet reports between two bodies, seen from body A.

    uid_a, uid_b : engine ids of bodies A and B.
    position_a, position_b : (3,) m, the closest points on A and on B.
    normal : (3,) unit vector on B towards A.
    distance : m, signed separation (negative = penetration).
    force : N, the normal force of the last step (0 for a closest-points query).
    """

    uid_a: int
    uid_b: int
    position_a: Vec3
    position_b: Vec3
    normal: Vec3
    distance: float
    force: float

    def swapped(self) -> "ContactPoint":
        """The same point seen from body B."""
        return ContactPoint(self.uid_b, self.uid_a, self.position_b, self.position_a,
                            tuple(-v for v in self.normal), self.distance, self.force)

    def with_force(self, force: float) -> "ContactPoint":
        """The same point carrying ``force`` N."""
        return replace(self, force=force)


class WeldEngine:
    """The World's engine queries (``engine_velocity``, ``engine_position``,
    ``contact_points``, ``closest_points``, ``near``, ``force_scale``) answered in
    SI."""

    def __init__(self, world) -> None:
        self.world = world

    def _scale(self) -> float:
        return self.world.settings.length_scale

    def velocity(self, uid: int) -> tuple[Vec3, Vec3]:
        """Body ``uid``'s (linear (3,) m/s, angular (3,) rad/s) velocity."""
        c = self._scale()
        lin, ang = self.world.engine_velocity(uid)
        return tuple(v / c for v in lin), tuple(ang)

    def velocities(self, uids: list[int]) -> list[tuple[Vec3, Vec3]]:
        """:meth:`velocity` of each body of ``uids``, in their order."""
        c, read = self._scale(), self.world.engine_velocity
        out = []
        for uid in uids:
            (x, y, z), angular = read(uid)
            out.append(((x / c, y / c, z / c), angular))
        return out

    def position(self, uid: int) -> Vec3:
        """Body ``uid``'s centre of mass, (3,) m."""
        c = self._scale()
        return tuple(v / c for v in self.world.engine_position(uid))

    @staticmethod
    def _read(p: tuple, c: float, scale: float) -> ContactPoint:
        (xa, ya, za), (xb, yb, zb) = p[5], p[6]
        return ContactPoint(p[1], p[2], (xa / c, ya / c, za / c), (xb / c, yb / c, zb / c),
                            tuple(p[7]), p[8] / c, p[9] * scale)

    def contact_points(self, limit: float, bodies: Collection[int],
                       others: Collection[int] | None = None) -> list[ContactPoint]:
        """Bullet's contact manifolds of the last step, in Bullet's order: the points
        between a body whose engine id is in ``bodies`` and one in ``others`` (any
        body when None) whose signed distance is at most ``limit`` m.  The others are
        not read: most points of a settled table are between welded or static
        bodies."""
        c, scale = self._scale(), self.world.force_scale()
        if others is None:
            found = [p for p in self.world.contact_points() if p[1] in bodies or p[2] in bodies]
        else:
            found = [p for p in self.world.contact_points()
                     if (p[1] in bodies and p[2] in others) or (p[2] in bodies and p[1] in others)]
        return [self._read(p, c, scale) for p in found if p[8] / c <= limit]

    def closest_points(self, uid_a: int, uid_b: int, reach: float) -> list[ContactPoint]:
        """The closest points of bodies ``uid_a`` (as body A) and ``uid_b`` within
        ``reach`` m."""
        c, scale = self._scale(), self.world.force_scale()
        return [self._read(p, c, scale)
                for p in self.world.closest_points(uid_a, uid_b, reach * c)]

    def near(self, uid: int, reach: float) -> list[int]:
        """Engine ids, ascending, of the bodies whose bounding boxes overlap body
        ``uid``'s grown by ``reach`` m on every side (``uid`` among them)."""
        return self.world.near(uid, reach * self._scale())
