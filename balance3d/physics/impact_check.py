"""The impact check before each step: bodies about to hit welded ones, and the welded
part a landing would overturn, shift or rock (:mod:`balance3d.physics.impacts`).

A dynamic body moving at ``wake_speed`` or more that will reach a welded body within
:data:`REACH_STEPS` steps at its current speed hands it its momentum; the welded
structure, rigid on its support, turns about an edge of that support only if it gains
the energy to lift its centre of mass over the edge, slides only if the impulse
along its support beats friction, and rocks far enough to wake only if it would
carry a centre of mass ``ROCK_TOLERANCE`` before falling back while other welded
bodies rest on it (a lone body rocked comes back to where it was; what rests on a
rocking one may slide).  The part found to
go wakes before the step, so the impact itself is simulated with the woken bodies.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from balance3d import numerics
from balance3d.physics.engine_contacts import ContactPoint, WeldEngine
from balance3d.physics.impacts import (ROCK_TOLERANCE, EdgeTerms, RigidBody, edge_terms,
                                       impact_on, support_edges)
from balance3d.physics.patches import quat_matrix
from balance3d.physics.statics import cross
from balance3d.physics.weld_graph import WeldGraph
from balance3d.physics.weld_patches import ContactPatches

#: Steps of travel at a body's current speed within which a welded body counts as
#: within reach and is woken before the step.
REACH_STEPS = 2


class ImpactCheck:
    """The impact check of one World.  ``arriving``: the pairs the last check found
    about to touch.  ``carried``: per pair, the hardest impact (N, and where on the
    welded body, (3,) m) the welded structure was found to carry since it last
    changed.  Kept while the welded structure stays, since welded bodies do not
    move: each welded body as a rigid body (``rigid``), and per set of welded bodies
    its support (:meth:`_support`) and its bodies' terms about the support's edges
    (``terms``) as long as the stored contacts' geometry stays (``supports``, for
    the graph's ``geometry`` count ``supports_of``)."""

    def __init__(self, world, engine: WeldEngine, graph: WeldGraph,
                 patches: ContactPatches) -> None:
        self.world = world
        self.engine = engine
        self.graph = graph
        self.patches = patches
        self.arriving: set[frozenset] = set()
        self.carried: dict[frozenset, tuple[float, tuple]] = {}
        self.rigid: dict[str, RigidBody] = {}
        self.supports: dict[frozenset, tuple] = {}
        self.terms: dict[frozenset, dict[str, EdgeTerms]] = {}
        self.supports_of = -1

    def clear(self) -> None:
        """Forget every record."""
        self.forget_carried()
        self.arriving.clear()

    def forget_carried(self) -> None:
        """The welded structure changed: impacts it carried must be judged again,
        and what was kept of its bodies and supports computed again."""
        self.carried.clear()
        self.rigid.clear()
        self.supports.clear()
        self.terms.clear()

    def _part(self, name: str):
        return self.world.body(name).part

    def _hits(self) -> tuple[dict[frozenset, list[ContactPoint]], dict[frozenset, tuple]]:
        """The points of awake bodies about to hit welded ones, by pair (each with
        the impact force, N, that stops it within a step), and per pair (mover,
        welded body, the mover's centre of mass (3,) m, the momentum it hands over
        (3,) N s)."""
        w = self.world
        s = w.settings
        reach_time = REACH_STEPS * s.time_step
        hits: dict[frozenset, list] = {}
        impulses: dict[frozenset, tuple] = {}
        for record in w.bodies():
            if record.static or record.welded:
                continue
            name, body = record.name, record.uid
            (vx, vy, vz), (ax, ay, az) = self.engine.velocity(body)
            speed = (math.sqrt(vx * vx + vy * vy + vz * vz)
                     + math.sqrt(ax * ax + ay * ay + az * az) * self.patches.pieces(name)[1])
            if not speed >= s.wake_speed:
                continue
            reach = speed * reach_time + s.contact_distance
            centre = None
            for uid in self.engine.near(body, reach):
                target = w.body_by_uid(uid)
                if target is None or not target.welded:
                    continue
                other = target.name
                points = self.engine.closest_points(body, uid, reach)
                if not points:
                    continue
                if centre is None:
                    centre = np.asarray(self.engine.position(body))
                    lin, ang = np.array((vx, vy, vz)), np.array((ax, ay, az))
                    mass = record.part.mass
                restitution = (record.part.material.restitution
                               * target.part.material.restitution)
                arriving = []
                for p in points:
                    # approach speed of this point of the body towards the welded one
                    approach = -numerics.dot3(
                        lin + cross(ang, np.subtract(p.position_a, centre)), p.normal)
                    if approach >= s.wake_speed and (
                            p.distance <= approach * reach_time + s.contact_distance):
                        arriving.append((p, approach))
                if arriving:
                    p, approach = arriving[0]
                    force = mass * approach * (1.0 + restitution) / s.time_step
                    hits.setdefault(frozenset((name, other)), []).append(p.with_force(force))
                    impulses[frozenset((name, other))] = (
                        name, other, centre, self._momentum(name, other, lin, p.normal))
        return hits, impulses

    def before_step(self, wake: Callable[[set[str]], set[str]]) -> None:
        """Find bodies about to hit welded ones (approaching at ``wake_speed`` or
        more, within reach) and ``wake`` the welded part that the impact would
        overturn, shift or rock (:meth:`_overturned`): the momentum the body brings,
        taken up by the welded part turning about an edge of its support, against
        the lift of its centre of mass over that edge."""
        s = self.world.settings
        hits, impulses = self._hits()
        self.arriving = set(hits)
        # an impact no harder, at about the same place, than one the same welded
        # structure was found to carry is carried: no need to solve again
        for pair in list(hits):
            carried = self.carried.get(pair)
            if carried is not None and all(
                    p.force <= carried[0] and
                    numerics.norm3(np.subtract(p.position_b, carried[1])) <= s.contact_distance
                    for p in hits[pair]):
                del hits[pair]
        if not hits:
            return
        welded = self.graph.welded
        targets = {n for pair in hits for n in pair} & welded
        order = self.graph.order()
        done: set[str] = set()
        for target in sorted(targets, key=order.__getitem__):
            if target in done or target not in welded:
                continue
            group = self.graph.group(target)
            done |= group
            tipping = self._overturned(group & targets, [impulses[p] for p in hits
                                                         if p & group])
            if tipping is not None:
                wake(tipping)
                continue
            for pair in hits:
                if pair & group:
                    worst = max(hits[pair], key=lambda p: p.force)
                    self.carried[pair] = (worst.force, tuple(worst.position_b))

    def _momentum(self, mover: str, welded: str, velocity: np.ndarray,
                  normal) -> np.ndarray:
        """(3,) N s: the momentum body ``mover`` (``velocity`` (3,) m/s) hands to
        welded body ``welded`` on landing on it along ``normal`` (from the welded
        body towards the mover), the impact plastic but for the restitution of the
        pair: its part towards the welded body times one plus the restitution (none
        when its centre of mass moves away from the welded body, as when only a
        corner of a turning body swings onto it: contacts push, they do not pull),
        and its part along the contact as far as their friction can pass it on."""
        mover_part, welded_part = self._part(mover), self._part(welded)
        mass = mover_part.mass
        n = np.asarray(normal, float) / numerics.norm3(normal)
        restitution = mover_part.material.restitution * welded_part.material.restitution
        friction = mover_part.material.friction * welded_part.material.friction
        towards = numerics.dot3(velocity, n)
        push = mass * min(towards, 0.0) * (1.0 + restitution) * n
        along = mass * (velocity - towards * n)
        size = numerics.norm3(along)
        limit = friction * numerics.norm3(push)
        if size > limit:
            along *= limit / size
        return push + along

    def _support(self, solve: frozenset) -> tuple:
        """The support of the welded set ``solve`` from the stored contacts: its
        points ((k, 3) m) and their mean unit normal (3,) (None without points), the
        friction coefficient its weakest pair gives, the bodies under it, and its
        :func:`~balance3d.physics.impacts.support_edges`.  Kept per set while the
        stored contacts' geometry stays."""
        if self.supports_of != self.graph.geometry:
            self.supports.clear()
            self.terms.clear()
            self.supports_of = self.graph.geometry
        known = self.supports.get(solve)
        if known is not None:
            return known
        limit = self.world.settings.support_min_normal_z
        points, normals, friction, below = [], [], math.inf, set()
        for stored in self.graph.pairs.values():
            # a pair's contacts are all across the set's boundary or none is
            if not stored or (stored[0].body_a in solve) == (stored[0].body_b in solve):
                continue
            for ct in stored:
                upper, lower, normal = ((ct.body_a, ct.body_b, ct.normal)
                                        if ct.body_a in solve else
                                        (ct.body_b, ct.body_a, tuple(-v for v in ct.normal)))
                below.add(lower)
                if normal[2] >= limit:
                    points.append(ct.position)
                    normals.append(normal)
                    friction = min(friction, self._part(upper).material.friction
                                   * self._part(lower).material.friction)
        unit = edges = None
        if points:
            points = np.asarray(points)
            # exactly rounded sums (numerics.fsum_rows), of Python floats
            normal = np.array([math.fsum(column) for column in zip(*normals)])
            unit = normal / numerics.norm3(normal)
            edges = support_edges(points, unit)
        known = (points, unit, friction, below, edges)
        self.supports[solve] = known
        return known

    def _overturned(self, struck: set[str], impulses: list) -> set[str] | None:
        """The smallest welded set, grown downwards from the ``struck`` bodies, that
        the landings ``impulses`` ((mover, welded body, the mover's centre of mass
        (3,) m, the momentum it hands over (3,) N s)) overturn, shift or rock, the
        landing bodies moving with it (:func:`balance3d.physics.impacts.impact`), or
        None when none is.  The momentum acts through the mover's centre of mass:
        so its moment about any pivot is the mover's angular momentum about it (the
        spin of the mover itself is left out)."""
        w = self.world
        graph = self.graph
        movers: dict[str, RigidBody] = {}
        solve = graph.closure_up(struck)
        while True:
            acting = {mover: (where, impulse) for mover, target, where, impulse in impulses
                      if target in solve}
            key = frozenset(solve)
            _, normal, friction, below, edges = self._support(key)
            if normal is None or edges is None:
                return solve
            for name in acting:
                if name not in movers:
                    movers[name] = self._rigid(name)
            tipped, rocked = impact_on(lambda: self._terms(key, edges, acting, movers),
                                       normal, friction, list(acting.values()),
                                       w.settings.gravity, edges)
            if tipped or (rocked >= ROCK_TOLERANCE and len(solve) > 1):
                return solve
            below = below & graph.welded
            if not below:
                return None
            solve = graph.closure_up(solve | below)

    def _terms(self, key: frozenset, edges: tuple, acting: dict,
               movers: dict[str, RigidBody]) -> list[EdgeTerms]:
        """The :class:`~balance3d.physics.impacts.EdgeTerms` about the support
        ``edges`` of the welded set ``key`` (kept with its support) and of the
        ``acting`` landing bodies (``movers``: them as rigid bodies), in name order."""
        landing = sorted(set(acting) - key)
        kept = self.terms.get(key)
        if kept is None:
            names = sorted(key)
            for name in names:
                if name not in self.rigid:
                    self.rigid[name] = self._rigid(name)
            # one call for both: each body's terms are the same bits either way
            found = edge_terms([self.rigid[n] for n in names] + [movers[n] for n in landing],
                               edges)
            kept = dict(zip(names, found))
            self.terms[key] = kept
            terms = dict(zip(landing, found[len(names):]))
        else:
            terms = dict(zip(landing, edge_terms([movers[n] for n in landing], edges)))
        terms.update(kept)
        return [terms[name] for name in sorted(terms)]

    def _rigid(self, name: str) -> RigidBody:
        """Body ``name`` as a rigid body in world axes (for the impact check): its
        inertia R diag(I) R^T, in Python floats with the products and sums of
        :func:`numerics.matmul`, in their order."""
        part = self._part(name)
        position, orientation = self.world.pose(name)
        rot = quat_matrix(orientation.tolist()).tolist()     # Python floats: the same bits
        moments = np.asarray(part.inertia, float).tolist()
        scaled = [[row[k] * moments[k] for k in range(3)] for row in rot]
        inertia = [[a[0] * b[0] + a[1] * b[1] + a[2] * b[2] for b in rot] for a in scaled]
        return RigidBody(part.mass, np.asarray(position, float), np.array(inertia))
