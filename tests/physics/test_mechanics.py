"""The World against analytic mechanics, on the games' default physics settings.

Every prediction is computed from the actual geometry and masses of the parts (the
scenes' parts where the games have one), and every threshold is named once below
with its unit.  The settings are the scenes' shared ``[physics]`` table
(``scenes/shared/common.toml``), which the README's "Physics settings" explains.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation

from balance3d.meshes import builders
from balance3d.meshes.part import Material, make_part
from balance3d.physics.world import World
from balance3d.scene import load_scene

TILTED = load_scene("tilted")
TRIBALANCE = load_scene("tribalance")
TOWER = load_scene("tower")
SETTINGS = TILTED.physics
assert SETTINGS == TOWER.physics  # one shared [physics] table
# Tri-Ba-Lance overrides only the damping and welding (its scene says why)
assert TRIBALANCE.physics == SETTINGS.replace(angular_damping=TRIBALANCE.physics.angular_damping,
                                              linear_damping=TRIBALANCE.physics.linear_damping,
                                              weld=TRIBALANCE.physics.weld)
G = SETTINGS.gravity
WOOD = TILTED.materials["wood"]
TABLE = TILTED.parts["table"]
TABLE_HALF = TABLE.extents[0] / 2  # m, the table top spans +-TABLE_HALF in x and y

# ---------------------------------------------------------------- thresholds
#: Lever: loads at these fractions of the predicted threshold distance.
LEVER_BELOW, LEVER_ABOVE = 0.9, 1.1
#: s, simulated time a loaded lever gets to flip (or not).
LEVER_TIME = 5.0
#: degrees: the settled beam must be tipped at least this much (one end down), and
#: after the test rest within LEVER_ANGLE_TOLERANCE_DEG of its tilt (flipped: of
#: the mirrored tilt).
LEVER_MIN_TILT_DEG, LEVER_ANGLE_TOLERANCE_DEG = 5.0, 1.0
#: Incline: the found onset angle must be within this of the prediction, degrees.
ONSET_TOLERANCE_DEG = 1.0
#: degrees, the bisection stops when the bracket is this narrow.
ONSET_RESOLUTION_DEG = 0.1
#: s, simulated time a box on an incline gets to show sliding or tipping.
INCLINE_TIME = 1.5
#: m, a box that moved this far down the slope has slid.
SLIDE_DISTANCE = 0.005
#: degrees, a box that turned this far has tipped.
TIP_ANGLE_DEG = 10.0
#: Harmonic stack: offsets scaled by these stand / fall.
HARMONIC_STANDS, HARMONIC_FALLS = 0.95, 1.05
#: s, how long the scaled-down harmonic stack must stand (and the time the other
#: gets to fall).
HARMONIC_TIME = 10.0
#: m, a standing stack's blocks move less than this.
STAND_TOLERANCE = 0.001
#: Rocking plate: the settled tilt within this fraction of the prediction, and its
#: rocking (peak to peak over the last ROCK_WINDOW) within the same fraction.
ROCK_TOLERANCE = 0.05
#: s, simulated time the rocking plate gets to settle, and the window at its end over
#: which its tilt is averaged.
ROCK_TIME, ROCK_WINDOW = 12.0, 1.0
#: The small-angle formula must match the exact rolling balance this closely
#: (relative) for the case tested, or the case is too large an angle for it.
SMALL_ANGLE_TOLERANCE = 1e-3
#: Tall stack: pieces in the column, how long it must stand (s), how far its top
#: may move sideways (m).
COLUMN_PIECES, COLUMN_TIME, COLUMN_DRIFT = 24, 60.0, 0.002
#: m, release gap above the column's top when it is built by drops.
COLUMN_DROP_GAP = 0.002
#: m, drop height of a block above the beam's top face.  The block must never reach
#: half the beam's thickness into it (a discrete contact deeper than that can push it
#: out through the far side), and it must not bounce back higher than
#: DROP_MAX_REBOUND of the drop (the restitution, 0.1 x 0.1 combined, allows 1e-4
#: of it: a higher bounce is energy added by penetration recovery).
DROP_HEIGHT, DROP_MAX_REBOUND = 0.15, 0.01
#: s, how long the drop is watched (it lands after 0.17 s).
DROP_WATCH_TIME = 1.0
#: Relative tolerance of summed contact normal forces against the weight, and the
#: time (s) the box rests before they are read.
FORCE_TOLERANCE, FORCE_REST_TIME = 0.02, 0.5


# ---------------------------------------------------------------- helpers
def table_world(settings=None) -> World:
    world = World(settings or SETTINGS)
    world.add("table", TABLE, (0.0, 0.0, -TABLE.extents[2] / 2))
    return world


def rotation(orientation) -> np.ndarray:
    return Rotation.from_quat(orientation).as_matrix()


def run_until(world: World, seconds: float, done, every: int = 6) -> bool:
    """Step up to ``seconds``; True as soon as ``done()`` is."""
    for _ in range(math.ceil(seconds / (every * world.settings.time_step))):
        world.step(every)
        if done():
            return True
    return False


# ---------------------------------------------------------------- 1. lever
def tipped_tilted_world() -> tuple[World, float]:
    """The Tilted scene with the beam tipped onto its -x end and settled; returns the
    world and the settled beam's tilt alpha (rad, +x end up)."""
    world = TILTED.build_world()
    world.set_velocity("beam", (0.0, 0.0, 0.0), (0.0, -0.5, 0.0))
    # nearly balanced on the apex, the beam rocks slower than the rest speeds: wait
    # until it has touched the table and the fulcrum for the whole rest time
    held = 0
    for _ in range(round(LEVER_TIME / SETTINGS.rest_check_interval)):
        world.step(round(SETTINGS.rest_check_interval / SETTINGS.time_step))
        resting = world.at_rest() and world.touching("beam") == {"table", "fulcrum"}
        held = held + 1 if resting else 0
        if held * SETTINGS.rest_check_interval >= SETTINGS.rest_time:
            break
    assert world.touching("beam") == {"table", "fulcrum"} and world.at_rest()
    return world, beam_tilt(world)


