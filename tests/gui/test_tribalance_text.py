"""Tri-Ba-Lance's words in the window, against the state's and the verdicts' facts."""
from __future__ import annotations

import pytest

from balance3d.games.base import Pass, Place
from balance3d.games.tribalance import TribalanceState
from balance3d.gui.games import game_text

TEXT = game_text("tribalance")


def piece(state, seat, weight):
    return next(p for p in state.hand(seat) if p.startswith(f"{weight}w-"))


def test_seat_lines_count_the_pieces_left_their_weight_and_the_points():
    state = TribalanceState.arranged(2, hands=[[1, 3, 5], [2]], first=0)
    # score: held pieces count minus their weight (rules: -1 -3 -5 = -9)
    assert TEXT.seat_line(state, 0) == "Player 1  -9 points  3 pieces left (weight 9)"
    assert TEXT.seat_line(state, 1) == "Player 2  -2 points  1 piece left (weight 2)"


def test_a_valid_placement_scores_weight_times_number_in_words():
    state = TribalanceState.arranged(2, hands=[[2, 1], [1]], first=0)
    verdict = state.apply(Place(piece(state, 0, 2), 0))     # field 0 is numbered 1
    lines = TEXT.verdict_lines(verdict)
    assert verdict.valid and lines[0] == "Player 1's weight-2 piece on a 1: valid, +2 points"
    assert lines[1].startswith(f"valid: the plate tilts {verdict.tilt_deg:.2f} degrees, "
                               f"down towards ")
    assert "degrees, clear" not in lines[1]                 # a direction, not an angle
    assert lines[1].endswith("2 points")                    # weight 2 x number 1
    # the seat line follows: 2 points on the plate minus the held weight-1 piece
    assert TEXT.seat_line(state, 0) == "Player 1  1 point  1 piece left (weight 1)"


def test_an_invalid_placement_names_where_the_plate_rests_and_what_went_back():
    # a weight-5 piece alone on a corner field (number 5) puts that corner down
    state = TribalanceState.arranged(2, hands=[[5], [1]], first=0)
    corner_piece = piece(state, 0, 5)
    corner = max(range(len(state.rules.fields)), key=lambda i: state.rules.fields[i].y)
    verdict = state.apply(Place(corner_piece, corner))      # the +y corner
    assert not verdict.valid
    lines = TEXT.verdict_lines(verdict)
    # two players: seat 1 sits at the back corner (+y), where the plate goes down
    assert "down towards Player 2's corner" in lines[1]
    assert "rests on the frame at the back corner" in lines[1]
    assert "back to their owners: Player 1's weight-5 piece" in lines
    assert lines[0] == "Player 1's weight-5 piece on a 5: invalid"


def test_the_prompt_offers_placing_or_passing_and_the_pass_label_says_out():
    state = TribalanceState.arranged(3, first=1)
    prompt = TEXT.prompt(state)
    fields = len(state.rules.fields)                        # every field is free
    assert prompt.startswith(f"Player 2: place a piece on a free field ({fields} free)")
    assert "pass" in prompt
    assert TEXT.decision_label(state, Pass()) == "Pass (be out)"


def test_after_the_end_the_prompt_is_the_end_event():
    state = TribalanceState.arranged(2, hands=[[1], [1]], first=0)
    state.apply(Pass())
    state.apply(Pass())
    assert state.is_over
    assert TEXT.prompt(state) == [e.text for e in state.events if e.kind == "end"][-1]


@pytest.mark.parametrize("players", [2, 3])
def test_every_field_has_a_name_of_its_own_by_painted_number_and_place(players):
    from balance3d.gui.games.tribalance.places import field_name

    state = TribalanceState.arranged(players, first=0)
    fields = state.rules.fields
    names = [field_name(state, i) for i in range(len(fields))]
    assert len(set(names)) == len(names)                      # no two fields alike
    for name, field in zip(names, fields):
        assert name.startswith(f"the {field.number} ")        # the painted number first
    # the corner fields painted 5: the back corner is seat 1's with 2 players
    # (seats sit clockwise from the front), a plain corner with 3 (seats on sides)
    fives = {names[i] for i, f in enumerate(fields) if f.number == 5}
    corner = "Player 2's corner" if players == 2 else "the back corner"
    assert f"the 5 at {corner}" in fives
    assert names[[i for i, f in enumerate(fields) if f.x == 0 and f.y == 0][0]] \
        == f"the {fields[0].number} in the middle"
