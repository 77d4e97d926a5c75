"""The World's API: drop, settle, contacts, supports, snapshots, validity, clients.

Mechanics (does the physics match analytic results) is tested in test_mechanics*.py;
here the World runs on the games' default settings and is asked what it promises.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet
import pytest

from balance3d.meshes import builders
from balance3d.meshes.part import make_part
from balance3d.physics.world import InvalidStateError, OverlapError, World, WorldError
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
SETTINGS = TILTED.physics
TABLE = TILTED.parts["table"]
BLOCK = TILTED.parts["block_1"]  # 25 mm cube
LONG = TILTED.parts["block_2"]  # 50 x 25 x 25 mm
BALL = make_part("ball", *builders.sphere(0.02), TILTED.materials["wood"])
G = SETTINGS.gravity


def table_world(settings=SETTINGS) -> World:
    world = World(settings)
    world.add("table", TABLE, (0.0, 0.0, -0.02))
    return world


def poses(world: World) -> dict[str, bytes]:
    """Every body's pose as raw bytes: equal only when bit-identical."""
    out = {}
    for name in world.names:
        pos, orn = world.pose(name)
        out[name] = pos.tobytes() + orn.tobytes()
    return out


def stack(world: World, x: float = 0.3, y: float = 0.2, n: int = 3) -> list[str]:
    names = [f"s{i}" for i in range(n)]
    for i, name in enumerate(names):
        world.drop(name, BLOCK, (x, y, 0.0125 + 0.025 * i + 0.0005 * (i + 1)))
    return names


# ------------------------------------------------------------------ client
def test_world_uses_its_own_direct_client():
    with World(SETTINGS) as a, World(SETTINGS) as b:
        ids = {a.client._client, b.client._client}
        assert len(ids) == 2
        for cid in ids:
            info = pybullet.getConnectionInfo(physicsClientId=cid)
            assert info == {"isConnected": 1, "connectionMethod": pybullet.DIRECT}


def test_two_worlds_in_one_process_are_independent():
    a, b = table_world(), table_world()
    a.drop("block", BLOCK, (0.0, 0.0, 0.2))
    b.drop("block", BLOCK, (0.0, 0.0, 0.2))
    b.drop("other", BLOCK, (0.1, 0.0, 0.2))
    a.step(60)
    assert a.pose("block")[0][2] < 0.15
    assert b.pose("block")[0].tolist() == [0.0, 0.0, 0.2]
    assert a.names == ["table", "block"] and b.names == ["table", "block", "other"]
    a.close()
    b.step(60)
    assert b.pose("block")[0][2] < 0.15


@pytest.mark.parametrize("threshold", [0.001, 0.2])
def test_another_worlds_settings_do_not_leak(threshold):
    """Bullet holds the contact breaking threshold in a process-wide variable: a World
    configured later with another value must not change how this one steps."""
    def run(other_settings) -> dict[str, bytes]:
        world = TILTED.build_world()
        world.drop("block", LONG, (0.2, 0.0, 0.08))
        other = World(other_settings) if other_settings else None
        world.step(400)
        if other:
            other.close()
        return poses(world)

    alone = run(None)
    assert run(SETTINGS.replace(contact_breaking_threshold=threshold)) == alone


def test_close_disconnects_once():
    world = table_world()
    cid = world.client._client
    world.close()
    assert pybullet.getConnectionInfo(physicsClientId=cid)["isConnected"] == 0
    assert world.client is None
    world.close()  # a second close is harmless


# ------------------------------------------------------------------ names
def test_names_and_static_accessors():
    world = TILTED.build_world()
    world.drop("block", BLOCK, (0.4, 0.2, 0.1))
    assert world.names == ["table", "fulcrum", "beam", "block"]
    assert world.dynamic_names == ["beam", "block"]
    assert [world.is_static(n) for n in world.names] == [True, True, False, False]
    assert world.part("beam") is TILTED.parts["beam"]
    assert world.part("block") is BLOCK
    assert len({world.body_id(n) for n in world.names}) == 4
    with pytest.raises(KeyError, match="no body named 'ghost'"):
        world.body_id("ghost")
    with pytest.raises(KeyError, match="ghost"):
        world.is_static("ghost")
    with pytest.raises(WorldError, match="'block' is already in the world"):
        world.drop("block", BLOCK, (-0.4, 0.2, 0.1))


