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

from balance3d.physics import world as world_module
from balance3d.physics.quiet import quiet_output
from balance3d.physics.bodies import Snapshot
from balance3d.physics.world import PRIME_DISTANCE, World

with quiet_output():
    from pybullet_utils.bullet_client import BulletClient
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


def _heap(world: World) -> None:
    """Tilted's table and eight of its 25 mm cubes released turned, in a heap in
    the air above it (consecutive bodies of one part: a restore builds them in one
    batch)."""
    tilted = load_scene("tilted")
    table = next(b for b in tilted.bodies if b.name == "table")
    world.add("table", tilted.parts["table"], table.position)
    cube = tilted.parts["block_1"]
    for i in range(8):
        turn = tuple(Rotation.from_euler("xyz", [0.3 * i, 0.2, -0.1 * i]).as_quat())
        world.add(f"cube_{i}", cube, (0.03 * (i % 3), 0.03 * (i // 3), 0.05 + 0.03 * i), turn)


def _heap_snapshot(settings) -> Snapshot:
    """The heap 30 steps after its release, every cube falling."""
    with World(settings) as world:
        _heap(world)
        world.step(30)
        snapshot = world.snapshot()
    assert not snapshot.welds.welded
    return snapshot


def _trace(world: World) -> list:
    """Every body's pose bytes and the welded names, every 20 steps for 400 steps."""
    trace = []
    for _ in range(20):
        world.step(20)
        trace.append(([world.pose(n)[0].tobytes() + world.pose(n)[1].tobytes()
                       for n in world.names], world.welded_names))
    return trace


def test_a_restore_runs_on_bit_for_bit_as_the_same_bodies_added_one_by_one():
    """A restore builds runs of bodies of one part in one engine call and primes
    them together; the World it gives steps exactly as one whose bodies were added
    one by one, each primed alone, with the same poses and velocities."""
    settings = TOWER.physics.replace(weld=False)
    snapshot = _heap_snapshot(settings)
    with World.from_snapshot(snapshot, settings) as world:
        restored = _trace(world)
    with World(settings) as world:
        for b in snapshot.bodies:
            world.add(b.name, b.part, b.position, b.orientation, static=b.static,
                      linear_velocity=b.linear_velocity, angular_velocity=b.angular_velocity)
        added = _trace(world)
    assert restored == added


@pytest.mark.parametrize("weld", [False, True])
def test_a_batched_restore_runs_on_bit_for_bit_as_one_built_body_by_body(weld, monkeypatch):
    """The same snapshot restored with the cubes built in one engine call and with
    every body built alone: bit-identical runs (welding on, both weld from scratch
    what comes to rest)."""
    settings = TOWER.physics.replace(weld=weld)
    snapshot = _heap_snapshot(settings)
    calls = []
    original = BulletClient.__getattr__

    def counting(self, name):
        if name == "createMultiBody":
            calls.append(name)
        return original(self, name)

    traces = []
    for batched in (True, False):
        if not batched:
            monkeypatch.setattr(world_module, "creation_runs", lambda bodies: [[b] for b in bodies])
        monkeypatch.setattr(BulletClient, "__getattr__", counting)
        with World(settings) as world:
            calls.clear()
            world.restore(snapshot)
            built = len(calls)
            monkeypatch.setattr(BulletClient, "__getattr__", original)
            traces.append(_trace(world))
        assert built == (2 if batched else len(snapshot.bodies))
    assert traces[0] == traces[1]
    assert any(welded for _, welded in traces[0]) == weld


def test_first_step_after_turning_a_body_with_set_pose_follows_its_new_inertia():
    """A body stepped, then turned by hand (set_pose keeps its velocity): its next
    step follows the part's inertia turned as it now is."""
    with World(TOWER.physics) as world:
        world.add("piece", PART, AIR, angular_velocity=(0.0, 0.0, 1.0))
        world.step(3)
        velocity = world.velocity("piece")
        world.set_pose("piece", AIR, ORIENTATION)
        assert [v.tobytes() for v in world.velocity("piece")] == \
            [v.tobytes() for v in velocity]
        world.set_velocity("piece", (0.0, 0.0, 0.0))
        gain = momentum_gain(world, "piece")
    assert gain == pytest.approx(expected(), rel=MOMENTUM_RTOL)
