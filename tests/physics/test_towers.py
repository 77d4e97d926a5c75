"""Tower towers against mechanics: built by drops on the Tower scene's plinths, with
the scene's physics settings, and where an impact decides, against the same landing
simulated unwelded at a fine step (REFERENCE_STEP, as tests/physics/test_landings.py).

Every piece is released DROP_GAP above whatever lies under its footprint
(:func:`balance3d.games.tower.physics.release_position`) and settled before the next.

Measured on the shared settings (1/240 s, 50 solver iterations, welding on), which
these tests keep:
- 24 pieces flat (letters and logos alternating): every piece within 0.3 mm of its
  stacked height and 0.08 mm of the plinth's axis once built, the top moving 0.0 mm
  over 60 s.  Unwelded (1/240 s) the same tower collapses as its 16th piece settles.
  Built 0.2 mm off the plinth's axis, or 0.4 mm and turned 2 deg, it stays welded
  and stands alike (within 0.3 mm and 0.08 mm, 0.0 mm over 60 s).  While a statics
  program that HiGHS's dual simplex could not finish counted as "cannot hold", the
  19th piece woke 15 pieces below it and the tower fell (0.2 mm); the 20th woke 9
  (0.4 mm, 2 deg; that tower stood).
- H letters, 4 centred then 8 offset by 0.95 of the critical overhang (19 mm of
  20): stands, top moving 0.0 mm over 3 s (unwelded at 1/2000 s: 0.4 mm); at 1.05
  the first offset piece falls off, welded and unwelded.
- An H landing 5 mm further out than that tower's upper axis overturns it, by rigid
  impact mechanics, when released 43.95 mm or more above it; the World stands from
  22 and 35 mm and falls from 55 and 88 mm.  The unwelded World at 1/2000 s falls
  from 4.4 mm already (also with 200 solver iterations, and at 1/5000 s), while it
  carries a centred landing from 2 mm: a strict xfail below records it.
- Logo plaques (rounded ends, one convex hull each) were measured worse near an
  edge: a plaque released 2 mm above another stands with its centre of mass offset
  across the straight edge up to 0.8 of the way to it and falls from 0.9 (towards
  the rounded end: stands at 0.9, falls at 0.95), with every setting tried (1/240
  and 1/960 s, 50 and 200 iterations, polyhedral contacts with and without SAT,
  unwelded at 1/2000 s; a compound of a box and two half-disc hulls was worse).
  Bullet finds one contact point per step between two hulls, so a flat landing
  near an edge rocks the plaque.  The near-critical towers here are of letters
  (boxes, whose contacts Bullet finds whole); the README lists the limit.
"""
from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
import shapely.geometry as sg
from scipy.spatial.transform import Rotation

from balance3d.games.tower import physics as tower
from balance3d.physics.impacts import RigidBody, overturned
from balance3d.physics.world import InvalidStateError, World, WorldError
from balance3d.scene import load_scene

