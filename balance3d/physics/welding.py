"""Welding: bodies at rest whose statics hold are fixed in place until disturbed.

Why.  Bullet's sequential-impulse solver does not hold a tall stack of thin pieces
at rest: it does not converge on a deep stack, every step leaves velocity errors
at the contacts, and a column of flat pieces turns them into a sway that grows until
it falls.  Measured on pybullet 3.2.7 (README, "Physics settings"): a column of 24
Tower logo pieces (5 x 3 x 1.5 cm) falls within half a second at pybullet's
defaults, and no affordable time step, iteration count, unit scale or contact
setting keeps its top within 2 mm for 60 s.

What.  A dynamic body that has stayed below the rest speeds for ``weld_time`` (or
was released at rest) is *resting*.  A group of touching resting bodies is welded --
made static in the engine -- only when its statics hold: contact patches are computed
from the parts' exact geometry (:mod:`balance3d.physics.patches`; not from Bullet's
four-point manifolds, and a curved surface touching only along its exact line or
point, so that nothing round is held against rolling), and
:func:`balance3d.physics.statics.solve_statics` must find contact forces inside the
friction cones that hold every body of the group and every welded body it rests on.
As in rigid-body statics, a knife-edge balance (a centre of mass exactly above a
line or point of support) holds.

A welded body wakes (becomes dynamic again, at rest) when

* a body approaching it at ``wake_speed`` or faster is about to hit it and the
  momentum it brings would overturn or shift the welded structure as a rigid body
  (the structure turning about an edge of its support must gain the energy to lift
  its centre of mass over that edge: :mod:`balance3d.physics.impacts`); checked
  before every step, so the impact itself is simulated with the woken bodies;
* the loads that moving bodies put on it, or the loss of such a load, leave its
  welded group without a static solution (checked every ``rest_check_interval``).
  A moving body pushes with the normal forces Bullet measured; one sliding on it
  (its centre of mass moving along the contact at ``wake_speed`` or faster) pushes
  with their mean over the steps since the last check and drags it with kinetic
  friction, mu N along the slip (not with any friction the statics would choose:
  that could hold back what a sliding load pulls over);
* resting bodies that land on it cannot be held by it (same check);
* the World is asked to move, push or remove it or a body it rests on.

Waking a body also wakes every welded body resting on it, transitively.  When statics
fail somewhere inside a welded structure, the smallest failing part is found by
growing the checked set downwards from the loaded bodies, and only that part wakes.
A load that comes or goes is first checked on the part of the welded group it rests
on, with the stored contact forces of the rest acting on that part as loads: statics
are linear, so if that part holds, the whole group does (the whole is solved only
when the part alone cannot hold).

Welded bodies still report contacts: the patches found when they were welded, with
the forces of the latest statics solution (a welded stack's normal forces still add
up to its weight).

A snapshot of a World at rest, every dynamic body welded, keeps the welds
(:class:`WeldState`: the welded bodies and the stored contacts of their pairs, with
their forces), and a World restored from it welds the same bodies again at once,
solving no statics: restoring a table of resting towers costs little more than
building its bodies.  A snapshot with a body awake keeps none: the restored World
welds from scratch, before the first step, the bodies released at rest whose
statics hold and that touch no moving body (carrying the welds of the others
would change what follows: a moving body keeps what it touches from being welded
until it rests).  A World at rest welded from scratch normally welds the same
bodies as its kept welds, and the engine sees only which bodies are welded, so the
two run on alike: bit for bit in the tests and in the seeded games checked (their
stored contact points and forces may differ in the last bits, which matters only
where a later statics check or a reading of forces is on a knife edge).
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from balance3d import numerics
from balance3d.meshes.part import Part
from balance3d.physics.caches import cache
from balance3d.physics.impacts import RigidBody, overturned
from balance3d.physics.patches import contact_patch, piece_geometry, quat_matrix
from balance3d.physics.weld_state import WeldContact, WeldState
from balance3d.physics.statics import (StaticsBody, StaticsContact, cross, solve_statics,
                                       tangents, unbalanced)

#: Steps of travel at a body's current speed within which a welded body counts as
#: within reach and is woken before the step.
REACH_STEPS = 2
#: Contact patches each thread remembers (least recently used dropped first;
#: :mod:`balance3d.physics.caches` switches and empties them), by
#: the two parts, the settings, both poses and Bullet's points (their bits): every
#: input of :meth:`Welds.patch`, so a remembered patch is the patch, bit for bit.
#: Worlds rebuilt from one snapshot meet the same resting pairs again and again.
#: An entry holds about 0.8 kB, so a thread's cache at most about 3.5 MB.
PATCH_CACHE_SIZE = 4096


#: degrees: contact points of one pair whose normals are this close share a patch.
PATCH_NORMAL_ANGLE_DEG = 10.0


def _swap(p: tuple) -> tuple:
    """A pybullet contact tuple seen from its other body."""
    p = list(p)
    p[1], p[2], p[3], p[4], p[5], p[6] = p[2], p[1], p[4], p[3], p[6], p[5]
    p[7] = tuple(-v for v in p[7])
    return tuple(p)


class Welds:
    """The welding state of one World (see the module docstring).  It reads the
    World's bodies and engine through the World's narrow interface (``body``,
    ``bodies``, ``body_by_uid``, ``welded_set``, ``weld_body`` / ``unweld_body``,
    ``engine_velocity``, ``engine_position``, ``contact_points``, ``closest_points``,
    ``near``, ``force_scale``, ``pose``, ``time``, ``settings``); the World calls
    :meth:`before_step` before every step, :meth:`check` every
    ``rest_check_interval`` and before the first step after a change
    (:attr:`dirty`), and :meth:`forget` / :meth:`wake` when it moves or removes
    bodies."""

    def __init__(self, world) -> None:
        # a proxy, not the World: the World owns this object, and a reference back
        # would make a cycle that keeps every dropped World (and its pybullet
        # client's memory) until Python's cyclic collector happens to run
        self.world = weakref.proxy(world)
        self.still_since: dict[str, float] = {}
        self.pairs: dict[frozenset, list[WeldContact]] = {}
        self.retry: dict[frozenset, float] = {}
        self.touched: set[str] = set()
        self.carried: dict[frozenset, tuple[float, tuple]] = {}
        self.samples: list[tuple[dict[frozenset, list], set[frozenset]]] = []
        self.sampled = True
        self.arriving: set[frozenset] = set()
        self.dirty = False
        self._geometry: dict[int, tuple[Part, list, float]] = {}

    # ------------------------------------------------------------------ state
    @property
    def welded(self) -> set[str]:
        """Names of the welded bodies (the World's live set; read only)."""
        return self.world.welded_set

    def clear(self) -> None:
        """Forget every record (the World has just emptied its engine)."""
        self.still_since.clear()
        self.pairs.clear()
        self.retry.clear()
        self.touched.clear()
        self.carried.clear()
        self.samples.clear()
        self.arriving.clear()
        self.dirty = False

    def state(self) -> WeldState:
        """For a snapshot: the welded bodies and their stored contacts when every
        dynamic body is welded, else nothing (a body still awake keeps a World
        welded from scratch from welding what touches it until it rests, so only a
        World at rest can be welded again as it was)."""
        bodies = [b for b in self.world.bodies() if not b.static]
        if not bodies or not all(b.welded for b in bodies):
            return WeldState()
        return WeldState(tuple(b.name for b in bodies),
                         tuple(ct for contacts in self.pairs.values() for ct in contacts))

    def restore(self, state: WeldState) -> None:
        """Weld again, without solving statics, the bodies ``state`` names, and keep
        its contacts (the World has just been rebuilt with every body of the
        snapshot; a :class:`ValueError` names a body it lacks or that cannot be
        welded)."""
        bodies = {b.name: b for b in self.world.bodies()}
        for name in state.welded:
            if name not in bodies or bodies[name].static:
                raise ValueError(f"welded body {name!r} is not a dynamic body of the world")
        for ct in state.contacts:
            for name in (ct.body_a, ct.body_b):
                if name not in bodies:
                    raise ValueError(f"a welded contact names {name!r}, not a body of the world")
        self._weld(set(state.welded))
        for ct in state.contacts:
            self.pairs.setdefault(frozenset((ct.body_a, ct.body_b)), []).append(ct)

    def _order(self) -> dict[str, int]:
        """Body name -> creation index."""
        return {b.name: b.index for b in self.world.bodies()}

    def _part(self, name: str) -> Part:
        return self.world.body(name).part

    # ------------------------------------------------------------------ geometry
    def _pieces(self, name: str) -> tuple[list, float]:
        """Convex pieces of body ``name`` (body frame) and its bounding radius, m."""
        part = self._part(name)
        entry = self._geometry.get(id(part))
        if entry is None or entry[0] is not part:
            radius = float(numerics.norm(part.mesh.vertices).max())
            entry = (part, piece_geometry(part), radius)
            self._geometry[id(part)] = entry
        return entry[1], entry[2]

    def patches(self, a: str, b: str, points: list) -> list[tuple[np.ndarray, np.ndarray]]:
        """Contact patches of bodies ``a`` and ``b``, which Bullet finds touching at
        ``points`` (pybullet contact tuples with ``a`` as body A): one patch per
        direction of contact (two non-convex parts can touch in several places, at
        different angles; points whose normals are within
        :data:`PATCH_NORMAL_ANGLE_DEG` share a patch).  See :meth:`patch`."""
        limit = math.cos(math.radians(PATCH_NORMAL_ANGLE_DEG))
        clusters: list[tuple[np.ndarray, list]] = []
        for p in sorted(points, key=lambda p: p[8]):        # deepest first
            normal = np.asarray(p[7], float) / numerics.norm3(p[7])
            for direction, members in clusters:
                if numerics.dot3(direction, normal) >= limit:
                    members.append(p)
                    break
            else:
                clusters.append((normal, [p]))
        return [self.patch(a, b, members) for _, members in clusters]

    def patch(self, a: str, b: str, points: list) -> tuple[np.ndarray, np.ndarray]:
        """Contact patch of bodies ``a`` and ``b`` touching at ``points`` (pybullet
        contact tuples with ``a`` as body A, all in one direction).  Returns ((k, 3) m
        patch corners, (3,) unit normal from ``b`` towards ``a``).  The patch is the
        convex hull of where the two parts' convex pieces meet: each piece's vertices
        within ``weld_patch_tolerance`` of the contact plane through the deepest
        point, intersected."""
        w = self.world
        c, tol = w.settings.length_scale, w.settings.weld_patch_tolerance
        pose_a, pose_b = w.pose(a), w.pose(b)
        patches = cache("patches", PATCH_CACHE_SIZE)
        if patches is None:
            return self._patch(a, b, points, pose_a, pose_b)
        key = (self._part(a), self._part(b), c, tol, np.concatenate([*pose_a, *pose_b]).tobytes(),
               np.array([[*p[5], *p[6], *p[7], p[8]] for p in points], float).tobytes())
        if key not in patches:
            patches.put(key, self._patch(a, b, points, pose_a, pose_b))
        corners, normal = patches.get(key)
        return corners.copy(), normal.copy()

    def _patch(self, a: str, b: str, points: list, pose_a: tuple,
               pose_b: tuple) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`patch` computed, with the bodies' poses ((3,) m, (4,) xyzw)."""
        w = self.world
        c, tol = w.settings.length_scale, w.settings.weld_patch_tolerance
        deepest = min(points, key=lambda p: p[8])
        normal = np.asarray(deepest[7], float)
        normal /= numerics.norm3(normal)
        origin = (np.asarray(deepest[5]) + np.asarray(deepest[6])) / (2.0 * c)
        frame = np.stack(tangents(normal))

        corners = contact_patch(self._pieces(a)[0], (pose_a[0], quat_matrix(pose_a[1])),
                                self._pieces(b)[0], (pose_b[0], quat_matrix(pose_b[1])),
                                origin, normal, frame, tol)
        if len(corners) == 0:   # the exact geometry disagrees with Bullet: trust Bullet
            mids = [(np.asarray(p[5]) + np.asarray(p[6])) / (2.0 * c) for p in points]
            return np.asarray(mids), normal
        return corners, normal

    # ------------------------------------------------------------------ queries
    def stored(self, a: str | None, b: str | None):
        """Stored contacts of welded pairs involving ``a`` and ``b`` (None: any), as
        (body_a, body_b, position, normal from b to a, force on a, distance), with
        the given ``a`` (else the given ``b``) on the side it was asked for."""
        for pair, contacts in self.pairs.items():
            if (a is not None and a not in pair) or (b is not None and b not in pair):
                continue
            for ct in contacts:
                flip = (a is not None and ct.body_a != a) or (a is None and b is not None
                                                             and ct.body_b != b)
                if flip:
                    yield (ct.body_b, ct.body_a, ct.position, tuple(-v for v in ct.normal),
                           tuple(-v for v in ct.force), ct.distance)
                else:
                    yield ct.body_a, ct.body_b, ct.position, ct.normal, ct.force, ct.distance

    # ------------------------------------------------------------------ structure
    def _rests_on(self, upper: str, lower: str) -> bool:
        """True when stored contacts say that ``upper`` rests on ``lower``."""
        limit = self.world.settings.support_min_normal_z
        for ct in self.pairs.get(frozenset((upper, lower)), ()):
            if (ct.normal[2] if ct.body_a == upper else -ct.normal[2]) >= limit:
                return True
        return False

    def _neighbours(self, name: str) -> set[str]:
        """Welded bodies sharing a stored pair with ``name``."""
        out = set()
        for pair in self.pairs:
            if name in pair:
                out |= pair
        out.discard(name)
        return out & self.welded

    def closure_up(self, names) -> set[str]:
        """``names`` and every welded body resting on them, transitively."""
        return self._closure(names, up=True)

    def _below(self, names) -> set[str]:
        """``names`` and every welded body they rest on, transitively."""
        return self._closure(names, up=False)

    def _closure(self, names, up: bool) -> set[str]:
        """``names`` and the welded bodies reached by following "rests on" upwards
        (``up``: who rests on them) or downwards (what they rest on), transitively."""
        found = set(names)
        todo = list(found)
        while todo:
            name = todo.pop()
            for other in self._neighbours(name):
                upper, lower = (other, name) if up else (name, other)
                if other not in found and self._rests_on(upper, lower):
                    found.add(other)
                    todo.append(other)
        return found

    def _group(self, name: str) -> set[str]:
        """The welded bodies connected to welded ``name`` through stored pairs."""
        found, todo = {name}, [name]
        while todo:
            for other in self._neighbours(todo.pop()):
                if other not in found:
                    found.add(other)
                    todo.append(other)
        return found

    # ------------------------------------------------------------------ wake / weld
    def wake(self, names) -> set[str]:
        """Wake the welded bodies among ``names`` and all that rest on them."""
        woken = self.closure_up(set(names) & self.welded) & self.welded
        order = self._order()
        for name in sorted(woken, key=order.__getitem__):
            self.world.unweld_body(name)
            self.still_since[name] = self.world.time
        for pair in [p for p in self.pairs if p & woken]:
            del self.pairs[pair]
        if woken:
            self.retry.clear()
            self.carried.clear()
            self.dirty = True
        return woken

    def added(self, name: str, at_rest: bool) -> None:
        """Body ``name`` was just added, released at rest or not."""
        if at_rest:
            self.still_since[name] = -math.inf
        self.dirty = True

    def disturb(self, name: str) -> None:
        """Body ``name`` is about to be moved by hand: wake it (if welded) or the
        welded bodies resting on it; the welded bodies it leaves are checked again."""
        self.touched |= self._neighbours(name)
        if name in self.welded:
            self.wake({name})
        else:
            self.wake({n for n in self._neighbours(name) if self._rests_on(n, name)})
        self.touched &= self.welded
        self.dirty = True

    def forget(self, name: str) -> None:
        """Body ``name`` is about to leave the world: wake what rests on it, drop its
        records; the welded bodies it leaves are checked again."""
        self.touched |= self._neighbours(name)
        if name in self.welded:
            self.wake({name})
        else:
            self.wake({n for n in self._neighbours(name) if self._rests_on(n, name)})
        self.still_since.pop(name, None)
        for pair in [p for p in self.pairs if name in p]:
            del self.pairs[pair]
        self.touched.discard(name)
        self.touched &= self.welded
        self.retry.clear()
        self.carried.clear()
        self.dirty = True

    def _weld(self, names: set[str]) -> None:
        for name in sorted(names, key=self._order().__getitem__):
            self.world.weld_body(name)
            self.still_since.pop(name, None)
        self.carried.clear()

    # ------------------------------------------------------------------ per step
    def before_step(self) -> None:
        """Before a step: find bodies about to hit welded ones (approaching at
        ``wake_speed`` or more, within reach) and wake the welded part that the
        impact would overturn or shift (:meth:`_overturned`): the momentum the
        body brings, taken up by the welded part turning about an edge of its
        support, against the lift of its centre of mass over that edge.  While
        moving bodies touch welded ones, it also keeps the last step's contacts
        between them, but for the pairs that the step before found arriving (their
        impulse is judged here, not taken for a load: :meth:`_averaged`)."""
        if not self.welded:
            self.arriving = set()
            return
        if self.touched and not self.sampled:
            self.samples.append((self._loading_pairs(), self.arriving))
        self.sampled = False
        w = self.world
        s = w.settings
        c = s.length_scale
        reach_time = REACH_STEPS * s.time_step
        hits: dict[frozenset, list] = {}
        impulses: dict[frozenset, tuple] = {}
        for record in w.bodies():
            if record.static or record.welded:
                continue
            name, body = record.name, record.uid
            (vx, vy, vz), (ax, ay, az) = w.engine_velocity(body)
            speed = (math.sqrt(vx * vx + vy * vy + vz * vz) / c
                     + math.sqrt(ax * ax + ay * ay + az * az) * self._pieces(name)[1])
            if not speed >= s.wake_speed:
                continue
            reach = (speed * reach_time + s.contact_distance) * c
            centre = None
            for uid in w.near(body, reach):
                target = w.body_by_uid(uid)
                if target is None or not target.welded:
                    continue
                other = target.name
                points = w.closest_points(body, uid, reach)
                if not points:
                    continue
                if centre is None:
                    centre = np.asarray(w.engine_position(body))
                    lin, ang = np.array((vx, vy, vz)), np.array((ax, ay, az))
                    mass = record.part.mass
                restitution = (record.part.material.restitution
                               * target.part.material.restitution)
                arriving = []
                for p in points:
                    # approach speed of this point of the body towards the welded one
                    approach = -numerics.dot3(lin + cross(ang, np.subtract(p[5], centre)),
                                              p[7]) / c
                    if approach >= s.wake_speed and (
                            p[8] / c <= approach * reach_time + s.contact_distance):
                        arriving.append((p, approach))
                if arriving:
                    p, approach = arriving[0]
                    force = mass * approach * (1.0 + restitution) / s.time_step
                    hit = list(p)
                    hit[9] = force / w.force_scale()     # engine units, as Bullet's
                    hits.setdefault(frozenset((name, other)), []).append(tuple(hit))
                    impulses[frozenset((name, other))] = (
                        name, other, centre / c, self._momentum(name, other, lin / c, p[7]))
        self.arriving = set(hits)
        # an impact no harder, at about the same place, than one the same welded
        # structure was found to carry is carried: no need to solve again
        for pair in list(hits):
            carried = self.carried.get(pair)
            if carried is not None and all(
                    p[9] <= carried[0] and
                    numerics.norm3(np.subtract(p[6], carried[1])) <= s.contact_distance * c
                    for p in hits[pair]):
                del hits[pair]
        if not hits:
            return
        targets = {n for pair in hits for n in pair} & self.welded
        order = self._order()
        done: set[str] = set()
        for target in sorted(targets, key=order.__getitem__):
            if target in done or target not in self.welded:
                continue
            group = self._group(target)
            done |= group
            tipping = self._overturned(group & targets, [impulses[p] for p in hits
                                                         if p & group])
            if tipping is not None:
                self.wake(tipping)
                continue
            for pair in hits:
                if pair & group:
                    worst = max(hits[pair], key=lambda p: p[9])
                    self.carried[pair] = (worst[9], tuple(worst[6]))

    def _momentum(self, mover: str, welded: str, velocity: np.ndarray,
                  normal) -> np.ndarray:
        """(3,) N s: the momentum body ``mover`` (``velocity`` (3,) m/s) hands to
        welded body ``welded`` on landing on it along ``normal`` (from the welded
        body towards the mover), the impact plastic but for the restitution of the
        pair: its part towards the welded body times one plus the restitution, and
        its part along the contact as far as their friction can pass it on."""
        mover_part, welded_part = self._part(mover), self._part(welded)
        mass = mover_part.mass
        n = np.asarray(normal, float) / numerics.norm3(normal)
        restitution = mover_part.material.restitution * welded_part.material.restitution
        friction = mover_part.material.friction * welded_part.material.friction
        towards = numerics.dot3(velocity, n)
        push = mass * towards * (1.0 + restitution) * n
        along = mass * (velocity - towards * n)
        size = numerics.norm3(along)
        limit = friction * numerics.norm3(push)
        if size > limit:
            along *= limit / size
        return push + along

    def _overturned(self, struck: set[str], impulses: list) -> set[str] | None:
        """The smallest welded set, grown downwards from the ``struck`` bodies, that
        the landings ``impulses`` ((mover, welded body, the mover's centre of mass
        (3,) m, the momentum it hands over (3,) N s)) overturn or shift, the landing
        bodies moving with it (:func:`balance3d.physics.impacts.overturned`), or
        None when none is.  The momentum acts through the mover's centre of mass:
        so its moment about any pivot is the mover's angular momentum about it (the
        spin of the mover itself is left out)."""
        w = self.world
        limit = w.settings.support_min_normal_z
        stored = [ct for pair in self.pairs.values() for ct in pair]
        rigid: dict[str, RigidBody] = {}
        solve = self.closure_up(struck)
        while True:
            acting = {mover: (where, impulse) for mover, target, where, impulse in impulses
                      if target in solve}
            points, normals, friction, below = [], [], math.inf, set()
            for ct in stored:
                if (ct.body_a in solve) == (ct.body_b in solve):
                    continue
                upper, lower, normal = ((ct.body_a, ct.body_b, ct.normal)
                                        if ct.body_a in solve else
                                        (ct.body_b, ct.body_a, tuple(-v for v in ct.normal)))
                below.add(lower)
                if normal[2] >= limit:
                    points.append(ct.position)
                    normals.append(normal)
                    friction = min(friction, self._part(upper).material.friction
                                   * self._part(lower).material.friction)
            if not points:
                return solve
            for name in solve | set(acting):
                if name not in rigid:
                    rigid[name] = self._rigid(name)
            bodies = [rigid[n] for n in sorted(solve | set(acting))]
            normal = numerics.fsum_rows(normals)
            if overturned(bodies, np.asarray(points), normal / numerics.norm3(normal),
                          friction, list(acting.values()), w.settings.gravity):
                return solve
            below &= self.welded
            if not below:
                return None
            solve = self.closure_up(solve | below)

    def _rigid(self, name: str) -> RigidBody:
        """Body ``name`` as a rigid body in world axes (for the impact check)."""
        part = self._part(name)
        position, orientation = self.world.pose(name)
        rot = quat_matrix(orientation)
        return RigidBody(part.mass, np.asarray(position, float),
                         numerics.matmul(rot * part.inertia, rot.T))

    def _close_points(self) -> list:
        """Bullet's current contact points within ``contact_distance``, in
        Bullet's order (pybullet contact tuples)."""
        w = self.world
        limit = w.settings.contact_distance * w.settings.length_scale
        return [p for p in w.contact_points() if p[8] <= limit]

    def _manifold_pairs(self, awake: set[str]) -> dict[frozenset, list]:
        """Bullet's current contact points (within ``contact_distance``) of pairs of
        bodies of the World with an awake body."""
        names = {b.uid: b.name for b in self.world.bodies()}
        pairs: dict[frozenset, list] = {}
        for p in self._close_points():
            a, b = names.get(p[1]), names.get(p[2])
            if a is not None and b is not None and (a in awake or b in awake):
                pairs.setdefault(frozenset((a, b)), []).append(p)
        return pairs

    def _loading_pairs(self) -> dict[frozenset, list]:
        """Bullet's current contact points (within ``contact_distance``) of awake
        bodies with welded ones, by pair (taken before every step while moving
        bodies load welded ones)."""
        awake: dict[int, str] = {}
        welded: dict[int, str] = {}
        for body in self.world.bodies():
            if not body.static:
                (welded if body.welded else awake)[body.uid] = body.name
        pairs: dict[frozenset, list] = {}
        if not awake or not welded:
            return pairs
        for p in self._close_points():
            a, b = p[1], p[2]
            if a in awake:
                other = welded.get(b)
                if other is not None:
                    pairs.setdefault(frozenset((awake[a], other)), []).append(p)
            elif b in awake:
                other = welded.get(a)
                if other is not None:
                    pairs.setdefault(frozenset((other, awake[b])), []).append(p)
        return pairs

    def _averaged(self, live: dict[frozenset, list]) -> dict[frozenset, list]:
        """``live`` with the contacts of each awake body sliding on a welded one
        (:meth:`_slip`) replaced by those of every step since the last check, each
        point's normal force divided by the number of those steps: the mean load
        over the check interval.  Bullet's contact forces on a sliding body change
        from step to step (a cube sliding on a welded plank rocks between its front
        edge, at under half its weight, and three points, at one and a half times
        it, every other step), so a single step's manifold can misstate the load a
        sliding body puts on the welded one.  A step in which the pair was arriving
        is left out (the landing's impulse is judged by :meth:`before_step`), and
        other contacts keep the last step's points."""
        if not self.samples:
            return live
        w = self.world
        out = dict(live)
        for pair, current in live.items():
            welded = pair & self.welded
            if len(welded) != 1:
                continue
            (a,) = welded
            (b,) = pair - welded
            facing = [p if w.body_by_uid(p[1]).name == a else _swap(p) for p in current]
            if all(slip is None for slip in self._slip(a, b, facing)):
                continue
            kept = [sample.get(pair, []) for sample, arriving in self.samples
                    if pair not in arriving]
            steps = len(kept) + 1
            points = [p for sample in kept for p in sample] + list(current)
            out[pair] = [p[:9] + (p[9] / steps,) + p[10:] for p in points]
        return out

    def _touching(self, names: set[str]) -> dict[frozenset, list]:
        """Closest points (within ``contact_distance``) of ``names`` with every body
        near them: which pairs touch, whether or not Bullet's manifolds have them."""
        w = self.world
        reach = w.settings.contact_distance * w.settings.length_scale
        pairs: dict[frozenset, list] = {}
        for name in sorted(names, key=self._order().__getitem__):
            body = w.body(name).uid
            for uid in w.near(body, reach):
                found = w.body_by_uid(uid)
                other = None if found is None else found.name
                if other is None or other == name or frozenset((name, other)) in pairs:
                    continue
                points = w.closest_points(body, uid, reach)
                if points:
                    pairs[frozenset((name, other))] = list(points)
        return pairs

    def check(self) -> None:
        """The statics pass: track which awake bodies are still, weld resting groups
        whose statics hold, wake welded parts that cannot carry their loads."""
        w = self.world
        s = w.settings
        c = s.length_scale
        now = w.time
        self.dirty = False
        awake = {b.name for b in w.bodies() if not b.static and not b.welded}
        for name in awake:
            (vx, vy, vz), (ax, ay, az) = w.engine_velocity(w.body(name).uid)
            if (math.sqrt(vx * vx + vy * vy + vz * vz) / c < s.rest_linear_speed
                    and math.sqrt(ax * ax + ay * ay + az * az) < s.rest_angular_speed):
                self.still_since.setdefault(name, now)
            else:
                self.still_since.pop(name, None)
        resting_all = {n for n in awake
                       if now - self.still_since.get(n, math.inf) >= s.weld_time - 1e-9}
        if not resting_all and not self.welded:
            # every body moves and none is welded: nothing to weld, load or check
            self.samples.clear()
            self.sampled = True
            self.touched = set()
            return
        # with no awake body there is no live pair and no group to weld or load
        live = self._averaged(self._manifold_pairs(awake)) if awake else {}
        self.samples.clear()
        self.sampled = True
        order = self._order()
        groups = self._groups(live.keys()) if awake else []
        group_of = {n: g for g in groups for n in g}
        processed, touched_now = set(), set()
        for group in groups:
            if group & processed:
                continue
            moving = group & awake
            if not moving:
                continue
            welded = group & self.welded
            touching = {n for n in welded if any(frozenset((n, m)) in live for m in moving)}
            touched_now |= touching
            if moving <= resting_all:
                if self.retry.get(frozenset(group), -math.inf) > now:
                    processed |= group
                    continue
                # which bodies really touch (Bullet's manifolds may not have them yet),
                # and the groups they join
                touch: dict[frozenset, list] = {}
                asked: set[str] = set()
                while True:
                    new = (group & awake) - asked
                    if not new:
                        break
                    asked |= new
                    touch.update(self._touching(new))
                    for pair in touch:
                        for other in pair:
                            if other in group_of:
                                group = group | group_of[other]
                processed |= group
                moving = group & awake
                if not moving <= resting_all:
                    continue      # touches a moving body: wait until it rests too
                key = frozenset(group)
                if self.retry.get(key, -math.inf) > now:
                    continue
                if not self._try_weld(group, touch, live):
                    self.retry[key] = now + s.rest_time
            else:
                processed |= group
                if touching:
                    self._check_loads(group, moving, live)
        # welded groups that moving bodies loaded at the last check and do not now
        for name in sorted(self.touched - processed, key=lambda n: order.get(n, -1)):
            if name in self.welded and name not in processed:
                group = self._group(name)
                processed |= group
                # held by the forces stored before the load came, or solved again
                if (self._unbalanced(group & self.welded)
                        and self._solve_group(group, self.touched & group, set(), {}) is None):
                    failing = self._failing(self.closure_up({name}), set(), {})
                    self.wake(failing if failing is not None else group)
        self.touched = touched_now & self.welded

    def _groups(self, live_pairs) -> list[set[str]]:
        """Connected groups of non-static bodies through ``live_pairs`` and stored
        pairs, in creation order."""
        w = self.world
        parent = {b.name: b.name for b in w.bodies() if not b.static}

        def find(x):
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for pair in list(live_pairs) + list(self.pairs):
            members = [n for n in pair if n in parent]
            if len(members) == 2:
                ra, rb = find(members[0]), find(members[1])
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
        groups: dict[str, set[str]] = {}
        for n in parent:
            groups.setdefault(find(n), set()).add(n)
        return list(groups.values())

    # ------------------------------------------------------------------ statics
    def _problem(self, solve: set[str], loads_from: set[str], live: dict,
                 rigid: set[str] = frozenset(), held: set[str] = frozenset()):
        """The statics problem of the bodies ``solve``, touching as ``live`` (pybullet
        contact tuples by pair) says.  Contacts with static or welded bodies, or with
        bodies in ``rigid``, are supports; contacts with any other body (one in
        ``loads_from``, or awake) carry their measured normal force; the stored
        contacts of welded bodies in ``held`` push with their stored forces (loads)."""
        w = self.world
        order = self._order()
        names = sorted(solve, key=order.__getitem__)
        index = {n: i for i, n in enumerate(names)}
        loads: dict[str, list] = {n: [] for n in names}
        contacts: list[StaticsContact] = []
        records: list[tuple] = []
        limit = w.settings.support_min_normal_z
        scale, c = w.force_scale(), w.settings.length_scale
        pair_ids: dict[frozenset, int] = {}
        frictions: dict[tuple[str, str], float] = {}

        def add(a, b, position, normal, known=None, distance=0.0):
            mu = frictions.get((a, b))
            if mu is None:
                mu = self._part(a).material.friction * self._part(b).material.friction
                frictions[a, b] = mu
            pid = pair_ids.setdefault(frozenset((a, b)), len(pair_ids))
            # Python floats: the same values as given, for the program and the records
            position, normal = tuple(map(float, position)), tuple(map(float, normal))
            contacts.append(StaticsContact(index[a], index.get(b, -1), position, normal, mu,
                                           pid, abs(normal[2]) >= limit, known))
            records.append((a, b, position, normal, float(distance)))

        def key(pair):
            return sorted(order[n] for n in pair)

        for pair in sorted((p for p in self.pairs if p & solve), key=key):
            for ct in self.pairs[pair]:
                if pair & held:
                    if ct.body_a in solve:
                        loads[ct.body_a].append((ct.position, ct.force))
                    else:
                        loads[ct.body_b].append((ct.position, tuple(-v for v in ct.force)))
                elif ct.body_a in solve:
                    add(ct.body_a, ct.body_b, ct.position, ct.normal, distance=ct.distance)
                else:
                    add(ct.body_b, ct.body_a, ct.position, tuple(-v for v in ct.normal),
                        distance=ct.distance)
        for pair in sorted((p for p in live if p & solve and p not in self.pairs), key=key):
            a, b = sorted(pair, key=order.__getitem__)
            if a not in solve:
                a, b = b, a
            points = [p if w.body_by_uid(p[1]).name == a else _swap(p) for p in live[pair]]
            moving = b in loads_from or not (b in solve or b in rigid or b in self.welded
                                             or w.body(b).static)
            if moving:
                slips = self._slip(a, b, points)
                mu = self._part(a).material.friction * self._part(b).material.friction
                for p, slip in zip(points, slips):
                    if slip is None:
                        add(a, b, tuple(v / c for v in p[5]), p[7], p[9] * scale)
                    else:       # kinetic: the normal force and mu N along the slip
                        push = p[9] * scale
                        loads[a].append((tuple(v / c for v in p[5]),
                                         tuple(push * np.asarray(p[7]) + mu * push * slip)))
                continue
            distance = min(p[8] for p in points) / c
            for corners, normal in self.patches(a, b, points):
                normal = tuple(normal.tolist())     # Python floats: the same values
                for corner in corners.tolist():
                    add(a, b, corner, normal, distance=distance)
        bodies = [StaticsBody(self._part(n).mass, tuple(w.pose(n)[0]), tuple(loads[n]))
                  for n in names]
        return bodies, contacts, records

    def _slip(self, a: str, b: str, points: list) -> list[np.ndarray | None]:
        """For each contact of ``points`` (pybullet tuples, ``a`` as body A): the unit
        direction (3,) in which body ``b`` slides over body ``a`` there, or None when
        it does not slide.  ``b`` slides when its centre of mass moves along the
        contact, relative to ``a``, at ``wake_speed`` or faster: a body that only
        turns (tumbling onto ``a``, rocking, rolling) or creeps does not."""
        w = self.world
        c, fast = w.settings.length_scale, w.settings.wake_speed
        motion = []
        for name in (a, b):
            uid = w.body(name).uid
            lin, ang = w.engine_velocity(uid)
            motion.append((np.asarray(lin), np.asarray(ang),
                           np.asarray(w.engine_position(uid))))
        (lin_a, ang_a, com_a), (lin_b, ang_b, com_b) = motion
        out: list[np.ndarray | None] = []
        for p in points:
            normal = np.asarray(p[7], float)
            centre = (lin_b - lin_a) / c
            if numerics.norm3(centre - numerics.dot3(centre, normal) * normal) < fast:
                out.append(None)
                continue
            where = np.asarray(p[5])
            relative = ((lin_b + cross(ang_b, where - com_b))
                        - (lin_a + cross(ang_a, where - com_a))) / c
            along = relative - numerics.dot3(relative, normal) * normal
            speed = numerics.norm3(along)
            out.append(along / speed if speed > 0.0 else None)
        return out

    def _solve(self, solve: set[str], loads_from: set[str], live: dict, store: bool = True,
               rigid: set[str] = frozenset(), held: set[str] = frozenset()):
        """Statics of ``solve`` (see :meth:`_problem`): the forces, or None when they
        cannot hold.  ``store`` keeps the solved forces of welded pairs."""
        bodies, contacts, records = self._problem(solve, loads_from, live, rigid, held)
        forces = solve_statics(bodies, contacts, self.world.settings.gravity)
        if forces is None:
            return None
        if store:
            self._store(solve, contacts, records, forces)
        return forces

    def _unbalanced(self, names: set[str]) -> set[str]:
        """The welded bodies of ``names`` that their stored contact forces do not hold
        at rest (a load on them came or went since those forces were solved)."""
        w = self.world
        names = sorted(names, key=self._order().__getitem__)
        index = {n: i for i, n in enumerate(names)}
        points, forces, owner = [], [], []
        for pair, stored in self.pairs.items():
            if not pair & index.keys():
                continue
            for ct in stored:
                if ct.body_a in index:
                    points.append(ct.position)
                    forces.append(ct.force)
                    owner.append(index[ct.body_a])
                if ct.body_b in index:
                    points.append(ct.position)
                    forces.append(tuple(-v for v in ct.force))
                    owner.append(index[ct.body_b])
        bodies = [StaticsBody(self._part(n).mass, tuple(w.pose(n)[0])) for n in names]
        bad = unbalanced(bodies, np.array(points, float).reshape(-1, 3),
                         np.array(forces, float).reshape(-1, 3), np.array(owner, int),
                         w.settings.gravity)
        return {n for n, b in zip(names, bad.tolist()) if b}

    def _solve_group(self, group: set[str], loaded: set[str], loads_from: set[str],
                     live: dict):
        """Statics of ``group`` (see :meth:`_problem`), solved and stored as
        :meth:`_solve` does, where only the bodies of ``loaded`` (those whose loads
        may have changed) are known to need new forces.

        Statics are linear: the stored forces of the welded bodies that neither carry
        a changed load nor support one still hold them, so when the part of the
        group that the loaded bodies rest on holds with those forces acting on it as
        loads, the whole group holds (the stored forces and the part's new ones
        together are a solution).  Only that part is solved then; the whole group
        when it does not hold (the rest may have to carry more), or when every body
        is in it."""
        welded = group & self.welded
        part = self._below(loaded & group)
        while part < group:
            bad = self._unbalanced(welded - part)
            if not bad:
                forces = self._solve(part, loads_from, live, held=welded - part)
                if forces is not None:
                    return forces
                break
            part = self._below(part | bad)
        return self._solve(group, loads_from, live)

    def _store(self, solved: set[str], contacts, records, forces) -> None:
        """Keep the solved forces of every contact between two bodies that are (or are
        being) welded or static."""
        w = self.world
        keep: dict[frozenset, list[WeldContact]] = {}
        # tolist(): Python floats, the same values, without a numpy scalar per component
        for ct, (a, b, position, normal, distance), f in zip(contacts, records,
                                                              forces.tolist()):
            if ct.normal_force is not None:
                continue
            if not (w.body(b).static or b in self.welded or b in solved):
                continue
            keep.setdefault(frozenset((a, b)), []).append(
                WeldContact(a, b, position, normal, tuple(f), distance))
        self.pairs.update(keep)

    def _failing(self, start: set[str], loads_from: set[str], live: dict) -> set[str] | None:
        """The smallest failing set grown downwards from ``start``, or None."""
        solve = self.closure_up(start)
        while True:
            if self._solve(solve, loads_from, live, store=False) is None:
                return solve
            below = set()
            for name in solve:
                below |= self._neighbours(name)
            for pair in live:
                if pair & solve:
                    below |= pair & self.welded
            below -= solve
            if not below:
                return None
            solve = self.closure_up(solve | below)

    def _try_weld(self, group: set[str], contacts: dict, live: dict) -> bool:
        """Weld the resting bodies of ``group`` (touching as ``contacts`` say) if the
        group's statics hold.  When they do not:

        * a resting body that cannot stay even with every neighbour held rigid is left
          to the dynamics, with what rests on it, and the rest of the group is welded
          if its statics hold under the measured forces (``live``) of those left out;
        * when the resting bodies would all hold on rigid supports, the welded part
          under them fails: it wakes.

        Returns True when every resting body was welded."""
        resting = group - self.welded
        welded = group & self.welded
        loaded = resting | {n for n in welded
                            if any(frozenset((n, m)) in contacts for m in resting)}
        if self._solve_group(group, loaded, set(), contacts) is not None:
            self._weld(resting)
            return True
        candidates = set(resting)
        while True:
            culprits = {n for n in candidates
                        if self._solve({n}, set(), contacts, store=False, rigid=group) is None}
            if not culprits:
                break
            candidates -= self._resting_on(culprits, contacts, candidates)
            if not candidates:
                return False
            left_out = resting - candidates
            mixed = {p: v for p, v in contacts.items() if not p & left_out}
            mixed.update({p: v for p, v in live.items()
                          if p & left_out and p & (candidates | welded)})
            if self._solve(candidates | welded, left_out, mixed) is not None:
                self._weld(candidates)
                return False
        if candidates == resting and welded:
            failing = self._failing(resting, set(), contacts)
            if failing is not None and failing & welded:
                self.wake(failing & welded)
        return False

    def _resting_on(self, lower: set[str], contacts: dict, among: set[str]) -> set[str]:
        """``lower`` and the bodies of ``among`` resting on them, transitively, as the
        contact normals in ``contacts`` say."""
        w = self.world
        limit = w.settings.support_min_normal_z
        found, todo = set(lower), list(lower)
        while todo:
            below = todo.pop()
            for pair, points in contacts.items():
                if below not in pair:
                    continue
                (upper,) = pair - {below}
                if upper in found or upper not in among:
                    continue
                # normal on body B towards body A: upward from ``below`` to ``upper``?
                if any((p[7][2] if w.body_by_uid(p[1]).name == upper else -p[7][2]) >= limit
                       for p in points):
                    found.add(upper)
                    todo.append(upper)
        return found

    def _check_loads(self, group: set[str], moving: set[str], live: dict) -> None:
        """The welded part of ``group`` under the measured loads of ``moving`` bodies."""
        welded = group & self.welded
        touched = {n for n in welded if any(frozenset((n, m)) in live for m in moving)}
        if self._solve_group(welded, touched, moving, live) is not None:
            return
        failing = self._failing(touched, moving, live)
        self.wake(failing if failing is not None else welded)
