"""The statics solver behind welding, against hand-worked rigid-body statics."""
from __future__ import annotations

import math

import pytest

from balance3d.physics.statics import (FRICTION_CONE_SIDES, StaticsBody, StaticsContact,
                                       solve_statics)

G = 9.81
MASS = 0.2          # kg
HALF = (0.05, 0.03)  # m, half footprint of a box resting on its base corners
#: The friction pyramid is inscribed in the cone: between two of its edges friction
#: holds up to this fraction of the Coulomb limit.
INSCRIBED = math.cos(math.pi / FRICTION_CONE_SIDES)


def box_on_floor(com_x=0.0, normal=(0.0, 0.0, 1.0), mu=0.5, height=0.02):
    corners = [(sx * HALF[0], sy * HALF[1], 0.0) for sx in (-1, 1) for sy in (-1, 1)]
    bodies = [StaticsBody(MASS, (com_x, 0.0, height))]
    contacts = [StaticsContact(0, -1, c, normal, mu) for c in corners]
    return bodies, contacts


def test_a_box_on_the_floor_holds_and_its_normal_forces_add_up_to_its_weight():
    bodies, contacts = box_on_floor()
    forces = solve_statics(bodies, contacts, G)
    assert forces is not None
    assert forces.sum(axis=0) == pytest.approx((0.0, 0.0, MASS * G), abs=1e-9)
    # load spreading: every corner carries a share
    assert all(f[2] > 0.01 * MASS * G for f in forces)


@pytest.mark.parametrize("inside", [0.999, 1.001])
def test_the_centre_of_mass_must_lie_over_the_support(inside):
    bodies, contacts = box_on_floor(com_x=inside * HALF[0])
    assert (solve_statics(bodies, contacts, G) is not None) == (inside < 1.0)


@pytest.mark.parametrize("fraction,holds", [(0.99, True), (1.01, False)])
def test_friction_holds_a_box_on_an_incline_while_tan_theta_is_below_mu(fraction, holds):
    """The incline's normal is tilted about y: the slope runs along x, the direction
    of an edge of the friction pyramid, where the pyramid is the Coulomb cone."""
    mu = 0.4
    theta = math.atan(fraction * mu)
    normal = (math.sin(theta), 0.0, math.cos(theta))
    bodies, contacts = box_on_floor(normal=normal, mu=mu, height=0.001)
    assert (solve_statics(bodies, contacts, G) is not None) == holds


def test_a_stack_carries_the_upper_weight_through_its_interface():
    bodies = [StaticsBody(MASS, (0.0, 0.0, 0.01)), StaticsBody(MASS / 2, (0.0, 0.0, 0.03))]
    contacts = []
    for z, body, other in ((0.0, 0, -1), (0.02, 1, 0)):
        contacts += [StaticsContact(body, other, (sx * HALF[0], sy * HALF[1], z),
                                    (0.0, 0.0, 1.0), 0.5, pair=body)
                     for sx in (-1, 1) for sy in (-1, 1)]
    forces = solve_statics(bodies, contacts, G)
    assert forces is not None
    assert forces[4:].sum(axis=0)[2] == pytest.approx(MASS / 2 * G)
    assert forces[:4].sum(axis=0)[2] == pytest.approx(1.5 * MASS * G)


def test_a_plank_on_two_supports_rests_on_both():
    bodies = [StaticsBody(MASS, (0.0, 0.0, 0.005))]
    contacts = [StaticsContact(0, -1, (x, y, 0.0), (0.0, 0.0, 1.0), 0.5, pair=int(x > 0))
                for x in (-0.2, 0.1) for y in (-0.02, 0.02)]
    forces = solve_statics(bodies, contacts, G)
    left, right = forces[:2, 2].sum(), forces[2:, 2].sum()
    # moments about the plank's centre: 0.2 left = 0.1 right
    assert left == pytest.approx(MASS * G / 3) and right == pytest.approx(2 * MASS * G / 3)


@pytest.mark.parametrize("push,holds", [(0.99, True), (1.01, False)])
def test_a_measured_push_is_a_load_the_friction_must_hold(push, holds):
    """A frictionless body in motion pushes the box sideways (+x, along an edge of
    the friction pyramid) with a measured normal force of ``push`` times the Coulomb
    limit mu m g; the box stays only below it."""
    mu = 0.5
    bodies, contacts = box_on_floor(mu=mu)
    contacts.append(StaticsContact(0, -1, (-HALF[0], 0.0, 0.005), (1.0, 0.0, 0.0), 0.0,
                                   normal_force=push * mu * MASS * G))
    assert (solve_statics(bodies, contacts, G) is not None) == holds