def test_static_body_does_not_move():
    world = TILTED.build_world()
    before = poses(world)["fulcrum"]
    world.drop("block", LONG, (0.0, 0.0, 0.1))  # lands on the beam over the fulcrum
    world.settle()
    assert poses(world)["fulcrum"] == before


# ------------------------------------------------------------------ drop
def test_drop_releases_at_rest_at_the_pose_given():
    world = table_world()
    quat = (0.0, 0.0, math.sin(0.25), math.cos(0.25))
    world.drop("block", BLOCK, (0.1, -0.2, 0.3), quat)
    pos, orn = world.pose("block")
    assert pos.tolist() == [0.1, -0.2, 0.3]
    assert np.allclose(orn, quat, atol=1e-15)
    lin, ang = world.velocity("block")
    assert lin.tolist() == [0.0, 0.0, 0.0] and ang.tolist() == [0.0, 0.0, 0.0]
    world.step(24)  # free fall from rest: z drops by g t^2 / 2, up to one step's g dt t
    t = 24 * SETTINGS.time_step
    fallen = 0.3 - world.pose("block")[0][2]
    assert fallen == pytest.approx(G * t * t / 2, abs=G * SETTINGS.time_step * t)
    assert world.pose("block")[0][:2] == pytest.approx([0.1, -0.2], abs=1e-12)


def test_drop_overlapping_raises_and_leaves_the_world_unchanged():
    world, twin = TILTED.build_world(), TILTED.build_world()
    for w in (world, twin):
        w.drop("block", BLOCK, (0.2, 0.0, 0.1))
        w.step(40)
    before = poses(world)
    with pytest.raises(OverlapError, match=r"'intruder' released at .* overlaps fulcrum, beam"):
        world.drop("intruder", LONG, (0.0, 0.0, 0.046))
    assert world.names == ["table", "fulcrum", "beam", "block"]
    assert poses(world) == before
    # and it plays on exactly like a world that never saw the failed drop
    world.settle()
    twin.settle()
    assert poses(world) == poses(twin)


@pytest.mark.parametrize("length_scale", [1.0, 10.0])
def test_drop_touching_is_not_overlapping(length_scale):
    world = table_world(SETTINGS.replace(length_scale=length_scale))
    world.drop("block", BLOCK, (0.0, 0.0, 0.0125))  # face on the table top
    world.drop("next", BLOCK, (0.025, 0.0, 0.0125))  # face against the first block
    world.drop("ball", BALL, (0.3, 0.0, 0.02))  # sphere on the table top
    assert world.names == ["table", "block", "next", "ball"]
    with pytest.raises(OverlapError, match="'deep' released at .* overlaps block$"):
        world.drop("deep", BLOCK, (-0.0249, 0.0, 0.0125))  # 0.1 mm into "block"


# ------------------------------------------------------------------ overlap query
def _axes(q) -> np.ndarray:
    """Rows: the body axes of unit quaternion ``q`` (x, y, z, w) in world coordinates."""
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
                     [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
                     [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]])


def box_separation(pos_a, q_a, half_a, pos_b, q_b, half_b) -> float:
    """m: the largest gap between two boxes' projections over the 15 separating axes
    of the SAT: positive when the boxes are apart, negative when they intersect."""
    a, b = _axes(q_a), _axes(q_b)
    d = np.subtract(pos_a, pos_b)
    best = -math.inf
    for axis in [*a, *b, *(np.cross(u, v) for u in a for v in b)]:
        norm = np.linalg.norm(axis)
        if norm < 1e-9:
            continue
        axis = axis / norm
        reach = np.sum(half_a * np.abs(a @ axis)) + np.sum(half_b * np.abs(b @ axis))
        best = max(best, abs(d @ axis) - reach)
    return best


