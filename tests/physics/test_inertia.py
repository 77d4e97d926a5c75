"""A body's first step follows its part's inertia, however the body came to be.

Bullet computes a rigid body's world-frame inertia when it creates the body, from its
own estimate (the collision shape's bounding box), and afterwards only when a step
moves the body.  These tests give a body, right after it is added, restored or woken,
a torque impulse about a non-principal axis and check its angular momentum gain in
that very step against mechanics: L = R I R^T w must grow by tau dt exactly (the
body starts at rest, so Euler's gyroscopic term is zero in that step).

The part is Tower's letter L: its principal moments differ from those of its bounding
box by about a quarter, so Bullet's estimate gives a clearly different response.
"""
from __future__ import annotations

import numpy as np
import pybullet
import pytest
from scipy.spatial.transform import Rotation

from balance3d.physics.world import PRIME_DISTANCE, World
from balance3d.scene import load_scene

TOWER = load_scene("tower")
PART = TOWER.parts["letter_L"]
#: A turned orientation, so that the torque is about no principal axis.
ORIENTATION = tuple(Rotation.from_euler("xyz", [0.7, -0.4, 1.1]).as_quat())
#: N m, the torque applied for one step.
TORQUE = np.array([1e-4, -2e-4, 3e-4])
#: m, where the body floats (free flight, nothing within reach).
AIR = (0.0, 0.0, 0.5)
#: Relative error allowed on the momentum gain (round-off; Bullet's estimate of this
#: part is off by more than 20 %).
MOMENTUM_RTOL = 1e-9


def momentum_gain(world: World, name: str) -> np.ndarray:
    """Angular momentum (kg m^2/s) body ``name`` gains in one step under TORQUE,
    from its part's inertia and its pose before the step."""
    rot = Rotation.from_quat(world.pose(name)[1]).as_matrix()
    inertia = rot @ np.diag(PART.inertia) @ rot.T
    before = inertia @ world.velocity(name)[1]
    world.client.applyExternalTorque(world.body_id(name), -1, TORQUE.tolist(),
                                     pybullet.WORLD_FRAME)
    world.step()
    return inertia @ world.velocity(name)[1] - before


def expected() -> np.ndarray:
    return TORQUE * TOWER.physics.time_step


def test_first_step_after_add_follows_part_inertia():
    with World(TOWER.physics) as world:
        world.add("piece", PART, AIR, ORIENTATION)
        gain = momentum_gain(world, "piece")
    assert gain == pytest.approx(expected(), rel=MOMENTUM_RTOL)


@pytest.mark.parametrize("weld", [True, False])
def test_first_step_after_restore_follows_part_inertia(weld):
    settings = TOWER.physics.replace(weld=weld)
    with World(settings) as world:
        world.add("piece", PART, AIR, ORIENTATION)
        snapshot = world.snapshot()
    with World.from_snapshot(snapshot, settings) as world:
        gain = momentum_gain(world, "piece")
    assert gain == pytest.approx(expected(), rel=MOMENTUM_RTOL)


def test_first_step_after_waking_a_restored_weld_follows_part_inertia():
    """A piece welded on the plinth is snapshotted, restored (welded again without
    a step) and lifted, unturned, into the air: its first step is its first as a
    dynamic body of that World."""
    settings = TOWER.physics
    base_name = next(b.name for b in TOWER.bodies if TOWER.parts[b.part].static)
    base = next(b for b in TOWER.bodies if b.name == base_name)
    with World(settings) as world:
        world.add(base.name, TOWER.parts[base.part], base.position)
        top = float(world.height_below([base.position[:2]]))
        lowest = float(PART.mesh.vertices[:, 2].min())
        world.drop("piece", PART, (base.position[0], base.position[1], top - lowest + 1e-4))
        world.settle()
        assert world.is_welded("piece")
        snapshot = world.snapshot()
    with World.from_snapshot(snapshot, settings) as world:
        assert world.is_welded("piece")
        position, orientation = world.pose("piece")
        world.set_pose("piece", tuple(position + (0.0, 0.0, 0.3)), tuple(orientation))
        assert not world.is_welded("piece")
        gain = momentum_gain(world, "piece")
    assert gain == pytest.approx(expected(), rel=MOMENTUM_RTOL)


def test_adding_a_body_leaves_the_others_untouched():
    """Priming a new body's inertia moves nothing else: a falling, spinning body
    follows the same trajectory, bit for bit, whether or not a body is added far
    from it mid-flight."""
    poses = []
    for add_other in (False, True):
        with World(TOWER.physics) as world:
            world.add("spinner", PART, AIR, ORIENTATION, angular_velocity=(1.0, -2.0, 0.5))
            world.step(5)
            if add_other:
                world.add("other", PART, (0.3, 0.0, 0.5))
            world.step(20)
            position, orientation = world.pose("spinner")
            poses.append((position.tobytes(), orientation.tobytes()))
    assert poses[0] == poses[1]


def test_priming_leaves_no_broadphase_box_reaching_the_priming_place():
    """Bullet keeps a body's broadphase box as long as the body stays inside it: a
    box stretched to the priming place (1 km away) would pair every body with every
    other.  After adds, a restore with welds and a step, nothing reaches halfway."""
    settings = TOWER.physics
    with World(settings) as world:
        world.add("piece", PART, AIR, ORIENTATION)
        world.add("other", PART, (0.2, 0.0, 0.3))
        world.step()
        snapshot = world.snapshot()
    with World.from_snapshot(snapshot, settings) as world:
        world.add("late", PART, (-0.2, 0.0, 0.3))
        world.step()
        halfway = PRIME_DISTANCE * settings.length_scale / 2
        found = world.client.getOverlappingObjects([halfway - 1.0, -1.0, -1.0],
                                                   [halfway + 1.0, 1.0, 1.0])
    assert not found
