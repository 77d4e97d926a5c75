"""What the window says about Tower: seat lines count the scene's pieces, the
prompts name the roll and the demanded shape, every Choose the game offers gets a
label naming what it does, and verdict lines tell a landing, a fall and a knock."""
from __future__ import annotations

import tomllib

from balance3d.games.base import Choose, Drop
from balance3d.games.tower import TowerState
from balance3d.games.tower.rules import CHOSEN_CARDS, EXTRA, SWAP, U_DECIDE, piece_part
from balance3d.games.tower.verdicts import TowerDropVerdict
from balance3d.gui.games import game_text
from balance3d.resources import scenes_dir

TEXT = game_text("tower")


def scene_rules():
    return tomllib.loads((scenes_dir() / "tower.toml").read_text())["rules"]


def test_seat_lines_count_the_pieces_each_player_is_dealt():
    rules = scene_rules()
    state = TowerState.arranged(3)
    letters, logos = rules["letters_per_player"], rules["logos_per_player"]
    for seat in range(3):
        line = TEXT.seat_line(state, seat)
        assert line.startswith(f"Player {seat + 1}  {letters + logos} pieces left "
                               f"({letters} letters, {logos} logos)")
        assert "tower 0.0 mm, 0 pieces, 0 vertical" in line
        assert "out" not in line.split("vertical")[1]


def test_the_seat_line_shows_a_built_tower_and_a_pending_card():
    state = TowerState.arranged(2)
    piece = next(p for p in state.hand(0) if "logo" in p)
    state.stage(0, [Drop(piece, -0.45, 0.0, 0.002, 0.0, "flat")])
    # a logo lying flat on the base: the tower is one thickness tall
    logo = tomllib.loads((scenes_dir() / "tower.toml").read_text())["parts"]["logo"]
    rules = scene_rules()
    line = TEXT.seat_line(state, 0)
    assert f"tower {logo['thickness'] * 1000:.1f} mm, 1 piece, 0 vertical" in line
    assert f"({rules['letters_per_player']} letters, {rules['logos_per_player'] - 1} logos)" \
        in line


def test_the_drop_prompt_names_the_roll_and_the_shape():
    state = TowerState.arranged(2)
    state.give_turn(1, "play 3", "logo")
    prompt = TEXT.prompt(state)
    assert prompt.startswith("Player 2 rolled play 3 / logo: drop a logo piece")
    assert "(3 to play)" in prompt


def test_give_penalty_offers_each_opponent_by_name():
    state = TowerState.arranged(3)
    state.give_turn(0, "give penalty", "letter")
    assert "choose the opponent" in TEXT.prompt(state)
    labels = [TEXT.decision_label(state, a) for a in state.legal_decisions()]
    assert labels == ["Give the penalty to Player 2", "Give the penalty to Player 3"]


def test_a_u_decide_card_offers_the_five_other_cards():
    state = TowerState.arranged(2)
    state.stack_deck([U_DECIDE])
    state.give_turn(0, "receive penalty", "letter")
    assert TEXT.prompt(state) == \
        "Player 2: choose the penalty Player 1's U-DECIDE card stands for"
    labels = [TEXT.decision_label(state, a) for a in state.legal_decisions()]
    assert labels == [f"Penalty: {card}" for card in CHOSEN_CARDS]


def test_an_extra_piece_card_asks_the_shape_then_the_drop():
    state = TowerState.arranged(2)
    state.stack_deck([EXTRA])
    state.give_turn(0, "receive penalty", "letter")
    assert "choose the shape of the extra piece Player 1 must play" in TEXT.prompt(state)
    labels = [TEXT.decision_label(state, a) for a in state.legal_decisions()]
    assert labels == ["A letter piece", "A logo piece"]
    verdict = state.apply(Choose("shape", "logo"))
    lines = TEXT.verdict_lines(verdict)
    assert lines[0] == "Player 2 chooses a logo piece for Player 1 to play"
    assert TEXT.prompt(state).startswith("Player 1 must play an extra piece: drop a logo piece")