TOWER = load_scene("tower")
SETTINGS = TOWER.physics
G = SETTINGS.gravity
BASE = "base_1"
BASE_SPEC = next(spec for spec in TOWER.bodies if spec.name == BASE)
BASE_XY = np.asarray(BASE_SPEC.position[:2])
BASE_TOP = BASE_SPEC.position[2] + TOWER.parts[BASE_SPEC.part].extents[2] / 2
LOGO, LETTER_H = TOWER.parts["logo"], TOWER.parts["letter_H"]
LETTERS = [TOWER.parts[name] for name in TOWER.rules["letter_parts"]]
FLAT = (0.0, 0.0, 0.0, 1.0)
#: s, the unwelded reference's time step, and its settings.
REFERENCE_STEP = 1.0 / 2000.0
REFERENCE = SETTINGS.replace(weld=False, time_step=REFERENCE_STEP)
#: m, each piece is released this far above what lies under it.
DROP_GAP = 0.002
#: Flat tower: pieces, how long it must stand (s), how far its top may move (m).
FLAT_PIECES, FLAT_TIME, FLAT_DRIFT = 24, 60.0, 0.002
#: Flat towers built off the plinth's axis, every piece shifted the same: (m along
#: x, degrees turned about z).
OFF_AXIS = [(0.0002, 0.0), (0.0004, 2.0)]
#: Near-critical tower: centred pieces under the overhang, offset pieces above it;
#: the offset as fractions of the critical overhang that stand / fall.
LOWER_PIECES, UPPER_PIECES = 4, 8
OVERHANG_STANDS, OVERHANG_FALLS = 0.95, 1.05
#: m: a dropped piece comes to rest this close to where it was released above
#: (measured: 0.08 mm).
PLACEMENT_TOLERANCE = 1e-4
#: s, how long a built tower is watched; m, how far its pieces may move meanwhile
#: (and how far from its stacked height a piece of a standing tower may rest).
WATCH_TIME, STAND_TOLERANCE = 3.0, 0.001
#: m, a piece on edge has its centre of mass this far inside / outside the edge of
#: the piece it stands on.
EDGE_OFFSET = 0.001
#: Careless landings: the piece lands CARELESS_OFFSET (m) further out than the
#: tower's axis, from heights at these fractions of the height that mechanics says
#: overturns the tower.
CARELESS_OFFSET = 0.005
CARRIED, OVERTURNING = 0.5, 2.0


def plinth_world(settings=SETTINGS) -> World:
    """The table and one plinth (BASE) of the Tower scene."""
    world = World(settings)
    for spec in TOWER.bodies:
        if spec.name in ("table", BASE):
            part = TOWER.parts[spec.part]
            world.add(spec.name, part, spec.position, static=part.static)
    return world


def drop(world: World, name: str, part, xy, orientation=FLAT, gap: float = DROP_GAP) -> None:
    """Release ``part`` ``gap`` above what lies under it, centre of mass over ``xy``,
    and settle (a fall off the table counts as settled)."""
    world.drop(name, part, tower.release_position(world, part, xy, orientation, gap),
               orientation)
    try:
        world.settle()
    except InvalidStateError:
        pass


def watched_moves(world: World, names: list[str], seconds: float) -> float:
    """m: the furthest any of ``names`` moves over ``seconds`` (inf off the table)."""
    start = {n: world.pose(n)[0] for n in names}
    try:
        world.step(round(seconds / world.settings.time_step))
        world.check_invalid_state()
    except InvalidStateError:
        return math.inf
    return max(float(np.linalg.norm(world.pose(n)[0] - start[n])) for n in names)


