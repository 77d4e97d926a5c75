"""``World.restored_from``: the snapshot the engine holds exactly, until anything
changes it.  A caller that would restore the same snapshot again (a game starting
its next turn) may skip that restore: the test checks that a World restored once and
one restored twice, with an :meth:`~World.overlaps` query between, step on to the
same bits."""
from __future__ import annotations

import pytest

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
CUBE = TILTED.parts["block_1"]          # 25 mm cube
FLOOR = TILTED.parts["table"]
#: m, the cube's release height above the floor's top face: it falls, lands and rocks.
DROP_HEIGHT = 0.05
#: Steps run after the restore: long enough to fall, land and bounce.
STEPS = 120


def falling_world() -> World:
    """A static floor and a cube released tilted above it."""
    world = World(SETTINGS)
    top = FLOOR.extents[2] / 2
    world.add("floor", FLOOR, (0.0, 0.0, 0.0), static=True)
    world.add("cube", CUBE, (0.0, 0.0, top + DROP_HEIGHT), (0.1, 0.2, 0.0, 0.9747))
    return world


def test_a_world_never_restored_holds_no_snapshot():
    assert falling_world().restored_from is None


@pytest.mark.parametrize("change", ["step", "add", "remove", "set_pose", "set_velocity",
                                    "wake"])
def test_any_change_after_a_restore_clears_it(change):
    world = falling_world()
    snap = world.snapshot()
    world.restore(snap)
    assert world.restored_from is snap
    pose = world.pose("cube")
    {"step": lambda: world.step(),
     "add": lambda: world.add("other", CUBE, (1.0, 0.0, 1.0)),
     "remove": lambda: world.remove("cube"),
     "set_pose": lambda: world.set_pose("cube", tuple(pose[0]), tuple(pose[1])),
     "set_velocity": lambda: world.set_velocity("cube", (0.0, 0.0, 0.0)),
     "wake": lambda: world.wake("cube")}[change]()
    assert world.restored_from is None


def test_reading_and_an_overlap_query_keep_it():
    world = falling_world()
    snap = world.snapshot()
    world.restore(snap)
    world.pose("cube")
    world.velocity("cube")
    world.contacts("cube")
    world.overlaps(CUBE, (0.5, 0.5, 0.5))
    assert world.restored_from is snap


def test_a_world_restored_once_steps_on_as_one_restored_twice():
    """Skipping the second restore of the same snapshot changes no bit."""
    once, twice = falling_world(), falling_world()
    snap = once.snapshot()
    once.restore(snap)
    twice.restore(snap)
    for world in (once, twice):
        world.overlaps(TILTED.parts["block_2"], (0.3, 0.0, 0.5))  # a shape built between
    twice.restore(snap)
    once.step(STEPS)
    twice.step(STEPS)
    a, b = once.pose("cube"), twice.pose("cube")
    assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()
    assert once.velocity("cube")[0].tolist() == twice.velocity("cube")[0].tolist()