def beam_tilt(world: World) -> float:
    """rad, the beam's long axis above horizontal towards +x (positive: +x end up)."""
    axis = rotation(world.pose("beam")[1])[:, 0]
    return math.asin(axis[2])


def lever_threshold(world: World, load) -> tuple[float, dict]:
    """Predicted threshold distance (m, along the beam from the pivot contact) for the
    load's centre, from the settled beam's geometry: the beam flips when
    sum m_i x_i > tan(alpha) sum m_i y_i in the beam frame at the pivot contact."""
    beam = TILTED.parts["beam"]
    pos, orn = world.pose("beam")
    rot = rotation(orn)
    alpha = beam_tilt(world)
    pivot_points = [np.asarray(ct.position_a) for ct in world.contacts("beam", "fulcrum")]
    assert pivot_points, "the settled beam does not rest on the fulcrum"
    pivot = np.mean(pivot_points, axis=0)
    t = beam.extents[2]
    s = load.extents[2]
    # beam frame at the pivot contact: x along the beam, y up from its underside
    x_beam = float((pos - pivot) @ rot[:, 0])
    y_beam = float((pos - pivot) @ rot[:, 2])
    assert y_beam == pytest.approx(t / 2, abs=1e-3)
    m, big = load.mass, beam.mass
    y_load = t + s / 2
    # a beam-frame point (x, y) lies x cos(alpha) - y sin(alpha) beyond the pivot
    # towards +x: the load on the high (+x) side tips the beam over once
    # m x > tan(alpha) (M y_beam + m y_load) - M x_beam
    x_star = (math.tan(alpha) * (big * y_beam + m * y_load) - big * x_beam) / m
    return x_star, dict(pivot=pivot, rot=rot, alpha=alpha, y_load=y_load)