def test_a_swap_card_labels_the_pieces_to_give():
    state = TowerState.arranged(2)
    state.stack_deck([SWAP])
    state.give_turn(0, "receive penalty", "letter")
    assert TEXT.prompt(state) == \
        "Player 1: choose the piece to give to Player 2 (swap to the left)"
    for action in state.legal_decisions():
        shape = piece_part(action.value).replace("_", " ")       # "letter T", "logo"
        assert TEXT.decision_label(state, action) == f"Give your {shape}"
    given = state.legal_decisions()[0].value
    lines = TEXT.verdict_lines(state.apply(state.legal_decisions()[0]))
    shape = piece_part(given).replace("_", " ")
    assert f"Player 1 gives a {shape} to Player 2" in lines
    assert not any(given in line for line in lines)


def test_a_landing_drop_says_where_it_rests_and_the_heights():
    state = TowerState.arranged(2)
    state.give_turn(0, "play 1", "letter")
    drop = state.legal_release()
    verdict = state.apply(drop)
    lines = TEXT.verdict_lines(verdict)
    shape = piece_part(drop.piece).replace("_", " ")
    assert lines[0] == f"the {shape} onto level 1"
    assert lines[1] == f"the {shape} landed: released onto level 1, rests on level 1"
    assert lines[-1] == "heights: " + ", ".join(f"{h * 1000:.1f} mm" for h in verdict.heights)


def test_a_fall_a_knock_and_a_player_out_are_told():
    verdict = TowerDropVerdict(
        player=0, summary="s", piece="p1.logo.3", release=[0.0, 0.0, 0.1], level=3,
        rests_on_level=None, fallen=["p1.logo.3", "p1.logo.2"],
        removed=["p1.logo.3", "p1.logo.2"], knocked={"1": ["p2.logo.1"]}, out=True,
        heights=[0.0, 0.015], settle_time=2.0, settle_timed_out=False, vertical_unmet=False)
    lines = TEXT.verdict_lines(verdict)
    assert "the logo fell (released onto level 3)" in lines
    assert "fell: logo, logo" in lines
    assert "left the game: logo, logo" in lines
    assert any(line.startswith("knocked tower of Player 2 (logo fell): restored")
               for line in lines)
    assert not any("p1." in line or "p2." in line for line in lines)
    assert "the whole tower fell: the player is out" in lines
    assert lines[-1] == "heights: 0.0 mm, 15.0 mm"


def test_the_end_prompt_ranks_by_height():
    parts = tomllib.loads((scenes_dir() / "tower.toml").read_text())["parts"]
    thickness = parts["logo"]["thickness"]
    assert parts["letter_T"]["thickness"] == thickness
    state = TowerState.arranged(2)
    # seat 1: two logos flat (two thicknesses); seat 0 then plays its last piece,
    # a letter, flat on its empty base (one thickness): the game ends
    logos = [p for p in state.hand(1) if "logo" in p][:2]
    state.stage(1, [Drop(p, -0.15, 0.0, 0.002, 0.0, "flat") for p in logos])
    state.keep_only(1, [])
    state.keep_only(0, [next(p for p in state.hand(0) if "letter" in p)])
    state.give_turn(0, "play 1", "letter")
    state.apply(state.legal_release())
    assert state.is_over
    ranking = (f"1. Player 2 {2 * thickness * 1000:.1f} mm (0 vertical), "
               f"2. Player 1 {thickness * 1000:.1f} mm (0 vertical)")
    assert TEXT.prompt(state) == ("the game ends: every piece has been played or removed; "
                                  f"ranking: {ranking}")
    # the result the HUD shows: heights in mm, vertical pieces (the tie-break)
    assert TEXT.result_lines(state, {}) == [
        "Player 2 wins",
        "By height, then vertical pieces:",
        f"  1. Player 2  {2 * thickness * 1000:.1f} mm, 0 vertical",
        f"  2. Player 1  {thickness * 1000:.1f} mm, 0 vertical"]


def test_a_vertical_card_not_met_at_rest_is_told():
    """A piece played under a "next piece vertical" card that lies flat at rest: the
    window says the card still asks for a vertical piece."""
    verdict = TowerDropVerdict(
        player=0, summary="s", piece="p1.logo.1", release=[0.0, 0.0, 0.1], level=2,
        rests_on_level=1, fallen=[], removed=[], knocked={}, out=False,
        heights=[0.03, 0.0], settle_time=1.0, settle_timed_out=False, vertical_unmet=True)
    assert ("the logo does not stand vertically: the penalty card still asks for a "
            "vertical piece next") in TEXT.verdict_lines(verdict)
