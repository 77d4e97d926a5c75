"""Tri-Ba-Lance's rules on real physics, in hand-built situations: the playable
default, invalid turns and counterweights, pieces sliding off, passing and being
out, every end condition and the score.  Expected values come from the rules
(``docs/rules/tribalance.md``) and from the plate's mechanics
(``tests/physics/test_plate.py``)."""
from __future__ import annotations

import dataclasses
import math

import pytest

from balance3d.games import IllegalActionError, Pass, Place, new_game
from balance3d.games.tribalance import TribalanceState
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.placing import read, release_pose, settle_still
from balance3d.games.tribalance.rules import FRAME_MIN_FORCE, FRAME_REST_GAP
from balance3d.meshes.part import Material
from balance3d.scene import load_scene

SCENE = load_scene("tribalance")
FIELDS = SCENE.rules["fields"]
#: degrees: the plate back near level once a returned piece is taken away (the
#: settled tilt of an empty plate is 0).
LEVEL_DEG = 0.1
#: Friction of the slippery pieces: they slide on the plate above atan(0.02) = 1.1
#: degrees of tilt, less than the tilt a heavy piece on an inner field gives.
SLIPPERY = 0.02


def drive(steps):
    """Run the generator ``steps`` to its end and return its value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def fields_numbered(number: int) -> list[int]:
    return [i for i, row in enumerate(FIELDS) if row[2] == number]


def weight_piece(state, seat: int, weight: int) -> str:
    return next(p for p in state.hand(seat) if p.startswith(f"{weight}w-"))


@pytest.mark.parametrize("number, weights", [(1, (1, 2, 3, 4, 5)), (2, (1,))])
def test_a_lone_piece_on_an_inner_field_is_valid(number, weights):
    """The playable default: any weight alone on the centre field (numbered 1), and
    weight 1 alone on a field numbered 2: 2.3 degrees by mechanics, where the
    frame is 3.4 degrees away (the scene's unit mass says why)."""
    state = TribalanceState.arranged(2, hands=[[1, 2, 3, 4, 5], [1]], first=0)
    for field in fields_numbered(number):
        for weight in weights:
            verdict = state.clone().apply(Place(weight_piece(state, 0, weight), field))
            assert verdict.valid, (weight, field, verdict.summary)
            assert verdict.points == weight * number
            assert verdict.frame_contacts == [] and not verdict.settle_timed_out


def test_a_heavy_piece_alone_on_a_corner_field_is_invalid_and_comes_back():
    state = TribalanceState.arranged(2, hands=[[5, 1], [1]], first=0)
    corner = fields_numbered(5)[0]       # the +y corner: corner 0 of the plate
    piece = weight_piece(state, 0, 5)
    before = state.scores
    verdict = state.apply(Place(piece, corner))
    assert not verdict.valid and verdict.points == 0
    assert verdict.frame_contacts == [{"kind": "corner", "index": 0}]
    assert verdict.tilt_direction_deg == pytest.approx(90.0, abs=2.0)   # down towards +y
    assert verdict.returned == [piece] and verdict.slid_off == []
    assert piece in state.hand(0) and piece not in state.placed
    assert corner in state.free_fields() and piece not in state.world.names
    assert verdict.tilt_after_deg < LEVEL_DEG
    assert state.scores == before and not verdict.out
    assert state.current_player == 1


#: degrees, the tilt at which the plate's side reaches the frame (6.14 by the gap,
#: 6.16 with both parts' collision margins: docs/rules/tribalance.md, Physics).
SIDE_CONTACT_DEG = 6.16


@pytest.mark.parametrize("side", [0, 1, 2])
def test_a_load_towards_a_side_puts_that_side_on_the_frame(side):
    """Weight 5 on the field numbered 3 straight towards the middle of side ``side``
    (joining corners ``side`` and ``side + 1``; corner 0 at +y, counter-clockwise
    from above), 0.090 m out, and weight 5 on the centre field: 16 degrees by the
    plate's mechanics, far past the 6.1 at which a side reaches the frame.  The plate slopes
    down towards that side's middle and rests on it: the verdict names the side
    (and may name its two ends), and the turn is invalid."""
    ends = [math.radians(90.0 + 120.0 * k) for k in (side, side + 1)]    # the corners
    middle = math.atan2(sum(map(math.sin, ends)), sum(map(math.cos, ends)))
    towards = [math.cos(middle), math.sin(middle)]

    def nearest(number: int) -> int:
        """The field of ``number`` whose direction from the centre is nearest to the
        side's middle (the centre field, at the centre, for number 1)."""
        return max(fields_numbered(number),
                   key=lambda i: (FIELDS[i][0] * towards[0] + FIELDS[i][1] * towards[1])
                   / max(math.hypot(FIELDS[i][0], FIELDS[i][1]), 1e-9))

    state = TribalanceState.arranged(2, hands=[[5], [5]], first=0)
    state.stage([Place(weight_piece(state, 1, 5), nearest(1))])
    verdict = state.apply(Place(weight_piece(state, 0, 5), nearest(3)))
    assert not verdict.valid
    assert [c for c in verdict.frame_contacts if c["kind"] == "side"] == \
        [{"kind": "side", "index": side}]
    assert {c["index"] for c in verdict.frame_contacts if c["kind"] == "corner"} <= \
        {side, (side + 1) % 3}
    assert verdict.tilt_deg == pytest.approx(SIDE_CONTACT_DEG, abs=0.05)
    direction = (verdict.tilt_direction_deg - math.degrees(middle) + 180.0) % 360.0 - 180.0
    assert direction == pytest.approx(0.0, abs=2.0)


def test_counterweights_make_the_same_placement_valid():
    """Weight-1 pieces on the two other corner fields balance a weight-1 on the
    third, which alone puts its corner on the frame (8 degrees by mechanics): the
    three moments cancel by symmetry."""
    state = TribalanceState.arranged(3, hands=[[1], [1], [1]], first=0)
    top, left, right = fields_numbered(5)
    assert not state.clone().apply(Place(weight_piece(state, 0, 1), top)).valid
    state.stage([Place(weight_piece(state, 1, 1), left), Place(weight_piece(state, 2, 1), right)])
    verdict = state.apply(Place(weight_piece(state, 0, 1), top))
    assert verdict.valid and verdict.points == 5, verdict.summary
    assert verdict.frame_contacts == []
    assert verdict.tilt_deg < LEVEL_DEG


def test_pieces_that_slide_off_go_back_to_their_owners():
    """Slippery pieces: the placed heavy piece tilts the plate beyond their sliding
    angle, they slide off, and each goes back to its owner's hand."""
    slippery = Material("ice", density=650.0, friction=SLIPPERY, restitution=0.1)
    parts = dict(SCENE.parts)
    for name in SCENE.rules["piece_parts"]:
        parts[name] = dataclasses.replace(parts[name], material=slippery)
    scene = dataclasses.replace(SCENE, parts=parts)
    state = TribalanceState.arranged(2, scene=scene, hands=[[5, 1], [1]], first=0)
    mine, theirs = weight_piece(state, 0, 5), weight_piece(state, 1, 1)
    state.stage([Place(theirs, fields_numbered(2)[0])])
    assert theirs in state.placed
    verdict = state.apply(Place(mine, fields_numbered(4)[0]))
    slid = {item["piece"]: item["owner"] for item in verdict.slid_off}
    assert slid.get(theirs) == 1
    assert theirs in state.hand(1) and theirs not in state.placed
    assert mine in verdict.returned and mine in state.hand(0)
    assert all(p in state.world.names for p in state.placed)


def test_a_taken_field_and_a_piece_not_held_are_refused_and_change_nothing():
    state = TribalanceState.arranged(2, hands=[[1, 2], [1]], first=0)
    state.apply(Place(weight_piece(state, 0, 1), 0))
    before = state.to_json()
    for action, reason in [(Place(weight_piece(state, 1, 1), 0), "field 0 is taken"),
                           (Place(weight_piece(state, 0, 2), 1), "is not yours"),
                           (Place(weight_piece(state, 1, 1), len(FIELDS)),
                            "field must be a field")]:
        ok, why = state.is_legal(action)
        assert not ok and reason in why
        with pytest.raises(IllegalActionError):
            state.apply(action)
    assert state.to_json() == before


def test_score_counts_points_on_the_plate_minus_the_weights_still_held():
    state = TribalanceState.arranged(2, hands=[[1, 2], [3]], first=0)
    state.apply(Place(weight_piece(state, 0, 1), fields_numbered(1)[0]))   # 1 x 1
    state.apply(Pass())                                                    # seat 1 out
    state.apply(Pass())                                                    # seat 0 out
    assert state.is_over and state.outcome.termination == "all_done"
    assert state.outcome.scores == (1 * 1 - 2, -3)
    assert state.outcome.ranks == (1, 2)


def test_equal_scores_share_the_rank():
    state = TribalanceState.arranged(2, hands=[[2], [2]], first=0)
    state.apply(Pass())
    assert state.out == [0] and state.current_player == 1
    state.apply(Pass())
    assert state.outcome.scores == (-2, -2) and state.outcome.ranks == (1, 1)


def test_the_game_ends_when_everyone_has_placed_everything():
    state = TribalanceState.arranged(2, hands=[[1], [1]], first=0)
    state.apply(Place(weight_piece(state, 0, 1), 0))
    assert not state.is_over and state.current_player == 1
    state.apply(Place(weight_piece(state, 1, 1), 1))
    assert state.is_over and state.outcome.termination == "all_done"
    assert state.outcome.scores == (1 * FIELDS[0][2], 1 * FIELDS[1][2])


def test_after_someone_has_placed_everything_an_invalid_turn_puts_its_player_out():
    state = TribalanceState.arranged(2, hands=[[1], [5, 1]], first=0)
    state.apply(Place(weight_piece(state, 0, 1), 0))          # seat 0 has placed all
    verdict = state.apply(Place(weight_piece(state, 1, 5), fields_numbered(5)[0]))
    assert not verdict.valid and verdict.out and state.out == [1]
    assert state.is_over and state.outcome.termination == "all_done"
    assert state.outcome.scores == (1, -6)


def test_before_anyone_has_placed_everything_an_invalid_turn_only_returns_the_piece():
    state = TribalanceState.arranged(2, hands=[[5, 1], [1, 1]], first=0)
    verdict = state.apply(Place(weight_piece(state, 0, 5), fields_numbered(5)[0]))
    assert not verdict.valid and not verdict.out and state.out == []
    assert state.current_player == 1


def test_a_full_round_without_a_valid_turn_ends_the_game():
    state = TribalanceState.arranged(3, hands=[[5], [5], [5]], first=0)
    corners = fields_numbered(5)
    for seat in range(3):
        assert not state.is_over and state.current_player == seat
        assert not state.apply(Place(weight_piece(state, seat, 5), corners[seat])).valid
    assert state.is_over and state.outcome.termination == "no_valid_round"
    assert state.outcome.scores == (-5, -5, -5) and state.outcome.ranks == (1, 1, 1)


def test_a_valid_turn_starts_the_round_again():
    state = TribalanceState.arranged(2, hands=[[5, 1], [5, 1]], first=0)
    corner = fields_numbered(5)[0]
    assert not state.apply(Place(weight_piece(state, 0, 5), corner)).valid
    assert state.apply(Place(weight_piece(state, 1, 1), 0)).valid
    assert not state.apply(Place(weight_piece(state, 0, 5), corner)).valid
    assert not state.is_over            # seat 1's valid turn came between


def test_the_bundled_plate_has_a_field_for_every_piece_in_play():
    """At least as many fields as pieces (rules: 13 each for 2 players, 9 each for
    3), so that every piece can be placed; numbered 1..5 outwards, the corners 5."""
    assert len(FIELDS) >= max(2 * 13, 3 * 9)
    corners = sorted(FIELDS, key=lambda row: -math.hypot(row[0], row[1]))[:3]
    assert [row[2] for row in corners] == [5, 5, 5]
    by_distance = sorted(FIELDS, key=lambda row: math.hypot(row[0], row[1]))
    assert [row[2] for row in by_distance] == sorted(row[2] for row in FIELDS)


def test_the_game_ends_when_every_field_is_taken():
    """The bundled plate has more fields than pieces in play, so a scene of its
    seven inner fields: the centre and the ring of six round it.  The ring holds
    equal weights, so the plate stays balanced by symmetry; the last piece on the
    last free field fills the plate."""
    inner = FIELDS[:7]
    assert [row[2] for row in inner] == [1, 2, 2, 2, 2, 2, 2]
    scene = load_scene("tribalance", overrides={"rules.fields": inner})
    state = TribalanceState.arranged(2, scene=scene, first=0)
    by_number = {1: 1, 2: 2}
    pools = [sorted(state.hand(0)), sorted(state.hand(1))]
    staged = []
    for field, row in enumerate(inner):
        weight = by_number[row[2]]
        seat = 0 if any(p.startswith(f"{weight}w-") for p in pools[0]) else 1
        piece = next(p for p in pools[seat] if p.startswith(f"{weight}w-"))
        pools[seat].remove(piece)
        staged.append(Place(piece, field))
    last = staged.pop(0)                       # a weight-1 piece of seat 0, field 0
    state.stage(staged)
    verdict = state.apply(last)
    assert verdict.valid, verdict.summary
    assert state.is_over and state.outcome.termination == "plate_full"
    assert state.free_fields() == [] and len(state.placed) == len(inner)


def test_two_and_three_players_get_the_rules_piece_sets():
    for players, counts in [(2, (3, 3, 3, 3, 1)), (3, (2, 2, 2, 2, 1))]:
        state = new_game("tribalance", players=players)
        for seat in range(players):
            weights = [int(p.split("w-")[0]) for p in state.hand(seat)]
            assert tuple(weights.count(w) for w in range(1, 6)) == counts
        assert state.current_player == 0 and state.scores == tuple(
            -sum(w * c for w, c in zip(range(1, 6), counts)) for _ in range(players))


def test_the_release_area_is_one_region_per_free_field_around_it():
    state = TribalanceState.arranged(2, hands=[[1], [1]], first=0)
    state.apply(Place(weight_piece(state, 0, 1), 4))
    area = state.release_area()
    assert area["kind"] == "plate_field"
    assert [r["field"] for r in area["regions"]] == [i for i in range(len(FIELDS)) if i != 4]
    for region in area["regions"]:
        x, y, number = FIELDS[region["field"]]
        assert region["number"] == number
        cx = sum(p[0] for p in region["polygon"]) / len(region["polygon"])
        cy = sum(p[1] for p in region["polygon"]) / len(region["polygon"])
        # the plate tilts by under a degree: seen from above a field moves < 0.1 mm
        assert math.hypot(cx - x, cy - y) < 2e-3


def test_a_touch_of_the_frame_while_the_plate_swings_does_not_count():
    """Released at rest on the level plate, a weight-1 piece on a field numbered 2
    swings the plate past its settled tilt (2.3 degrees) onto the frame (reached at
    about 3.4 degrees in that direction, 30 degrees off a corner); the plate comes
    back and settles clear of it, and only that still state is judged."""
    state = TribalanceState.arranged(2, hands=[[1], [1]], first=0)
    turn = state.begin(Place(weight_piece(state, 0, 1), fields_numbered(2)[0]))
    touched = False
    while not turn.done:
        turn.advance(1)
        touched = touched or any(ct.distance <= FRAME_REST_GAP or ct.normal_force > 0.0
                                 for ct in state.world.contacts("plate", "frame"))
    assert touched
    assert turn.verdict.valid and turn.verdict.frame_contacts == []


#: The bundled scene as it stood when a rim merely near the frame was read as resting
#: on it: the frame's top 12 mm below the level plate and 5 g per weight unit.  At
#: these values a weight-4 piece 65 mm from the centre towards corner 0 settles at
#: 2.94 degrees, 0.33 mm short of the 3.02 at which the corner meets the frame.
NEAR_MISS_SCENE = load_scene("tribalance", overrides={
    "bodies[name=frame].position[2]": 0.158, "rules.unit_mass": 0.005,
    **{f"parts.piece_{w}.mass": w * 0.005 for w in (1, 2, 3, 4, 5)}})


def judged_alone(weight: int, y: float):
    """``(reading, contacts)``: a weight-``weight`` piece of seat 0 released alone
    ``y`` m from the plate's centre towards corner 0 (+y) in the near-miss scene,
    settled until the plate is still and judged; ``contacts`` are the World's
    plate-frame contact points within 1 cm (measured gap and force)."""
    state = TribalanceState.arranged(2, scene=NEAR_MISS_SCENE, hands=[[weight], [1]],
                                     first=0)
    piece = weight_piece(state, 0, weight)
    world = state.fresh_world()
    part = state.piece_part(piece)
    world.drop(piece, part, *release_pose(PlateFrame.of(world, state.side), part, 0.0, y,
                                          state.rules.release_gap))
    settled = drive(settle_still(world, state.rules))
    assert not settled.timed_out
    return (read(world, state.rules, state.side, [piece]),
            world.contacts("plate", "frame", max_distance=0.01))


def test_a_plate_near_the_frame_but_bearing_nothing_is_clear_of_it():
    """Resting on the frame means bearing on it: the still plate's corner 0.33 mm
    above the frame (inside the engine's 0.5 mm contact distance), with 0 N between
    them, does not rest on it."""
    reading, contacts = judged_alone(4, 0.065)
    assert contacts, "the rim should be within the engine's contact distance"
    gap = min(ct.distance for ct in contacts)
    assert 0.2e-3 < gap < 0.5e-3
    assert all(ct.normal_force == 0.0 for ct in contacts)
    assert reading.frame == []
    assert math.degrees(reading.tilt) == pytest.approx(2.94, abs=0.03)


def test_a_load_that_presses_the_plate_onto_the_frame_rests_on_it():
    """Weight 5 at 125 mm towards corner 0 would tilt the free plate by 6.9 degrees
    by mechanics, far past the 3.02 at which the corner meets the frame: the World
    has the corner pressing on it, with force, and the judge reads corner 0."""
    reading, contacts = judged_alone(5, 0.125)
    assert max(ct.normal_force for ct in contacts) > FRAME_MIN_FORCE
    assert min(ct.distance for ct in contacts) <= 0.0
    assert reading.frame == [{"kind": "corner", "index": 0}]
    assert math.degrees(reading.tilt) == pytest.approx(3.02, abs=0.05)
