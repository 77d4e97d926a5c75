"""Welded groups re-solved in part: the forces kept for the rest must still hold it.

When a load comes to (or leaves) a welded group, welding solves only the part of the
group that the loaded bodies rest on and keeps the stored contact forces of the rest
(statics are linear, so the two together hold the group).  These tests check the
pieces against rigid-body statics: :func:`unbalanced` against hand-worked forces,
and a welded structure that takes a new load against its weight.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from balance3d.physics.statics import StaticsBody, unbalanced
from balance3d.physics.world import World
from balance3d.scene import load_scene

G = 9.81
MASS = 0.2      # kg
#: m: the corners of a 100 x 60 mm base, under a centre of mass 20 mm up.
CORNERS = np.array([(sx * 0.05, sy * 0.03, 0.0) for sx in (-1, 1) for sy in (-1, 1)])
COM = (0.0, 0.0, 0.02)


def test_equal_corner_forces_hold_a_box_over_its_centre():
    forces = np.tile((0.0, 0.0, MASS * G / 4), (4, 1))
    bad = unbalanced([StaticsBody(MASS, COM)], CORNERS, forces, np.zeros(4, int), G)
    assert bad.tolist() == [False]


def test_a_missing_share_of_the_weight_is_unbalanced():
    """Forces that carry 99.9 % of the weight leave 2 mN unbalanced."""
    forces = np.tile((0.0, 0.0, 0.999 * MASS * G / 4), (4, 1))
    bad = unbalanced([StaticsBody(MASS, COM)], CORNERS, forces, np.zeros(4, int), G)
    assert bad.tolist() == [True]


def test_the_weight_carried_off_centre_is_unbalanced():
    """The whole weight on the two +x corners: the net force is zero, the net torque
    (weight times 50 mm) is not."""
    forces = np.array([(0.0, 0.0, 0.0)] * 2 + [(0.0, 0.0, MASS * G / 2)] * 2)
    bad = unbalanced([StaticsBody(MASS, COM)], CORNERS, forces, np.zeros(4, int), G)
    assert bad.tolist() == [True]


def test_a_load_is_part_of_the_balance():
    """A 1 N push down on the centre needs 1 N more from the corners."""
    load = (((0.0, 0.0, 0.04), (0.0, 0.0, -1.0)),)
    forces = np.tile((0.0, 0.0, (MASS * G + 1.0) / 4), (4, 1))
    body = StaticsBody(MASS, COM, load)
    assert unbalanced([body], CORNERS, forces, np.zeros(4, int), G).tolist() == [False]
    assert unbalanced([StaticsBody(MASS, COM)], CORNERS, forces,
                      np.zeros(4, int), G).tolist() == [True]


TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
CUBE = TILTED.parts["block_1"]      # 25 mm cube
PLANK = TILTED.parts["block_6"]     # 150 x 25 x 25 mm, six cubes' mass
#: m, the side cubes' distance from the post's centre line: the plank, a side cube
#: and the cube on it alone stand (their centre of mass 2 ARM / 8 = 5 mm off the
#: post's centre, inside its 12.5 mm half-width), so a solution that left out the
#: other side cube's weight would also be found: the weight on the table tells.
ARM = 0.02


@pytest.mark.parametrize("on", ["left", "right"])
def test_a_load_landing_on_one_side_keeps_the_whole_weight_on_the_table(on):
    """A plank on a post carries a cube on each side, ARM from its centre; a third
    cube released at rest onto one of them is welded with the rest.  The table must
    then carry the weight of everything on it through the post (its contact's normal
    forces add up to it), and the plank and the loaded cube must carry what rests on
    them (the normal forces the World reports under them add up to it)."""
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", PLANK, (0.0, 0.0, 0.0375))
    world.add("left", CUBE, (-ARM, 0.0, 0.0625))
    world.add("right", CUBE, (ARM, 0.0, 0.0625))
    world.step(round(0.3 / SETTINGS.time_step))
    assert set(world.welded_names) == {"post", "plank", "left", "right"}
    x = -ARM if on == "left" else ARM
    world.drop("extra", CUBE, (x, 0.0, 0.0875 + 0.002))
    world.step(round(0.5 / SETTINGS.time_step))
    assert set(world.welded_names) == {"post", "plank", "left", "right", "extra"}
    total = sum(world.part(n).mass for n in world.welded_names) * SETTINGS.gravity
    on_table = sum(ct.normal_force for ct in world.contacts("post", "table"))
    assert on_table == pytest.approx(total, rel=1e-6)
    # every welded body's reported normal forces carry what rests on it
    for lower, above in (("plank", ("plank", "left", "right", "extra")),
                         (on, (on, "extra"))):
        weight = sum(world.part(n).mass for n in above) * SETTINGS.gravity
        below = "post" if lower == "plank" else "plank"
        carried = sum(ct.normal_force for ct in world.contacts(lower, below))
        assert carried == pytest.approx(weight, rel=1e-6)


def test_the_kept_residuals_follow_the_stored_forces():
    """A welded plank on a post with a cube on each side: the stored forces hold every
    body.  Halve the forces stored between the left cube and the plank, and the cube
    lacks half its weight while the plank is pushed down with half of it too little:
    those two, and only they, are unbalanced (the residuals kept per body must be
    computed again); put the forces back, and every body is held again."""
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", PLANK, (0.0, 0.0, 0.0375))
    world.add("left", CUBE, (-ARM, 0.0, 0.0625))
    world.add("right", CUBE, (ARM, 0.0, 0.0625))
    world.step(round(0.3 / SETTINGS.time_step))
    welded = {"post", "plank", "left", "right"}
    assert set(world.welded_names) == welded
    welds = world._welds
    assert welds.statics.unbalanced(welded) == set()
    pair = frozenset(("left", "plank"))
    stored = welds.graph.pairs[pair]
    welds.graph.update({pair: [replace(ct, force=tuple(0.5 * v for v in ct.force))
                               for ct in stored]})
    assert welds.statics.unbalanced(welded) == {"left", "plank"}
    welds.graph.update({pair: stored})
    assert welds.statics.unbalanced(welded) == set()