@pytest.mark.parametrize("fraction,flips", [(LEVER_BELOW, False), (LEVER_ABOVE, True)])
def test_lever_flips_only_beyond_the_dead_band(fraction, flips):
    world, alpha = tipped_tilted_world()
    assert alpha > math.radians(LEVER_MIN_TILT_DEG)  # resting tipped, -x end down
    load = TILTED.parts["block_1"]
    x_star, frame = lever_threshold(world, load)
    assert 0.0 < x_star < TILTED.parts["beam"].extents[0] / 2   # on the high half
    x = fraction * x_star
    rot = frame["rot"]
    centre = frame["pivot"] + x * rot[:, 0] + frame["y_load"] * rot[:, 2]
    world.add("load", load, tuple(centre), tuple(world.pose("beam")[1]))
    flipped = run_until(world, LEVER_TIME, lambda: beam_tilt(world) < 0.0)
    if flips:
        assert flipped, f"load at {fraction} x threshold ({x * 1000:.1f} mm) did not flip the beam"
        world.settle()
        assert beam_tilt(world) == pytest.approx(-alpha, abs=math.radians(LEVER_ANGLE_TOLERANCE_DEG))
    else:
        assert not flipped, f"load at {fraction} x threshold ({x * 1000:.1f} mm) flipped the beam"
        assert beam_tilt(world) == pytest.approx(alpha, abs=math.radians(LEVER_ANGLE_TOLERANCE_DEG))


# ---------------------------------------------------------------- 2. incline
PLANE_SIZE = (0.6, 0.3, 0.02)  # m
GRIPPY = Material("grippy", WOOD.density, 1.0, 0.0)


def incline_world(theta: float, box, plane_material: Material) -> World:
    """A static plane tilted by ``theta`` (rad, about y: down towards +x) with ``box``
    released at rest on it, its long side along the slope."""
    plane = make_part("plane", *builders.box(PLANE_SIZE), plane_material, static=True)
    world = World(SETTINGS)
    rot = Rotation.from_euler("y", theta)
    world.add("plane", plane, tuple(rot.apply((0.0, 0.0, -PLANE_SIZE[2] / 2))),
              tuple(rot.as_quat()))
    world.add("box", box, tuple(rot.apply((0.0, 0.0, box.extents[2] / 2))),
              tuple(rot.as_quat()))
    return world


def slides(theta: float, box, plane_material: Material) -> bool:
    world = incline_world(theta, box, plane_material)
    start = world.pose("box")[0]
    downhill = Rotation.from_euler("y", theta).apply((1.0, 0.0, 0.0))
    return run_until(world, INCLINE_TIME,
                     lambda: (world.pose("box")[0] - start) @ downhill > SLIDE_DISTANCE)


def tips(theta: float, box, plane_material: Material) -> bool:
    world = incline_world(theta, box, plane_material)
    start = rotation(world.pose("box")[1])[:, 2]
    return run_until(world, INCLINE_TIME, lambda: math.degrees(math.acos(min(1.0, float(
        rotation(world.pose("box")[1])[:, 2] @ start)))) > TIP_ANGLE_DEG)


def onset(happens, low: float, high: float) -> float:
    """Bisect the angle (degrees) where ``happens(theta_rad)`` turns True."""
    assert not happens(math.radians(low)) and happens(math.radians(high))
    while high - low > ONSET_RESOLUTION_DEG:
        mid = (low + high) / 2
        if happens(math.radians(mid)):
            high = mid
        else:
            low = mid
    return (low + high) / 2


def test_box_slides_when_tan_theta_exceeds_the_friction_product():
    box = make_part("flat", *builders.box((0.06, 0.04, 0.015)), WOOD)
    plane_material = WOOD
    mu = box.material.friction * plane_material.friction  # Bullet multiplies them
    predicted = math.degrees(math.atan(mu))
    found = onset(lambda th: slides(th, box, plane_material), predicted - 5, predicted + 5)
    assert found == pytest.approx(predicted, abs=ONSET_TOLERANCE_DEG)


def test_tall_box_tips_when_tan_theta_exceeds_base_over_height():
    box = make_part("tall", *builders.box((0.025, 0.025, 0.075)), GRIPPY)
    b, h = box.extents[0], box.extents[2]
    assert GRIPPY.friction ** 2 > b / h  # it tips before it could slide
    predicted = math.degrees(math.atan(b / h))
    found = onset(lambda th: tips(th, box, GRIPPY), predicted - 5, predicted + 5)
    assert found == pytest.approx(predicted, abs=ONSET_TOLERANCE_DEG)


