"""Rigid impacts: can an impulse overturn, shift or rock a resting rigid structure?

A landing lasts a moment: what it gives the structure it lands on is an impulse
(N s), not a force.  Contacts that only push can answer an impulse whose line passes
outside the structure's support only by letting the structure turn about an edge of
its support; it then comes back down unless the impulse gave it the energy to lift
its centre of mass over that edge.  A structure rigid on its support (welded) that
is struck by impulses J_k at points p_k, taking the landing bodies with it
(a plastic impact), turns about a support edge with axis u through point a at

    omega = L / I_u,   L = sum_k ((p_k - a) x J_k) . u,

where I_u is the whole moving set's moment of inertia about that edge, and it
tips over when its kinetic energy L^2 / (2 I_u) reaches the lift of its centre of
mass over the edge, M g (|z_perp| |r| - z_perp . r) (r: the centre of mass from the
edge across the axis, z_perp: vertical across the axis).  It shifts when the impulse
along its support plane exceeds what friction can take from the impulse into it.
Short of tipping, it rocks: it turns up about the edge through the angle alpha at
which that energy equals the lift, M g H (cos(phi_0 - alpha) - cos phi_0) (H =
|z_perp| |r|, phi_0 the angle from z_perp to r), and falls back.  A rocking that
would carry a centre of mass of the set ROCK_TOLERANCE or further (alpha times its
distance from the edge) moves what rests on it, and wakes it
(:func:`impact`).

Units: metres, kilograms, seconds, newtons.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from balance3d import numerics, planar


#: m: a landing that would rock a welded set of several bodies about an edge of its
#: support far enough to carry a centre of mass of its bodies this far before
#: gravity stops it wakes the set, though it would fall back (what rests on a rocking
#: body may slide; a lone body comes back to where it was).  Measured: landings that rock Tilted's beam
#: without tipping it, which in the fine unwelded World slide a block lying on it
#: 12 to 16 mm, rock it 14.6 and 19.9 mm; 2 mm landings on harmonic stacks at 0.95 of
#: their limit rock them 2.8 to 3.7 mm, and waking those (at 0.5 mm) made two stacks
#: of 100 mm blocks stand where the fine unwelded World, and rigid impact mechanics,
#: topple them (README, "Landings that rock").
ROCK_TOLERANCE = 0.01


@dataclass(frozen=True)
class RigidBody:
    """A body of the struck structure: ``mass`` kg, centre of mass ``com`` (3,) m,
    ``inertia`` (3, 3) kg m^2 about its centre of mass in world axes."""

    mass: float
    com: np.ndarray
    inertia: np.ndarray


def support_edges(supports: np.ndarray, normal: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """The edges of the support ``supports`` ((k, 3) m contact points, pushed along
    unit ``normal`` (3,)) that a rigid set could turn about: for each edge of their
    convex hull (E edges), a point on it (a (E, 3) m) and its unit direction (u
    (E, 3)), oriented so that turning by +u about it lifts the support's inside;
    None when the points do not span an area.  It depends on the support alone, so
    a caller may keep it while the support stays (:func:`overturned`).

    In Python floats: the operations, in their order, of the frame
    (:func:`~balance3d.physics.statics.tangents`) and of :func:`numerics.matmul`
    and the (E, 3) array arithmetic on the few points of a support."""
    n = tuple(float(v) for v in normal)
    t1 = _cross(n, (1.0, 0.0, 0.0) if abs(n[0]) < 0.9 else (0.0, 1.0, 0.0))
    length = _norm(*t1)
    t1 = (t1[0] / length, t1[1] / length, t1[2] / length)
    t2 = _cross(n, t1)
    points = np.asarray(supports, float).tolist()
    ox, oy, oz = points[0]
    flat = [((x - ox) * t1[0] + (y - oy) * t1[1] + (z - oz) * t1[2],
             (x - ox) * t2[0] + (y - oy) * t2[1] + (z - oz) * t2[2]) for x, y, z in points]
    hull = planar.convex_hull(flat).tolist()
    if len(hull) < 3:
        return None

    def lifted(p: tuple[float, float]) -> tuple[float, float, float]:
        """A point of the support's plane, in world axes."""
        return (p[0] * t1[0] + p[1] * t2[0] + ox, p[0] * t1[1] + p[1] * t2[1] + oy,
                p[0] * t1[2] + p[1] * t2[2] + oz)

    inside = lifted(planar.centroid(hull))
    corners = [lifted(p) for p in hull]
    directions = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
        length = _norm(*u)
        u = (u[0] / length, u[1] / length, u[2] / length)
        c = _cross(u, (inside[0] - a[0], inside[1] - a[1], inside[2] - a[2]))
        sign = -1.0 if c[0] * n[0] + c[1] * n[1] + c[2] * n[2] < 0.0 else 1.0
        directions.append((u[0] * sign, u[1] * sign, u[2] * sign))
    return np.array(corners), np.array(directions)


