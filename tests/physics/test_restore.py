"""Restoring a snapshot gives back every body's full motion: position, orientation,
linear *and* angular velocity.

A cube spinning in free flight is the probe: no contact touches it, and a cube's
inertia is the same about every axis, so by rigid-body mechanics its angular velocity
keeps its direction and only decays by the World's angular damping,
``omega(t) = omega(0) * (1 - angular_damping) ** t``.
"""
from __future__ import annotations

import numpy as np
import pytest

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
CUBE = TILTED.parts["block_1"]          # 25 mm cube
#: rad/s, the spin given to the cube (about a tilted axis, so every component counts).
SPIN = (3.0, -2.0, 5.0)
#: m/s, the cube is thrown upwards so that it stays in the air for the whole test.
THROW = (0.0, 0.0, 1.0)
#: m, height of release: far above anything it could touch.
RELEASE_HEIGHT = 2.0
#: Steps before the snapshot, and after it.
BEFORE, AFTER = 12, 24
#: Relative tolerance of an angular velocity against the damping law (Bullet applies
#: the damping factor per step, which is the same law sampled at the step).
DAMPING_TOLERANCE = 1e-6


def spinning_world() -> World:
    world = World(SETTINGS)
    world.add("cube", CUBE, (0.0, 0.0, RELEASE_HEIGHT), linear_velocity=THROW,
              angular_velocity=SPIN)
    world.step(BEFORE)
    return world


def damped(omega, seconds: float) -> np.ndarray:
    """Angular velocity (rad/s) after ``seconds`` of the World's angular damping."""
    return np.asarray(omega) * (1.0 - SETTINGS.angular_damping) ** seconds


def test_the_probe_spins_as_damped_free_flight():
    world = spinning_world()
    assert world.velocity("cube")[1] == pytest.approx(
        damped(SPIN, BEFORE * SETTINGS.time_step), rel=DAMPING_TOLERANCE)


@pytest.mark.parametrize("how", ["restore", "from_snapshot"])
def test_a_restored_body_keeps_spinning(how):
    world = spinning_world()
    snap = world.snapshot()
    spin_at_snapshot = world.velocity("cube")[1]
    assert np.linalg.norm(spin_at_snapshot) > 1.0, "the probe must be spinning"
    world.step(AFTER)
    if how == "restore":
        world.restore(snap)
        restored = world
    else:
        restored = World.from_snapshot(snap, SETTINGS)
    assert restored.velocity("cube")[1] == pytest.approx(spin_at_snapshot,
                                                         rel=DAMPING_TOLERANCE)
    assert not restored.is_welded("cube")
    restored.step(AFTER)
    assert restored.velocity("cube")[1] == pytest.approx(
        damped(SPIN, (BEFORE + AFTER) * SETTINGS.time_step), rel=DAMPING_TOLERANCE)


def test_a_restored_run_continues_as_the_original_did():
    """The orientation reached after the snapshot depends on the spin: a restore that
    lost it would leave the cube turned as it was at the snapshot."""
    world = spinning_world()
    snap = world.snapshot()
    world.step(AFTER)
    original = world.pose("cube")[1]
    world.restore(snap)
    world.step(AFTER)
    turned = world.pose("cube")[1]
    assert abs(float(np.dot(turned, original))) == pytest.approx(1.0, abs=1e-9)
    assert abs(float(np.dot(turned, snap.bodies[0].orientation))) < 0.999
