"""Welding's arithmetic in Python floats and its kept terms give the bits of the
array arithmetic they replace.

The impact check, the stored-force residuals and the statics programs are computed
with Python floats where the arrays are small, and in parts kept between calls
(each body's terms about a support's edges, which bodies share a stored pair).  A
welded World's results depend on every bit of them, so each piece is checked here
against the array formulas it stands for -- copied below as they were written
before -- on random supports, bodies, impulses and contact forces: the same bits,
not merely close values.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d import numerics, planar
from balance3d.physics.impacts import RigidBody, edge_terms, impact, impact_on, support_edges
from balance3d.physics.patches import quat_matrix
from balance3d.physics.statics import (StaticsBody, body_residuals, cross, residuals,
                                       tangents)
from balance3d.physics.weld_graph import WeldGraph
from balance3d.physics.weld_state import WeldContact
from balance3d.physics.world import World
from balance3d.scene import load_scene

G = 9.81
#: Random cases of each check.
CASES = 300


# ---------------------------------------------------------------------- references
def reference_support_edges(supports, normal):
    """:func:`support_edges` as array arithmetic."""
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


def reference_impact(bodies, supports, normal, friction, impulses, gravity):
    """:func:`impact` as array arithmetic."""
    total = sum((j for _, j in impulses), np.zeros(3))
    into = -numerics.dot3(total, normal)
    along = numerics.norm3(total + into * normal)
    if along > friction * max(into, 0.0):
        return True, 0.0
    edges = reference_support_edges(supports, normal)
    if edges is None:
        return True, 0.0
    a, u = edges
    mass = sum(b.mass for b in bodies)
    com = sum(b.mass * b.com for b in bodies) / mass
    up = np.array([0.0, 0.0, 1.0])

    def across(v):
        return v - numerics.dot(np.broadcast_to(v, u.shape), u)[:, None] * u

    r = across(com - a)
    vertical = across(up)
    if np.any(numerics.dot(cross(r, -mass * gravity * up), u) >= 0.0):
        return True, 0.0
    moment = sum(numerics.dot(cross(p - a, j), u) for p, j in impulses)
    masses = np.array([b.mass for b in bodies])
    arms = np.array([b.com for b in bodies])[None, :, :] - a[:, None, :]
    arms -= numerics.dot(arms, u[:, None, :])[:, :, None] * u[:, None, :]
    tensors = np.array([b.inertia for b in bodies])
    own = numerics.dot(numerics.dot(u[:, None, None, :], tensors[None]), u[:, None, :])
    inertia = numerics.fsum_rows((own + numerics.dot(arms, arms) * masses).T)
    lift = numerics.norm(vertical) * numerics.norm(r) - numerics.dot(vertical, r)
    energy = np.where(moment > 0.0, moment, 0.0) ** 2 / (2.0 * inertia)
    if np.any(energy >= mass * gravity * lift):
        return True, 0.0
    height = numerics.norm(vertical) * numerics.norm(r)
    level = numerics.dot(vertical, r)
    furthest = 0.0
    for e, h, c, far in zip(energy.tolist(), height.tolist(), level.tolist(),
                            numerics.norm(arms).max(axis=1).tolist()):
        if e <= 0.0 or h <= 0.0:
            continue
        start = math.acos(max(-1.0, min(1.0, c / h)))
        turned = start - math.acos(max(-1.0, min(1.0, (c + e / (mass * gravity)) / h)))
        furthest = max(furthest, turned * far)
    return False, furthest


# ---------------------------------------------------------------------- random cases
def random_support(rng):
    """(k, 3) points of a support a few degrees off level, and its unit normal."""
    normal = np.array([rng.normal(0, 0.05), rng.normal(0, 0.05), 1.0])
    normal /= numerics.norm3(normal)
    t1, t2 = tangents(normal)
    k = int(rng.integers(2, 7))
    # a rectangle's corners, moved a little, and more points inside or near it
    half = rng.uniform(0.01, 0.06, 2)
    corners = np.array([(sx, sy) for sx in (-1, 1) for sy in (-1, 1)]) * half
    flat = np.concatenate([corners + rng.normal(0, 0.002, (4, 2)),
                           rng.uniform(-1.2, 1.2, (k, 2)) * half])
    return flat[:, :1] * t1 + flat[:, 1:] * t2 + rng.normal(0, 0.01, 3), normal


def random_body(rng, centre):
    a = rng.normal(size=(3, 3))
    return RigidBody(float(rng.uniform(0.005, 0.2)),
                     centre + rng.normal(0, 0.004, 3) + np.array([0.0, 0.0, 0.03]),
                     a @ a.T * 1e-5)


def random_case(rng):
    """A rigid set on a support, its friction, and landings: at a random share of
    the strength that would tip it (found by bisection on the reference), so that
    most cases rock it, and the rocking's bits depend on every step before it."""
    supports, normal = random_support(rng)
    centre = supports.mean(axis=0)
    bodies = [random_body(rng, centre) for _ in range(int(rng.integers(1, 6)))]
    friction = float(rng.uniform(0.3, 0.9))
    reach = float(np.abs(supports - centre).max())
    landings = [(centre + rng.uniform(-2.0, 2.0, 3) * reach + np.array([0.0, 0.0, 0.05]),
                 rng.normal(0, 0.3, 3) - np.array([0.0, 0.0, 1.0]))
                for _ in range(int(rng.integers(1, 3)))]

    def scaled(k):
        return [(p, k * j) for p, j in landings]

    low, high = 0.0, 1.0
    while high < 1e3 and not reference_impact(bodies, supports, normal, friction,
                                              scaled(high), G)[0]:
        low, high = high, 2.0 * high
    for _ in range(30):
        mid = 0.5 * (low + high)
        if reference_impact(bodies, supports, normal, friction, scaled(mid), G)[0]:
            high = mid
        else:
            low = mid
    share = float(rng.choice([rng.uniform(0.0, 1.0), rng.uniform(1.0, 1.5)]))
    return bodies, supports, normal, friction, scaled(share * high)