@pytest.mark.parametrize("fraction,holds", [(0.99 * INSCRIBED, True), (1.01 * INSCRIBED, False)])
def test_between_pyramid_edges_friction_is_under_estimated(fraction, holds):
    """Pushed halfway between two pyramid edges (22.5 degrees off +x for 8 sides),
    the box holds up to cos(pi / 8) of the Coulomb limit: the error is on the side of
    "cannot stay"."""
    mu = 0.5
    half_step = math.pi / FRICTION_CONE_SIDES
    direction = (math.cos(half_step), math.sin(half_step), 0.0)
    bodies, contacts = box_on_floor(mu=mu)
    centre = (-0.9 * HALF[0] * direction[0], -0.9 * HALF[1] * direction[1], 0.005)
    contacts.append(StaticsContact(0, -1, centre, direction, 0.0,
                                   normal_force=fraction * mu * MASS * G))
    assert (solve_statics(bodies, contacts, G) is not None) == holds


def test_an_unsupported_body_cannot_stay():
    assert solve_statics([StaticsBody(MASS, (0.0, 0.0, 0.1))], [], G) is None


def plank_with_load(x: float, force: float):
    """The plank of :func:`test_a_plank_on_two_supports_rests_on_both` (supports at
    x = -0.2 and +0.1 m, centre of mass at 0) with a known downward load of
    ``force`` N acting at ``x`` m on its top."""
    bodies = [StaticsBody(MASS, (0.0, 0.0, 0.005), (((x, 0.0, 0.01), (0.0, 0.0, -force)),))]
    contacts = [StaticsContact(0, -1, (sx, y, 0.0), (0.0, 0.0, 1.0), 0.5, pair=int(sx > 0))
                for sx in (-0.2, 0.1) for y in (-0.02, 0.02)]
    return bodies, contacts


def test_a_load_off_the_centre_of_mass_is_carried_by_the_nearer_support():
    """A load of m g at x = -0.1 m, a third of the 0.3 m span from the left
    support: moments give the left 2/3 of it and the right 1/3, on top of the
    plank's own 1/3 and 2/3 (each support then carries m g)."""
    bodies, contacts = plank_with_load(-0.1, MASS * G)
    forces = solve_statics(bodies, contacts, G)
    left, right = forces[:2, 2].sum(), forces[2:, 2].sum()
    assert left == pytest.approx(MASS * G / 3 + 2 * MASS * G / 3)
    assert right == pytest.approx(2 * MASS * G / 3 + MASS * G / 3)


@pytest.mark.parametrize("fraction, holds", [(0.95, True), (1.05, False)])
def test_a_load_beyond_a_support_tips_the_plank_past_its_moment(fraction, holds):
    """A load at x = -0.3 m, 0.1 m beyond the left support: about that support it
    turns the plank against its weight's 0.2 m arm, so it tips above 2 m g."""
    bodies, contacts = plank_with_load(-0.3, fraction * 2 * MASS * G)
    assert (solve_statics(bodies, contacts, G) is not None) == holds


@pytest.mark.parametrize("push, holds", [(0.05, True), (0.3, False)])
def test_a_known_push_between_two_bodies_of_the_problem_acts_on_both(push, holds):
    """Box 1, standing on box 0's +x side, pushes it along -x with a measured
    ``push`` x m g; box 0 feels it and box 1 the opposite.  Box 0's floor holds up
    to 0.5 m g, box 1's slippery floor only 0.1 m g: both stay at 0.05, and box 1
    slides back at 0.3.  When they stay, box 1's floor pushes it forward by exactly
    the push."""
    force = push * MASS * G
    bodies = [StaticsBody(MASS, (0.0, 0.0, 0.02)), StaticsBody(MASS, (0.2, 0.0, 0.02))]
    contacts = []
    for body, mu in ((0, 0.5), (1, 0.1)):
        x0 = bodies[body].com[0]
        contacts += [StaticsContact(body, -1, (x0 + sx * HALF[0], sy * HALF[1], 0.0),
                                    (0.0, 0.0, 1.0), mu, pair=body)
                     for sx in (-1, 1) for sy in (-1, 1)]
    contacts.append(StaticsContact(0, 1, (HALF[0], 0.0, 0.005), (-1.0, 0.0, 0.0), 0.0,
                                   pair=2, normal_force=force))
    forces = solve_statics(bodies, contacts, G)
    assert (forces is not None) == holds
    if holds:
        assert forces[8] == pytest.approx((-force, 0.0, 0.0))
        assert forces[:4, 0].sum() == pytest.approx(force)
        assert forces[4:8, 0].sum() == pytest.approx(-force)
