"""Welding bodies at rest: when the World welds, what wakes a welded body, and what a
welded world still reports.  Runs on the games' default settings (welding on)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
CUBE = TILTED.parts["block_1"]      # 25 mm cube
LONG = TILTED.parts["block_6"]      # 150 x 25 x 25 mm
G = SETTINGS.gravity
#: s, simulated time the checks below allow for something to happen.
WAIT = 2.0
#: m, a welded body moves less than this (not at all, in fact).
STILL = 1e-9
#: degrees, a plank tilted further than this has tipped (resting tipped between the
#: 25 mm post and the table it leans about 18 degrees); one tilted less than
#: LEVEL_DEG is level.
TIPPED_DEG, LEVEL_DEG = 10.0, 0.1
#: m, how close a body must come to where it is expected to rest (on the table,
#: on the axis of a stack).
PLACE_TOLERANCE = 0.001
#: Relative tolerance of forces from a statics solution (exact to round-off) and of
#: a sliding distance against its Coulomb-friction prediction.
STATICS_TOLERANCE, SLIDE_TOLERANCE = 1e-6, 0.1


def tilt_deg(world: World, name: str) -> float:
    """How far body ``name``'s long (x) axis is from horizontal, degrees."""
    axis = Rotation.from_quat(world.pose(name)[1]).apply((1.0, 0.0, 0.0))
    return abs(math.degrees(math.asin(axis[2])))


