"""The World: one pybullet client holding named rigid bodies built from parts.

Every value crossing this API is SI (metres, kilograms, seconds, newtons); the World
converts to its internal length unit (``PhysicsSettings.length_scale``) itself.
Orientations are unit quaternions (x, y, z, w).  A body's pose is the pose of its
part's body frame (centre of mass, principal axes).

Bodies are Bullet rigid bodies (maximal coordinates).  With ``PhysicsSettings.weld``
bodies that come to rest in a configuration whose statics hold are welded (fixed in
the engine) until something disturbs them; see :mod:`balance3d.physics.welding` for
why and how.  A welded body is still a dynamic body of the World: it keeps its name,
:meth:`World.is_static` stays False, and its contacts are reported as usual.

Determinism: the engine runs with deterministic overlapping pairs and no sleeping.
:meth:`World.snapshot` captures every body's part, pose and velocity, and, when
every dynamic body is welded, the welds
(:class:`~balance3d.physics.weld_state.WeldState`); :meth:`World.restore` rebuilds the
engine from it (``resetSimulation`` and the bodies in their original order) and
welds the same bodies again with their stored contacts, solving no statics.  A
snapshot without welds is welded from scratch: its bodies released at rest, where
their statics hold, before the first step.  Either way the restored world runs on
alike (see :mod:`balance3d.physics.welding`), carries no contact cache from before,
and the same snapshot plus the same calls gives bit-identical poses, however often.

Inertia: Bullet computes a rigid body's world-frame inertia when it creates the body
(from the collision shape's bounding box) and afterwards only when a step moves it.
So every dynamic body added, restored or teleported is primed (``World._prime_inertia``:
one step alone far from the table, nothing else moving, the clock not advancing) and
follows its part's inertia from its first step.
"""
from __future__ import annotations

import math
from collections.abc import Generator, Iterator, ValuesView
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from balance3d import numerics
from balance3d.physics.quiet import quiet_output

with quiet_output():
    import pybullet
    from pybullet_utils.bullet_client import BulletClient

from balance3d.meshes.part import Part
from balance3d.physics.bodies import (Body, BodyState, Fresh, Quat, Snapshot, Vec3,
                                      creation_runs)
from balance3d.physics.engine_shapes import collision_shape_args, create_collision_shape
from balance3d.physics.errors import InvalidStateError, OverlapError, WorldError
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.welding import Welds

#: Bullet's broadphase filter group and mask of a dynamic rigid body (DefaultFilter,
#: AllFilter): what a woken welded body is re-added with.
DYNAMIC_FILTER_GROUP, DYNAMIC_FILTER_MASK = 1, -1
#: m: a penetration shallower than this is round-off (a face released exactly on
#: another reads about -1e-18 m once scaled by ``length_scale``), not an overlap.
OVERLAP_TOLERANCE = 1e-9
#: m: where fresh bodies take the step that primes their inertia (see
#: ``World._prime_inertia``): this far out along x and this far apart, out of reach
#: of each other and of every body of the World.
PRIME_DISTANCE, PRIME_SPACING = 1000.0, 10.0


@dataclass(frozen=True)
class Contact:
    """One contact point between two named bodies, as seen from ``body_b``.

    position_a, position_b : (3,) m, the closest points on each body.
    normal : (3,) unit vector on ``body_b`` pointing towards ``body_a``.
    distance : m, signed separation (negative = penetration).
    normal_force : N, the normal force of the last physics step.
    """

    body_a: str
    body_b: str
    position_a: Vec3
    position_b: Vec3
    normal: Vec3
    distance: float
    normal_force: float


def _flip(contact: Contact) -> Contact:
    """The same contact seen from the other body."""
    return Contact(contact.body_b, contact.body_a, contact.position_b, contact.position_a,
                   tuple(-v for v in contact.normal), contact.distance, contact.normal_force)


@dataclass(frozen=True)
class SettleReport:
    """What :meth:`World.settle` did: simulated ``time`` (s) and ``steps`` run, and
    whether it hit ``settle_max_time`` before every body came to rest."""

    time: float
    steps: int
    timed_out: bool


