"""Vertical rays cast among the few bodies that can hold their highest hit.

A drop's landing (:func:`balance3d.games.tower.physics.body_below`) casts a batch of
vertical rays through the World and keeps the highest hit.  Bullet tests each ray
against every body whose box it crosses, so a ray down a tall tower tests every
piece of it (and its base and the table), while only the top of the tower can hold
the highest hit.  :func:`highest_hit` gives the same answer from a *mirror*: a
pybullet client of its own holding copies of only the bodies whose boxes reach up
to the highest hit found so far, placed exactly as the World placed them.

Why the answer is the World's, bit for bit:

* Each (ray, body) test is Bullet's convex cast of the ray against the body's
  shape at its transform; it reads no other body.  The mirror builds each shape as
  the World does (:func:`~balance3d.physics.engine_shapes.collision_shape_args`,
  :func:`~balance3d.physics.engine_shapes.create_collision_shape`, the same
  ``collisionMargin`` through ``changeDynamics``) and each transform from the same
  numbers through the same calls (``createMultiBody`` at the snapshot's pose, then,
  for a dynamic body, ``resetBasePositionAndOrientation`` as the World's priming
  does), so a test made in both gives the same hit.
* Bullet runs a test when the ray crosses the body's box in the broadphase.  The
  convex cast reports a hit once the ray comes within :data:`CAST_TOLERANCE` of the
  shape, so a ray passing beside a body's box can still hit it.  The World's boxes
  are the shapes' boxes grown by ``contact_breaking_threshold`` (Bullet grows every
  box by it at each step), and so are the mirror's (it runs Bullet's collision
  detection once after placing its bodies), so with that threshold above the
  tolerance every test that can hit is made in both.
* A body left out of the mirror has its box's top (plus the tolerance) below the
  highest hit among those in it, so it cannot hold the highest hit, nor tie with it.
  Rays are cast in the same order, so the first ray to reach the highest hit is
  the same; only two bodies hit by one ray at the very same fraction could be told
  apart differently (Bullet keeps the first it tests, and the mirror's order of
  tests may differ), which a ray meets at a shared edge exactly under it.

The mirror is used only while the World is exactly as a snapshot restored it
(every body present, in order, at the snapshot's position: :func:`placed_as`); the
caller casts in the World itself otherwise.  Units: metres outside, engine units
(``length_scale`` times metres) at the engine.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

from balance3d.physics.quiet import quiet_output

with quiet_output():
    import pybullet
    from pybullet_utils.bullet_client import BulletClient

from balance3d.meshes.part import Part
from balance3d.physics.bodies import BodyState, Snapshot
from balance3d.physics.engine_shapes import collision_shape_args, create_collision_shape
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import World

#: engine units: how close a ray comes to a shape when Bullet's convex cast
#: (``btGjkConvexCast``, the one pybullet's ray batches use) reports it a hit.
CAST_TOLERANCE = 0.001
#: engine units: how far above the top of its box a body may be taken to hold a
#: hit, and how far beside its box in x or y a ray may be taken to hit it:
#: :data:`CAST_TOLERANCE` with room to spare.
BOX_SLACK = 2 * CAST_TOLERANCE
#: Per thread: the mirror of the settings it was made for.
_THREAD = threading.local()


def placed_as(world: World, snapshot: Snapshot) -> bool:
    """Whether ``world`` holds exactly ``snapshot``'s bodies, in its order, each at
    the position the snapshot gives (engine bits): as restoring it left them, or
    moved by nothing since (a welded body does not move)."""
    bodies = snapshot.bodies
    if len(bodies) != len(world.bodies()):
        return False
    c = world.settings.length_scale
    for record, b in zip(world.bodies(), bodies):
        if record.name != b.name or record.part is not b.part:
            return False
        if tuple(world.engine_position(record.uid)) != tuple(v * c for v in b.position):
            return False
    return True


class Mirror:
    """A pybullet client (DIRECT) holding copies of some bodies of Worlds of
    ``settings``, each placed as a snapshot has it; kept from one cast to the next
    while its pose stays the same."""

    def __init__(self, settings: PhysicsSettings) -> None:
        self.settings = settings
        with quiet_output():
            self.client = BulletClient(connection_mode=pybullet.DIRECT)
        self.client.configureDebugVisualizer(pybullet.COV_ENABLE_TINY_RENDERER, 0)
        self._shapes: dict[int, tuple[Part, int]] = {}
        #: name -> (the body's snapshot record, its engine id here)
        self._bodies: dict[str, tuple[BodyState, int]] = {}

    @property
    def held(self) -> list[str]:
        """Names of the bodies held now, in the order they were placed."""
        return list(self._bodies)

    def _shape(self, part: Part) -> int:
        """The engine's shape of ``part`` here, built once (the cache holds the
        part, so its id is not reused by another)."""
        known = self._shapes.get(id(part))
        if known is None:
            shape = create_collision_shape(
                self.client._client, collision_shape_args(part, self.settings), self.settings)
            if shape < 0:
                raise RuntimeError(f"pybullet could not build the shape of part {part.name!r}")
            known = self._shapes[id(part)] = (part, shape)
        return known[1]

    def hold(self, bodies: Sequence[BodyState]) -> dict[int, str]:
        """Hold exactly ``bodies`` (others leave), each placed as its record says;
        engine id -> name."""
        wanted = {b.name: _placing(b) for b in bodies}
        client, c = self.client, self.settings.length_scale
        for name in [n for n, (b, _) in self._bodies.items()
                     if wanted.get(n) != _placing(b)]:
            client.removeBody(self._bodies.pop(name)[1])
        added = False
        for b in bodies:
            if b.name in self._bodies:
                continue
            position = [v * c for v in b.position]
            uid = client.createMultiBody(
                baseMass=0.0, baseCollisionShapeIndex=self._shape(b.part),
                basePosition=position, baseOrientation=list(b.orientation),
                useMaximalCoordinates=True)
            client.changeDynamics(uid, -1, collisionMargin=self.settings.collision_margin * c)
            if not b.static:
                client.resetBasePositionAndOrientation(uid, position, list(b.orientation))
            self._bodies[b.name] = (b, uid)
            added = True
        if added:
            # Bullet's boxes grown by the contact breaking threshold, as the World's
            client.setPhysicsEngineParameter(
                contactBreakingThreshold=self.settings.contact_breaking_threshold * c)
            client.performCollisionDetection()
        return {uid: name for name, (_, uid) in self._bodies.items()}

    def cast(self, starts: list, ends: list) -> tuple:
        """pybullet's ray batch from ``starts`` to ``ends`` (engine units) here."""
        return self.client.rayTestBatch(starts, ends)