def test_overlaps_agrees_with_box_geometry():
    world = TILTED.build_world()
    rng = np.random.default_rng(7)
    beam_pos, beam_q = world.pose("beam")
    beam_half = np.array(TILTED.data["parts"]["beam"]["size"]) / 2
    verdicts = []
    for i in range(600):
        name = f"block_{1 + i % 3}"
        part, half = TILTED.parts[name], np.array(TILTED.data["parts"][name]["size"]) / 2
        pos = beam_pos + [rng.uniform(-0.35, 0.35), rng.normal(0, 0.04), rng.normal(0.02, 0.02)]
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        gap = box_separation(pos, q, half, beam_pos, beam_q, beam_half)
        hit = "beam" in world.overlaps(part, tuple(pos), tuple(q))
        assert hit == (gap < 0.0), f"pose {i}: gap {gap} m, overlaps says {hit}"
        verdicts.append(hit)
    assert 50 < sum(verdicts) < 550  # both answers were asked for


@pytest.mark.parametrize("length_scale", [1.0, 10.0])
def test_drop_refuses_exactly_what_overlaps_reports(length_scale):
    world = table_world(SETTINGS.replace(length_scale=length_scale))
    world.drop("block", BLOCK, (0.0, 0.0, 0.0125))
    tilt = (0.0, math.sin(0.2), 0.0, math.cos(0.2))
    cases = [  # (pose, bodies overlapped)
        (((0.0, 0.0, 0.0375), (0, 0, 0, 1)), []),  # face on the block
        (((0.025, 0.0, 0.0125), (0, 0, 0, 1)), []),  # face against the block, on the table
        (((0.3, 0.0, 0.1), (0, 0, 0, 1)), []),  # in the air
        (((0.3, 0.0, 0.0124), (0, 0, 0, 1)), ["table"]),  # 0.1 mm into the table
        (((0.0249, 0.0, 0.0125), (0, 0, 0, 1)), ["block"]),  # 0.1 mm into the block
        (((0.02, 0.0, 0.012), tilt), ["table", "block"]),
        (((0.0, 0.0, 0.0125), (0, 0, 0, 1)), ["block"]),  # in the block's place
    ]
    for i, ((pos, q), expected) in enumerate(cases):
        assert world.overlaps(BLOCK, pos, q) == expected, (pos, q)
        if expected:
            with pytest.raises(OverlapError, match=f"overlaps {', '.join(expected)}$"):
                world.drop(f"probe{i}", BLOCK, pos, q)
            assert f"probe{i}" not in world.names
        else:
            world.drop(f"probe{i}", BLOCK, pos, q)
            world.remove(f"probe{i}")


def test_overlaps_of_logo_pieces_agree_with_bodies_placed_there():
    tower = load_scene("tower")
    world = tower.build_world()
    pieces = [p for p in tower.parts.values() if not p.static]
    rng = np.random.default_rng(3)
    hits = 0
    for i in range(120):
        part = pieces[i % len(pieces)]
        base = world.pose(world.names[rng.integers(len(world.names))])[0]
        pos = tuple(base + rng.normal(0.0, 0.03, 3))
        q = rng.normal(size=4)
        q = tuple(q / np.linalg.norm(q))
        asked = world.overlaps(part, pos, q)
        world.add("probe", part, pos, q, static=False)
        assert asked == world.overlapping("probe"), (part.name, pos, q)
        world.remove("probe")
        hits += bool(asked)
    assert 10 < hits < 110


def test_overlaps_creates_and_removes_no_body(monkeypatch):
    world, twin = table_world(), table_world()
    for w in (world, twin):
        stack(w, x=0.1, y=0.0, n=2)
        w.settle()
    assert world.welded_names  # the query must not wake them either
    welded, count = world.welded_names, world.client.getNumBodies()
    ids = [world.body_id(n) for n in world.names]
    calls = []
    for function in ("createMultiBody", "removeBody", "resetBasePositionAndOrientation"):
        original = getattr(pybullet, function)
        monkeypatch.setattr(pybullet, function, lambda *a, _f=original, _n=function, **k:
                            calls.append(_n) or _f(*a, **k))
    answers = [world.overlaps(LONG, (0.1, 0.0, z)) for z in (0.02, 0.063, 0.3)]
    assert answers == [["s0", "s1"], [], []]  # through the stack, on it, clear
    monkeypatch.undo()
    assert calls == []
    assert world.client.getNumBodies() == count
    assert [world.body_id(n) for n in world.names] == ids
    assert world.welded_names == welded
    world.drop("next", BLOCK, (-0.2, 0.0, 0.1))
    twin.drop("next", BLOCK, (-0.2, 0.0, 0.1))
    assert world.body_id("next") == twin.body_id("next") == max(ids) + 1  # no id was used
    world.settle()
    twin.settle()
    assert poses(world) == poses(twin)


