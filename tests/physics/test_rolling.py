"""Round bodies roll, flat ones stay: cylinders and spheres released at rest on
wooden inclines against rigid rolling mechanics, with welding on.

Rolling without slipping down a slope theta, a body of mass m, radius R and moment
of inertia beta m R^2 about its rolling axis accelerates at g sin(theta) / (1 + beta)
(beta = 1/2 for a cylinder, 2/5 for a sphere).  Bullet damps every body's angular
velocity by the factor (1 - d)^dt each step (``angular_damping`` d = 0.5 /s), a
decay rate lambda = -ln(1 - d); rolling couples it to the whole motion:

    (1 + beta) v' = g sin(theta) - beta lambda v,

so v' = a0 - k v with a0 = g sin(theta) / (1 + beta), k = beta lambda / (1 + beta),
and the distance rolled is x(t) = (a0 / k) (t - (1 - exp(-k t)) / k).  Over the
first second this is 7.7 % short of a0 t^2 / 2 for a cylinder and 6.3 % for a
sphere: the price of the damping that stops a plate rocking on a ball.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.meshes import builders
from balance3d.meshes.part import make_part
from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
WOOD = TILTED.materials["wood"]
G = SETTINGS.gravity
RADIUS, LENGTH = 0.02, 0.06        # m, the cylinder and the sphere
PLANE = (0.8, 0.3, 0.02)           # m, the wooden incline
#: m, the bodies start this far up the slope from the incline's centre.
START = 0.3
#: degrees: the slopes tried (all below the friction angle of wood on wood).
SLOPES_DEG = [1.0, 2.0, 5.0, 8.0, 10.0]
#: s, how long the roll is measured.
ROLL_TIME = 1.0
#: Relative tolerance of the rolled distance against the prediction.
ROLL_TOLERANCE = 0.10
#: s, a fine step at which Bullet's rolling cylinder converges (see below).
FINE_STEP = 1.0 / 2000.0
#: m, a flat body that stays moves less than this.
STILL = 1e-9
BETA = {"cylinder": 0.5, "sphere": 0.4}


def rolled_distance(beta: float, theta: float, damping: float, t: float) -> float:
    """m rolled in ``t`` s from rest (module docstring), rolling without slipping."""
    a0 = G * math.sin(theta) / (1.0 + beta)
    rate = -math.log(1.0 - damping)
    k = beta * rate / (1.0 + beta)
    if k == 0.0:
        return a0 * t * t / 2.0
    return a0 / k * (t - (1.0 - math.exp(-k * t)) / k)


def incline(theta: float, kind: str, settings=SETTINGS) -> World:
    """A wooden incline tilted by ``theta`` (rad, down towards +x) with a wooden
    ``kind`` ("cylinder" on its side, axis across the slope; "sphere"; "box")
    released at rest on it, START up the slope."""
    slope = Rotation.from_euler("y", theta)
    plane = make_part("plane", *builders.box(PLANE), WOOD, static=True)
    world = World(settings)
    world.add("plane", plane, tuple(slope.apply((0.0, 0.0, -PLANE[2] / 2))),
              tuple(slope.as_quat()))
    if kind == "cylinder":
        body = make_part("round", *builders.cylinder(RADIUS, LENGTH), WOOD)
        turn, height = slope * Rotation.from_euler("x", 90.0, degrees=True), RADIUS
    elif kind == "sphere":
        body = make_part("round", *builders.sphere(RADIUS), WOOD)
        turn, height = slope, RADIUS
    else:
        body = make_part("round", *builders.box((0.06, 0.04, 0.015)), WOOD)
        turn, height = slope, 0.0075
    world.add("round", body, tuple(slope.apply((-START, 0.0, height))), tuple(turn.as_quat()))
    return world


def roll(world: World, theta: float) -> tuple[float, bool]:
    """m rolled down the slope in ROLL_TIME, and whether the body was ever welded."""
    downhill = Rotation.from_euler("y", theta).apply((1.0, 0.0, 0.0))
    start = world.pose("round")[0]
    welded = False
    for _ in range(round(ROLL_TIME / world.settings.time_step)):
        world.step()
        welded = welded or world.is_welded("round")
    return float((world.pose("round")[0] - start) @ downhill), welded


def test_wood_grips_enough_to_roll_without_slipping():
    """Rolling needs friction of at least tan(theta) beta / (1 + beta)."""
    mu = WOOD.friction * WOOD.friction            # Bullet multiplies the two
    for beta in BETA.values():
        assert mu >= math.tan(math.radians(max(SLOPES_DEG))) * beta / (1.0 + beta)


@pytest.mark.parametrize("degrees", SLOPES_DEG)
def test_a_sphere_rolls_down_a_slope_as_rigid_mechanics_says(degrees):
    theta = math.radians(degrees)
    distance, welded = roll(incline(theta, "sphere"), theta)
    assert not welded
    expected = rolled_distance(BETA["sphere"], theta, SETTINGS.angular_damping, ROLL_TIME)
    assert distance == pytest.approx(expected, rel=ROLL_TOLERANCE)


@pytest.mark.parametrize("degrees", SLOPES_DEG)
def test_welding_never_holds_a_rolling_cylinder(degrees):
    """At the games' step the welded World rolls the cylinder exactly as the
    unwelded one: welding takes no part."""
    theta = math.radians(degrees)
    distance, welded = roll(incline(theta, "cylinder"), theta)
    free, _ = roll(incline(theta, "cylinder", SETTINGS.replace(weld=False)), theta)
    assert not welded
    assert distance == free
    assert distance > 0.5 * rolled_distance(BETA["cylinder"], theta, 0.0, ROLL_TIME)


@pytest.mark.parametrize("degrees", SLOPES_DEG)
def test_a_cylinder_rolls_down_a_slope_as_rigid_mechanics_says_at_a_fine_step(degrees):
    """Welding on, at FINE_STEP.  At the games' 1/240 s Bullet's cylinder rolls
    too far on gentle slopes (measured 1.39x the prediction at 1 degree, 1.09x at
    10): its contact points trail the rolling contact line.  This error is
    Bullet's, not welding's (the test above), and shrinks with the step."""
    theta = math.radians(degrees)
    settings = SETTINGS.replace(time_step=FINE_STEP)
    distance, welded = roll(incline(theta, "cylinder", settings), theta)
    assert not welded
    expected = rolled_distance(BETA["cylinder"], theta, SETTINGS.angular_damping, ROLL_TIME)
    assert distance == pytest.approx(expected, rel=ROLL_TOLERANCE)


@pytest.mark.parametrize("degrees", SLOPES_DEG)
def test_a_box_below_the_friction_angle_is_welded_and_stays(degrees):
    theta = math.radians(degrees)
    assert math.tan(theta) < WOOD.friction * WOOD.friction
    world = incline(theta, "box")
    start = world.pose("round")[0]
    world.step(round(ROLL_TIME / SETTINGS.time_step))
    assert world.is_welded("round")
    assert np.linalg.norm(world.pose("round")[0] - start) <= STILL
