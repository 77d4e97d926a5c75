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
  momentum it brings would overturn, shift or rock the welded structure as a rigid
  body (the structure turning about an edge of its support must gain the energy to
  lift its centre of mass over that edge, or, carrying other welded bodies, to turn
  up far enough to carry a centre of mass ``ROCK_TOLERANCE`` before falling back:
  :mod:`balance3d.physics.impacts`);
  checked
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

from balance3d.physics.engine_contacts import WeldEngine
from balance3d.physics.impact_check import ImpactCheck
from balance3d.physics.load_samples import LoadSamples
from balance3d.physics.weld_graph import WeldGraph
from balance3d.physics.weld_patches import ContactPatches
from balance3d.physics.weld_state import WeldState
from balance3d.physics.weld_statics import Live, WeldStatics


class Welds:
    """The welding state of one World (see the module docstring).  It reads the
    World's bodies and engine through the World's narrow interface (``body``,
    ``bodies``, ``body_by_uid``, ``welded_set``, ``weld_body`` / ``unweld_body``,
    ``engine_velocity``, ``engine_position``, ``contact_points``, ``closest_points``,
    ``near``, ``force_scale``, ``pose``, ``time``, ``settings``; engine units become
    SI in :mod:`balance3d.physics.engine_contacts`); the World calls
    :meth:`before_step` before every step, :meth:`check` every
    ``rest_check_interval`` and before the first step after a change
    (:attr:`dirty`), and :meth:`forget` / :meth:`wake` when it moves or removes
    bodies.

    Its parts, each with its own state: the support closure and stored contacts
    (:class:`~balance3d.physics.weld_graph.WeldGraph`), contact patches
    (:class:`~balance3d.physics.weld_patches.ContactPatches`), the impact check
    before each step (:class:`~balance3d.physics.impact_check.ImpactCheck`), load
    sampling (:class:`~balance3d.physics.load_samples.LoadSamples`) and the statics
    problems (:class:`~balance3d.physics.weld_statics.WeldStatics`).  Here: which
    awake bodies are still (``still_since``, s), when a group that could not be
    welded is tried again (``retry``, s), which welded bodies moving ones loaded at
    the last pass (``touched``), and whether a pass is due before the next step
    (``dirty``)."""

    def __init__(self, world) -> None:
        # a proxy, not the World, here and in every part: the World owns this
        # object, and a reference back would make a cycle that keeps every dropped
        # World (and its pybullet client's memory) until Python's cyclic collector
        # happens to run
        world = weakref.proxy(world)
        self.world = world
        engine = WeldEngine(world)
        self.graph = WeldGraph(world)
        self.patches = ContactPatches(world)
        self.loads = LoadSamples(world, engine)
        self.statics = WeldStatics(world, self.graph, self.patches, self.loads)
        self.impacts = ImpactCheck(world, engine, self.graph, self.patches)
        self.engine = engine
        self.still_since: dict[str, float] = {}
        self.retry: dict[frozenset, float] = {}
        self.touched: set[str] = set()
        self.dirty = False

    # ------------------------------------------------------------------ state
    @property
    def welded(self) -> set[str]:
        """Names of the welded bodies (the World's live set; read only)."""
        return self.world.welded_set

    def clear(self) -> None:
        """Forget every record (the World has just emptied its engine)."""
        self.still_since.clear()
        self.graph.clear()
        self.retry.clear()
        self.touched.clear()
        self.impacts.clear()
        self.loads.clear()
        self.dirty = False

    def state(self) -> WeldState:
        """For a snapshot: the welded bodies and their stored contacts when every
        dynamic body is welded, else nothing (a body still awake keeps a World
        welded from scratch from welding what touches it until it rests, so only a
        World at rest can be welded again as it was)."""
        bodies = [b for b in self.world.bodies() if not b.static]
        if not bodies or not all(b.welded for b in bodies):
            return WeldState()
        return WeldState(tuple(b.name for b in bodies), self.graph.contacts())

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
        self.graph.add(state.contacts)

    def stored(self, a: str | None, b: str | None):
        """Stored contacts of welded pairs involving ``a`` and ``b`` (see
        :meth:`~balance3d.physics.weld_graph.WeldGraph.stored`)."""
        return self.graph.stored(a, b)

    # ------------------------------------------------------------------ wake / weld
    def wake(self, names) -> set[str]:
        """Wake the welded bodies among ``names`` and all that rest on them."""
        woken = self.graph.closure_up(set(names) & self.welded) & self.welded
        order = self.graph.order()
        for name in sorted(woken, key=order.__getitem__):
            self.world.unweld_body(name)
            self.still_since[name] = self.world.time
        self.graph.drop(woken)
        if woken:
            self.retry.clear()
            self.impacts.forget_carried()
            self.dirty = True
        return woken

    def added(self, name: str, at_rest: bool) -> None:
        """Body ``name`` was just added, released at rest or not."""
        if at_rest:
            self.still_since[name] = -math.inf
        self.dirty = True

    def _release(self, name: str) -> None:
        """Body ``name`` is about to move or go: wake it (if welded) or the welded
        bodies resting on it; the welded bodies it leaves are checked again."""
        graph = self.graph
        self.touched |= graph.neighbours(name)
        if name in self.welded:
            self.wake({name})
        else:
            self.wake({n for n in graph.neighbours(name) if graph.rests_on(n, name)})

    def disturb(self, name: str) -> None:
        """Body ``name`` is about to be moved by hand: wake it (if welded) or the
        welded bodies resting on it; the welded bodies it leaves are checked again."""
        self._release(name)
        self.touched &= self.welded
        self.dirty = True

    def forget(self, name: str) -> None:
        """Body ``name`` is about to leave the world: wake what rests on it, drop its
        records; the welded bodies it leaves are checked again."""
        self._release(name)
        self.still_since.pop(name, None)
        self.graph.drop({name})
        self.touched.discard(name)
        self.touched &= self.welded
        self.retry.clear()
        self.impacts.forget_carried()
        self.dirty = True

    def _weld(self, names: set[str]) -> None:
        for name in sorted(names, key=self.graph.order().__getitem__):
            self.world.weld_body(name)
            self.still_since.pop(name, None)
        self.impacts.forget_carried()

    # ------------------------------------------------------------------ per step
    def before_step(self) -> None:
        """Before a step: the impact check
        (:meth:`~balance3d.physics.impact_check.ImpactCheck.before_step`), and,
        while moving bodies touch welded ones, the last step's contacts between
        them kept as a load sample, but for the pairs that the step before found
        arriving (their impulse is judged by the impact check, not taken for a
        load: :meth:`~balance3d.physics.load_samples.LoadSamples.averaged`)."""
        if not self.welded:
            self.impacts.arriving = set()
            return
        self.loads.before_step(bool(self.touched), self.impacts.arriving)
        self.impacts.before_step(self.wake)

    def check(self) -> None:
        """The statics pass: track which awake bodies are still, weld resting groups
        whose statics hold, wake welded parts that cannot carry their loads."""
        w = self.world
        s = w.settings
        now = w.time
        self.dirty = False
        records = [b for b in w.bodies() if not b.static and not b.welded]
        awake = {b.name for b in records}
        linear, angular = s.rest_linear_speed, s.rest_angular_speed
        for b, ((vx, vy, vz), (ax, ay, az)) in zip(
                records, self.engine.velocities([b.uid for b in records])):
            if (math.sqrt(vx * vx + vy * vy + vz * vz) < linear
                    and math.sqrt(ax * ax + ay * ay + az * az) < angular):
                self.still_since.setdefault(b.name, now)
            else:
                self.still_since.pop(b.name, None)
        resting_all = {n for n in awake
                       if now - self.still_since.get(n, math.inf) >= s.weld_time - 1e-9}
        if not resting_all and not self.welded:
            # every body moves and none is welded: nothing to weld, load or check
            self.loads.reset()
            self.touched = set()
            return
        # with no awake body there is no live pair and no group to weld or load
        live = self.loads.averaged(self.loads.manifold_pairs(awake)) if awake else {}
        self.loads.reset()
        order = self.graph.order()
        groups = self.graph.groups(live.keys()) if awake else []
        group_of = {n: g for g in groups for n in g}
        processed, touched_now = set(), set()
        for group in groups:
            if group & processed:
                continue
            moving = group & awake
            if not moving:
                continue
            welded = group & self.welded
            touching = _touching(welded, moving, live)
            touched_now |= touching
            if moving <= resting_all:
                if self.retry.get(frozenset(group), -math.inf) > now:
                    processed |= group
                    continue
                # which bodies really touch (Bullet's manifolds may not have them yet),
                # and the groups they join
                touch: Live = {}
                asked: set[str] = set()
                while True:
                    new = (group & awake) - asked
                    if not new:
                        break
                    asked |= new
                    touch.update(self.loads.touching(new, order))
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
        self._check_lost_loads(processed, order)
        self.touched = touched_now & self.welded

    def _check_lost_loads(self, processed: set[str], order: dict[str, int]) -> None:
        """Welded groups that moving bodies loaded at the last check and do not now:
        held by the forces stored before the load came, or solved again."""
        statics = self.statics
        for name in sorted(self.touched - processed, key=lambda n: order.get(n, -1)):
            if name in self.welded and name not in processed:
                group = self.graph.group(name)
                processed |= group
                if (statics.unbalanced(group & self.welded)
                        and statics.solve_group(group, self.touched & group, set(), {}) is None):
                    failing = statics.failing(self.graph.closure_up({name}), set(), {})
                    self.wake(failing if failing is not None else group)

    def _try_weld(self, group: set[str], contacts: Live, live: Live) -> bool:
        """Weld the resting bodies of ``group`` (touching as ``contacts`` say) if the
        group's statics hold.  When they do not:

        * a resting body that cannot stay even with every neighbour held rigid is left
          to the dynamics, with what rests on it, and the rest of the group is welded
          if its statics hold under the measured forces (``live``) of those left out;
        * when the resting bodies would all hold on rigid supports, the welded part
          under them fails: it wakes.

        Returns True when every resting body was welded."""
        statics = self.statics
        resting = group - self.welded
        welded = group & self.welded
        loaded = resting | _touching(welded, resting, contacts)
        if statics.solve_group(group, loaded, set(), contacts) is not None:
            self._weld(resting)
            return True
        candidates = set(resting)
        while True:
            culprits = {n for n in candidates
                        if statics.solve({n}, set(), contacts, store=False, rigid=group) is None}
            if not culprits:
                break
            candidates -= self._resting_on(culprits, contacts, candidates)
            if not candidates:
                return False
            left_out = resting - candidates
            mixed = {p: v for p, v in contacts.items() if not p & left_out}
            mixed.update({p: v for p, v in live.items()
                          if p & left_out and p & (candidates | welded)})
            if statics.solve(candidates | welded, left_out, mixed) is not None:
                self._weld(candidates)
                return False
        if candidates == resting and welded:
            failing = statics.failing(resting, set(), contacts)
            if failing is not None and failing & welded:
                self.wake(failing & welded)
        return False

    def _resting_on(self, lower: set[str], contacts: Live, among: set[str]) -> set[str]:
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
                if any((p.normal[2] if w.body_by_uid(p.uid_a).name == upper
                        else -p.normal[2]) >= limit for p in points):
                    found.add(upper)
                    todo.append(upper)
        return found

    def _check_loads(self, group: set[str], moving: set[str], live: Live) -> None:
        """The welded part of ``group`` under the measured loads of ``moving`` bodies."""
        statics = self.statics
        welded = group & self.welded
        touched = {n for n in welded if any(frozenset((n, m)) in live for m in moving)}
        if statics.solve_group(welded, touched, moving, live) is not None:
            return
        failing = statics.failing(touched, moving, live)
        self.wake(failing if failing is not None else welded)


def _touching(welded: set[str], others: set[str], pairs) -> set[str]:
    """The bodies of ``welded`` that share a pair of ``pairs`` (frozensets of two
    names) with a body of ``others`` (none of them welded)."""
    return {n for pair in pairs if pair & others for n in pair & welded}
