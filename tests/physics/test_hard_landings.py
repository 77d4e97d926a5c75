"""Hard landings (released 5 to 150 mm above) on welded stacks, against the same
scene simulated unwelded at a fine step.

The stacks are columns of Tilted's 6u blocks (150 x 25 x 25 mm) standing on the
table, the top one in line or overhanging the one below, and columns of Tower H
letters on a plinth.  A block (a letter) is released at rest above the top one, at
an offset along x, and falls onto it.  On Tilted's beam, tipped onto one end by a
6u block lying on it, a 6u block is released above the beam: there the loaded
block's displacement is compared, and whether the beam ends on the same end.  The reference is
the unwelded World at REFERENCE_STEP with REFERENCE_ITERATIONS solver iterations:
the top block's displacement WATCH_TIME after the landing must lie within
max(DISPLACEMENT_FLOOR, DISPLACEMENT_SHARE x reference) of the reference's, and the
top block must stay on the stack in both or fall in both.

Why that many iterations.  A flat landing passes the column a vertical impulse;
every contact under it carries at least the normal impulse of the one above, with
the same friction, so rigid mechanics moves no block of the column sideways (the
lander's own tangential momentum is zero).  With the scene's 50 iterations Bullet's
sequential-impulse solver does not carry the impulse of a 1.7 m/s landing down a
10-block column within a step: the column compresses, rebounds, its top hops (1.2 mm
at 1/2000 s) and slides.  At 50 iterations the headline case below moves the top
2.88, 1.00, 0.57, 1.20 and 1.08 mm at 1/2000 to 1/32000 s; at 1000 iterations
0.13, 0.55, 0.05 and 0.17 mm at 1/2000 to 1/16000 s, as mechanics says.  The welded
World moves it 0.0 mm.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.physics.impacts import RigidBody, impact
from balance3d.physics.world import InvalidStateError, World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
TOWER = load_scene("tower")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
BLOCK = TILTED.parts["block_6"]
LETTER = TOWER.parts["letter_H"]
PLINTH = next(spec for spec in TOWER.bodies if spec.name == "base_1")
PLINTH_TOP = PLINTH.position[2] + TOWER.parts[PLINTH.part].extents[2] / 2
#: s and iterations per step: the unwelded reference's time step and solver
#: iterations (module docstring).
REFERENCE_STEP, REFERENCE_ITERATIONS = 1.0 / 2000.0, 1000
REFERENCE = SETTINGS.replace(weld=False, time_step=REFERENCE_STEP,
                             solver_iterations=REFERENCE_ITERATIONS)
#: s, the finer step at which the headline case's reference is computed again.
FINER_STEP = 1.0 / 8000.0
#: s, how long the column rests (and is welded) before the release; the beam, which
#: first tips onto its end.
REST_TIME, BEAM_REST_TIME = 0.5, 1.0
#: s, how long after the landing the top block's displacement is read.
WATCH_TIME = 0.2
#: m and fraction: the welded displacement must be within max(floor, share x the
#: reference's) of the reference's.
DISPLACEMENT_FLOOR, DISPLACEMENT_SHARE = 0.001, 0.5


def landing(settings, stack: int, height: float, offset: float, lander: str = "block_6",
            overhang: float = 0.0) -> tuple[float, bool]:
    """Land ``lander`` on a column of ``stack`` blocks, released ``height`` m above
    the top block with its centre ``offset`` block lengths along +x from the top
    block's centre (the top block itself ``overhang`` lengths along +x).  Returns the
    top block's displacement (m) WATCH_TIME after the landing and whether it fell
    (its centre below the top of the block under it, or off the table)."""
    part = TILTED.parts[lander]
    length, thick = BLOCK.extents[0], BLOCK.extents[2]
    world = World(settings)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    for i in range(stack):
        x = overhang * length if i == stack - 1 else 0.0
        world.add(f"b{i}", BLOCK, (x, 0.0, thick / 2 + i * thick))
    world.step(round(REST_TIME / settings.time_step))
    top = f"b{stack - 1}"
    start = world.pose(top)[0]
    world.drop("lander", part, ((overhang + offset) * length, 0.0,
                                stack * thick + height + part.extents[2] / 2))
    fall_time = math.sqrt(2.0 * height / settings.gravity)
    try:
        world.step(round((fall_time + WATCH_TIME) / settings.time_step))
        world.check_invalid_state()
    except InvalidStateError:
        return math.inf, True
    end = world.pose(top)[0]
    return float(np.linalg.norm(end - start)), bool(end[2] < (stack - 1) * thick)


def tower_landing(settings, stack: int, height: float, offset: float) -> tuple[float, bool]:
    """:func:`landing` on a column of ``stack`` H letters (flat, centred) on a Tower
    plinth, an H letter released ``height`` m above it, ``offset`` letter widths
    along +x."""
    world = World(settings)
    for spec in TOWER.bodies:
        if spec.name in ("table", PLINTH.name):
            part = TOWER.parts[spec.part]
            world.add(spec.name, part, spec.position, static=part.static)
    x, thick = PLINTH.position[0], LETTER.extents[2]
    for i in range(stack):
        world.add(f"p{i}", LETTER, (x, 0.0, PLINTH_TOP + thick / 2 + i * thick))
    world.step(round(REST_TIME / settings.time_step))
    top = f"p{stack - 1}"
    start = world.pose(top)[0]
    world.drop("lander", LETTER, (x + offset * LETTER.extents[0], 0.0,
                                  PLINTH_TOP + stack * thick + height + thick / 2))
    try:
        world.step(round((math.sqrt(2.0 * height / settings.gravity) + WATCH_TIME)
                         / settings.time_step))
        world.check_invalid_state()
    except InvalidStateError:
        return math.inf, True
    end = world.pose(top)[0]
    return (float(np.linalg.norm(end - start)),
            bool(end[2] < PLINTH_TOP + (stack - 1) * thick))


def beam_end(world: World) -> int:
    """-1 or +1: the end of the beam that is lower (the sign of its long axis's
    rise towards +x, reversed)."""
    qx, qy, qz, qw = world.pose("beam")[1]
    return -1 if 2.0 * (qx * qz - qw * qy) > 0.0 else 1


def beam_landing(settings, load_x: float, at: float, height: float) -> tuple[float, bool]:
    """Tilted's beam with a 6u block laid on it ``load_x`` m along it (so that the
    beam tips onto that end), and a 6u block released ``height`` m above the beam
    ``at`` m along it.  Returns the loaded block's displacement (m) WATCH_TIME after
    the landing and whether the beam ended on its other end."""
    world = World(settings)
    for spec in TILTED.bodies:
        part = TILTED.parts[spec.part]
        world.add(spec.name, part, spec.position, static=part.static)
    beam = next(spec for spec in TILTED.bodies if spec.name == "beam")
    top = beam.position[2] + TILTED.parts["beam"].extents[2] / 2
    world.add("load", BLOCK, (load_x, 0.0, top + BLOCK.extents[2] / 2))
    world.step(round(BEAM_REST_TIME / settings.time_step))
    start, end_before = world.pose("load")[0], beam_end(world)
    surface = world.height_below([(at, 0.0)])
    world.drop("lander", BLOCK, (at, 0.0, surface + height + BLOCK.extents[2] / 2))
    world.step(round((math.sqrt(2.0 * height / settings.gravity) + WATCH_TIME)
                     / settings.time_step))
    moved = float(np.linalg.norm(world.pose("load")[0] - start))
    return moved, beam_end(world) != end_before


def assert_agrees(welded: tuple[float, bool], reference: tuple[float, bool]) -> None:
    (moved, fell), (ref_moved, ref_fell) = welded, reference
    assert fell == ref_fell
    if not ref_fell:
        assert abs(moved - ref_moved) <= max(DISPLACEMENT_FLOOR,
                                             DISPLACEMENT_SHARE * ref_moved), (moved, ref_moved)


HEADLINE = dict(stack=10, height=0.15, offset=0.5)


@pytest.mark.parametrize("case", [
    dict(stack=3, height=0.15, offset=0.5),
    dict(stack=10, height=0.05, offset=0.5),
    dict(stack=10, height=0.15, offset=0.3),
    dict(stack=10, height=0.15, offset=0.0),
    dict(stack=6, height=0.15, offset=0.7),
    dict(stack=3, height=0.15, offset=0.45, lander="block_1", overhang=0.4),
    dict(stack=3, height=0.05, offset=0.45, lander="block_1", overhang=0.4),
    HEADLINE,
], ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_a_hard_landing_moves_the_top_block_as_the_fine_unwelded_world(case):
    welded = landing(SETTINGS, **case)
    reference = landing(REFERENCE, **case)
    assert_agrees(welded, reference)


def test_the_headline_reference_is_converged_and_the_scene_iterations_are_not():
    """The headline case's reference agrees with the same World at FINER_STEP (both
    at REFERENCE_ITERATIONS), within the tolerance; at the scene's own iteration
    count the 1/2000 s World does not agree with it (module docstring)."""
    reference = landing(REFERENCE, **HEADLINE)
    assert_agrees(landing(REFERENCE.replace(time_step=FINER_STEP), **HEADLINE), reference)
    with pytest.raises(AssertionError):
        assert_agrees(landing(SETTINGS.replace(weld=False, time_step=REFERENCE_STEP),
                              **HEADLINE), reference)


#: A landing without a converged reference: the block tips off a short column and
#: strikes the side of its top edge-on.
TIPPING_OFF = dict(stack=3, height=0.15, offset=0.7)


def test_a_block_tipping_off_a_short_column_has_no_converged_reference():
    """The unwelded World at REFERENCE_ITERATIONS moves the top of TIPPING_OFF's
    column by amounts further apart at 1/4000 and 1/8000 s than the tolerance (0.01
    and 2.13 mm measured; 0.98 mm at 1/2000 s): no welded answer can be held to one,
    so the case is left out of the agreement tests above."""
    finer = [landing(REFERENCE.replace(time_step=step), **TIPPING_OFF)
             for step in (REFERENCE_STEP / 2, REFERENCE_STEP / 4)]
    with pytest.raises(AssertionError):
        assert_agrees(*finer)


@pytest.mark.parametrize("vx", [-0.2, 0.2])
def test_a_landing_hands_over_a_push_only_while_its_centre_of_mass_approaches(vx):
    """The momentum a cube hands a welded block on striking it along the contact
    normal n (from the block towards the cube): m v_n (1 + e) into the block while
    the cube's centre of mass approaches (v_n < 0), and nothing while it moves away
    (a corner of a turning body swinging on): a contact pushes, it never pulls."""
    cube = TILTED.parts["block_1"]
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("block", BLOCK, (0.0, 0.0, BLOCK.extents[2] / 2))
    world.add("cube", cube, (0.2, 0.0, cube.extents[2] / 2))
    normal = np.array([1.0, 0.0, 0.0])
    handed = world._welds.impacts._momentum("cube", "block", np.array([vx, 0.0, -0.3]),
                                            normal)
    restitution = cube.material.restitution * BLOCK.material.restitution
    expected_x = cube.mass * min(vx, 0.0) * (1.0 + restitution)
    assert handed[0] == pytest.approx(expected_x, rel=1e-12, abs=1e-15)
    friction = cube.material.friction * BLOCK.material.friction
    assert np.hypot(handed[1], handed[2]) <= friction * abs(expected_x) + 1e-15


@pytest.mark.parametrize("case", [
    dict(stack=6, height=0.15, offset=0.5),
    dict(stack=10, height=0.15, offset=0.3),
    dict(stack=6, height=0.15, offset=0.9),
], ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_a_hard_landing_on_a_tower_moves_its_top_as_the_fine_unwelded_world(case):
    assert_agrees(tower_landing(SETTINGS, **case), tower_landing(REFERENCE, **case))


@pytest.mark.parametrize("case", [
    dict(load_x=-0.2, at=0.15, height=0.15),
    dict(load_x=-0.2, at=0.25, height=0.05),
    dict(load_x=-0.1, at=0.12, height=0.15),
    dict(load_x=-0.2, at=-0.1, height=0.15),
    dict(load_x=-0.2, at=0.1, height=0.15),
    dict(load_x=-0.2, at=0.15, height=0.05),
], ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_a_hard_landing_on_the_beam_moves_it_as_the_fine_unwelded_world(case):
    """The beam ends on the same end in both Worlds, and the block lying on it moves
    as in the reference: landings short of the static tipping point flip the beam
    (0.15 m out from 0.15 m, 0.25 m out from 0.05 m) or rock it, and the block slides
    (0.1 m out from 0.15 m: 12.5 mm in the reference; before the impact check woke
    rocking structures (ROCK_TOLERANCE), the welded World moved it 0.0 mm)."""
    assert_agrees(beam_landing(SETTINGS, **case), beam_landing(REFERENCE, **case))


@pytest.mark.parametrize("fraction", [0.3, 0.7])
def test_an_impulse_short_of_tipping_rocks_a_box_as_far_as_its_energy_lifts_it(fraction):
    """A box (mass m, square base of side 2 b, height h) struck down by J at d beyond
    its +x edge turns up about that edge with the energy (J d)^2 / (2 I_edge); short
    of tipping it rises until m g R (cos(phi_0 - alpha) - cos phi_0) equals it (R =
    hypot(b, h / 2), cos phi_0 = h / (2 R)), carrying its centre of mass alpha R."""
    mass, half, height, arm, g = 0.1, 0.02, 0.05, 0.01, SETTINGS.gravity
    inertia = mass / 12.0 * np.diag([(2 * half) ** 2 + height ** 2] * 2
                                    + [2 * (2 * half) ** 2])
    body = RigidBody(mass, np.array([0.0, 0.0, height / 2]), inertia)
    corners = np.array([[sx * half, sy * half, 0.0] for sx in (-1, 1) for sy in (-1, 1)])
    i_edge = (mass / 12.0 * ((2 * half) ** 2 + height ** 2)
              + mass * (half ** 2 + height ** 2 / 4))
    radius = math.hypot(half, height / 2)
    tipping = math.sqrt(2.0 * i_edge * mass * g * (radius - height / 2)) / arm
    energy = (fraction * tipping * arm) ** 2 / (2.0 * i_edge)
    start = math.acos(height / 2 / radius)
    alpha = start - math.acos((height / 2 + energy / (mass * g)) / radius)
    hit = (np.array([half + arm, 0.0, height]), np.array([0.0, 0.0, -fraction * tipping]))
    tipped, rocked = impact([body], corners, np.array([0.0, 0.0, 1.0]), 0.5, [hit], g)
    assert not tipped
    assert rocked == pytest.approx(alpha * radius, rel=1e-9)
