"""A load sliding on a welded body pulls it with kinetic friction.

The probe of test_welding_wake.py: a plank (six cubes' mass, 150 mm long) lies on a
post (a 25 mm cube) with its centre of mass OFFSET right of the post's centre; a
cube pushed along the plank's top slides right, decelerated by wood-on-wood friction
mu = 0.5 x 0.5.  Rigid mechanics, for the plank and the sliding cube together: the
post's reaction must hold them; its horizontal part is the cube's deceleration force
mu m g and its point p on the post's top satisfies (moments about p of the weights
= rate of change of the cube's angular momentum about p)

    6 (OFFSET - p) + (x - p) = -mu (CUBE_Z - POST_TOP)

so p = (6 OFFSET + x + mu (CUBE_Z - POST_TOP)) / 7 passes the post's edge (p =
POST_HALF) when the cube's centre passes x* = 7 POST_HALF - 6 OFFSET - mu (CUBE_Z -
POST_TOP) = 18.1 mm, well before x = 27.5 mm, where a cube placed there at rest would
tip it (27.5 mm: friction that holds the plank back would need the cube to speed up).
"""
from __future__ import annotations

import pytest

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
CUBE = TILTED.parts["block_1"]      # 25 mm cube
PLANK = TILTED.parts["block_6"]     # 150 x 25 x 25 mm, six cubes' mass
#: m: half the post's top, the plank's offset, the post's top and the sliding cube's
#: centre height.
POST_HALF, OFFSET, POST_TOP, CUBE_Z = 0.0125, 0.01, 0.025, 0.0625
#: wood on wood in the engine (0.5 x 0.5).
MU = 0.25
#: m, m/s: where the cube starts and its push (it would stop 73 mm further on).
START, PUSH = -0.03, 0.6
#: m, where the plank's balance fails (module docstring).
FAIL_AT = 7 * POST_HALF - 6 * OFFSET - MU * (CUBE_Z - POST_TOP)
#: m, the positions of the cube when the plank wakes that count as on time: from
#: FAIL_AT to one statics check (``rest_check_interval``) of travel later at the
#: cube's speed there, plus a millimetre for the contact forces Bullet measures.
LATE_BY = 0.001


def test_the_plank_wakes_when_the_sliding_cube_passes_the_kinetic_balance_limit():
    assert FAIL_AT == pytest.approx(0.018125)
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", PLANK, (OFFSET, 0.0, 0.0375))
    world.add("load", CUBE, (START, 0.0, CUBE_Z))
    world.step(round(0.5 / SETTINGS.time_step))
    assert set(world.welded_names) == {"post", "plank", "load"}
    world.set_velocity("load", (PUSH, 0.0, 0.0))
    woken_at = None
    for _ in range(round(0.5 / SETTINGS.time_step)):
        world.step()
        if not world.is_welded("plank"):
            woken_at = float(world.pose("load")[0][0])
            break
    assert woken_at is not None
    speed = (PUSH ** 2 - 2 * MU * SETTINGS.gravity * (FAIL_AT - START)) ** 0.5
    late = speed * SETTINGS.rest_check_interval + LATE_BY
    assert FAIL_AT <= woken_at <= FAIL_AT + late
