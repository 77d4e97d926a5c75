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