# ------------------------------------------------------------------ settle
def test_settle_reports_rest():
    world = table_world()
    world.drop("block", BLOCK, (0.0, 0.0, 0.05))
    report = world.settle()
    assert not report.timed_out
    assert report.time >= SETTINGS.rest_time
    assert report.time < SETTINGS.settle_max_time
    assert report.steps == round(report.time / SETTINGS.time_step)
    assert world.at_rest()
    assert world.pose("block")[0][2] == pytest.approx(0.0125, abs=5e-4)
    assert world.time == pytest.approx(report.time)


def test_settle_times_out_on_a_rolling_ball():
    world = table_world()
    world.drop("ball", BALL, (0.0, 0.0, 0.02))
    world.set_velocity("ball", (0.3, 0.0, 0.0), (0.0, 0.3 / 0.02, 0.0))
    report = world.settle(max_time=0.5)
    assert report.timed_out
    assert report.time == pytest.approx(0.5, abs=SETTINGS.time_step)
    assert report.steps == round(0.5 / SETTINGS.time_step)
    assert np.linalg.norm(world.velocity("ball")[0]) > SETTINGS.rest_linear_speed


def test_settle_shorter_than_rest_time_times_out():
    world = table_world()
    world.drop("block", BLOCK, (0.0, 0.0, 0.0125))
    assert world.settle(max_time=SETTINGS.rest_time / 2).timed_out


# ------------------------------------------------------------------ validity
def test_body_far_off_the_table_is_an_invalid_state():
    world = table_world()
    world.drop("block", BLOCK, (0.0, 0.0, 0.05))
    world.check_invalid_state()
    world.set_pose("block", (SETTINGS.table_extent + 1.0, 0.0, 0.05), (0.0, 0.0, 0.0, 1.0))
    with pytest.raises(InvalidStateError, match="'block' left the table"):
        world.check_invalid_state()
    with pytest.raises(InvalidStateError, match="'block'"):
        world.settle()


def test_body_below_the_table_is_an_invalid_state():
    world = table_world()
    world.drop("block", BLOCK, (0.0, 0.0, -SETTINGS.table_extent - 0.5))
    with pytest.raises(InvalidStateError, match="'block' left the table"):
        world.check_invalid_state()


def test_at_rest_with_check_raises_as_check_invalid_state_does():
    world = table_world()
    world.drop("block", BLOCK, (0.0, 0.0, 0.0125))
    assert world.at_rest(check=True)      # released at rest on the table
    world.set_pose("block", (SETTINGS.table_extent + 1.0, 0.0, 0.05), (0.0, 0.0, 0.0, 1.0))
    assert world.at_rest()                # still at rest, but off the table
    with pytest.raises(InvalidStateError, match="'block' left the table"):
        world.at_rest(check=True)


def test_below_names_the_dynamic_bodies_whose_centre_is_lower():
    world = table_world()                 # the table's top face at z = 0
    world.drop("low", BLOCK, (0.0, 0.0, 0.0125))
    world.drop("high", BLOCK, (0.2, 0.0, 0.1))
    world.drop("lower", BLOCK, (-0.2, 0.0, 0.05))
    assert world.below(0.0125) == []      # released with its centre at that height
    assert world.below(0.06) == ["low", "lower"]
    assert world.below(0.2) == ["low", "high", "lower"]   # creation order; no table


def test_nan_is_an_invalid_state():
    world = table_world()
    world.drop("fine", BLOCK, (0.2, 0.0, 0.0125))
    world.drop("block", BLOCK, (0.0, 0.0, 0.05))
    world.set_velocity("block", (math.nan, 0.0, 0.0))
    assert not world.at_rest()
    with pytest.raises(InvalidStateError, match="body 'block' has a non-finite pose"):
        world.settle()