# ---------------------------------------------------------------- 3. harmonic stack
def harmonic_world(n: int, scale: float) -> tuple[World, list[str]]:
    """``n`` Tilted 6u blocks over the table's +x edge: block i from the top
    overhangs the one below (the bottom one the table edge) by scale * L / (2 i)."""
    block = TILTED.parts["block_6"]
    length, height = block.extents[0], block.extents[2]
    world = table_world()
    right, names = TABLE_HALF, []
    for i in range(n, 0, -1):                       # bottom (i = n) first
        right += scale * length / (2 * i)
        name = f"b{i}"
        world.add(name, block, (right - length / 2, 0.0, height / 2 + (n - i) * height))
        names.append(name)
    return world, names


@pytest.mark.parametrize("n", [4, 6])
def test_harmonic_stack_stands_below_and_falls_above_the_classic_offsets(n):
    world, names = harmonic_world(n, HARMONIC_STANDS)
    start = {name: world.pose(name)[0] for name in names}
    moved = run_until(world, HARMONIC_TIME, lambda: max(
        np.linalg.norm(world.pose(name)[0] - start[name]) for name in names) > STAND_TOLERANCE,
        every=24)
    assert not moved, f"the {HARMONIC_STANDS} harmonic stack of {n} moved"

    world, names = harmonic_world(n, HARMONIC_FALLS)
    top, height = names[-1], TILTED.parts["block_6"].extents[2]
    z0 = world.pose(top)[0][2]
    fell = run_until(world, HARMONIC_TIME, lambda: world.pose(top)[0][2] < z0 - height)
    assert fell, f"the {HARMONIC_FALLS} harmonic stack of {n} did not fall"


# ---------------------------------------------------------------- 4. rocking plate
def test_plate_on_a_ball_settles_at_the_rolling_equilibrium_tilt():
    """A plate of mass M and thickness t rolls on a fixed sphere of radius R.  Tilted by
    theta it touches the sphere at R theta along its underside from where it touched
    level, so a load m at distance d, its centre y_m above the underside, balances
    when m (d - R theta + y_m theta) = M (R - t/2) theta (small angles):
    theta = m d / (M (R - t/2) + m (R - y_m))."""
    ball, plate = TRIBALANCE.parts["ball"], TRIBALANCE.parts["plate"]
    load = TRIBALANCE.parts["piece_2"]
    radius, t, h = ball.extents[0] / 2, plate.extents[2], load.extents[2]
    big, m = plate.mass, load.mass
    d = 0.065  # m, along +y (towards a corner), the game's ring-2 field
    y_m = t + h / 2
    predicted = m * d / (big * (radius - t / 2) + m * (radius - y_m))
    # the exact (any-angle) balance, against the small-angle formula
    exact = brentq(lambda th: m * ((d - radius * th) * math.cos(th) + y_m * math.sin(th))
                   + big * ((-radius * th) * math.cos(th) + t / 2 * math.sin(th)), 1e-6, 0.5)
    assert exact == pytest.approx(predicted, rel=SMALL_ANGLE_TOLERANCE)

    world = World(SETTINGS)
    centre = np.array([0.0, 0.0, 0.2])
    world.add("ball", ball, tuple(centre))
    world.add("plate", plate, tuple(centre + (0.0, 0.0, radius + t / 2)))
    world.add("load", load, tuple(centre + (0.0, d, radius + t + h / 2)))
    tilts = []
    steps = round(ROCK_TIME / SETTINGS.time_step)
    window = round(ROCK_WINDOW / SETTINGS.time_step)
    for k in range(steps):
        world.step()
        if k >= steps - window:
            normal = rotation(world.pose("plate")[1])[:, 2]
            tilts.append(math.atan2(normal[1], normal[2]))  # +y edge down is positive
    assert world.pose("load")[0][2] > centre[2]  # the load is still on the plate
    assert np.ptp(tilts) <= ROCK_TOLERANCE * predicted, "the plate is still rocking"
    assert np.mean(tilts) == pytest.approx(predicted, rel=ROCK_TOLERANCE)


