"""A snapshot of a World at rest keeps its welds: restoring it welds the same bodies
again at once, with the same stored contacts and forces and no statics solved, and
the restored World runs on bit for bit as one restored without welds, which welds
what rests from scratch.  A snapshot with a body awake keeps none."""
from __future__ import annotations

import dataclasses
import json

import pytest

import balance3d.physics.weld_statics as weld_statics
from balance3d.physics.weld_state import WeldState
from balance3d.physics.bodies import Snapshot
from balance3d.physics.world import World, WorldError
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
CUBE = TILTED.parts["block_1"]      # 25 mm cube
LONG = TILTED.parts["block_6"]      # 150 x 25 x 25 mm
#: m, gap under each block of the stacks when released (they land and settle).
GAP = 0.002
#: Steps run after a restore and the interval at which poses are compared.
STEPS, EVERY = 480, 8
#: m/s, speed of the cube thrown at the column's top cube (hard landing).
THROW = 2.0


def resting_table() -> World:
    """A table with two settled stacks (three cubes; a long block across two cubes
    with a cube on it), every block welded at rest."""
    world = World(SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    for i in range(3):
        world.add(f"c{i}", CUBE, (0.0, 0.0, 0.0125 + (0.025 + GAP) * i))
    world.add("left", CUBE, (0.2, -0.05, 0.0125))
    world.add("right", CUBE, (0.2, 0.05, 0.0125))
    world.add("plank", LONG, (0.2, 0.0, 0.0375 + GAP),
              (0.0, 0.0, 0.7071067811865476, 0.7071067811865476))
    world.add("top", CUBE, (0.2, 0.0, 0.0625 + 2 * GAP))
    report = world.settle()
    assert not report.timed_out
    assert world.welded_names == world.dynamic_names, "every block rests welded"
    return world


@pytest.fixture(scope="module")
def snapshot() -> Snapshot:
    with resting_table() as world:
        return world.snapshot()


def test_a_snapshot_holds_the_welded_bodies_and_their_contacts():
    world = resting_table()
    before = world.contacts()
    snap = world.snapshot()
    assert list(snap.welds.welded) == world.welded_names
    world.restore(snap)
    assert world.welded_names == list(snap.welds.welded), "welded before any step"
    assert world.contacts() == before, "the same patches and statics forces, bit for bit"
    assert world.snapshot().welds == snap.welds


def count_solves(monkeypatch) -> list:
    calls = []
    real = weld_statics.solve_statics

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(weld_statics, "solve_statics", counted)
    return calls


def test_restoring_welds_solves_no_statics(snapshot, monkeypatch):
    calls = count_solves(monkeypatch)
    world = World.from_snapshot(snapshot, SETTINGS)
    world.step()
    assert calls == []
    assert world.welded_names == list(snapshot.welds.welded)
    # without its welds, the same snapshot is welded from scratch by solving statics
    world.restore(dataclasses.replace(snapshot, welds=WeldState()))
    world.step()
    assert calls and world.welded_names == list(snapshot.welds.welded)


def run(world: World, landing: str) -> list:
    """Drop a cube on the cube column (gently), or throw one at its top cube (hard),
    and return every body's pose bytes every :data:`EVERY` steps with the welded
    names."""
    top = 0.0125 + 2 * (0.025 + GAP)
    if landing == "gentle":
        world.drop("late", CUBE, (0.0, 0.0, top + 0.025 + GAP))
    else:
        world.add("late", CUBE, (-0.05, 0.0, top), linear_velocity=(THROW, 0.0, 0.0))
    trace = []
    for _ in range(STEPS // EVERY):
        world.step(EVERY)
        trace.append(([world.pose(n)[0].tobytes() + world.pose(n)[1].tobytes()
                       for n in world.names], world.welded_names))
    return trace


@pytest.mark.parametrize("landing", ["gentle", "hard"])
@pytest.mark.parametrize("first_step", [False, True])
def test_restored_welds_run_on_bit_for_bit_as_welding_from_scratch(snapshot, landing,
                                                                   first_step):
    """With the cube dropped right after the restore, or after one step (when the
    World without welds has welded the table again)."""
    traces = []
    for welds in (snapshot.welds, WeldState()):
        world = World.from_snapshot(dataclasses.replace(snapshot, welds=welds), SETTINGS)
        if first_step:
            world.step()
        traces.append(run(world, landing))
        world.close()
    assert traces[0] == traces[1]
    woken = [names for _, names in traces[0]]
    if landing == "hard":
        assert any(set(snapshot.welds.welded) - set(names) for names in woken), \
            "the hard landing wakes welded blocks"


def test_a_world_without_welding_ignores_the_welds_of_a_snapshot(snapshot):
    assert snapshot.welds.welded
    world = World.from_snapshot(snapshot, SETTINGS.replace(weld=False))
    assert world.welded_names == []
    world.step()
    assert world.welded_names == []


def test_a_snapshot_with_a_body_awake_keeps_no_welds():
    """A moving body keeps a World welded from scratch from welding what it touches
    until it rests: carrying the welds of the others would change what follows."""
    world = resting_table()
    world.drop("late", CUBE, (0.0, 0.0, 0.0125 + 3 * (0.025 + GAP) + GAP))
    world.step()
    assert world.welded_names and not world.is_welded("late")
    assert world.snapshot().welds == WeldState()


def test_welds_naming_a_missing_body_are_refused(snapshot):
    ghost = WeldState(snapshot.welds.welded + ("ghost",), snapshot.welds.contacts)
    with pytest.raises(WorldError, match="'ghost'"):
        World.from_snapshot(dataclasses.replace(snapshot, welds=ghost), SETTINGS)
    static = WeldState(("table",), ())
    with pytest.raises(WorldError, match="'table'"):
        World.from_snapshot(dataclasses.replace(snapshot, welds=static), SETTINGS)


def test_weld_state_round_trips_through_json_exactly(snapshot):
    text = json.dumps(snapshot.welds.to_dict())
    assert WeldState.from_dict(json.loads(text)) == snapshot.welds
    bad = json.loads(text)
    bad["contacts"][0]["position"] = [0.0, float("nan"), 0.0]
    with pytest.raises(ValueError, match="position"):
        WeldState.from_dict(bad)
