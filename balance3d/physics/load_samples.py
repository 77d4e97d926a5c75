"""The loads moving bodies put on welded ones, read from Bullet's contacts.

Between two statics passes, while moving bodies touch welded ones, the contacts of
those pairs are kept before every step (:meth:`LoadSamples.before_step`), so that a
body sliding on a welded one loads it with the mean of its normal forces over the
interval (:meth:`LoadSamples.averaged`).  Here too: which pairs touch, and whether a
body slides over another (:meth:`LoadSamples.slip`).
"""
from __future__ import annotations

from collections.abc import Collection

import numpy as np

from balance3d import numerics
from balance3d.physics.engine_contacts import ContactPoint, WeldEngine

#: A sample: the contacts of awake bodies with welded ones by pair, and the pairs
#: then arriving (their impulse is judged by the impact check, not taken for a load).
Sample = tuple[dict[frozenset, list[ContactPoint]], set[frozenset]]


class LoadSamples:
    """Contacts kept step by step since the last statics pass (``samples``;
    ``sampled``: the pass has just run, no step taken since)."""

    def __init__(self, world, engine: WeldEngine) -> None:
        self.world = world
        self.engine = engine
        self.samples: list[Sample] = []
        self.sampled = True

    def clear(self) -> None:
        """Forget every sample."""
        self.samples.clear()

    def reset(self) -> None:
        """The statics pass has read the samples: start a new interval."""
        self.samples.clear()
        self.sampled = True

    def before_step(self, loading: bool, arriving: set[frozenset]) -> None:
        """Before a step with bodies welded: while moving bodies load welded ones
        (``loading``), keep the last step's contacts between them, with the pairs
        the step before found ``arriving`` (none right after a statics pass: that
        pass read them itself)."""
        if loading and not self.sampled:
            self.samples.append((self.loading_pairs(), arriving))
        self.sampled = False

    def close_points(self, bodies: Collection[int],
                     others: Collection[int] | None = None) -> list[ContactPoint]:
        """Bullet's current contact points within ``contact_distance`` between the
        bodies whose engine ids are in ``bodies`` and those in ``others`` (any body
        when None), in Bullet's order."""
        return self.engine.contact_points(self.world.settings.contact_distance, bodies, others)

    def manifold_pairs(self, awake: set[str]) -> dict[frozenset, list[ContactPoint]]:
        """Bullet's current contact points (within ``contact_distance``) of pairs of
        bodies of the World with an awake body."""
        names = {b.uid: b.name for b in self.world.bodies()}
        pairs: dict[frozenset, list] = {}
        for p in self.close_points({uid for uid, name in names.items() if name in awake}):
            a, b = names.get(p.uid_a), names.get(p.uid_b)
            if a is not None and b is not None:
                pairs.setdefault(frozenset((a, b)), []).append(p)
        return pairs

    def loading_pairs(self) -> dict[frozenset, list[ContactPoint]]:
        """Bullet's current contact points (within ``contact_distance``) of awake
        bodies with welded ones, by pair."""
        awake: dict[int, str] = {}
        welded: dict[int, str] = {}
        for body in self.world.bodies():
            if not body.static:
                (welded if body.welded else awake)[body.uid] = body.name
        pairs: dict[frozenset, list] = {}
        if not awake or not welded:
            return pairs
        for p in self.close_points(awake, welded):
            a, b = p.uid_a, p.uid_b
            pair = (awake[a], welded[b]) if a in awake else (welded[a], awake[b])
            pairs.setdefault(frozenset(pair), []).append(p)
        return pairs

    def facing(self, a: str, points: list[ContactPoint]) -> list[ContactPoint]:
        """``points`` of a pair with body ``a``, each seen from ``a`` (as body A)."""
        w = self.world
        return [p if w.body_by_uid(p.uid_a).name == a else p.swapped() for p in points]

    def averaged(self, live: dict[frozenset, list[ContactPoint]]) -> dict[frozenset, list]:
        """``live`` with the contacts of each awake body sliding on a welded one
        (:meth:`slip`) replaced by those of every step since the last check, each
        point's normal force divided by the number of those steps: the mean load
        over the check interval.  Bullet's contact forces on a sliding body change
        from step to step (a cube sliding on a welded plank rocks between its front
        edge, at under half its weight, and three points, at one and a half times
        it, every other step), so a single step's manifold can misstate the load a
        sliding body puts on the welded one.  A step in which the pair was arriving
        is left out (the landing's impulse is judged by the impact check), and
        other contacts keep the last step's points."""
        if not self.samples:
            return live
        out = dict(live)
        welded_now = self.world.welded_set
        for pair, current in live.items():
            welded = pair & welded_now
            if len(welded) != 1:
                continue
            (a,) = welded
            (b,) = pair - welded
            if all(slip is None for slip in self.slip(a, b, self.facing(a, current))):
                continue
            kept = [sample.get(pair, []) for sample, arriving in self.samples
                    if pair not in arriving]
            steps = len(kept) + 1
            points = [p for sample in kept for p in sample] + list(current)
            out[pair] = [p.with_force(p.force / steps) for p in points]
        return out

    def touching(self, names: set[str], order: dict[str, int]) -> dict[frozenset, list]:
        """Closest points (within ``contact_distance``) of ``names`` with every body
        near them: which pairs touch, whether or not Bullet's manifolds have them."""
        w = self.world
        reach = w.settings.contact_distance
        pairs: dict[frozenset, list] = {}
        for name in sorted(names, key=order.__getitem__):
            body = w.body(name).uid
            for uid in self.engine.near(body, reach):
                found = w.body_by_uid(uid)
                other = None if found is None else found.name
                if other is None or other == name or frozenset((name, other)) in pairs:
                    continue
                points = self.engine.closest_points(body, uid, reach)
                if points:
                    pairs[frozenset((name, other))] = points
        return pairs

    def slip(self, a: str, b: str, points: list[ContactPoint]) -> list[np.ndarray | None]:
        """For each contact of ``points`` (``a`` as body A): the unit direction (3,)
        in which body ``b`` slides over body ``a`` there, or None when it does not
        slide.  ``b`` slides when its centre of mass moves along the contact,
        relative to ``a``, at ``wake_speed`` or faster: a body that only turns
        (tumbling onto ``a``, rocking, rolling) or creeps does not."""
        w = self.world
        fast = w.settings.wake_speed
        # Python floats, in the order and with the operations of the (3,) array
        # arithmetic this stands for: the same bits, at a fraction of the cost
        motion = []
        for name in (a, b):
            uid = w.body(name).uid
            lin, ang = self.engine.velocity(uid)
            motion.append((lin, ang, self.engine.position(uid)))
        (lin_a, ang_a, com_a), (lin_b, ang_b, com_b) = motion
        centre = _minus(lin_b, lin_a)
        out: list[np.ndarray | None] = []
        for p in points:
            normal = tuple(map(float, p.normal))
            if numerics.norm3(_minus(centre, _times(numerics.dot3(centre, normal),
                                                    normal))) < fast:
                out.append(None)
                continue
            where = p.position_a
            relative = _minus(_plus(lin_b, _cross(ang_b, _minus(where, com_b))),
                              _plus(lin_a, _cross(ang_a, _minus(where, com_a))))
            along = _minus(relative, _times(numerics.dot3(relative, normal), normal))
            speed = numerics.norm3(along)
            out.append(np.array(along) / speed if speed > 0.0 else None)
        return out


def _minus(a, b) -> tuple[float, float, float]:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _plus(a, b) -> tuple[float, float, float]:
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _times(k: float, a) -> tuple[float, float, float]:
    return k * a[0], k * a[1], k * a[2]


def _cross(a, b) -> tuple[float, float, float]:
    """``a x b`` of two 3-vectors: the products and differences of
    :func:`balance3d.physics.statics.cross`."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