def table_world(settings=None) -> World:
    world = World(settings or SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    return world


def cube_stack(world: World, n: int, x: float = 0.0, offset: float = 0.0) -> list[str]:
    """``n`` cubes at rest, each shifted ``offset`` (m, along x) from the one below."""
    names = []
    for i in range(n):
        name = f"c{i}"
        world.add(name, CUBE, (x + i * offset, 0.0, 0.0125 + 0.025 * i))
        names.append(name)
    return names


def test_welding_is_on_in_the_games_settings():
    assert SETTINGS.weld


def test_a_stack_released_at_rest_is_welded_before_the_first_step():
    world = table_world()
    names = cube_stack(world, 3)
    world.step()
    assert world.welded_names == names
    assert not world.is_static(names[0])       # still a dynamic body of the World
    before = {n: world.pose(n)[0].copy() for n in names}
    world.step(round(WAIT / SETTINGS.time_step))
    assert all(np.linalg.norm(world.pose(n)[0] - before[n]) < STILL for n in names)


def test_welded_contacts_still_carry_the_weight_and_the_support_graph():
    world = table_world()
    low, mid, top = cube_stack(world, 3)
    world.step()
    assert sum(ct.normal_force for ct in world.contacts(low, "table")) == pytest.approx(
        3 * CUBE.mass * G, rel=STATICS_TOLERANCE)
    assert sum(ct.normal_force for ct in world.contacts(top, mid)) == pytest.approx(
        CUBE.mass * G, rel=STATICS_TOLERANCE)
    graph = world.support_graph()
    assert graph[top] == {mid} and graph[mid] == {low} and graph[low] == {"table"}
    # the same contacts from the other side
    assert {(ct.body_a, ct.body_b) for ct in world.contacts(mid, top)} == {(mid, top)}


def test_a_stack_whose_statics_fail_is_not_welded_and_falls():
    world = table_world()
    names = cube_stack(world, 2, offset=0.0135)   # top centre 1 mm beyond the lower edge
    world.step()
    assert names[1] not in world.welded_names
    world.step(round(WAIT / SETTINGS.time_step))
    assert world.pose(names[1])[0][2] < 0.0125 + PLACE_TOLERANCE   # fell to the table


def test_a_block_landing_on_a_welded_stack_leaves_it_welded_and_is_welded_itself():
    world = table_world()
    names = cube_stack(world, 3)
    world.step()
    world.drop("new", CUBE, (0.0, 0.0, 0.0125 + 0.025 * 3 + 0.05))
    lower_always_welded = True
    for _ in range(round(WAIT / SETTINGS.time_step)):
        world.step()
        lower_always_welded &= all(world.is_welded(n) for n in names[:2])
    assert lower_always_welded     # a vertical impact on a rigid stack moves nothing below
    assert world.is_welded("new")
    assert world.pose("new")[0][:2] == pytest.approx((0.0, 0.0), abs=PLACE_TOLERANCE)


def test_an_impact_the_welded_structure_cannot_carry_wakes_it_before_the_step():
    """A long block rests welded on a cube, its centre just inside the cube's edge; a
    cube dropped on its far end tips it.  The long block must be woken before the
    impact, so that it takes the impact (were it still welded, the dropped cube would
    bounce off a fixed body)."""
    world = table_world()
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", LONG, (0.01, 0.0, 0.025 + 0.0125))
    world.step()
    assert world.welded_names == ["post", "plank"]
    world.drop("hammer", CUBE, (0.07, 0.0, 0.05 + 0.0125 + 0.05))
    woken_at = None
    for _ in range(round(WAIT / SETTINGS.time_step)):
        touching = "plank" in world.touching("hammer")
        world.step()
        if woken_at is None and not world.is_welded("plank"):
            woken_at = touching
    assert woken_at is False           # woken while the hammer was still in the air
    assert tilt_deg(world, "plank") > TIPPED_DEG


def test_removing_a_support_wakes_what_rested_on_it():
    world = table_world()
    low, top = cube_stack(world, 2)
    world.step()
    world.remove(low)
    assert not world.is_welded(top)
    world.step(round(WAIT / SETTINGS.time_step))
    assert world.pose(top)[0][2] == pytest.approx(0.0125, abs=PLACE_TOLERANCE)


def test_removing_the_base_of_a_stack_wakes_every_body_above_it():
    """Three welded cubes: taking the bottom one away wakes the two above it, the
    top one resting on it only through the middle one, and both come down by one
    cube (25 mm) onto the table."""
    world = table_world()
    low, middle, top = cube_stack(world, 3)
    world.step()
    assert set(world.welded_names) == {low, middle, top}
    world.remove(low)
    assert not world.is_welded(middle) and not world.is_welded(top)
    world.step(round(WAIT / SETTINGS.time_step))
    assert world.pose(middle)[0][2] == pytest.approx(0.0125, abs=PLACE_TOLERANCE)
    assert world.pose(top)[0][2] == pytest.approx(0.0375, abs=PLACE_TOLERANCE)


def test_removing_a_counterweight_wakes_the_beam_it_balanced():
    """A plank across a post, balanced by two cubes; take the cube on one side away
    and the plank must tip: the welded plank is checked again when a body leaves it."""
    world = table_world()
    world.add("post", CUBE, (0.0, 0.0, 0.0125))
    world.add("plank", LONG, (0.0, 0.0, 0.0375))
    world.add("left", CUBE, (-0.06, 0.0, 0.0625))
    world.add("right", CUBE, (0.06, 0.0, 0.0625))
    world.step()
    assert set(world.welded_names) == {"post", "plank", "left", "right"}
    world.add("weight", CUBE, (0.06, 0.0, 0.0875))   # on the right cube, still balanced
    world.step()
    assert world.is_welded("weight")
    world.step(round(WAIT / SETTINGS.time_step))
    assert tilt_deg(world, "plank") < LEVEL_DEG
    world.remove("left")
    world.step(round(WAIT / SETTINGS.time_step))
    assert tilt_deg(world, "plank") > TIPPED_DEG


def test_moving_a_welded_body_by_hand_wakes_it_and_what_rests_on_it():
    world = table_world()
    low, top = cube_stack(world, 2)
    world.step()
    world.set_pose(low, (0.2, 0.0, 0.0125), (0.0, 0.0, 0.0, 1.0))
    assert not world.is_welded(low) and not world.is_welded(top)
    world.step(round(WAIT / SETTINGS.time_step))
    assert world.pose(top)[0][2] == pytest.approx(0.0125, abs=PLACE_TOLERANCE)   # fell


def test_set_velocity_wakes_a_welded_body():
    world = table_world()
    (cube,) = cube_stack(world, 1)
    world.step()
    world.set_velocity(cube, (0.2, 0.0, 0.0))
    assert not world.is_welded(cube)
    world.step(round(0.2 / SETTINGS.time_step))
    # friction (0.5 x 0.8) stops it after v^2 / (2 mu g) = 5 mm
    assert world.pose(cube)[0][0] == pytest.approx(0.2 ** 2 / (2 * 0.4 * G), rel=SLIDE_TOLERANCE)


def test_wake_returns_the_body_and_what_rests_on_it():
    world = table_world()
    names = cube_stack(world, 3)
    world.step()
    assert world.wake(names[1]) == names[1:]
    assert world.welded_names == names[:1]


def test_a_restored_world_welds_again_and_replays_bit_for_bit():
    world = table_world()
    cube_stack(world, 3)
    world.drop("late", CUBE, (0.2, 0.0, 0.05))
    world.step(30)
    snap = world.snapshot()
    runs = []
    for _ in range(2):
        world.restore(snap)
        assert world.welded_names == []
        world.step(240)
        runs.append({n: world.pose(n)[0].tobytes() for n in world.names})
        assert "c0" in world.welded_names
    assert runs[0] == runs[1]


def test_without_welding_nothing_is_welded():
    world = table_world(SETTINGS.replace(weld=False))
    cube_stack(world, 2)
    world.step(10)
    assert world.welded_names == []