def _cross(a, b) -> tuple[float, float, float]:
    """``a x b`` of two 3-vectors: the products and differences of
    :func:`~balance3d.physics.statics.cross`."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def overturned(bodies: list[RigidBody], supports: np.ndarray, normal: np.ndarray,
               friction: float, impulses: list[tuple[np.ndarray, np.ndarray]],
               gravity: float, edges: tuple[np.ndarray, np.ndarray] | None = None) -> bool:
    """Whether ``impulses`` ((point (3,) m, impulse (3,) N s) pairs) overturn or
    shift the rigid set ``bodies`` (struck structure and landing bodies) standing on
    ``supports`` ((k, 3) m contact points, pushed along unit ``normal`` (3,), with
    Coulomb ``friction``), gravity ``gravity`` m/s^2 along -z (module docstring).
    A support of fewer than three points that do not span an area, or a centre of
    mass already beyond the support, is overturned.  ``edges``: the support's
    :func:`support_edges`, when the caller keeps them (None: computed here; a
    support without edges is overturned whatever the impulses, so a caller that
    knows it has none needs no call)."""
    return impact(bodies, supports, normal, friction, impulses, gravity, edges)[0]


def impact(bodies: list[RigidBody], supports: np.ndarray, normal: np.ndarray,
           friction: float, impulses: list[tuple[np.ndarray, np.ndarray]],
           gravity: float, edges: tuple[np.ndarray, np.ndarray] | None = None
           ) -> tuple[bool, float]:
    """What ``impulses`` do to the rigid set ``bodies`` (the arguments of
    :func:`overturned`): whether they overturn or shift it, and if not, how far (m)
    the rocking they set it to carries a centre of mass of its bodies before it
    falls back (module docstring; 0.0 when nothing turns it up)."""
    if edges is None and not _shifted(normal, friction, impulses):
        edges = support_edges(supports, normal)
        if edges is None:
            return True, 0.0
    return impact_on(lambda: edge_terms(bodies, edges), normal, friction, impulses,
                     gravity, edges)


@dataclass(frozen=True)
class EdgeTerms:
    """One body of a struck set as :func:`impact_on` needs it about the E edges of
    its support: ``mass`` kg, centre of mass ``com`` (3,) m (Python floats), its
    moment of inertia about each edge's axis (``inertia``, E Python floats, kg m^2)
    and its centre of mass's distance from each axis (``reach`` (E,) m).  A welded
    body's terms depend on it and the support alone, so a caller may keep them
    while both stay."""

    mass: float
    com: tuple[float, float, float]
    inertia: list[float]
    reach: np.ndarray


def edge_terms(bodies: list[RigidBody], edges: tuple[np.ndarray, np.ndarray]
               ) -> list[EdgeTerms]:
    """The :class:`EdgeTerms` of each of ``bodies`` about the support ``edges``
    (:func:`support_edges`), computed for all of them at once: each body's figures
    are the same bits whichever bodies are asked with it."""
    a, u = edges
    if not bodies:
        return []
    masses = np.array([b.mass for b in bodies])
    arms = np.array([b.com for b in bodies])[None, :, :] - a[:, None, :]     # (E, B, 3)
    arms -= numerics.dot(arms, u[:, None, :])[:, :, None] * u[:, None, :]
    tensors = np.array([b.inertia for b in bodies])                         # (B, 3, 3)
    own = numerics.dot(numerics.dot(u[:, None, None, :], tensors[None]), u[:, None, :])
    inertia = (own + numerics.dot(arms, arms) * masses).T.tolist()            # (B, E)
    reach = numerics.norm(arms).T                                            # (B, E)
    return [EdgeTerms(b.mass, tuple(np.asarray(b.com, float).tolist()), inertia[i], reach[i])
            for i, b in enumerate(bodies)]


def _shifted(normal: np.ndarray, friction: float,
             impulses: list[tuple[np.ndarray, np.ndarray]]) -> bool:
    """Whether the total of ``impulses`` along the support plane (unit ``normal``)
    beats what Coulomb ``friction`` takes from its part into the support."""
    tx = ty = tz = 0.0
    for _, (jx, jy, jz) in impulses:
        tx, ty, tz = tx + float(jx), ty + float(jy), tz + float(jz)
    nx, ny, nz = (float(v) for v in normal)
    into = -(tx * nx + ty * ny + tz * nz)
    along = _norm(tx + into * nx, ty + into * ny, tz + into * nz)
    return along > friction * max(into, 0.0)


def _norm(x: float, y: float, z: float) -> float:
    """Length of the 3-vector (x, y, z): the bits of :func:`numerics.norm`."""
    return math.sqrt(x * x + y * y + z * z)


def impact_on(terms: list[EdgeTerms] | Callable[[], list[EdgeTerms]], normal: np.ndarray,
              friction: float, impulses: list[tuple[np.ndarray, np.ndarray]],
              gravity: float, edges: tuple[np.ndarray, np.ndarray]) -> tuple[bool, float]:
    """:func:`impact` of the rigid set whose bodies' :class:`EdgeTerms` about the
    support ``edges`` (not None) ``terms`` gives, in the set's order: a list, or a
    function that makes it (called only when the impulses do not shift the set).

    Per edge, in Python floats: the operations, in their order, of the (E, 3) array
    arithmetic that the module docstring's formulas stand for (products and sums
    of components, IEEE square roots), at a fraction of its cost on a few edges."""
    if _shifted(normal, friction, impulses):
        return True, 0.0
    if callable(terms):
        terms = terms()
    # the sums in the bodies' order, from 0 as sum() takes them
    mass = sum(t.mass for t in terms)
    x = y = z = 0
    for t in terms:
        x, y, z = x + t.mass * t.com[0], y + t.mass * t.com[1], z + t.mass * t.com[2]
    com = (x / mass, y / mass, z / mass)
    down = -mass * gravity           # N: the weight's z component
    weight = mass * gravity
    hits = [(tuple(float(v) for v in p), tuple(float(v) for v in j)) for p, j in impulses]
    # exactly rounded sums: the same bits in any order
    inertia = [math.fsum(column) for column in zip(*(t.inertia for t in terms))]
    energies, heights, levels = [], [], []
    for (ax, ay, az), (ux, uy, uz), about in zip(edges[0].tolist(), edges[1].tolist(),
                                                 inertia):
        # the centre of mass and the vertical across the edge's axis
        vx, vy, vz = com[0] - ax, com[1] - ay, com[2] - az
        d = vx * ux + vy * uy + vz * uz
        rx, ry, rz = vx - d * ux, vy - d * uy, vz - d * uz
        d = 0.0 * ux + 0.0 * uy + 1.0 * uz
        hx, hy, hz = 0.0 - d * ux, 0.0 - d * uy, 1.0 - d * uz
        gx, gy, gz = down * 0.0, down * 0.0, down * 1.0     # the weight, (3,) N
        if ((ry * gz - rz * gy) * ux + (rz * gx - rx * gz) * uy
                + (rx * gy - ry * gx) * uz) >= 0.0:
            return True, 0.0           # gravity itself turns it over an edge
        moment = 0
        for (px, py, pz), (jx, jy, jz) in hits:
            qx, qy, qz = px - ax, py - ay, pz - az
            moment = moment + ((qy * jz - qz * jy) * ux + (qz * jx - qx * jz) * uy
                               + (qx * jy - qy * jx) * uz)
        turn = moment if moment > 0.0 else 0.0
        energies.append(turn * turn / (2.0 * about))
        heights.append(_norm(hx, hy, hz) * _norm(rx, ry, rz))
        levels.append(hx * rx + hy * ry + hz * rz)
    if any(e >= weight * (h - c) for e, h, c in zip(energies, heights, levels)):
        return True, 0.0
    reach = np.array([t.reach for t in terms]).max(axis=0).tolist()
    return False, rocking(energies, weight, heights, levels, reach)


def rocking(energy: list[float], weight: float, height: list[float], level: list[float],
            reach: list[float]) -> float:
    """m: the furthest a rocking carries a centre of mass (module docstring): per
    support edge the set's kinetic energy ``energy`` J turning it up about the edge,
    short of tipping, its ``weight`` N, ``height`` = H and ``level`` = H cos phi_0
    (m) of its centre of mass across the edge's axis, and the furthest ``reach`` (m)
    of its bodies' centres of mass from the axis."""
    furthest = 0.0
    for e, h, c, far in zip(energy, height, level, reach):
        if e <= 0.0 or h <= 0.0:
            continue
        start = math.acos(max(-1.0, min(1.0, c / h)))
        turned = start - math.acos(max(-1.0, min(1.0, (c + e / weight) / h)))
        furthest = max(furthest, turned * far)
    return furthest