# ------------------------------------------------------------------ contacts
@pytest.mark.parametrize("length_scale,substeps", [(1.0, 0), (1.0, 4), (10.0, 0), (10.0, 4)])
def test_resting_contact_forces_carry_the_weight(length_scale, substeps):
    """Whatever the internal unit and sub-steps, contacts are SI and the normal forces
    under a resting stack add up to its weight."""
    world = table_world(SETTINGS.replace(length_scale=length_scale, substeps=substeps))
    names = stack(world, n=2)
    assert not world.settle().timed_out
    under = world.contacts(names[0], "table")
    assert under and all(ct.body_a == names[0] and ct.body_b == "table" for ct in under)
    assert sum(ct.normal_force for ct in under) == pytest.approx(2 * BLOCK.mass * G, rel=0.02)
    between = world.contacts(names[1], names[0])
    assert sum(ct.normal_force for ct in between) == pytest.approx(BLOCK.mass * G, rel=0.02)
    for ct in under:
        assert ct.normal == pytest.approx((0.0, 0.0, 1.0), abs=1e-3)
        assert ct.position_b[2] == pytest.approx(0.0, abs=1e-3)  # on the table top, m
    assert world.pose(names[1])[0][2] == pytest.approx(0.0375, abs=1e-3)


def test_contacts_are_reported_from_either_side():
    world = table_world()
    low, high = stack(world, n=2)
    world.settle()
    a_side = world.contacts(high, low)
    b_side = world.contacts(low, high)
    only_b = [ct for ct in world.contacts(b=low) if ct.body_a == high]
    assert a_side and len(a_side) == len(b_side) == len(only_b)
    for x, y, z in zip(a_side, b_side, only_b):
        assert (x.body_a, x.body_b, y.body_a, y.body_b) == (high, low, low, high)
        assert x.normal == pytest.approx(tuple(-v for v in y.normal))
        assert x.normal[2] > 0.99  # on the lower block, pointing up to the upper one
        assert z == x
    assert {ct.body_a for ct in world.contacts(b=low)} == {"table", high}
    assert world.touching(low) == {"table", high}
    assert world.touching(low, high) == {high}


def test_all_contacts_are_reported_once():
    world = table_world()
    stack(world, n=3)
    world.settle()
    everything = world.contacts()
    pairs = [(ct.body_a, ct.body_b) for ct in everything]
    assert set(pairs) == {("table", "s0"), ("s0", "s1"), ("s1", "s2")}
    per_pair = {p: pairs.count(p) for p in set(pairs)}
    assert per_pair[("s0", "s1")] == len(world.contacts("s0", "s1"))


