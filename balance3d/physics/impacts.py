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
from dataclasses import dataclass

import numpy as np

from balance3d import numerics, planar
from balance3d.physics.statics import cross, tangents


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
    a caller may keep it while the support stays (:func:`overturned`)."""
    frame = np.stack(tangents(normal))
    flat = numerics.matmul(supports - supports[0], frame.T)
    hull = planar.convex_hull(flat)
    if len(hull) < 3:
        return None
    inside = supports[0] + numerics.matmul(np.array(planar.centroid(hull)), frame)
    a = numerics.matmul(hull, frame) + supports[0]
    u = np.roll(a, -1, axis=0) - a
    u /= numerics.norm(u)[:, None]
    u *= np.where(numerics.dot(cross(u, inside - a), normal) < 0.0, -1.0, 1.0)[:, None]
    return a, u


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
    total = sum((j for _, j in impulses), np.zeros(3))
    into = -numerics.dot3(total, normal)
    along = numerics.norm3(total + into * normal)
    if along > friction * max(into, 0.0):
        return True, 0.0
    if edges is None:
        edges = support_edges(supports, normal)
        if edges is None:
            return True, 0.0
    a, u = edges
    mass = sum(b.mass for b in bodies)
    com = sum(b.mass * b.com for b in bodies) / mass
    up = np.array([0.0, 0.0, 1.0])

    def across(v: np.ndarray) -> np.ndarray:
        """(E, 3): ``v`` ((E, 3) or (3,)) less its part along each edge."""
        return v - numerics.dot(np.broadcast_to(v, u.shape), u)[:, None] * u

    r = across(com - a)
    vertical = across(up)
    if np.any(numerics.dot(cross(r, -mass * gravity * up), u) >= 0.0):
        return True, 0.0               # gravity itself turns it over an edge
    moment = sum(numerics.dot(cross(p - a, j), u) for p, j in impulses)
    masses = np.array([b.mass for b in bodies])
    arms = np.array([b.com for b in bodies])[None, :, :] - a[:, None, :]     # (E, B, 3)
    arms -= numerics.dot(arms, u[:, None, :])[:, :, None] * u[:, None, :]
    tensors = np.array([b.inertia for b in bodies])                         # (B, 3, 3)
    own = numerics.dot(numerics.dot(u[:, None, None, :], tensors[None]), u[:, None, :])
    inertia = numerics.fsum_rows((own + numerics.dot(arms, arms) * masses).T)    # (E,)
    lift = (numerics.norm(vertical) * numerics.norm(r)
            - numerics.dot(vertical, r))
    energy = np.where(moment > 0.0, moment, 0.0) ** 2 / (2.0 * inertia)
    if np.any(energy >= mass * gravity * lift):
        return True, 0.0
    return False, rocking(energy, mass * gravity, vertical, r, numerics.norm(arms))


def rocking(energy: np.ndarray, weight: float, vertical: np.ndarray, r: np.ndarray,
            reach: np.ndarray) -> float:
    """m: the furthest a rocking carries a centre of mass (module docstring): per
    support edge (E edges) the set's kinetic energy ``energy`` (E,) J turning it up
    about the edge, short of tipping, its ``weight`` N, the vertical ``vertical``
    and its centre of mass ``r`` (E, 3) m across the edge's axis, and the distances
    ``reach`` (E, B) m of its B bodies' centres of mass from the axis."""
    height = numerics.norm(vertical) * numerics.norm(r)
    level = numerics.dot(vertical, r)
    furthest = 0.0
    for e, h, c, far in zip(energy.tolist(), height.tolist(), level.tolist(),
                            reach.max(axis=1).tolist()):
        if e <= 0.0 or h <= 0.0:
            continue
        start = math.acos(max(-1.0, min(1.0, c / h)))
        turned = start - math.acos(max(-1.0, min(1.0, (c + e / weight) / h)))
        furthest = max(furthest, turned * far)
    return furthest