# ---------------------------------------------------------------- 5. tall stack
def column_world(n: int) -> tuple[World, list[str]]:
    logo = TOWER.parts["logo"]
    h = logo.extents[2]
    world = table_world()
    names = [f"logo{i}" for i in range(n)]
    for i, name in enumerate(names):
        world.add(name, logo, (0.0, 0.0, h / 2 + i * h))
    return world, names


def test_column_of_24_logo_pieces_stands_for_a_minute():
    world, names = column_world(COLUMN_PIECES)
    top = names[-1]
    start = world.pose(top)[0]
    drift = 0.0
    for _ in range(round(COLUMN_TIME)):         # watch it once a second
        world.step(round(1.0 / SETTINGS.time_step))
        drift = max(drift, float(np.linalg.norm((world.pose(top)[0] - start)[:2])))
    assert drift <= COLUMN_DRIFT
    assert world.pose(top)[0][2] == pytest.approx(start[2], abs=COLUMN_DRIFT)


def test_column_of_24_logo_pieces_built_by_drops_stands_for_a_minute():
    """The game's way: each piece released just above the top and settled."""
    logo = TOWER.parts["logo"]
    h = logo.extents[2]
    world = table_world()
    names = []
    for i in range(COLUMN_PIECES):
        name = f"logo{i}"
        top = max((world.vertices(n)[:, 2].max() for n in names), default=0.0)
        world.drop(name, logo, (0.0, 0.0, top + COLUMN_DROP_GAP + h / 2))
        assert not world.settle().timed_out
        names.append(name)
    built = {n: world.pose(n)[0] for n in names}
    for i, name in enumerate(names):
        assert np.linalg.norm(built[name][:2]) <= COLUMN_DRIFT, f"{name} landed off the axis"
        assert built[name][2] == pytest.approx(h / 2 + i * h, abs=COLUMN_DRIFT)
    world.step(round(COLUMN_TIME / SETTINGS.time_step))
    for name in names:
        assert np.linalg.norm(world.pose(name)[0] - built[name]) <= COLUMN_DRIFT


@pytest.mark.parametrize("block_name", ["block_1", "block_6"])
def test_block_dropped_on_the_beam_does_not_pass_through(block_name):
    beam, block = TILTED.parts["beam"], TILTED.parts[block_name]
    world = table_world()
    t = beam.extents[2]
    world.add("beam", beam, (0.0, 0.0, t / 2))
    world.drop("block", block, (0.1, 0.0, t + DROP_HEIGHT + block.extents[2] / 2))
    lowest, rebound, landed = math.inf, 0.0, False
    for _ in range(round(DROP_WATCH_TIME / SETTINGS.time_step)):
        world.step()
        bottom = float(world.vertices("block")[:, 2].min())
        lowest = min(lowest, bottom)
        landed = landed or bottom <= t + SETTINGS.contact_distance
        if landed:
            rebound = max(rebound, bottom - t)
    assert landed and t - lowest < t / 2
    assert rebound <= DROP_MAX_REBOUND * DROP_HEIGHT
    assert not world.settle().timed_out
    assert world.vertices("block")[:, 2].min() == pytest.approx(t, abs=SETTINGS.contact_distance)
    assert "beam" in world.support_graph()["block"]


# ---------------------------------------------------------------- contact forces
@pytest.mark.parametrize("substeps", [0, 2, 5])
@pytest.mark.parametrize("weld", [False, True])
def test_normal_forces_of_a_resting_box_add_up_to_its_weight(substeps, weld):
    """pybullet reports the last sub-step's force averaged over the whole step (too
    small by the number of sub-steps); the World corrects it.  Welded bodies report
    the statics solution."""
    box = TILTED.parts["block_2"]
    world = table_world(SETTINGS.replace(substeps=substeps, weld=weld))
    world.add("box", box, (0.0, 0.0, box.extents[2] / 2))
    world.step(round(FORCE_REST_TIME / SETTINGS.time_step))
    assert world.is_welded("box") == weld
    contacts = world.contacts("box", "table")
    assert contacts
    total = sum(ct.normal_force for ct in contacts)
    assert total == pytest.approx(box.mass * G, rel=FORCE_TOLERANCE)