class World:
    """Named rigid bodies in one pybullet client (DIRECT unless ``gui``).

    >>> world = World(settings)
    >>> world.add("table", table_part, (0, 0, -0.02), static=True)
    >>> world.drop("block", block_part, (0.1, 0, 0.2))
    >>> report = world.settle()
    """

    def __init__(self, settings: PhysicsSettings | None = None, *, gui: bool = False) -> None:
        self.settings = settings or PhysicsSettings()
        with quiet_output():
            self._client = BulletClient(connection_mode=pybullet.GUI if gui else pybullet.DIRECT)
        # No software-rendered copies of the bodies: nothing renders through pybullet's
        # TinyRenderer, and building them made adding bodies (a restore adds every
        # body again) about 15 % slower on the 96-piece Tower table.
        self._client.configureDebugVisualizer(pybullet.COV_ENABLE_TINY_RENDERER, 0)
        self._bodies: dict[str, Body] = {}
        self._by_uid: dict[int, Body] = {}
        self._welded: set[str] = set()
        self._created = 0
        self._shape_cache: dict[int, tuple[Part, int]] = {}
        self._shape_args: dict[int, tuple[Part, dict]] = {}
        self._steps = 0
        self._welds = Welds(self)
        self._configure()

    # ------------------------------------------------------------------ set-up
    def _configure(self) -> None:
        s, c = self.settings, self.settings.length_scale
        self._client.resetSimulation()
        self._client.setGravity(0.0, 0.0, -s.gravity * c)
        self._client.setPhysicsEngineParameter(
            fixedTimeStep=s.time_step,
            numSubSteps=s.substeps,
            numSolverIterations=s.solver_iterations,
            deterministicOverlappingPairs=1,
            contactBreakingThreshold=s.contact_breaking_threshold * c,
            enableSAT=int(s.enable_sat),
            erp=s.erp,
            contactERP=s.contact_erp,
            frictionERP=s.friction_erp,
            globalCFM=s.global_cfm,
            useSplitImpulse=int(s.use_split_impulse),
            splitImpulsePenetrationThreshold=s.split_impulse_penetration_threshold * c,
        )
        self._shape_cache.clear()
        self._welded.clear()
        self._welds.clear()
        self._restored_from = None

    def close(self) -> None:
        """Disconnect the pybullet client; the World is unusable afterwards."""
        if self._client is not None:
            self._client.disconnect()
            self._client = None

    def __enter__(self) -> "World":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    @property
    def client(self) -> BulletClient:
        """The underlying pybullet client (for renderers and benchmarks)."""
        return self._client

    def body(self, name: str) -> Body:
        """The World's record of the body ``name``."""
        try:
            return self._bodies[name]
        except KeyError:
            raise KeyError(f"no body named {name!r} in the world") from None

    def bodies(self) -> ValuesView[Body]:
        """The World's body records in creation order (a live view: do not hold it
        across adding or removing bodies)."""
        return self._bodies.values()

    def body_by_uid(self, uid: int) -> Body | None:
        """The body whose engine id is ``uid``, or None when no body of the World has it."""
        return self._by_uid.get(uid)

    def body_id(self, name: str) -> int:
        """pybullet's unique id of the body ``name``."""
        return self.body(name).uid

    @property
    def names(self) -> list[str]:
        """Body names in creation order."""
        return list(self._bodies)

    @property
    def dynamic_names(self) -> list[str]:
        """Names of the bodies that move, in creation order."""
        return [b.name for b in self._bodies.values() if not b.static]

    def part(self, name: str) -> Part:
        """The part the body ``name`` was built from."""
        return self.body(name).part

    def is_static(self, name: str) -> bool:
        """True when the body ``name`` is fixed in place."""
        return self.body(name).static

    @property
    def restored_from(self) -> Snapshot | None:
        """The snapshot the engine holds exactly, as :meth:`restore` built it from
        it; None once anything changed since (a step, a body added or removed, a pose
        or a velocity set, a weld or a wake; reading poses and contacts and
        :meth:`overlaps` change nothing, and what is done through the raw
        :attr:`client` is not seen), and for a World never restored."""
        return self._restored_from

    @property
    def time(self) -> float:
        """Simulated time since the world was built, s."""
        return self._steps * self.settings.time_step

    def _collision_shape(self, part: Part) -> int:
        """The engine's shape of ``part`` (see :func:`collision_shape_args`), built
        once per engine reset; its arguments (shrunk hulls, hull files) once per World."""
        key = id(part)
        if key in self._shape_cache:
            # the cache holds the part itself, so its id cannot be reused by another
            return self._shape_cache[key][1]
        if key not in self._shape_args:
            self._shape_args[key] = (part, collision_shape_args(part, self.settings))
        shape = create_collision_shape(self._client._client, self._shape_args[key][1],
                                       self.settings)
        if shape < 0:
            raise WorldError(f"pybullet could not build the collision shape of part {part.name!r}")
        self._shape_cache[key] = (part, shape)
        return shape

    def add(self, name: str, part: Part, position: Vec3, orientation: Quat = (0.0, 0.0, 0.0, 1.0),
            *, static: bool | None = None, linear_velocity: Vec3 = (0.0, 0.0, 0.0),
            angular_velocity: Vec3 = (0.0, 0.0, 0.0)) -> None:
        """Add body ``name`` built from ``part`` with its body frame at ``position``
        (m) and ``orientation``.  ``static`` defaults to ``part.static``."""
        if name in self._bodies:
            raise WorldError(f"a body named {name!r} is already in the world")
        self._restored_from = None
        static = part.static if static is None else static
        record = self._create(name, part, position, orientation, static)
        if not static:
            c = self.settings.length_scale
            self._prime_inertia([Fresh(record, position, orientation,
                                       tuple(v * c for v in linear_velocity),
                                       tuple(angular_velocity))])
            self._welds.added(name, not any(linear_velocity) and not any(angular_velocity))

    def _create(self, name: str, part: Part, position: Vec3, orientation: Quat,
                static: bool) -> Body:
        """Build body ``name`` in the engine at ``position`` (m), at rest, and record
        it (a dynamic body's inertia is not yet primed: see :meth:`_prime_inertia`)."""
        return self._create_run([(name, position)], part, orientation, static)[0]

    def _create_run(self, run: list[tuple[str, Vec3]], part: Part, orientation: Quat,
                    static: bool) -> list[Body]:
        """Build and record bodies of ``part`` named and placed (m) as ``run`` says,
        all turned to ``orientation``, in one engine call, in ``run``'s order."""
        c = self.settings.length_scale
        client = self._client
        places = [[v * c for v in position] for _, position in run]
        batch = {"batchPositions": places} if len(run) > 1 else {}
        created = client.createMultiBody(
            baseMass=0.0 if static else part.mass,
            baseCollisionShapeIndex=self._collision_shape(part),
            basePosition=places[0],
            baseOrientation=list(orientation),
            useMaximalCoordinates=True,  # a rigid body, which welding can make static
            **batch,
        )
        uids = created if len(run) > 1 else (created,)
        mat = part.material
        dynamics = dict(
            lateralFriction=mat.friction,
            restitution=mat.restitution,
            rollingFriction=mat.rolling_friction * c,
            spinningFriction=mat.spinning_friction * c,
            collisionMargin=self.settings.collision_margin * c,
        )
        if not static:
            dynamics.update(
                # the mass again: given an inertia alone, pybullet zeroes the mass of a
                # maximal-coordinate body
                mass=part.mass,
                localInertiaDiagonal=self._inertia(part),
                activationState=pybullet.ACTIVATION_STATE_DISABLE_SLEEPING,
                linearDamping=self.settings.linear_damping,
                angularDamping=self.settings.angular_damping,
            )
        records = []
        for (name, _), uid in zip(run, uids):
            client.changeDynamics(uid, -1, **dynamics)
            record = Body(name, uid, part, static, self._created)
            self._created += 1
            self._bodies[name] = record
            self._by_uid[uid] = record
            records.append(record)
        return records

    def _prime_inertia(self, fresh: list[Fresh]) -> None:
        """Make Bullet use each fresh dynamic body's part inertia from its first step,
        and give the body its velocity.

        Bullet computes a rigid body's world-frame inertia when it creates the body
        (from its own estimate: the inertia of the collision shape's bounding box)
        and afterwards only when a step moves the body, so the part's inertia set by
        ``changeDynamics`` would first act in the body's second step.  Each fresh
        body therefore takes one step alone, ``PRIME_DISTANCE`` out along x
        (``PRIME_SPACING`` apart), and goes back to its pose.  Meanwhile every other
        awake dynamic body is held as a welded body is (no mass, asleep: Bullet
        neither moves nor wakes it, and keeps its velocity and world inertia) and
        gets its mass and inertia back afterwards.  Nothing else moves, no contact
        is made and the World's clock does not advance.  See :meth:`_massless` for
        why the fresh bodies are moved and given their velocity massless."""
        c, client = self.settings.length_scale, self._client
        ids = {f.body.uid for f in fresh}
        held = [b for b in self._bodies.values()
                if not b.static and not b.welded and b.uid not in ids]
        for record in held:
            client.changeDynamics(record.uid, -1, mass=0.0)
            client.changeDynamics(record.uid, -1,
                                  activationState=pybullet.ACTIVATION_STATE_SLEEP)
        for i, f in enumerate(fresh):
            with self._massless(f.body):
                client.resetBasePositionAndOrientation(
                    f.body.uid, [(PRIME_DISTANCE + i * PRIME_SPACING) * c, 0.0, 0.0],
                    list(f.orientation))
        pybullet.stepSimulation(physicsClientId=client._client)
        for f in fresh:
            with self._massless(f.body):
                client.resetBasePositionAndOrientation(
                    f.body.uid, [v * c for v in f.position], list(f.orientation))
                client.resetBaseVelocity(f.body.uid, list(f.linear_velocity),
                                         list(f.angular_velocity))
        for record in held:
            with self._massless(record):
                client.changeDynamics(record.uid, -1,
                                      activationState=pybullet.ACTIVATION_STATE_DISABLE_SLEEPING)

    @contextmanager
    def _massless(self, record: Body) -> Iterator[None]:
        """Run the block with dynamic body ``record`` massless (static to Bullet),
        then give it back its mass and inertia.

        Bullet bounds a dynamic body's box in the broadphase by its pose and by where
        its last step took it; a body moved, or given a velocity, before it steps
        again would get a box reaching to its old place (for a fresh body, the
        priming place 1 km away), which Bullet keeps as long as the body stays
        inside it.  Moved while massless, the body is bounded by its pose alone."""
        client = self._client
        client.changeDynamics(record.uid, -1, mass=0.0)
        try:
            yield
        finally:
            client.changeDynamics(record.uid, -1, mass=record.part.mass,
                                  localInertiaDiagonal=self._inertia(record.part))

    def _inertia(self, part: Part) -> list[float]:
        """``part``'s principal moments in engine units (kg per length unit squared)."""
        c = self.settings.length_scale
        return [float(i) * c * c for i in part.inertia]

    def remove(self, name: str) -> None:
        """Take body ``name`` out of the world (welded bodies resting on it wake)."""
        body = self.body_id(name)
        self._restored_from = None
        self._welds.forget(name)
        self._client.removeBody(body)
        del self._bodies[name], self._by_uid[body]

    def overlapping(self, name: str) -> list[str]:
        """Names of the bodies that body ``name`` penetrates (signed distance below
        ``-OVERLAP_TOLERANCE``), in creation order."""
        body = self.body_id(name)
        limit = -OVERLAP_TOLERANCE * self.settings.length_scale
        found = []
        for other in self._bodies.values():
            if other.name == name:
                continue
            points = self._client.getClosestPoints(body, other.uid, 0.0)
            if any(p[8] < limit for p in points):
                found.append(other.name)
        return found

    def overlaps(self, part: Part, position: Vec3,
                 orientation: Quat = (0.0, 0.0, 0.0, 1.0)) -> list[str]:
        """Names of the bodies that ``part`` would penetrate (signed distance below
        ``-OVERLAP_TOLERANCE``) with its body frame at ``position`` (m) and
        ``orientation``, in creation order: what :meth:`drop` refuses.

        The World's collision shape of ``part`` is tested against each body where it
        stands; no body is added, moved or woken, and the engine's state is unchanged."""
        shape = self._collision_shape(part)
        c = self.settings.length_scale
        limit = -OVERLAP_TOLERANCE * c
        where = [v * c for v in position]
        closest, cid = pybullet.getClosestPoints, self._client._client
        found = []
        for other in self._bodies.values():
            points = closest(bodyA=-1, bodyB=other.uid, distance=0.0, collisionShapeA=shape,
                             collisionShapePositionA=where,
                             collisionShapeOrientationA=list(orientation), physicsClientId=cid)
            if any(p[8] < limit for p in points):
                found.append(other.name)
        return found

    def drop(self, name: str, part: Part, position: Vec3,
             orientation: Quat = (0.0, 0.0, 0.0, 1.0)) -> None:
        """Release ``part`` as body ``name`` at rest (zero velocity) at the pose given.

        Raises :class:`OverlapError` (and leaves the world unchanged) when it would
        overlap another body at release (:meth:`overlaps`)."""
        if name in self._bodies:
            raise WorldError(f"a body named {name!r} is already in the world")
        hits = self.overlaps(part, position, orientation)
        if hits:
            raise OverlapError(f"{name!r} released at {tuple(round(v, 4) for v in position)} "
                               f"overlaps {', '.join(hits)}")
        self.add(name, part, position, orientation, static=False)

    # ------------------------------------------------------------------ state
    def pose(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(position (3,) m, orientation (4,) quaternion xyzw)`` of body ``name``."""
        pos, orn = self._client.getBasePositionAndOrientation(self.body_id(name))
        return np.asarray(pos) / self.settings.length_scale, np.asarray(orn)

    def velocity(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(linear (3,) m/s, angular (3,) rad/s)`` of body ``name``."""
        lin, ang = self._client.getBaseVelocity(self.body_id(name))
        return np.asarray(lin) / self.settings.length_scale, np.asarray(ang)

    def set_pose(self, name: str, position: Vec3, orientation: Quat) -> None:
        """Teleport body ``name`` (velocity unchanged; a welded body, and welded
        bodies resting on the body, wake first).  A dynamic body is primed again
        (see :meth:`_prime_inertia`): its next step uses its inertia turned as it
        now is."""
        record = self.body(name)
        self._restored_from = None
        self._welds.disturb(name)
        if record.static:
            c = self.settings.length_scale
            self._client.resetBasePositionAndOrientation(
                record.uid, [v * c for v in position], list(orientation))
            return
        linear, angular = self.engine_velocity(record.uid)
        self._prime_inertia([Fresh(record, position, orientation, linear, angular)])

    def set_velocity(self, name: str, linear: Vec3, angular: Vec3 = (0.0, 0.0, 0.0)) -> None:
        """Set body ``name``'s linear (m/s) and angular (rad/s) velocity (a welded body
        wakes first)."""
        c = self.settings.length_scale
        record = self.body(name)
        self._restored_from = None
        self._welds.disturb(name)
        velocity = [v * c for v in linear], list(angular)
        if record.static:
            self._client.resetBaseVelocity(record.uid, *velocity)
            return
        with self._massless(record):
            self._client.resetBaseVelocity(record.uid, *velocity)

    # ------------------------------------------------------------------ welds
    @property
    def welded_names(self) -> list[str]:
        """Names of the bodies welded right now, in creation order."""
        return [b.name for b in self._bodies.values() if b.welded]

    def is_welded(self, name: str) -> bool:
        """True when body ``name`` is welded (fixed in the engine until disturbed)."""
        return self.body(name).welded

    def wake(self, name: str) -> list[str]:
        """Unweld body ``name`` and every welded body resting on it; returns the names
        woken, in creation order."""
        self.body_id(name)
        self._restored_from = None
        woken = self._welds.wake({name})
        return [n for n in self._bodies if n in woken]

    # ------------------------------------------------------------------ welding's engine
    # What :class:`~balance3d.physics.welding.Welds` asks of the engine.  Queries take
    # engine ids (``Body.uid``) and answer in engine units (``length_scale`` times SI
    # lengths; pybullet's raw tuples), exactly as pybullet reports them: welding's
    # statics and impact checks depend on those bits.
    @property
    def welded_set(self) -> set[str]:
        """Names of the welded bodies: a live set the World keeps in step with each
        :class:`Body`'s ``welded`` flag (read it; :meth:`weld_body` and
        :meth:`unweld_body` change it)."""
        return self._welded

    def weld_body(self, name: str) -> None:
        """Fix dynamic body ``name`` in the engine: zero velocity and mass, asleep
        (Bullet then skips its pairs with other static bodies)."""
        body, client = self.body(name), self._client
        self._restored_from = None
        # massless first (see _massless): the welded body keeps the box it gets now
        client.changeDynamics(body.uid, -1, mass=0.0)
        client.resetBaseVelocity(body.uid, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
        client.changeDynamics(body.uid, -1, activationState=pybullet.ACTIVATION_STATE_SLEEP)
        body.welded = True
        self._welded.add(name)

    def unweld_body(self, name: str) -> None:
        """Make welded body ``name`` dynamic again in the engine, at rest, with fresh
        contacts."""
        body, client = self.body(name), self._client
        self._restored_from = None
        # mass and inertia in one call: given an inertia alone, pybullet zeroes the
        # mass of a maximal-coordinate body
        client.changeDynamics(body.uid, -1, mass=body.part.mass,
                              localInertiaDiagonal=self._inertia(body.part))
        client.changeDynamics(body.uid, -1, activationState=pybullet.ACTIVATION_STATE_WAKE_UP)
        client.changeDynamics(body.uid, -1,
                              activationState=pybullet.ACTIVATION_STATE_DISABLE_SLEEPING)
        client.resetBaseVelocity(body.uid, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
        # Fresh contacts: re-adding the body to the broadphase (a dynamic body's
        # default filter group and mask) drops its cached manifolds.  With them, Bullet
        # held a woken beam whose statics had failed on the friction of the end that
        # had to lift off, up to 3x the moment that tips it (README, "Physics settings").
        client.setCollisionFilterGroupMask(body.uid, -1, DYNAMIC_FILTER_GROUP,
                                           DYNAMIC_FILTER_MASK)
        body.welded = False
        self._welded.discard(name)

    def engine_velocity(self, uid: int) -> tuple[tuple, tuple]:
        """Body ``uid``'s (linear, angular) velocity as pybullet reports it (engine
        length units per s, rad/s)."""
        return pybullet.getBaseVelocity(uid, physicsClientId=self._client._client)

    def engine_position(self, uid: int) -> tuple[float, float, float]:
        """Body ``uid``'s position as pybullet reports it (engine length units)."""
        return pybullet.getBasePositionAndOrientation(
            uid, physicsClientId=self._client._client)[0]

    def engine_orientation(self, uid: int) -> tuple[float, float, float, float]:
        """Body ``uid``'s orientation (quaternion x, y, z, w) as pybullet reports it:
        the values :meth:`pose` gives, without its arrays (for a check after every
        step)."""
        return pybullet.getBasePositionAndOrientation(
            uid, physicsClientId=self._client._client)[1]

    def contact_points(self) -> tuple:
        """Bullet's contact manifolds of the last step: pybullet contact tuples
        (engine units; index 1 and 2 the engine ids, 5 and 6 the points, 7 the normal
        on body B, 8 the distance, 9 the normal force, see :meth:`force_scale`)."""
        return pybullet.getContactPoints(physicsClientId=self._client._client)

    def closest_points(self, uid_a: int, uid_b: int, distance: float) -> tuple:
        """pybullet's closest points of bodies ``uid_a`` and ``uid_b`` within
        ``distance`` (engine units), as contact tuples with ``uid_a`` as body A."""
        return pybullet.getClosestPoints(uid_a, uid_b, distance,
                                         physicsClientId=self._client._client)

    def near(self, uid: int, reach: float) -> list[int]:
        """Engine ids, ascending, of the bodies whose bounding boxes overlap body
        ``uid``'s grown by ``reach`` (engine units) on every side (``uid`` among them)."""
        cid = self._client._client
        lo, hi = pybullet.getAABB(uid, physicsClientId=cid)
        found = pybullet.getOverlappingObjects([v - reach for v in lo], [v + reach for v in hi],
                                               physicsClientId=cid) or ()
        return sorted({u for u, _ in found})

    def vertices(self, name: str) -> np.ndarray:
        """(n, 3) float, m: body ``name``'s mesh vertices in world coordinates."""
        pos, orn = self.pose(name)
        rot = np.asarray(self._client.getMatrixFromQuaternion(orn)).reshape(3, 3)
        return numerics.matmul(self.body(name).part.mesh.vertices, rot.T) + pos

    def height_below(self, points_xy) -> float:
        """Highest surface (m) under any of ``points_xy`` ((n, 2) m): the top hit of a
        vertical ray cast down through each point.  Returns ``-table_extent`` when no
        ray hits anything."""
        c, top = self.settings.length_scale, self.settings.table_extent
        points = np.asarray(points_xy, dtype=float).reshape(-1, 2) * c
        starts = np.column_stack([points, np.full(len(points), top * c)])
        ends = np.column_stack([points, np.full(len(points), -top * c)])
        hits = self._client.rayTestBatch(starts.tolist(), ends.tolist())
        heights = [hit[3][2] / c for hit in hits if hit[0] >= 0]
        return max(heights, default=-top)

    # ------------------------------------------------------------------ stepping
    # The stepping loop and the per-check scan call pybullet's functions directly with
    # the client id: going through BulletClient builds a functools.partial per call,
    # which doubled the cost of settle()'s checks (benchmarks/bench_world.py).
    def step(self, n: int = 1) -> None:
        """Advance ``n`` fixed steps of ``time_step`` seconds (with ``weld``: wake
        welded bodies about to be hit before each step, and run the statics pass
        before the first step after a change and every ``rest_check_interval``)."""
        step, cid = pybullet.stepSimulation, self._client._client
        self._restored_from = None
        # Bullet keeps the contact breaking threshold in one process-wide variable:
        # set this World's own before stepping, or the last World configured applies.
        pybullet.setPhysicsEngineParameter(
            contactBreakingThreshold=self.settings.contact_breaking_threshold
            * self.settings.length_scale, physicsClientId=cid)
        if not self.settings.weld:
            for _ in range(n):
                step(physicsClientId=cid)
            self._steps += n
            return
        welds = self._welds
        chunk = max(1, round(self.settings.rest_check_interval / self.settings.time_step))
        for _ in range(n):
            if welds.dirty:
                welds.check()
            welds.before_step()
            step(physicsClientId=cid)
            self._steps += 1
            if self._steps % chunk == 0:
                welds.check()

    def _scan(self, check: bool = True) -> tuple[float, float]:
        """One pass over the dynamic bodies: the largest linear (m/s) and angular
        (rad/s) speeds; with ``check``, first raise :class:`InvalidStateError` for the
        first body with a non-finite pose or off the table."""
        c, cid = self.settings.length_scale, self._client._client
        extent = self.settings.table_extent * c
        get_pose, get_velocity = pybullet.getBasePositionAndOrientation, pybullet.getBaseVelocity
        lin_max = ang_max = 0.0
        for record in self._bodies.values():
            if record.static:
                continue
            name, body = record.name, record.uid
            if check:
                (x, y, z), (qx, qy, qz, qw) = get_pose(body, physicsClientId=cid)
                if not math.isfinite(x + y + z + qx + qy + qz + qw):
                    raise InvalidStateError(
                        f"body {name!r} has a non-finite pose {[x / c, y / c, z / c]}")
                if x * x + y * y > extent * extent or z < -extent:
                    where = [round(v / c, 3) for v in (x, y, z)]
                    raise InvalidStateError(
                        f"body {name!r} left the table: position {where} m is beyond "
                        f"table_extent {self.settings.table_extent} m")
            (vx, vy, vz), (wx, wy, wz) = get_velocity(body, physicsClientId=cid)
            lin, ang = vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz
            if not math.isfinite(lin + ang):
                return math.inf, math.inf  # a non-finite speed is not rest
            lin_max, ang_max = max(lin_max, lin), max(ang_max, ang)
        return math.sqrt(lin_max) / c, math.sqrt(ang_max)

    def _resting(self, speeds: tuple[float, float]) -> bool:
        lin, ang = speeds
        return lin < self.settings.rest_linear_speed and ang < self.settings.rest_angular_speed

    def at_rest(self, check: bool = False) -> bool:
        """True when every dynamic body is below the rest speeds right now.  With
        ``check``, in the same pass over the bodies, first raise
        :class:`InvalidStateError` as :meth:`check_invalid_state` does."""
        return self._resting(self._scan(check=check))

    def below(self, height: float) -> list[str]:
        """Names, in creation order, of the dynamic bodies whose centre of mass lies
        below ``height`` (m, world z)."""
        c, cid = self.settings.length_scale, self._client._client
        get_pose = pybullet.getBasePositionAndOrientation
        return [record.name for record in self._bodies.values() if not record.static
                and get_pose(record.uid, physicsClientId=cid)[0][2] / c < height]

    def settle(self, max_time: float | None = None) -> SettleReport:
        """Step until every dynamic body has stayed below ``rest_linear_speed`` and
        ``rest_angular_speed`` for ``rest_time`` seconds, or ``max_time`` (default
        ``settle_max_time``) seconds have passed.  Every ``rest_check_interval`` it
        samples the speeds and checks the state for validity (:class:`InvalidStateError`).
        This is :meth:`settling` run to its end."""
        steps = self.settling(max_time)
        while True:
            try:
                next(steps)
            except StopIteration as end:
                return end.value

    def settling(self, max_time: float | None = None) -> Generator[None, None, SettleReport]:
        """:meth:`settle` one time step at a time: a generator that yields after every
        step (so a caller can read poses between steps) and returns the
        :class:`SettleReport`."""
        s = self.settings
        max_time = s.settle_max_time if max_time is None else max_time
        chunk = max(1, round(s.rest_check_interval / s.time_step))
        needed = max(1, math.ceil(s.rest_time / (chunk * s.time_step)))
        max_steps = max(1, round(max_time / s.time_step))
        steps = still = 0
        while steps < max_steps:
            self.step()
            steps += 1
            rested = False
            if steps % chunk == 0 or steps == max_steps:
                still = still + 1 if self._resting(self._scan()) else 0
                rested = still >= needed
            yield
            if rested:
                return SettleReport(steps * s.time_step, steps, False)
        return SettleReport(steps * s.time_step, steps, True)

    def check_invalid_state(self) -> None:
        """Raise :class:`InvalidStateError` naming the first dynamic body whose pose is
        not a finite number or which has left the table (further than
        ``table_extent`` from the origin horizontally, or below ``-table_extent``)."""
        self._scan()

    # ------------------------------------------------------------------ contacts
    def force_scale(self) -> float:
        """Factor from pybullet's reported normal force to newtons.  With sub-steps
        Bullet reports the last sub-step's impulse divided by the whole step, so the
        force reads (substeps) times too small."""
        return max(1, self.settings.substeps) / self.settings.length_scale

    def contacts(self, a: str | None = None, b: str | None = None, *,
                 max_distance: float | None = None, min_force: float = 0.0) -> list[Contact]:
        """Contact points of the last step between ``a`` and ``b`` (either may be None
        for any body), with signed distance at most ``max_distance`` (m, default
        ``contact_distance``) and normal force at least ``min_force`` (N).  Each
        contact is reported once, ordered by body creation order.  Between two bodies
        that are welded or static the points are the corners of the contact patch
        (``position_a == position_b``, the pair's distance when it was welded) with
        the forces of the latest statics solution."""
        if a is None and b is not None:
            # pybullet's bodyB filter alone misses the contacts where b is body A:
            # ask from b's side and turn each contact round.
            return [_flip(ct) for ct in self.contacts(b, None, max_distance=max_distance,
                                                      min_force=min_force)]
        c = self.settings.length_scale
        limit = self.settings.contact_distance if max_distance is None else max_distance
        kwargs = {}
        if a is not None:
            kwargs["bodyA"] = self.body_id(a)
        if b is not None:
            kwargs["bodyB"] = self.body_id(b)
        scale = self.force_scale()
        welded = self._welded
        found = []
        for p in self._client.getContactPoints(**kwargs):
            distance, force = p[8] / c, p[9] * scale
            if distance > limit or force < min_force:
                continue
            body_a, body_b = self._by_uid.get(p[1]), self._by_uid.get(p[2])
            if body_a is None or body_b is None:
                continue
            if (body_a.welded or body_a.static) and (body_b.welded or body_b.static):
                continue   # Bullet no longer updates this pair: the welds report it
            found.append(Contact(
                body_a.name, body_b.name, tuple(v / c for v in p[5]), tuple(v / c for v in p[6]),
                tuple(p[7]), distance, force))
        if welded:
            for name_a, name_b, position, normal, push, distance in self._welds.stored(a, b):
                force = numerics.dot3(push, normal)
                if distance <= limit and force >= min_force:
                    found.append(Contact(name_a, name_b, position, position, normal,
                                         distance, force))
        order = {b.name: b.index for b in self._bodies.values()}
        if a is None and b is None:
            unique = {}
            for ct in found:
                if order[ct.body_a] > order[ct.body_b]:
                    ct = _flip(ct)
                unique.setdefault((ct.body_a, ct.body_b, ct.position_a), ct)
            found = list(unique.values())
        found.sort(key=lambda ct: (order[ct.body_a], order[ct.body_b]))
        return found

    def touching(self, a: str, b: str | None = None) -> set[str]:
        """Names of the bodies (or just ``b``) touching ``a`` within ``contact_distance``."""
        out = set()
        for ct in self.contacts(a, b):
            out.add(ct.body_b if ct.body_a == a else ct.body_a)
        return out

    def support_graph(self) -> dict[str, set[str]]:
        """What rests on what: body name -> names of the bodies that support it.

        A supports B when they touch, the contact carries at least
        ``contact_min_force`` and its normal, pointing from A to B, is within
        ``acos(support_min_normal_z)`` of straight up.  Static bodies are the roots
        and have no supporters.  Every body appears as a key."""
        s = self.settings
        graph: dict[str, set[str]] = {n: set() for n in self._bodies}
        for ct in self.contacts(min_force=s.contact_min_force):
            # normal points from body_b towards body_a
            if ct.normal[2] >= s.support_min_normal_z and not self._bodies[ct.body_a].static:
                graph[ct.body_a].add(ct.body_b)
            elif (-ct.normal[2] >= s.support_min_normal_z
                  and not self._bodies[ct.body_b].static):
                graph[ct.body_b].add(ct.body_a)
        return graph

    def grounded(self, graph: dict[str, set[str]] | None = None) -> set[str]:
        """Names of the bodies that rest, through a chain of supports, on a static body
        (static bodies included)."""
        graph = self.support_graph() if graph is None else graph
        reached = {b.name for b in self._bodies.values() if b.static}
        changed = True
        while changed:
            changed = False
            for name, supporters in graph.items():
                if name not in reached and supporters & reached:
                    reached.add(name)
                    changed = True
        return reached

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> Snapshot:
        """Capture every body's part, pose and velocity, the clock and the welds."""
        bodies = []
        for body in self._bodies.values():
            name = body.name
            pos, orn = self.pose(name)
            lin, ang = self.velocity(name)
            bodies.append(BodyState(name, body.part, body.static,
                                    tuple(pos.tolist()), tuple(orn.tolist()),
                                    tuple(lin.tolist()), tuple(ang.tolist())))
        return Snapshot(tuple(bodies), self.time, self._welds.state())

    def restore(self, snapshot: Snapshot) -> None:
        """Rebuild the engine from ``snapshot`` (see the module docstring; with
        ``weld`` off its welds are ignored).

        Dynamic bodies of one part in a row are built in one engine call (pybullet's
        ``batchPositions``), which runs on bit for bit as building them one by one.
        pybullet's client does not hear of the bodies of a batch after its first:
        its client-side body list (``getNumBodies``, ``getBodyUniqueId``) is short
        until ``syncBodyInfo`` (10 ms for 100 bodies, so not done here); every call
        on a body id works."""
        self._configure()
        self._bodies.clear()
        self._by_uid.clear()
        self._created = 0
        c = self.settings.length_scale
        fresh = []
        for run in creation_runs(snapshot.bodies):
            first = run[0]
            records = self._create_run([(b.name, b.position) for b in run], first.part,
                                       first.orientation, first.static)
            if not first.static:
                # a batch is built turned as its first body: priming turns each body
                fresh += [Fresh(record, b.position, b.orientation,
                                tuple(v * c for v in b.linear_velocity), b.angular_velocity)
                          for record, b in zip(records, run)]
        if fresh:
            self._prime_inertia(fresh)
        for f in fresh:
            self._welds.added(f.body.name, not any(f.linear_velocity)
                              and not any(f.angular_velocity))
        self._steps = round(snapshot.time / self.settings.time_step)
        if self.settings.weld:
            try:
                self._welds.restore(snapshot.welds)
            except ValueError as exc:
                raise WorldError(f"snapshot welds: {exc}") from None
        self._restored_from = snapshot

    @classmethod
    def from_snapshot(cls, snapshot: Snapshot, settings: PhysicsSettings) -> "World":
        """A new World holding the state ``snapshot`` describes."""
        world = cls(settings)
        world.restore(snapshot)
        return world
