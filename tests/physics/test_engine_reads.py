"""The World's raw engine reads give what its SI reads give, for a check that runs
after every step."""
from __future__ import annotations

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
CUBE = TILTED.parts["block_1"]
#: Steps of free flight before reading.
STEPS = 30


def test_engine_orientation_is_the_pose_quaternion():
    world = World(TILTED.physics)
    world.add("cube", CUBE, (0.0, 0.0, 2.0), (0.1, 0.2, 0.3, 0.9274),
              angular_velocity=(3.0, -2.0, 5.0))
    world.step(STEPS)
    quat = world.engine_orientation(world.body_id("cube"))
    assert isinstance(quat, tuple) and len(quat) == 4
    assert list(quat) == world.pose("cube")[1].tolist()
