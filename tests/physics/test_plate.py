"""The Tri-Ba-Lance plate on its ball against mechanics, on the bundled scene's parts
and physics, read the way the game reads it (``settle_still`` and the judge).

The rolling balance.  A plate of mass M and thickness t rests on a fixed ball of
radius R; a piece of mass m stands on it at distance d from the plate's centre, its
centre of mass y_m above the plate's underside.  Tilted by theta, the plate touches
the ball where its underside is tangent to it: the plate has *rolled*, so the
contact point lies R theta along the underside from the plate's centre, towards the
load.  About that contact point the plate's weight acts at the lever
-(R theta) cos(theta) + (t/2) sin(theta) and the piece's at
(d - R theta) cos(theta) + y_m sin(theta); the plate is in balance when their
moments cancel.  For small angles (cos = 1, sin = theta):

    m (d - R theta + y_m theta) = M (R - t/2) theta
    theta = m d / (M (R - t/2) + m (R - y_m))

and for several pieces, each at its vector r_i on the plate, the plate tilts towards
sum m_i r_i by  |sum m_i r_i| / (M (R - t/2) + sum m_i (R - y_i)).

The frame.  Tilted by theta towards a direction in which the plate reaches h from
its centre (a corner: the circumradius; a side: the inradius), the rim's underside
there has come down by  R (1 - cos theta) + (h - R theta) sin theta  (the contact
point has rolled R theta towards it); the plate rests on the frame when that equals
the gap g between the level plate's underside and the frame's top.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.optimize import brentq

from balance3d.games.base import run_to_end
from balance3d.games.tribalance import judge
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.placing import release_pose, settle_still
from balance3d.games.tribalance.rules import PLATE, TribalanceRules
from balance3d.scene import load_scene

#: The mechanics are checked on the bundled plate, ball, frame and physics with the
#: pieces at 5 g per weight unit and on the 15 fields of an earlier layout (rings of
#: 3, numbered 1..5 outwards, 0.035 to 0.18 m from the centre): light enough that
#: single pieces on the inner fields rest clear of the frame.
EARLIER_FIELDS = [
    [0.0303, 0.0175, 1], [-0.0303, 0.0175, 1], [0.0, -0.035, 1],
    [0.0, 0.065, 2], [-0.0563, -0.0325, 2], [0.0563, -0.0325, 2],
    [0.0736, 0.0425, 3], [-0.0736, 0.0425, 3], [0.0, -0.085, 3],
    [0.0, 0.125, 4], [-0.1083, -0.0625, 4], [0.1083, -0.0625, 4],
    [0.0, 0.18, 5], [-0.1559, -0.09, 5], [0.1559, -0.09, 5],
]
LIGHT = {"rules.unit_mass": 0.005, "rules.fields": EARLIER_FIELDS,
         **{f"parts.piece_{w}.mass": w * 0.005 for w in range(1, 6)}}
SCENE = load_scene("tribalance", overrides=LIGHT)
RULES = TribalanceRules.from_scene(SCENE)
PARTS = {b.name: SCENE.parts[b.part] for b in SCENE.bodies}
POSITIONS = {b.name: np.asarray(b.position, float) for b in SCENE.bodies}
SIDE = float(SCENE.data["parts"]["plate"]["side"])
M = PARTS["plate"].mass
T = float(PARTS["plate"].extents[2])
R = float(PARTS["ball"].extents[0]) / 2
#: m, the level plate's underside above the frame's top (design origins: the plate's
#: mid-thickness, the frame's top face).
GAP = float(POSITIONS["plate"][2] - T / 2 - POSITIONS["frame"][2])
CORNER_REACH = SIDE / math.sqrt(3.0)

# ---------------------------------------------------------------- thresholds
#: The settled tilt within this fraction of the mechanics prediction.
TILT_TOLERANCE = 0.05
#: degrees, the settled down-slope direction within this of the load's direction.
DIRECTION_TOLERANCE_DEG = 2.0
#: Loads at these fractions of the one mechanics says puts a corner on the frame.
FRAME_BELOW, FRAME_ABOVE = 0.9, 1.1
#: s, the plate with one light piece must be still (as the game judges it) within
#: this at the scene's damping; at the shared default damping it is not.
SETTLE_BUDGET = 5.0
#: s, how long the plate is watched after it was judged still.
WATCH_TIME = 2.0


def piece(weight: int):
    return SCENE.parts[RULES.piece_parts[weight - 1]]


def predicted_tilt(loads: list[tuple[int, float, float]]) -> tuple[float, float]:
    """(angle rad, direction rad in the plate frame) of the small-angle balance for
    ``loads`` [(weight, x, y)] (see the module docstring)."""
    moment, stiffness = np.zeros(2), M * (R - T / 2)
    for weight, x, y in loads:
        m, h = piece(weight).mass, float(piece(weight).extents[2])
        moment += m * np.array([x, y])
        stiffness += m * (R - (T + h / 2))
    return float(np.linalg.norm(moment)) / stiffness, math.atan2(moment[1], moment[0])


def settled(loads, physics=None):
    """The scene's World with ``loads`` [(weight, x, y)] placed on the level plate,
    settled until still as the game does; (world, settle report)."""
    scene = SCENE if physics is None else dataclasses.replace(SCENE, physics=physics)
    world = scene.build_world()
    frame = PlateFrame.of(world, SIDE)
    for i, (weight, x, y) in enumerate(loads):
        pos, quat = release_pose(frame, piece(weight), x, y, RULES.release_gap)
        world.drop(f"p{i}", piece(weight), pos, quat)
    report = run_to_end(settle_still(world, RULES))
    return world, report


def tilt_of(world) -> tuple[float, float]:
    return judge.tilt(PlateFrame.of(world, SIDE))


def test_the_small_angle_formula_is_the_exact_balance_for_the_cases_tested():
    # the heaviest single load tested below, towards a corner
    m, h, d = piece(5).mass, float(piece(5).extents[2]), 0.05
    y_m = T + h / 2
    small = m * d / (M * (R - T / 2) + m * (R - y_m))
    exact = brentq(lambda th: m * ((d - R * th) * math.cos(th) + y_m * math.sin(th))
                   + M * (-R * th * math.cos(th) + T / 2 * math.sin(th)), 1e-6, 0.5)
    assert exact == pytest.approx(small, rel=0.01)


def test_the_empty_plate_rests_level_and_still():
    world, report = settled([])
    angle, _ = tilt_of(world)
    assert not report.timed_out
    assert math.degrees(angle) < RULES.still_angle_deg
    assert not judge.frame_contacts(world, PlateFrame.of(world, SIDE), RULES.corner_zone)


@pytest.mark.parametrize("weight, field", [(1, 0), (5, 0), (3, 3), (1, 12), (4, 6)])
def test_one_piece_tilts_the_plate_as_the_rolling_balance_says(weight, field):
    f = RULES.fields[field]
    world, report = settled([(weight, f.x, f.y)])
    angle, direction = tilt_of(world)
    expected, towards = predicted_tilt([(weight, f.x, f.y)])
    assert not report.timed_out
    assert not judge.frame_contacts(world, PlateFrame.of(world, SIDE), RULES.corner_zone)
    assert angle == pytest.approx(expected, rel=TILT_TOLERANCE)
    # the level plate's frame is the world's, so the directions compare directly
    turn = math.degrees(math.remainder(direction - towards, 2 * math.pi))
    assert abs(turn) <= DIRECTION_TOLERANCE_DEG


def test_the_plate_rolls_on_the_ball_rather_than_pivoting_on_a_pin():
    """Rolled by theta, the plate touches the ball R sin(theta) from the ball's top
    (horizontally) towards the load, and its centre lies R theta up the slope from
    that point; a plate pinned at its centre would touch at the top."""
    f = RULES.fields[6]
    world, _ = settled([(4, f.x, f.y)])
    angle, direction = tilt_of(world)
    contact = np.mean([ct.position_b for ct in world.contacts(PLATE, "ball")], axis=0)
    ball = np.asarray(world.pose("ball")[0])
    towards = np.array([math.cos(direction), math.sin(direction)])
    along = float(np.dot(contact[:2] - ball[:2], towards))
    assert along == pytest.approx(R * math.sin(angle), rel=TILT_TOLERANCE)
    underside_centre = PlateFrame.of(world, SIDE).to_world([(0.0, 0.0, -T / 2)])[0]
    assert float(np.linalg.norm(underside_centre - contact)) \
        == pytest.approx(R * angle, rel=TILT_TOLERANCE)


@pytest.mark.parametrize("loads", [[(3, 0), (2, 4)], [(2, 12), (5, 8)], [(1, 9), (1, 14)],
                                   [(5, 3), (4, 8)]])
def test_two_pieces_tilt_the_plate_towards_their_combined_moment(loads):
    placed = [(w, RULES.fields[i].x, RULES.fields[i].y) for w, i in loads]
    world, report = settled(placed)
    angle, direction = tilt_of(world)
    expected, towards = predicted_tilt(placed)
    assert not report.timed_out
    # Within the tolerance plus the still angle, the judge's own resolution (loads
    # that nearly cancel leave a tilt of a few times that angle).
    assert abs(angle - expected) <= TILT_TOLERANCE * expected + RULES.still_angle
    # As vectors (angle times the down-slope direction), the same way (a plate that
    # tilts little shows its direction less sharply).
    got = angle * np.array([math.cos(direction), math.sin(direction)])
    want = expected * np.array([math.cos(towards), math.sin(towards)])
    assert float(np.linalg.norm(got - want)) <= TILT_TOLERANCE * expected + RULES.still_angle


def corner_contact_tilt() -> float:
    """rad: the tilt towards a corner at which the corner reaches the frame."""
    return brentq(lambda th: R * (1 - math.cos(th))
                  + (CORNER_REACH - R * th) * math.sin(th) - GAP, 1e-6, 0.5)


@pytest.mark.parametrize("scale, valid", [(FRAME_BELOW, True), (FRAME_ABOVE, False)])
def test_a_load_just_below_the_frame_threshold_is_valid_and_just_above_is_not(scale, valid):
    """A weight-5 piece towards the +y corner: it puts the corner on the frame at
    d* = theta_c (M (R - t/2) + m (R - y_m)) / m, theta_c from the frame's gap.  At
    0.9 d* the still plate is clear of the frame; at 1.1 d* its corner 0 rests on
    it (judged only once the plate is still)."""
    m, h = piece(5).mass, float(piece(5).extents[2])
    theta_c = corner_contact_tilt()
    d_star = theta_c * (M * (R - T / 2) + m * (R - (T + h / 2))) / m
    world, report = settled([(5, 0.0, scale * d_star)])
    contacts = judge.frame_contacts(world, PlateFrame.of(world, SIDE), RULES.corner_zone)
    assert not report.timed_out
    if valid:
        assert contacts == []
        assert tilt_of(world)[0] < theta_c
    else:
        assert contacts == [{"kind": "corner", "index": 0}]


def test_the_plate_is_judged_only_once_still_and_stays_so():
    """``World.settle`` can end while the plate still rocks (its rest speeds allow
    a slow swing); the game's settle waits until the tilt holds within the still
    angle for the hold time, after which the plate keeps its tilt."""
    f = RULES.fields[0]
    world, report = settled([(1, f.x, f.y)])
    assert not report.timed_out and report.time <= SETTLE_BUDGET
    start = PlateFrame.of(world, SIDE).normal
    worst = 0.0
    for _ in range(round(WATCH_TIME / world.settings.time_step)):
        world.step()
        now = PlateFrame.of(world, SIDE).normal
        worst = max(worst, math.degrees(math.acos(min(1.0, float(np.dot(now, start))))))
    assert worst <= 2 * RULES.still_angle_deg


def test_the_shared_damping_leaves_the_plate_rocking_past_the_settle_budget():
    """The reason for the scene's damping (its file says more): at the shared
    default of 0.5 /s the same plate is not still within the budget."""
    default = SCENE.physics.replace(angular_damping=0.5,
                                    settle_max_time=SETTLE_BUDGET)
    f = RULES.fields[0]
    _, report = settled([(1, f.x, f.y)], physics=default)
    assert report.timed_out
