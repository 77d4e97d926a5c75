"""Landings on welded structures, against rigid impact mechanics and against the
same scenes simulated unwelded at a fine step (REFERENCE_STEP), welding off.

A body landing on a welded structure hands it its momentum.  If the structure
turns about an edge of its support it must lift its centre of mass over that edge
to fall; a landing that cannot give it that energy is carried
(:mod:`balance3d.physics.impacts`).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.physics.impacts import RigidBody, overturned
from balance3d.physics.world import InvalidStateError, World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
G = SETTINGS.gravity
TABLE = TILTED.parts["table"]
TABLE_HALF = TABLE.extents[0] / 2
#: s, the unwelded reference's time step.
REFERENCE_STEP = 1.0 / 2000.0
#: m, each block of a stack is released this far above the one below.
DROP_GAP = 0.002
#: Harmonic stack: offsets scaled by these stand / fall.
HARMONIC_STANDS, HARMONIC_FALLS = 0.95, 1.05
#: s, how long a built stack is watched.
WATCH_TIME = 3.0
#: m, a standing stack's blocks move less than this while watched.
STAND_TOLERANCE = 0.001
#: Plank struck by a cube: the plank's centre of mass lies PLANK_INSIDE inside the
#: table's edge, the cube lands PLANK_HIT beyond it (m).
PLANK_INSIDE, PLANK_HIT = 0.020, 0.050
#: s, how long after a landing the plank gets to fall.
FALL_TIME = 1.5
#: Landing speeds, as fractions of the predicted overturning speed, that the
#: plank carries, and that overturn it.
CARRIED, OVERTURNING = (0.6, 0.8), (1.5, 2.0)


def table_world(settings) -> World:
    world = World(settings)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    return world


# ---------------------------------------------------------------- the impact model
def box_on_square(mass: float, half: float, height: float) -> tuple[RigidBody, np.ndarray]:
    """A uniform box (mass kg, square base of side 2 half, height m) on its base at
    the origin, and its four support corners."""
    inertia = mass / 12.0 * np.diag([(2 * half) ** 2 + height ** 2] * 2 + [2 * (2 * half) ** 2])
    body = RigidBody(mass, np.array([0.0, 0.0, height / 2]), inertia)
    corners = np.array([[sx * half, sy * half, 0.0] for sx in (-1, 1) for sy in (-1, 1)])
    return body, corners


def overturning_impulse(mass: float, half: float, height: float, arm: float) -> float:
    """N s: the downward impulse, ``arm`` beyond the +x edge on top of the box of
    :func:`box_on_square`, that lifts its centre of mass over that edge: the angular
    momentum J arm about the edge gives J^2 arm^2 / (2 I_edge) = m g (r - h / 2)."""
    i_edge = mass / 12.0 * ((2 * half) ** 2 + height ** 2) + mass * (half ** 2 + height ** 2 / 4)
    lift = math.hypot(half, height / 2) - height / 2
    return math.sqrt(2.0 * i_edge * mass * G * lift) / arm


@pytest.mark.parametrize("fraction,falls", [(0.9, False), (1.1, True)])
def test_an_impulse_overturns_a_box_only_with_the_energy_to_lift_it_over_its_edge(
        fraction, falls):
    mass, half, height, arm = 0.1, 0.02, 0.05, 0.01
    body, corners = box_on_square(mass, half, height)
    impulse = fraction * overturning_impulse(mass, half, height, arm)
    hit = (np.array([half + arm, 0.0, height]), np.array([0.0, 0.0, -impulse]))
    assert overturned([body], corners, np.array([0.0, 0.0, 1.0]), 0.5, [hit], G) == falls


@pytest.mark.parametrize("fraction,shifts", [(0.9, False), (1.1, True)])
def test_an_impulse_along_the_support_shifts_a_box_beyond_what_friction_takes(
        fraction, shifts):
    """Pushed down by J and sideways by fraction mu J, through its centre: friction
    takes the sideways part up to mu J."""
    mass, half, height, mu, down = 0.1, 0.02, 0.05, 0.5, 0.01
    body, corners = box_on_square(mass, half, height)
    hit = (np.array([0.0, 0.0, height / 2]), np.array([fraction * mu * down, 0.0, -down]))
    assert overturned([body], corners, np.array([0.0, 0.0, 1.0]), mu, [hit], G) == shifts


# ---------------------------------------------------------------- harmonic stacks
def drop_built_stack(block, n: int, scale: float, settings) -> tuple[World, list[str]]:
    """``n`` blocks over the table's +x edge at ``scale`` times the harmonic
    offsets (block i from the top overhangs the one below by scale L / (2 i)), each
    released DROP_GAP above the one below and settled before the next."""
    length, height = block.extents[0], block.extents[2]
    world = table_world(settings)
    right, names = TABLE_HALF, []
    for i in range(n, 0, -1):                   # bottom (i = n) first
        right += scale * length / (2 * i)
        top = max((world.vertices(m)[:, 2].max() for m in names), default=0.0)
        name = f"b{i}"
        world.drop(name, block, (right - length / 2, 0.0, top + DROP_GAP + height / 2))
        names.append(name)
        world.settle()
    return world, names


def stands(block, n: int, scale: float, settings) -> bool:
    """Whether the drop-built stack stands WATCH_TIME with no block moving more than
    STAND_TOLERANCE (a block falling off the table does not stand)."""
    try:
        world, names = drop_built_stack(block, n, scale, settings)
        height = block.extents[2]
        if any(abs(world.pose(m)[0][2] - (height / 2 + k * height)) > STAND_TOLERANCE
               for k, m in enumerate(names)):
            return False
        start = {m: world.pose(m)[0] for m in names}
        world.step(round(WATCH_TIME / settings.time_step))
        world.check_invalid_state()
    except InvalidStateError:
        return False
    return all(np.linalg.norm(world.pose(m)[0] - start[m]) <= STAND_TOLERANCE for m in names)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_harmonic_stacks_built_by_drops_stand_below_and_fall_above_the_limit(n):
    block = TILTED.parts["block_6"]
    assert stands(block, n, HARMONIC_STANDS, SETTINGS)
    assert not stands(block, n, HARMONIC_FALLS, SETTINGS)


@pytest.mark.parametrize("block_name,n", [
    ("block_6", 5), ("block_4", 3), ("block_4", 5), ("block_2", 3), ("block_2", 5),
    ("block_1", 4),
    pytest.param("block_4", 4, marks=pytest.mark.xfail(
        strict=True, reason="known disagreement: welded falls where the fine unwelded "
                            "World stands (README, Known limits)"))])
def test_a_drop_built_stack_stands_or_falls_as_in_the_fine_unwelded_world(block_name, n):
    """A 2 mm landing on a stack of 25 to 100 mm blocks at 0.95 of its limit
    brings angular momentum enough to turn the top pair over the edge below them
    (rigid impact mechanics, and the unwelded World at REFERENCE_STEP agree); on
    150 mm blocks it does not."""
    block = TILTED.parts[block_name]
    reference = SETTINGS.replace(weld=False, time_step=REFERENCE_STEP)
    assert stands(block, n, HARMONIC_STANDS, SETTINGS) == stands(
        block, n, HARMONIC_STANDS, reference)


# ---------------------------------------------------------------- a plank struck
PLANK, CUBE = TILTED.parts["block_6"], TILTED.parts["block_1"]


def plank_overturning_speed() -> float:
    """m/s: the landing speed at which a cube landing PLANK_HIT beyond the table's
    edge on the plank (its centre of mass PLANK_INSIDE inside the edge) gives the
    plank and cube, turning together about the edge (a plastic impact), the energy
    to lift their centre of mass over it."""
    mp, mc = PLANK.mass, CUBE.mass
    length, hp, hc = PLANK.extents[0], PLANK.extents[2], CUBE.extents[2]
    total = mp + mc
    x = (-mp * PLANK_INSIDE + mc * PLANK_HIT) / total     # from the edge, outwards
    z = (mp * hp / 2 + mc * (hp + hc / 2)) / total
    assert x < 0.0                                       # statics hold the cube
    lift = math.hypot(x, z) - z
    i_edge = (mp * (length ** 2 + hp ** 2) / 12 + mp * (PLANK_INSIDE ** 2 + hp ** 2 / 4)
              + mc * (2 * hc ** 2) / 12 + mc * (PLANK_HIT ** 2 + (hp + hc / 2) ** 2))
    return math.sqrt(2.0 * i_edge * total * G * lift) / (mc * PLANK_HIT)


def strike_plank(speed: float, settings) -> tuple[bool, bool]:
    """Land the cube on the resting plank at ``speed`` (m/s, down); returns whether
    the plank fell off the table edge and whether it was woken at the landing."""
    world = table_world(settings)
    hp, hc = PLANK.extents[2], CUBE.extents[2]
    world.add("plank", PLANK, (TABLE_HALF - PLANK_INSIDE, 0.0, hp / 2))
    world.step(round(0.1 / settings.time_step))
    assert world.is_welded("plank") == settings.weld
    gap = settings.contact_distance
    world.add("cube", CUBE, (TABLE_HALF + PLANK_HIT, 0.0, hp + gap + hc / 2),
              linear_velocity=(0.0, 0.0, -math.sqrt(speed * speed - 2 * G * gap)))
    woken = False
    try:
        for _ in range(round(FALL_TIME / settings.time_step)):
            world.step()
            woken = woken or not world.is_welded("plank")
        world.check_invalid_state()
    except InvalidStateError:
        return True, True
    return world.pose("plank")[0][2] < 0.0 or world.pose("plank")[0][0] > TABLE_HALF, woken


@pytest.mark.parametrize("fraction", CARRIED)
def test_a_landing_below_the_overturning_speed_is_carried(fraction):
    speed = fraction * plank_overturning_speed()
    fell, woken = strike_plank(speed, SETTINGS)
    assert not fell and not woken
    fell, _ = strike_plank(speed, SETTINGS.replace(weld=False, time_step=REFERENCE_STEP))
    assert not fell


@pytest.mark.parametrize("fraction", OVERTURNING)
def test_a_landing_above_the_overturning_speed_overturns(fraction):
    speed = fraction * plank_overturning_speed()
    assert strike_plank(speed, SETTINGS)[0]
    assert strike_plank(speed, SETTINGS.replace(weld=False, time_step=REFERENCE_STEP))[0]


# ---------------------------------------------------------------- a plank pushed
#: m/s, speeds of a cube sliding into the side of a welded plank.
PUSH_SPEEDS = (0.3, 0.6, 1.0)
#: Relative tolerance of the plank's slide against the momentum and friction
#: estimate: at the games' step Bullet's impact pushes up to 44 % further (measured
#: at 0.6 m/s), at REFERENCE_STEP up to 17 %.
PUSH_TOLERANCE, REFERENCE_PUSH_TOLERANCE = 0.5, 0.2
#: s, how long the pushed plank gets to stop.
PUSH_TIME = 1.0


def push_plank(speed: float, settings) -> tuple[float, bool]:
    """Slide the cube along the table into the end of the resting plank at
    ``speed`` (m/s, towards -x); returns how far the plank slid (m) and whether it
    was woken."""
    world = table_world(settings)
    hp, hc = PLANK.extents[2], CUBE.extents[2]
    world.add("plank", PLANK, (0.0, 0.0, hp / 2))
    world.step(round(0.1 / settings.time_step))
    start = world.pose("plank")[0][0]
    world.add("cube", CUBE, (PLANK.extents[0] / 2 + settings.contact_distance + hc / 2,
                             0.0, hc / 2), linear_velocity=(-speed, 0.0, 0.0))
    woken = False
    for _ in range(round(PUSH_TIME / settings.time_step)):
        world.step()
        woken = woken or not world.is_welded("plank")
    return start - world.pose("plank")[0][0], woken


@pytest.mark.parametrize("speed", PUSH_SPEEDS)
def test_a_side_impact_slides_the_plank_as_momentum_and_friction_say(speed):
    """A plastic impact leaves cube and plank moving at m v / (m + M); table
    friction mu g stops them within (m v / (m + M))^2 / (2 mu g)."""
    mu = CUBE.material.friction * TABLE.material.friction
    common = CUBE.mass * speed / (CUBE.mass + PLANK.mass)
    expected = common ** 2 / (2.0 * mu * G)
    slid, woken = push_plank(speed, SETTINGS)
    assert woken
    assert slid == pytest.approx(expected, rel=PUSH_TOLERANCE)
    reference, _ = push_plank(speed, SETTINGS.replace(weld=False, time_step=REFERENCE_STEP))
    assert reference == pytest.approx(expected, rel=REFERENCE_PUSH_TOLERANCE)