# ---------------------------------------------------------------- a flat tower
def flat_part(i: int):
    """The ``i``-th piece of the flat tower: letters (T, L, H in turn) and logos
    alternating, a letter first."""
    return LETTERS[(i // 2) % len(LETTERS)] if i % 2 == 0 else LOGO


def test_24_pieces_built_flat_by_drops_stand_for_a_minute():
    """12 letters (T, L, H in turn) and 12 logos, alternating, each centred on the
    plinth: each rests one thickness above the last, and the top stays within
    FLAT_DRIFT for FLAT_TIME."""
    world = plinth_world()
    names = []
    for i in range(FLAT_PIECES):
        names.append(f"p{i}")
        drop(world, names[-1], flat_part(i), BASE_XY)
    thickness = LOGO.extents[2]
    for i, name in enumerate(names):
        position = world.pose(name)[0]
        assert position[2] == pytest.approx(BASE_TOP + (i + 0.5) * thickness,
                                            abs=FLAT_DRIFT), name
        assert np.linalg.norm(position[:2] - BASE_XY) <= PLACEMENT_TOLERANCE, name
    top = names[-1]
    height = tower.tower_height(world, BASE, names)
    assert height == pytest.approx(FLAT_PIECES * thickness, abs=FLAT_DRIFT)
    start = world.pose(top)[0]
    world.step(round(FLAT_TIME / SETTINGS.time_step))
    assert np.linalg.norm(world.pose(top)[0] - start) <= FLAT_DRIFT
    assert tower.tower_height(world, BASE, names) == pytest.approx(height, abs=FLAT_DRIFT)


@pytest.mark.parametrize("offset,yaw", OFF_AXIS)
def test_a_flat_tower_built_off_the_plinths_axis_stays_welded_and_stands(offset, yaw):
    """The flat tower above with every piece shifted ``offset`` along x and turned
    ``yaw`` about z: the same stack, so the centre of mass of every upper part lies
    as far inside its support (more than 10 mm) as on the axis.  While each piece
    lands and comes to rest, no piece under the one it lands on is unwelded (rigid
    statics holds the tower with it); each piece rests one thickness above the last,
    over the same point, and the top stays within FLAT_DRIFT for FLAT_TIME."""
    world = plinth_world()
    xy = BASE_XY + (offset, 0.0)
    turn = tuple(Rotation.from_euler("z", yaw, degrees=True).as_quat())
    names: list[str] = []
    for i in range(FLAT_PIECES):
        under = names[:-1]
        names.append(f"p{i}")
        part = flat_part(i)
        world.drop(names[-1], part, tower.release_position(world, part, xy, turn, DROP_GAP),
                   turn)
        for _ in world.settling():
            woken = [n for n in under if not world.is_welded(n)]
            assert not woken, f"{names[-1]} landing woke {woken}"
    thickness = LOGO.extents[2]
    for i, name in enumerate(names):
        position = world.pose(name)[0]
        assert position[2] == pytest.approx(BASE_TOP + (i + 0.5) * thickness,
                                            abs=FLAT_DRIFT), name
        assert np.linalg.norm(position[:2] - xy) <= PLACEMENT_TOLERANCE, name
    assert watched_moves(world, names[-1:], FLAT_TIME) <= FLAT_DRIFT


# ---------------------------------------------------------------- the critical overhang
def critical_overhang() -> float:
    """m: the offset along x at which the centre of mass of a column of H letters
    lies over the outer edge of the H under it (the H's half width: the edge of its
    leg is straight, and the column's centre of mass lies on its own axis)."""
    return LETTER_H.extents[0] / 2


def overhang_tower(fraction: float, settings=SETTINGS) -> tuple[World, list[str]]:
    """LOWER_PIECES H letters centred on the plinth, then UPPER_PIECES more, each
    centred ``fraction`` of the critical overhang further along +x."""
    world = plinth_world(settings)
    names = []
    offset = fraction * critical_overhang()
    for i in range(LOWER_PIECES + UPPER_PIECES):
        shift = offset if i >= LOWER_PIECES else 0.0
        names.append(f"h{i}")
        drop(world, names[-1], LETTER_H, BASE_XY + (shift, 0.0))
    return world, names


def stands(world: World, names: list[str]) -> bool:
    """Every piece at its stacked height and none moving STAND_TOLERANCE in
    WATCH_TIME."""
    thickness = LETTER_H.extents[2]
    if any(abs(world.pose(n)[0][2] - (BASE_TOP + (i + 0.5) * thickness)) > STAND_TOLERANCE
           for i, n in enumerate(names)):
        return False
    return watched_moves(world, names, WATCH_TIME) <= STAND_TOLERANCE


@cache
def built_overhang(fraction: float):
    """The near-critical tower at ``fraction``, built once, as a snapshot."""
    world, names = overhang_tower(fraction)
    return world.snapshot(), names


@pytest.mark.parametrize("fraction,expected", [(OVERHANG_STANDS, True), (OVERHANG_FALLS, False)])
def test_an_offset_upper_part_stands_inside_and_falls_beyond_the_critical_overhang(
        fraction, expected):
    snapshot, names = built_overhang(fraction)
    world = World.from_snapshot(snapshot, SETTINGS)
    if expected:
        upper, lower = names[LOWER_PIECES:], names[LOWER_PIECES - 1:LOWER_PIECES]
        margin = (1 - OVERHANG_STANDS) * critical_overhang()
        assert tower.support_margin(world, upper, lower) == pytest.approx(
            margin, abs=PLACEMENT_TOLERANCE)
    assert stands(world, names) == expected


def test_the_unwelded_fine_world_agrees_on_the_critical_overhang():
    for fraction, expected in ((OVERHANG_STANDS, True), (OVERHANG_FALLS, False)):
        world, names = overhang_tower(fraction, REFERENCE)
        assert stands(world, names) == expected, fraction


# ---------------------------------------------------------------- pieces on edge
def turned(part, design: Rotation) -> tuple[float, float, float, float]:
    """The body-frame orientation of ``part`` turned by ``design`` from its design
    frame (the frame its glyph is drawn in, z through its thickness)."""
    return tuple(float(v) for v in (design * Rotation.from_matrix(
        part.design_from_body[:3, :3])).as_quat())


#: Pieces stood on edge: the turn from the design frame (letters drawn in xy, upright
#: along y) to the pose they are released in.
UPRIGHT = Rotation.from_euler("x", 90, degrees=True)       # design +y up
UPSIDE_DOWN = Rotation.from_euler("x", -90, degrees=True)  # design -y up
ON_FOOT_END = Rotation.from_euler("y", 90, degrees=True)   # design +x down
#: degrees: a piece turned less than this from its release pose has stood.
STOOD_ANGLE_DEG = 5.0


def footprint_margin(part, orientation) -> float:
    """m: how far inside the convex hull of its lowest face (the vertices within
    1 um of its lowest point, in plan) the centre of mass of ``part`` lies, turned
    by ``orientation``; negative outside.  From the mesh alone."""
    points = Rotation.from_quat(orientation).apply(part.mesh.vertices)
    low = points[points[:, 2] <= points[:, 2].min() + 1e-6]
    hull = sg.MultiPoint(low[:, :2]).convex_hull
    centre = sg.Point(0.0, 0.0)
    distance = hull.exterior.distance(centre)
    return distance if hull.contains(centre) else -distance


def stood(world: World, name: str, orientation) -> bool:
    """Whether body ``name`` is still turned as released (within STOOD_ANGLE_DEG)."""
    turn = Rotation.from_quat(world.pose(name)[1]) * Rotation.from_quat(orientation).inv()
    return math.degrees(turn.magnitude()) < STOOD_ANGLE_DEG


@pytest.mark.parametrize("letter,design", [
    ("T", UPRIGHT), ("T", UPSIDE_DOWN), ("H", UPRIGHT), ("L", UPRIGHT), ("L", ON_FOOT_END)],
    ids=["T-on-its-stem", "T-on-its-bar", "H-on-its-legs", "L-on-its-foot",
         "L-on-the-end-of-its-foot"])
def test_a_piece_on_edge_on_a_flat_one_stands_when_its_footprint_holds_its_centre_of_mass(
        letter, design):
    """Released on edge, centre of mass over a logo lying flat: it stands when its
    centre of mass lies over the convex hull of the face it lands on (the H's two
    leg ends count as one footprint), and topples otherwise (the L on the end of its
    foot: its centre of mass is 22.5 mm up the glyph, the foot 15 mm high)."""
    part = TOWER.parts[f"letter_{letter}"]
    orientation = turned(part, design)
    margin = footprint_margin(part, orientation)
    assert abs(margin) > EDGE_OFFSET            # no knife edge among the cases
    world = plinth_world()
    drop(world, "flat", LOGO, BASE_XY)
    drop(world, "edge", part, BASE_XY, orientation)
    assert stood(world, "edge", orientation) == (margin > 0.0)
    assert stood(world, "flat", FLAT)


@pytest.mark.parametrize("outside,expected", [(-1, True), (1, False)])
def test_a_piece_on_edge_over_the_edge_of_a_flat_one_stands_while_its_centre_of_mass_is_over_it(
        outside, expected):
    """An upright L on its foot, across the straight outer edge of an H lying flat
    (its leg's edge, at half the H's width from its centre): its centre of mass
    EDGE_OFFSET inside that edge stands, EDGE_OFFSET outside topples."""
    part = TOWER.parts["letter_L"]
    orientation = turned(part, UPRIGHT)
    world = plinth_world()
    drop(world, "flat", LETTER_H, BASE_XY)
    edge = LETTER_H.extents[0] / 2
    drop(world, "edge", part, BASE_XY + (edge + outside * EDGE_OFFSET, 0.0), orientation)
    assert stood(world, "edge", orientation) == expected


# ---------------------------------------------------------------- placements on a tall tower
def world_inertia(world: World, name: str) -> np.ndarray:
    """(3, 3) kg m^2: body ``name``'s inertia about its centre of mass, world axes."""
    rotation = Rotation.from_quat(world.pose(name)[1]).as_matrix()
    return rotation @ np.diag(world.part(name).inertia) @ rotation.T


def overturns(world: World, names: list[str], part, xy, gap: float) -> bool:
    """Whether ``part``, released ``gap`` (m) above the column ``names`` (bottom
    first, on BASE) and landing flat with its centre of mass over ``xy``, overturns
    some upper part of it about an edge of its support, by rigid impact mechanics
    (:func:`balance3d.physics.impacts.overturned`): the landing is plastic but for
    the pair's restitution, and the upper part turns with the landed piece on it.
    A landing whose weight alone tips it counts too."""
    top = max(float(world.vertices(n)[:, 2].max()) for n in names)
    landed = RigidBody(part.mass, np.array([xy[0], xy[1], top + part.extents[2] / 2]),
                       np.diag(part.inertia))
    impulse = part.mass * math.sqrt(2.0 * G * gap) * (1.0 + part.material.restitution ** 2)
    hit = (landed.com, np.array([0.0, 0.0, -impulse]))
    for i in range(len(names)):
        upper, lower = names[i:], names[i - 1] if i else BASE
        points = np.array([ct.position_b if ct.body_b == lower else ct.position_a
                           for ct in world.contacts(upper[0], lower)])
        bodies = [RigidBody(world.part(n).mass, world.pose(n)[0], world_inertia(world, n))
                  for n in upper] + [landed]
        if overturned(bodies, points, np.array([0.0, 0.0, 1.0]),
                      part.material.friction ** 2, [hit], G):
            return True
    return False


def overturning_height(world: World, names: list[str], part, xy) -> float:
    """m: the least release gap from which :func:`overturns` says ``part`` landing
    over ``xy`` overturns the column ``names`` (bisection between 0 and 1 m)."""
    low, high = 0.0, 1.0
    assert not overturns(world, names, part, xy, low) and overturns(world, names, part, xy, high)
    for _ in range(30):
        middle = (low + high) / 2
        low, high = (low, middle) if overturns(world, names, part, xy, middle) else (middle, high)
    return high


def land_on(snapshot, names: list[str], settings, offset: float, gap: float) -> bool:
    """Restore the near-critical tower ``snapshot`` in a World of ``settings``, land
    an H on it ``offset`` (m) further out than its upper part's axis from ``gap``
    (m) above; returns whether the tower stood (every piece still within
    STAND_TOLERANCE of its height, WATCH_TIME later)."""
    world = World.from_snapshot(snapshot, settings)
    heights = {n: world.pose(n)[0][2] for n in names}
    axis = BASE_XY + (OVERHANG_STANDS * critical_overhang() + offset, 0.0)
    world.drop("landing", LETTER_H, tower.release_position(world, LETTER_H, axis, FLAT, gap))
    try:
        world.step(round(WATCH_TIME / settings.time_step))
        world.check_invalid_state()
    except InvalidStateError:
        return False
    return all(abs(world.pose(n)[0][2] - heights[n]) <= STAND_TOLERANCE for n in names)


def landing_xy(offset: float) -> np.ndarray:
    """(2,) m: ``offset`` further out than the near-critical tower's upper axis."""
    return BASE_XY + (OVERHANG_STANDS * critical_overhang() + offset, 0.0)


def test_a_gentle_placement_on_a_near_critical_tower_does_not_topple_it():
    """An H released DROP_GAP above the top of the tower at 0.95 of its critical
    overhang, on the axis of its upper part: mechanics, the World and the unwelded
    fine World all keep it standing."""
    snapshot, names = built_overhang(OVERHANG_STANDS)
    world = World.from_snapshot(snapshot, SETTINGS)
    assert not overturns(world, names, LETTER_H, landing_xy(0.0), DROP_GAP)
    assert land_on(snapshot, names, SETTINGS, 0.0, DROP_GAP)
    assert land_on(snapshot, names, REFERENCE, 0.0, DROP_GAP)


def test_a_piece_landing_too_far_out_topples_a_near_critical_tower_by_its_weight():
    """Released gently but CARELESS_OFFSET * 2 out: the landed piece's weight alone
    carries the upper part's centre of mass (1 mm inside the edge) past the edge."""
    snapshot, names = built_overhang(OVERHANG_STANDS)
    world = World.from_snapshot(snapshot, SETTINGS)
    offset = 2 * CARELESS_OFFSET
    assert offset / (UPPER_PIECES + 1) > (1 - OVERHANG_STANDS) * critical_overhang()
    assert overturns(world, names, LETTER_H, landing_xy(offset), 0.0)
    assert not land_on(snapshot, names, SETTINGS, offset, DROP_GAP)
    assert not land_on(snapshot, names, REFERENCE, offset, DROP_GAP)


@pytest.mark.parametrize("fraction,expected", [(CARRIED, True), (OVERTURNING, False)])
def test_a_careless_landing_topples_a_near_critical_tower_as_impact_mechanics_says(
        fraction, expected):
    """An H landing CARELESS_OFFSET out (its weight alone leaves the upper part's
    centre of mass 0.44 mm inside the edge): mechanics says it overturns the upper
    part from 44 mm (measured: 43.95 mm); the World stands from half of that and
    falls from twice it.  The unwelded fine World also falls from twice it."""
    snapshot, names = built_overhang(OVERHANG_STANDS)
    world = World.from_snapshot(snapshot, SETTINGS)
    gap = fraction * overturning_height(world, names, LETTER_H, landing_xy(CARELESS_OFFSET))
    assert land_on(snapshot, names, SETTINGS, CARELESS_OFFSET, gap) == expected
    if not expected:
        assert not land_on(snapshot, names, REFERENCE, CARELESS_OFFSET, gap)


@pytest.mark.xfail(strict=True, reason="known disagreement: the unwelded fine World topples "
                                       "where rigid impact mechanics and the World stand "
                                       "(README, Known limits)")
def test_the_unwelded_fine_world_carries_a_careless_landing_below_the_mechanics_limit():
    """Measured: the unwelded World at REFERENCE_STEP topples this tower from 0.1 of
    the height mechanics gives (4.4 mm), also with 200 solver iterations and at
    1/5000 s; a centred landing from DROP_GAP it carries."""
    snapshot, names = built_overhang(OVERHANG_STANDS)
    world = World.from_snapshot(snapshot, SETTINGS)
    gap = CARRIED * overturning_height(world, names, LETTER_H, landing_xy(CARELESS_OFFSET))
    assert land_on(snapshot, names, REFERENCE, CARELESS_OFFSET, gap)


# ---------------------------------------------------------------- four towers on one table
#: Pieces of the four towers: a tall one (CULPRIT) that a hand knocks over towards
#: the one on KNOCKED, and two short ones further away.
CULPRIT, KNOCKED = "base_0", "base_1"
FOUR_TOWERS = {CULPRIT: 24, KNOCKED: 14, "base_2": 3, "base_3": 3}
#: rad/s: the hand turns the tall tower about its plinth's edge on KNOCKED's side
#: (measured: from 0.5 to 1.5 rad/s it knocks KNOCKED alone; at 2 rad/s its pieces
#: also reach the tower beyond).
KNOCK_SPIN = 1.0
#: m: a piece that moved further than this was knocked (the scene's rule value).
KNOCK_TOLERANCE = TOWER.rules["knock_tolerance"]
#: m: a settled flat piece's top face is level to within this (rays cast on it and
#: its highest corner agree this closely).
LEVEL_TOLERANCE = 1e-6
#: m: a released piece lowered this much less than its gap touches nothing, this much
#: more overlaps what it lands on.
LOWERING_STEP = 1e-4
#: m: a restored piece is this close to where it stood (the engine's round trip of
#: a pose through its own units and the World's inertia priming, not physics).
RESTORE_TOLERANCE = 1e-9


def four_towers() -> tuple[World, dict[str, list[str]]]:
    """The Tower scene's table with FOUR_TOWERS built flat by drops (letters and
    logos alternating), centred on their plinths."""
    world = TOWER.build_world()
    towers = {}
    for base, count in FOUR_TOWERS.items():
        xy = next(spec.position[:2] for spec in TOWER.bodies if spec.name == base)
        towers[base] = [f"{base}/{i}" for i in range(count)]
        for i, name in enumerate(towers[base]):
            drop(world, name, LETTERS[(i // 2) % len(LETTERS)] if i % 2 == 0 else LOGO, xy)
    return world, towers


def test_a_collapse_that_knocks_another_tower_is_detected_and_that_tower_restored():
    """The tall tower, turned towards its neighbour at KNOCK_SPIN about its plinth's
    edge, falls on it: both are reported moved (by more than the scene's
    knock_tolerance), the short towers are not.  With the fallen pieces taken away,
    the knocked tower is put back exactly as it stood before the knock, and stands."""
    world, towers = four_towers()
    everything = [name for names in towers.values() for name in names]
    before, start = world.snapshot(), tower.poses(world, everything)
    assert not tower.moved_pieces(world, start, towers, KNOCK_TOLERANCE)
    culprit = next(spec for spec in TOWER.bodies if spec.name == CULPRIT)
    edge = np.array([*culprit.position[:2], BASE_TOP]) + (
        TOWER.parts[culprit.part].extents[0] / 2, 0.0, 0.0)
    for name in towers[CULPRIT]:
        arm = world.pose(name)[0] - edge
        world.set_velocity(name, (KNOCK_SPIN * arm[2], 0.0, -KNOCK_SPIN * arm[0]))
    assert not world.settle().timed_out
    moved = tower.moved_pieces(world, start, towers, KNOCK_TOLERANCE)
    assert set(moved) == {CULPRIT, KNOCKED}
    for name in moved[CULPRIT]:
        world.remove(name)
    tower.restore_pieces(world, before, towers[KNOCKED])
    for name in towers[KNOCKED]:
        assert tower.displacement(world.part(name), start[name],
                                  world.pose(name)) <= RESTORE_TOLERANCE, name
    world.step(round(WATCH_TIME / SETTINGS.time_step))
    standing = {base: names for base, names in towers.items() if base != CULPRIT}
    assert not tower.moved_pieces(world, start, standing, KNOCK_TOLERANCE)
    assert set(towers[KNOCKED]) <= set(world.welded_names)


# ---------------------------------------------------------------- the helpers' edges
def test_a_piece_is_released_its_gap_above_what_lies_under_its_footprint():
    """Flat on the plinth, then an upright L over the flat H's edge: the lowest
    point of each, as released, is DROP_GAP above the highest surface under it."""
    world = plinth_world()
    position = tower.release_position(world, LETTER_H, BASE_XY, FLAT, DROP_GAP)
    world.drop("flat", LETTER_H, position)
    assert world.vertices("flat")[:, 2].min() == pytest.approx(BASE_TOP + DROP_GAP, abs=1e-12)
    world.settle()
    top = float(world.vertices("flat")[:, 2].max())
    upright = turned(TOWER.parts["letter_L"], UPRIGHT)
    xy = BASE_XY + (LETTER_H.extents[0] / 2, 0.0)       # half of its foot over the table
    position = tower.release_position(world, TOWER.parts["letter_L"], xy, upright, DROP_GAP)
    world.drop("edge", TOWER.parts["letter_L"], position, upright)
    assert world.vertices("edge")[:, 2].min() == pytest.approx(top + DROP_GAP,
                                                               abs=LEVEL_TOLERANCE)


def test_a_piece_gone_from_the_world_counts_as_moved_and_a_lone_piece_has_no_support():
    """An H centred on an H rests on the whole H: its centre of mass half its width
    inside the support's edge."""
    world = plinth_world()
    drop(world, "a", LETTER_H, BASE_XY)
    drop(world, "b", LETTER_H, BASE_XY)
    start = tower.poses(world, ["a", "b"])
    assert tower.support_margin(world, ["b"], ["a"]) == pytest.approx(
        LETTER_H.extents[0] / 2, abs=STAND_TOLERANCE)
    world.remove("b")
    assert tower.moved_pieces(world, start, {"t": ["a", "b"]}, KNOCK_TOLERANCE) == {"t": ["b"]}
    drop(world, "c", LOGO, BASE_XY + (0.2, 0.0))        # on the table, away from "a"
    assert tower.support_margin(world, ["c"], ["a"]) == -math.inf


def test_a_piece_is_not_restored_into_a_body_that_moved_into_its_place():
    world = plinth_world()
    drop(world, "a", LOGO, BASE_XY)
    before = world.snapshot()
    world.set_pose("a", (*(BASE_XY + (0.2, 0.0)), LOGO.extents[2] / 2), FLAT)
    drop(world, "b", LETTER_H, BASE_XY)
    with pytest.raises(WorldError, match="'a'.*b lies where it stood"):
        tower.restore_pieces(world, before, ["a"])
    world.remove("b")
    tower.restore_pieces(world, before, ["a"])
    assert tower.displacement(LOGO, before_pose(before, "a"), world.pose("a")) <= RESTORE_TOLERANCE


def before_pose(snapshot, name: str):
    """(position, orientation) of body ``name`` in ``snapshot``."""
    state = next(b for b in snapshot.bodies if b.name == name)
    return np.asarray(state.position), np.asarray(state.orientation)


def test_a_piece_is_released_its_gap_above_the_first_thing_it_would_touch():
    """An upright T beside a stack of four Hs, its bar's end over the stack and its
    stem over the plinth: lowered straight down it meets the stack with its bar
    (45 mm up the T) before its stem reaches the plinth, after exactly the gap."""
    world = plinth_world()
    for i in range(4):
        drop(world, f"h{i}", LETTER_H, BASE_XY)
    part = TOWER.parts["letter_T"]
    upright = turned(part, UPRIGHT)
    xy = BASE_XY + (LETTER_H.extents[0] / 2 + part.extents[0] / 4, 0.0)
    position = tower.release_position(world, part, xy, upright, DROP_GAP)
    down = np.array([0.0, 0.0, 1.0])
    assert world.overlaps(part, tuple(position - (DROP_GAP - LOWERING_STEP) * down),
                          upright) == []
    assert world.overlaps(part, tuple(position - (DROP_GAP + LOWERING_STEP) * down),
                          upright) == ["h3"]


# ---------------------------------------------------------------- logo plaques near an edge
#: A logo offset across the straight side of the logo under it, as fractions of the
#: critical offset (half its width): stands / falls as mechanics says, and the
#: fraction from which the World wrongly drops it (module docstring).
LOGO_STANDS, LOGO_FALLS, LOGO_LIMIT = 0.8, 1.05, 0.9


def logo_stands_offset(fraction: float) -> bool:
    """A logo released DROP_GAP above a logo on the plinth, offset along y (across
    the lower one's straight side) by ``fraction`` of half its width: whether it
    rests flat on it."""
    world = plinth_world()
    drop(world, "lower", LOGO, BASE_XY)
    drop(world, "upper", LOGO, BASE_XY + (0.0, fraction * LOGO.extents[1] / 2))
    flat = BASE_TOP + 1.5 * LOGO.extents[2]
    return abs(world.pose("upper")[0][2] - flat) <= STAND_TOLERANCE and stood(world, "upper", FLAT)


@pytest.mark.parametrize("fraction,expected", [(LOGO_STANDS, True), (LOGO_FALLS, False)])
def test_a_logo_offset_on_a_logo_stands_inside_the_straight_edge_and_falls_beyond_it(
        fraction, expected):
    assert logo_stands_offset(fraction) == expected


@pytest.mark.xfail(strict=True, reason="known limit: a logo landing flat near an edge rocks "
                                       "over it (README, Known limits)")
def test_a_logo_landing_near_the_straight_edge_stands_while_its_centre_of_mass_is_over_it():
    assert logo_stands_offset(LOGO_LIMIT)