def test_contacts_are_filtered_by_distance_and_force():
    world = table_world()
    stack(world, n=3)
    world.settle()
    every = world.contacts(max_distance=math.inf)
    assert len(every) >= 6
    assert all(ct.distance <= SETTINGS.contact_distance for ct in world.contacts())
    distances = sorted(ct.distance for ct in every)
    cut = distances[len(distances) // 2]
    assert world.contacts(max_distance=cut) == [ct for ct in every if ct.distance <= cut]
    assert 0 < len(world.contacts(max_distance=cut)) < len(every)
    forces = sorted(ct.normal_force for ct in every)
    floor = forces[len(forces) // 2]
    strong = world.contacts(max_distance=math.inf, min_force=floor)
    assert strong == [ct for ct in every if ct.normal_force >= floor]
    assert 0 < len(strong) < len(every)
    assert world.contacts(max_distance=-1.0) == []
    assert world.contacts(min_force=1e6) == []


# ------------------------------------------------------------------ supports
def test_support_graph_of_a_stack_down_to_the_table():
    world = table_world()
    s0, s1, s2 = stack(world, n=3)
    world.drop("flying", BLOCK, (-0.3, 0.0, 0.5))
    world.drop("lonely", BLOCK, (0.0, -0.3, 0.0125))
    world.settle(max_time=0.25)  # "flying" is still in the air
    assert world.pose("flying")[0][2] > 0.1
    graph = world.support_graph()
    assert set(graph) == set(world.names)
    assert graph == {"table": set(), s0: {"table"}, s1: {s0}, s2: {s1}, "flying": set(),
                     "lonely": {"table"}}
    assert world.grounded(graph) == {"table", s0, s1, s2, "lonely"}
    assert world.grounded() == world.grounded(graph)


def test_support_graph_of_the_tilted_scene():
    world = TILTED.build_world()
    world.drop("block", BLOCK, (0.0, 0.0, 0.07))
    world.settle()
    graph = world.support_graph()
    assert graph["beam"] == {"fulcrum"}
    assert graph["block"] == {"beam"}
    assert graph["fulcrum"] == set() and graph["table"] == set()
    assert world.grounded() == {"table", "fulcrum", "beam", "block"}


# ------------------------------------------------------------------ snapshots
def busy_world() -> World:
    """The Tilted scene with two blocks that have landed on the beam and a third still
    falling: contacts, motion and a rotated body."""
    world = TILTED.build_world()
    world.drop("a", BLOCK, (0.2, 0.0, 0.08))
    world.drop("b", LONG, (-0.15, 0.0, 0.08))
    world.step(90)
    quat = (math.sin(0.2), 0.0, 0.0, math.cos(0.2))
    world.drop("c", BLOCK, (0.1, 0.0, 0.2), quat)
    world.step(10)
    assert world.contacts("a", "beam") and world.contacts("b", "beam")
    return world


def test_restore_twice_gives_bit_identical_poses():
    world = busy_world()
    snap = world.snapshot()
    world.restore(snap)
    world.step(240)
    first = poses(world)
    world.restore(snap)
    world.step(240)
    assert poses(world) == first
    assert world.time == pytest.approx(snap.time + 240 * SETTINGS.time_step)


def test_from_snapshot_matches_restore_in_another_world():
    world = busy_world()
    snap = world.snapshot()
    world.restore(snap)
    world.step(240)
    other = World.from_snapshot(snap, SETTINGS)
    assert other.names == [b.name for b in snap.bodies]
    other.step(240)
    assert poses(other) == poses(world)
    assert other.time == world.time


def test_restore_reproduces_the_original_run():
    """A run that started from a snapshot is replayed exactly by restoring it, also in
    a world whose bodies changed in between; and the freshly built scene (no contact
    history yet, bodies square to the axes) replays exactly from its first snapshot."""
    world = busy_world()
    snap = world.snapshot()
    world.restore(snap)
    world.step(120)
    middle = world.snapshot()
    world.step(120)
    original = poses(world)
    world.drop("late", BLOCK, (0.5, 0.5, 0.1))
    world.remove("a")
    world.restore(snap)
    world.step(120)
    assert world.snapshot() == middle
    world.step(120)
    assert poses(world) == original

    fresh = TILTED.build_world()
    fresh.drop("a", BLOCK, (0.2, 0.0, 0.08))
    start = fresh.snapshot()
    fresh.settle()
    settled = poses(fresh)
    fresh.restore(start)
    fresh.settle()
    assert poses(fresh) == settled


def test_snapshot_holds_names_parts_static_pose_velocity_and_time():
    world = busy_world()
    snap = world.snapshot()
    assert [b.name for b in snap.bodies] == world.names
    assert [b.static for b in snap.bodies] == [world.is_static(n) for n in world.names]
    assert all(b.part is world.part(b.name) for b in snap.bodies)
    falling = next(b for b in snap.bodies if b.name == "c")
    assert falling.linear_velocity[2] < -0.1
    assert falling.position == tuple(world.pose("c")[0].tolist())
    assert snap.time == world.time
    world.drop("late", BLOCK, (0.5, 0.5, 0.1))
    world.remove("a")
    world.step(5)
    world.restore(snap)
    assert world.names == [b.name for b in snap.bodies]
    assert world.time == snap.time
    assert world.velocity("c")[0].tolist() == list(falling.linear_velocity)


def test_snapshot_is_immutable():
    snap = busy_world().snapshot()
    with pytest.raises(AttributeError):
        snap.time = 0.0
    with pytest.raises(AttributeError):
        snap.bodies[0].position = (0.0, 0.0, 0.0)
