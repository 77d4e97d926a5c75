"""The statics solver remembers recent programs: a remembered answer must be the
answer to *this* program, never one solved for another input.

Each test solves two programs that differ in one input, one after the other (so the
second meets the first in the cache), and checks each answer against rigid-body
statics: a box on an incline of slope ``tan(theta)`` holds by friction exactly when
``tan(theta) <= mu``, and the contact forces holding a body add up to its weight.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.physics.statics import StaticsBody, StaticsContact, solve_statics

G = 9.81
MASS = 0.2           # kg
HALF = (0.05, 0.03)  # m, half footprint of the box
#: The incline's slope, tan(theta): between the two friction coefficients below.
SLOPE = 0.3
MU_HOLDS, MU_SLIPS = 0.4, 0.2
#: N, contact forces are exact to round-off.
FORCE_TOLERANCE = 1e-9


def box_on_incline(mu: float, mass: float = MASS, load=()) -> tuple[list, list]:
    """A box resting on its four base corners on an incline rising along x; the
    slope runs along an edge of the friction pyramid, where it is the Coulomb cone."""
    theta = math.atan(SLOPE)
    normal = (math.sin(theta), 0.0, math.cos(theta))
    corners = [(sx * HALF[0], sy * HALF[1], 0.0) for sx in (-1, 1) for sy in (-1, 1)]
    bodies = [StaticsBody(mass, (0.0, 0.0, 0.001), tuple(load))]
    return bodies, [StaticsContact(0, -1, c, normal, mu) for c in corners]


def total(forces: np.ndarray) -> np.ndarray:
    return forces.sum(axis=0)


@pytest.mark.parametrize("first, second", [(MU_HOLDS, MU_SLIPS), (MU_SLIPS, MU_HOLDS)])
def test_friction_is_part_of_the_remembered_program(first, second):
    for mu in (first, second, first):
        forces = solve_statics(*box_on_incline(mu), G)
        assert (forces is not None) == (SLOPE <= mu), f"mu = {mu}"
        if forces is not None:
            assert total(forces) == pytest.approx((0.0, 0.0, MASS * G), abs=FORCE_TOLERANCE)


@pytest.mark.parametrize("gravity", [G, 2 * G, G / 2])
def test_gravity_is_part_of_the_remembered_program(gravity):
    solve_statics(*box_on_incline(MU_HOLDS), G)
    forces = solve_statics(*box_on_incline(MU_HOLDS), gravity)
    assert total(forces) == pytest.approx((0.0, 0.0, MASS * gravity), abs=FORCE_TOLERANCE)


def test_the_mass_and_the_loads_are_part_of_the_remembered_program():
    solve_statics(*box_on_incline(MU_HOLDS), G)
    forces = solve_statics(*box_on_incline(MU_HOLDS, mass=2 * MASS), G)
    assert total(forces) == pytest.approx((0.0, 0.0, 2 * MASS * G), abs=FORCE_TOLERANCE)
    press = ((0.0, 0.0, 0.02), (0.0, 0.0, -MASS * G))   # a push as heavy as the box
    forces = solve_statics(*box_on_incline(MU_HOLDS, load=[press]), G)
    assert total(forces) == pytest.approx((0.0, 0.0, 2 * MASS * G), abs=FORCE_TOLERANCE)


def test_changing_an_answer_does_not_change_the_remembered_one():
    first = solve_statics(*box_on_incline(MU_HOLDS), G)
    expected = first.copy()
    first[:] = 0.0
    again = solve_statics(*box_on_incline(MU_HOLDS), G)
    assert np.array_equal(again, expected)
    assert again is not first