# ---------------------------------------------------------------------- tests
def test_support_edges_are_the_bits_of_the_array_arithmetic():
    rng = np.random.default_rng(1)
    spans = 0
    for _ in range(CASES):
        supports, normal = random_support(rng)
        got, want = support_edges(supports, normal), reference_support_edges(supports, normal)
        assert (got is None) == (want is None)
        if got is not None:
            spans += 1
            assert got[0].tobytes() == want[0].tobytes()
            assert got[1].tobytes() == want[1].tobytes()
    assert spans > CASES // 2       # the check ran on real hulls, not only on lines


def test_impact_gives_the_bits_of_the_array_arithmetic():
    rng = np.random.default_rng(2)
    outcomes = {"tipped": 0, "rocked": 0, "still": 0}
    for _ in range(CASES // 2):
        case = random_case(rng)
        got = impact(*case, G)
        want = reference_impact(*case, G)
        assert got[0] == want[0]
        assert float(got[1]).hex() == float(want[1]).hex()
        outcomes["tipped" if got[0] else "rocked" if got[1] > 0.0 else "still"] += 1
    # every branch was met (so the bits were compared where they count)
    assert outcomes["tipped"] > CASES // 10 and outcomes["rocked"] > CASES // 10, outcomes


def test_edge_terms_do_not_depend_on_the_bodies_asked_with_them():
    """The impact check keeps a struck set's terms and asks a landing body's apart:
    each body's terms must be the same bits alone or with others, in any order."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        bodies, supports, normal, friction, impulses = random_case(rng)
        edges = support_edges(supports, normal)
        if edges is None:
            continue
        together = edge_terms(bodies, edges)
        for body, term in zip(bodies, together):
            (alone,) = edge_terms([body], edges)
            assert alone.inertia == term.inertia
            assert alone.reach.tobytes() == term.reach.tobytes()
        split = edge_terms(bodies[::-1], edges)[::-1]
        assert impact_on(split, normal, friction, impulses, G, edges) == \
            impact_on(together, normal, friction, impulses, G, edges)


def test_body_residuals_are_the_bits_of_residuals():
    rng = np.random.default_rng(4)
    for _ in range(CASES):
        k = int(rng.integers(0, 12))
        mass, com = float(rng.uniform(0.01, 1.0)), rng.normal(0, 0.1, 3)
        points, forces = rng.normal(0, 0.1, (k, 3)), rng.normal(0, 2.0, (k, 3))
        want = residuals([StaticsBody(mass, tuple(com))], points.reshape(-1, 3),
                         forces.reshape(-1, 3), np.zeros(k, int), G)
        got = body_residuals(mass, tuple(com.tolist()), points.tolist(), forces.tolist(), G)
        assert float(got[0]).hex() == float(want[0][0]).hex()
        assert float(got[1]).hex() == float(want[1][0]).hex()
        assert float(got[2]).hex() == float(want[2]).hex()


def test_a_welded_bodys_rigid_inertia_is_the_bits_of_the_matrix_product():
    scene = load_scene("tilted")
    world = World(scene.physics)
    rng = np.random.default_rng(5)
    for i in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        world.add(f"b{i}", scene.parts["block_6"], (0.4 * i, 0.0, 0.5), tuple(q.tolist()))
    check = world._welds.impacts
    for i in range(20):
        name = f"b{i}"
        part = scene.parts["block_6"]
        position, orientation = world.pose(name)
        rot = quat_matrix(orientation)
        want = numerics.matmul(rot * part.inertia, rot.T)
        got = check._rigid(name)
        assert got.inertia.tobytes() == want.tobytes()
        assert got.com.tobytes() == np.asarray(position, float).tobytes()


@pytest.mark.parametrize("seed", range(5))
def test_weld_graph_neighbours_follow_every_change_of_the_stored_pairs(seed):
    """The graph keeps who shares a stored pair with whom: after each addition,
    update and drop its neighbours must be what a pass over the pairs finds."""
    rng = np.random.default_rng(seed)
    names = [f"n{i}" for i in range(8)]

    class FakeWorld:
        welded_set = set(names)

    graph = WeldGraph(FakeWorld())

    def contact(a, b):
        return WeldContact(a, b, (0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 1.0), 0.0)

    def brute(name):
        out = set()
        for pair in graph.pairs:
            if name in pair:
                out |= pair
        return (out - {name}) & FakeWorld.welded_set

    for step in range(40):
        a, b = rng.choice(names, 2, replace=False).tolist()
        action = step % 3
        if action == 0:
            graph.add([contact(a, b)])
        elif action == 1:
            graph.update({frozenset((a, b)): [contact(a, b)]})
        else:
            graph.drop({a})
        FakeWorld.welded_set = set(rng.choice(names, 6, replace=False).tolist())
        for name in names:
            assert graph.neighbours(name) == brute(name)
