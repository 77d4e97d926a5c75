"""The statics solver remembers recent programs: a remembered answer must be the
answer to *this* program, never one solved for another input.

Each test solves two programs that differ in one input, one after the other (so the
second meets the first in the cache), and checks each answer against rigid-body
statics: a box on an incline of slope ``tan(theta)`` holds by friction exactly when
``tan(theta) <= mu``, and the contact forces holding a body add up to its weight.
The last test does the same through two Worlds built one after the other: what one
World solved must not decide what the next one welds.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.meshes import builders
from balance3d.meshes.part import Material, make_part
from balance3d.physics.statics import StaticsBody, StaticsContact, solve_statics
from balance3d.physics.world import World
from balance3d.scene import load_scene

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


# ------------------------------------------------------------------ between Worlds
#: rad, the ramp's slope: tan = 0.3.
RAMP_ANGLE = math.atan(SLOPE)
RAMP_SIZE = (0.5, 0.1, 0.02)          # m
CUBE_SIDE = 0.025                      # m
#: s, how long the slipping cube is watched.
SLIDE_TIME = 0.4
#: Relative tolerance of a sliding distance against its Coulomb-friction prediction.
SLIDE_TOLERANCE = 0.1


def ramp_world(cube_friction: float) -> World:
    """A static ramp (friction 1) and a cube of friction ``cube_friction`` released at
    rest on it, 0.1 m up the slope from the ramp's centre.  Bullet multiplies the two
    coefficients: the pair's friction is ``cube_friction``."""
    settings = load_scene("tilted").physics
    ramp = make_part("ramp", *builders.box(RAMP_SIZE), Material("grip", 650.0, 1.0),
                     static=True)
    cube = make_part("cube", *builders.box((CUBE_SIDE,) * 3),
                     Material("wood", 650.0, cube_friction))
    tilt = Rotation.from_rotvec((0.0, -RAMP_ANGLE, 0.0))   # +x end up
    up_slope, normal = tilt.apply((1.0, 0.0, 0.0)), tilt.apply((0.0, 0.0, 1.0))
    world = World(settings)
    world.add("ramp", ramp, (0.0, 0.0, 0.0), tuple(tilt.as_quat()))
    world.add("cube", cube, tuple(0.1 * up_slope + (RAMP_SIZE[2] + CUBE_SIDE) / 2 * normal),
              tuple(tilt.as_quat()))
    return world


@pytest.mark.parametrize("order", [(MU_HOLDS, MU_SLIPS), (MU_SLIPS, MU_HOLDS)])
def test_a_world_does_not_inherit_another_worlds_statics(order):
    """Two Worlds of the same geometry, one after the other in this thread: the cube
    of friction MU_HOLDS stays (welded), the one of MU_SLIPS slides as Coulomb says,
    whichever World ran first."""
    for mu in order:
        world = ramp_world(mu)
        start = np.array(world.pose("cube")[0])
        world.step(round(SLIDE_TIME / world.settings.time_step))
        moved = float(np.linalg.norm(world.pose("cube")[0] - start))
        if mu == MU_HOLDS:
            assert world.is_welded("cube") and moved < 1e-6
        else:
            g = world.settings.gravity
            expected = 0.5 * g * (math.sin(RAMP_ANGLE) - mu * math.cos(RAMP_ANGLE)) \
                * SLIDE_TIME ** 2
            assert moved == pytest.approx(expected, rel=SLIDE_TOLERANCE)
