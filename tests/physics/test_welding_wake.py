"""A welded group wakes when a moving body changes the load it carries.

The probe is a plank balanced on a post (a 25 mm cube): rigid statics holds it while
the centre of mass of the plank and what it carries lies over the post's top, within
12.5 mm of its centre line, and tips it once that centre of mass passes the post's
edge.  Loads are cubes of the plank's wood (the 6u plank weighs six cubes).  Every
change of load here comes from a load cube sliding under physics after a push
(``set_velocity`` on the cube alone); the welded plank itself is never moved or
removed by hand (those paths are tested in test_welding.py).
"""
from __future__ import annotations

import math

import pytest
from scipy.spatial.transform import Rotation

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
CUBE = TILTED.parts["block_1"]      # 25 mm cube
PLANK = TILTED.parts["block_6"]     # 150 x 25 x 25 mm, six cubes' mass
#: m, half the post's top: the balance limit of the centre of mass.
POST_HALF = 0.0125
#: m, x of the counterweights' centres (the plank's ends are at +-0.075 m).
ARM = 0.06
#: m/s, the push that slides the left counterweight off the plank's end: wood on wood
#: (friction 0.5 x 0.5) stops it after v^2 / (2 mu g) = 73 mm, past the end (the
#: cube's centre is 15 mm from it, its far edge 27.5 mm).
PUSH = 0.6
#: s, simulated time allowed for the plank to tip.
WAIT = 2.0
#: degrees: tipped onto the table between the post and the table the plank leans
#: about 18 degrees; level is within LEVEL_DEG.
TIPPED_DEG, LEVEL_DEG = 10.0, 0.1


def tilt_deg(world: World, name: str) -> float:
    """How far body ``name``'s long (x) axis is from horizontal, degrees."""
    axis = Rotation.from_quat(world.pose(name)[1]).apply((1.0, 0.0, 0.0))
    return abs(math.degrees(math.asin(axis[2])))


def balanced_plank() -> World:
    """Post, plank centred on it, one cube on the left end, two stacked on the right:
    the centre of mass lies ARM / 9 = 6.7 mm right of the post's centre, inside its
    top; without the left cube it would lie 2 ARM / 8 = 15 mm right, past the edge."""
    assert ARM / 9 < POST_HALF < 2 * ARM / 8
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", PLANK, (0.0, 0.0, 0.0375))
    world.add("left", CUBE, (-ARM, 0.0, 0.0625))
    world.add("right", CUBE, (ARM, 0.0, 0.0625))
    world.add("weight", CUBE, (ARM, 0.0, 0.0875))
    world.step(round(0.5 / SETTINGS.time_step))
    assert set(world.welded_names) == {"post", "plank", "left", "right", "weight"}
    assert tilt_deg(world, "plank") < LEVEL_DEG
    return world


def test_a_counterweight_sliding_off_the_end_lets_the_plank_tip():
    world = balanced_plank()
    world.set_velocity("left", (-PUSH, 0.0, 0.0))
    assert world.welded_names == ["post", "plank", "right", "weight"]
    world.step(round(WAIT / SETTINGS.time_step))
    assert world.pose("left")[0][2] == pytest.approx(0.0125, abs=0.001)   # on the table
    assert tilt_deg(world, "plank") > TIPPED_DEG


def test_a_counterweight_sliding_along_the_plank_keeps_it_balanced():
    """The other direction: the left cube slid inwards to the post's side changes the
    load, but the centre of mass stays over the post (at most ARM / 9 right of it):
    the plank must not tip."""
    world = balanced_plank()
    world.set_velocity("left", (0.25, 0.0, 0.0))     # stops after about 13 mm
    world.step(round(WAIT / SETTINGS.time_step))
    assert tilt_deg(world, "plank") < LEVEL_DEG


#: m, the plank's offset on the post for the sliding-load test: its own centre of
#: mass lies 10 mm right of the post's centre, inside the top.
OFFSET = 0.01
#: m, where the sliding cube starts and how far it slides: (OFFSET * 6 + x) / 7 passes
#: POST_HALF once the cube's centre passes x = 7 POST_HALF - 6 OFFSET = 27.5 mm.
SLIDE_FROM = -0.03
#: The friction of wood on wood in the engine (0.5 x 0.5), to time the slide.
WOOD_ON_WOOD = 0.25


def test_a_load_sliding_towards_the_end_wakes_the_plank_while_it_still_slides():
    """The cube slides from SLIDE_FROM at PUSH and would stop 73 mm further, 15.5 mm
    past the point where the plank's balance fails.  It passes that point at
    sqrt(PUSH^2 - 2 mu g d) = 0.28 m/s: rigid statics fails while the cube is still
    moving, so the plank must be woken while the cube still slides (faster than the
    rest speed), not only once the cube has come to rest on it."""
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", PLANK, (OFFSET, 0.0, 0.0375))
    world.add("load", CUBE, (SLIDE_FROM, 0.0, 0.0625))
    world.step(round(0.5 / SETTINGS.time_step))
    assert set(world.welded_names) == {"post", "plank", "load"}
    fail_at = 7 * POST_HALF - 6 * OFFSET
    stop_at = SLIDE_FROM + PUSH ** 2 / (2 * WOOD_ON_WOOD * SETTINGS.gravity)
    assert stop_at > fail_at + 0.01
    world.set_velocity("load", (PUSH, 0.0, 0.0))
    assert world.is_welded("plank")
    speed_when_woken = None
    for _ in range(round(WAIT / SETTINGS.time_step)):
        world.step()
        if speed_when_woken is None and not world.is_welded("plank"):
            speed_when_woken = float(abs(world.velocity("load")[0][0]))
    assert speed_when_woken is not None
    assert speed_when_woken > SETTINGS.rest_linear_speed
    assert tilt_deg(world, "plank") > TIPPED_DEG