def _placing(body: BodyState) -> tuple:
    """What places ``body`` in a mirror: its part (by identity), static flag and pose."""
    return id(body.part), body.static, body.position, body.orientation


def mirror(settings: PhysicsSettings) -> Mirror:
    """This thread's mirror for Worlds of ``settings`` (one at a time)."""
    if getattr(_THREAD, "settings", None) != settings:
        _THREAD.mirror = Mirror(settings)
        _THREAD.settings = settings
    return _THREAD.mirror


def _highest(hits, names: dict[int, str], c: float, floor: float) -> tuple[str | None, float]:
    """(name, height m) of the highest hit of ``hits``, the first ray's on a tie;
    ``(None, floor)`` when none is above ``floor`` (m)."""
    best, height = None, floor
    for hit in hits:
        name = names.get(hit[0]) if hit[0] >= 0 else None
        if name is not None and hit[3][2] / c > height:
            best, height = name, hit[3][2] / c
    return best, height


def highest_hit(world: World, snapshot: Snapshot, starts: list, ends: list,
                floor: float) -> tuple[str | None, float]:
    """(name, height m) of the highest hit of the rays ``starts`` to ``ends``
    (engine units, vertical, downwards) in ``world``, which :func:`placed_as`
    ``snapshot``; ``(None, floor)`` when no ray hits anything above ``floor`` (m).
    Cast in the thread's mirror among the bodies that can hold it (see the module)."""
    c = world.settings.length_scale
    xs = [p[0] for p in starts]
    ys = [p[1] for p in starts]
    x0, x1 = min(xs) - BOX_SLACK, max(xs) + BOX_SLACK
    y0, y1 = min(ys) - BOX_SLACK, max(ys) + BOX_SLACK
    cid = world.client._client
    reach = []       # (top of the box + slack, engine units; creation index, record)
    for i, (record, b) in enumerate(zip(world.bodies(), snapshot.bodies)):
        lo, hi = pybullet.getAABB(record.uid, physicsClientId=cid)
        if lo[0] <= x1 and hi[0] >= x0 and lo[1] <= y1 and hi[1] >= y0:
            reach.append((hi[2] + BOX_SLACK, i, b))
    reach.sort(key=lambda r: (-r[0], r[1]))
    here = mirror(world.settings)
    count = 1
    while True:
        taken = sorted(reach[:count], key=lambda r: r[1])
        names = here.hold([r[2] for r in taken])
        best, height = _highest(here.cast(starts, ends), names, c, floor)
        # the bodies whose boxes reach the highest hit: a prefix of ``reach``
        needed = len(reach) if best is None else sum(r[0] >= height * c for r in reach)
        if needed <= count:
            return best, height
        count = needed
