"""Hard landings (released 5 to 150 mm above) on welded stacks, against the same
scene simulated unwelded at a fine step.

The stacks are columns of Tilted's 6u blocks (150 x 25 x 25 mm) standing on the
table, the top one in line or overhanging the one below.  A block is released at
rest above the top block, at an offset along x, and falls onto it.  The reference is
the unwelded World at REFERENCE_STEP: the top block's displacement WATCH_TIME after
the landing must lie within max(DISPLACEMENT_FLOOR, DISPLACEMENT_SHARE x reference)
of the reference's, and the top block must stay on the stack in both or fall in
both.

Rigid impact mechanics (:mod:`balance3d.physics.impacts`) moves a struck welded
stack only when the landing can overturn or shift it; the fine-step World shifts the
top block of a tall column by up to a few millimetres under a hard landing near its
edge, by an amount that does not settle as the step is refined (the headline case
below: 2.88, 1.00 and 0.57 mm at 1/2000, 1/4000 and 1/8000 s).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.physics.world import InvalidStateError, World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
BLOCK = TILTED.parts["block_6"]
#: s, the unwelded reference's time step.
REFERENCE_STEP = 1.0 / 2000.0
#: s, the finer step at which the headline case's reference is computed again.
FINER_STEP = 1.0 / 8000.0
#: s, how long the column rests (and is welded) before the release.
REST_TIME = 0.5
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
    pytest.param(HEADLINE, marks=pytest.mark.xfail(
        strict=True, reason="the 1/2000 s reference shifts the top 2.88 mm; refined to "
                            "1/4000 and 1/8000 s it shifts it 1.00 and 0.57 mm, and the "
                            "welded World 0.0 mm (test_the_headline_reference_...)")),
    pytest.param(dict(stack=3, height=0.15, offset=0.7), marks=pytest.mark.xfail(
        strict=True, reason="over-waking: the block tipping off the top strikes its side "
                            "face; the impact check takes the momentum it hands over at "
                            "its whole mass, not its effective mass at the contact, and "
                            "wakes the top, which then moves 2.0 mm (reference 0.2 mm)")),
], ids=lambda c: "-".join(f"{k}{v}" for k, v in c.items()))
def test_a_hard_landing_moves_the_top_block_as_the_fine_unwelded_world(case):
    welded = landing(SETTINGS, **case)
    reference = landing(SETTINGS.replace(weld=False, time_step=REFERENCE_STEP), **case)
    assert_agrees(welded, reference)


def test_the_headline_reference_is_not_converged_and_the_finer_one_agrees():
    """The 1/2000 s reference of the headline case disagrees with the same World at
    FINER_STEP by more than the tolerance, and the welded World agrees with the
    finer one (at 1/4000 s the reference moves the top 1.005 mm: just outside the
    1 mm floor of the welded World's 0.0 mm)."""
    coarse = landing(SETTINGS.replace(weld=False, time_step=REFERENCE_STEP), **HEADLINE)
    fine = landing(SETTINGS.replace(weld=False, time_step=FINER_STEP), **HEADLINE)
    with pytest.raises(AssertionError):
        assert_agrees(fine, coarse)
    assert_agrees(landing(SETTINGS, **HEADLINE), fine)


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
