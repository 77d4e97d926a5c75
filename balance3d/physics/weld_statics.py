"""The statics problems of welded groups: built from stored and live contacts, solved
(:func:`balance3d.physics.statics.solve_statics`), their forces stored.

A body of the problem rests on contacts with static or welded bodies (supports,
whose forces the program chooses) and is pushed by moving ones with the normal
forces Bullet measured (a body sliding on it with kinetic friction, mu N along the
slip).  Statics are linear, so a changed load is first solved on the part of a
welded group it rests on, the stored forces of the rest acting on that part as
loads (:meth:`WeldStatics.solve_group`).
"""
from __future__ import annotations

import numpy as np

from balance3d.physics.engine_contacts import ContactPoint
from balance3d.physics.load_samples import LoadSamples
from balance3d.physics.statics import (StaticsBody, StaticsContact, beyond_tolerance,
                                       body_residuals, solve_statics)
from balance3d.physics.weld_graph import WeldGraph
from balance3d.physics.weld_patches import ContactPatches
from balance3d.physics.weld_state import WeldContact

#: Contacts by pair, as Bullet reports them (live) or the closest-points query finds
#: them.
Live = dict[frozenset, list[ContactPoint]]


class WeldStatics:
    """Statics of the World's welded groups; solved forces go to ``graph``."""

    def __init__(self, world, graph: WeldGraph, patches: ContactPatches,
                 loads: LoadSamples) -> None:
        self.world = world
        self.graph = graph
        self.patches = patches
        self.loads = loads
        # per welded body: its residuals under its stored forces (:meth:`_residuals`)
        self._kept: dict[str, tuple] = {}

    def _part(self, name: str):
        return self.world.body(name).part

    def _com(self, name: str) -> tuple[float, float, float]:
        """Body ``name``'s centre of mass, (3,) m: the World's ``pose`` position, read
        without building its arrays."""
        w = self.world
        c = w.settings.length_scale
        x, y, z = w.engine_position(w.body(name).uid)
        return x / c, y / c, z / c

    def problem(self, solve: set[str], loads_from: set[str], live: Live,
                rigid: set[str] = frozenset(), held: set[str] = frozenset()):
        """The statics problem of the bodies ``solve``, touching as ``live`` says.
        Contacts with static or welded bodies, or with bodies in ``rigid``, are
        supports; contacts with any other body (one in ``loads_from``, or awake)
        carry their measured normal force; the stored contacts of welded bodies in
        ``held`` push with their stored forces (loads).  Returns the bodies, the
        contacts and, per contact, (body a, body b, position, normal, distance)."""
        w = self.world
        pairs_stored = self.graph.pairs
        welded = self.graph.welded
        order = self.graph.order()
        names = sorted(solve, key=order.__getitem__)
        index = {n: i for i, n in enumerate(names)}
        loads: dict[str, list] = {n: [] for n in names}
        contacts: list[StaticsContact] = []
        records: list[tuple] = []
        limit = w.settings.support_min_normal_z
        pair_ids: dict[frozenset, int] = {}
        # per (a, b) as given: the pair's friction coefficient and label
        known_pairs: dict[tuple[str, str], tuple[float, int]] = {}

        def add(a, b, position, normal, known=None, distance=0.0):
            pair = known_pairs.get((a, b))
            if pair is None:
                pair = (self._part(a).material.friction * self._part(b).material.friction,
                        pair_ids.setdefault(frozenset((a, b)), len(pair_ids)))
                known_pairs[a, b] = pair
            mu, pid = pair
            # Python floats: the same values as given, for the program and the records
            position, normal = tuple(map(float, position)), tuple(map(float, normal))
            contacts.append(StaticsContact(index[a], index.get(b, -1), position, normal, mu,
                                           pid, abs(normal[2]) >= limit, known))
            records.append((a, b, position, normal, float(distance)))

        def key(pair):
            return sorted(order[n] for n in pair)

        for pair in sorted((p for p in pairs_stored if p & solve), key=key):
            for ct in pairs_stored[pair]:
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
        for pair in sorted((p for p in live if p & solve and p not in pairs_stored), key=key):
            a, b = sorted(pair, key=order.__getitem__)
            if a not in solve:
                a, b = b, a
            points = self.loads.facing(a, live[pair])
            moving = b in loads_from or not (b in solve or b in rigid or b in welded
                                             or w.body(b).static)
            if moving:
                slips = self.loads.slip(a, b, points)
                mu = self._part(a).material.friction * self._part(b).material.friction
                for p, slip in zip(points, slips):
                    if slip is None:
                        add(a, b, p.position_a, p.normal, p.force)
                    else:       # kinetic: the normal force and mu N along the slip
                        push = p.force
                        loads[a].append((p.position_a, tuple(push * np.asarray(p.normal)
                                                             + mu * push * slip)))
                continue
            distance = min(p.distance for p in points)
            for corners, normal in self.patches.patches(a, b, points):
                normal = tuple(normal.tolist())     # Python floats: the same values
                for corner in corners.tolist():
                    add(a, b, corner, normal, distance=distance)
        bodies = [StaticsBody(self._part(n).mass, self._com(n), tuple(loads[n]))
                  for n in names]
        return bodies, contacts, records

    def solve(self, solve: set[str], loads_from: set[str], live: Live, store: bool = True,
              rigid: set[str] = frozenset(), held: set[str] = frozenset()):
        """Statics of ``solve`` (see :meth:`problem`): the forces, or None when they
        cannot hold.  ``store`` keeps the solved forces of welded pairs."""
        bodies, contacts, records = self.problem(solve, loads_from, live, rigid, held)
        forces = solve_statics(bodies, contacts, self.world.settings.gravity)
        if forces is None:
            return None
        if store:
            self._store(solve, contacts, records, forces)
        return forces

    def unbalanced(self, names: set[str]) -> set[str]:
        """The welded bodies of ``names`` that their stored contact forces do not hold
        at rest (a load on them came or went since those forces were solved).

        Each body's residuals (:func:`~balance3d.physics.statics.residuals`) depend
        on its own stored contacts alone (welded bodies do not move), so they are
        kept per body while its :meth:`~balance3d.physics.weld_graph.WeldGraph.stamp`
        stays: the same bits as computed afresh, the tolerance taken over the bodies
        asked together."""
        names = sorted(names, key=self.graph.order().__getitem__)
        if not names:
            return set()
        kept = [self._residuals(n) for n in names]
        bad = beyond_tolerance(np.array([k[1] for k in kept]), np.array([k[2] for k in kept]),
                               np.array([k[3] for k in kept]), max(k[4] for k in kept),
                               self.world.settings.gravity)
        return {n for n, b in zip(names, bad.tolist()) if b}

    def _residuals(self, name: str) -> tuple:
        """(stamp, mass kg, net force N, net torque N m, longest lever arm m) of body
        ``name`` under its stored contact forces, kept while its stamp stays."""
        stamp = self.graph.stamp(name)
        known = self._kept.get(name)
        if known is not None and known[0] == stamp:
            return known
        points, forces = [], []
        for pair, stored in self.graph.pairs.items():
            if name not in pair:
                continue
            for ct in stored:
                if ct.body_a == name:
                    points.append(ct.position)
                    forces.append(ct.force)
                if ct.body_b == name:
                    points.append(ct.position)
                    forces.append(tuple(-v for v in ct.force))
        mass = self._part(name).mass
        force, torque, length = body_residuals(mass, self._com(name), points, forces,
                                               self.world.settings.gravity)
        known = (stamp, mass, force, torque, length)
        self._kept[name] = known
        return known

    def solve_group(self, group: set[str], loaded: set[str], loads_from: set[str],
                    live: Live):
        """Statics of ``group`` (see :meth:`problem`), solved and stored as
        :meth:`solve` does, where only the bodies of ``loaded`` (those whose loads
        may have changed) are known to need new forces.

        Statics are linear: the stored forces of the welded bodies that neither carry
        a changed load nor support one still hold them, so when the part of the
        group that the loaded bodies rest on holds with those forces acting on it as
        loads, the whole group holds (the stored forces and the part's new ones
        together are a solution).  Only that part is solved then; the whole group
        when it does not hold (the rest may have to carry more), or when every body
        is in it."""
        welded = group & self.graph.welded
        part = self.graph.below(loaded & group)
        while part < group:
            bad = self.unbalanced(welded - part)
            if not bad:
                forces = self.solve(part, loads_from, live, held=welded - part)
                if forces is not None:
                    return forces
                break
            part = self.graph.below(part | bad)
        return self.solve(group, loads_from, live)

    def _store(self, solved: set[str], contacts, records, forces) -> None:
        """Keep the solved forces of every contact between two bodies that are (or are
        being) welded or static."""
        w = self.world
        welded = self.graph.welded
        keep: dict[frozenset, list[WeldContact]] = {}
        # tolist(): Python floats, the same values, without a numpy scalar per component
        for ct, (a, b, position, normal, distance), f in zip(contacts, records,
                                                              forces.tolist()):
            if ct.normal_force is not None:
                continue
            if not (w.body(b).static or b in welded or b in solved):
                continue
            keep.setdefault(frozenset((a, b)), []).append(
                WeldContact(a, b, position, normal, tuple(f), distance))
        self.graph.update(keep)

    def failing(self, start: set[str], loads_from: set[str], live: Live) -> set[str] | None:
        """The smallest failing set grown downwards from ``start``, or None."""
        graph = self.graph
        solve = graph.closure_up(start)
        while True:
            if self.solve(solve, loads_from, live, store=False) is None:
                return solve
            below = set()
            for name in solve:
                below |= graph.neighbours(name)
            for pair in live:
                if pair & solve:
                    below |= pair & graph.welded
            below -= solve
            if not below:
                return None
            solve = graph.closure_up(solve | below)
