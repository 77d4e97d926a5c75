"""Every refusal a scripted game produces, as the window words it: no internal id
(of a piece, a field index, a body, an axis) in the words, a player's instruction
in each, and every rule the game refuses by words of its own (not the game's
sentence passed through).  The game's own sentence, ids and all, stays beside the
words for the log and the trace.

The script: random bots play the first turns of each game; before each turn every
piece the player may not take, the player's own piece released over a grid of
points across the table, at no height and too high, flat when a card says it must
stand, a decision when a drop is asked for and a drop when a decision is."""
from __future__ import annotations

import re

import numpy as np
import pytest

from balance3d.bots import make_bot
from balance3d.games import Choose, Drop, Place, new_game
from balance3d.gui.games import game_text, worded
from balance3d.gui.games.words import common_refusal

#: Ids that must never reach the window's words: a Tilted block ("6u-5"), a Tower
#: piece ("p4.letter_L.1"), a Tri-Ba-Lance piece ("5w-p2.1"), a Tower base
#: ("base_1"), a field by its index ("field 6"), a beam end by its axis ("-x end").
IDS = re.compile(r"\b\d+u-\d+\b|\bp\d+\.\w+\.\d+\b|\b\d+w-p\d+\.\d+\b|\bbase_\d\b"
                 r"|\bfield \d+\b|[+-]x\b")
#: Words that start what a refusal tells the player to do instead.
INSTRUCTIONS = re.compile(r"\b(pick|move|drop|choose|answer|raise|lower|point|wait|start"
                          r"|press|bid|pass|click)\b", re.IGNORECASE)
#: m: the grid of release points probed across the table, and its spacing.
GRID_HALF, GRID_STEP = 0.36, 0.06
#: How many actions the bots play in each game, and its seats.
TURNS = {"tilted": 6, "tower": 5, "tribalance": 6}
SEATS = {"tilted": 3, "tower": 2, "tribalance": 3}
#: The bot each game's script plays: Tri-Ba-Lance's random placements are mostly
#: invalid and go back to the hand, which would leave no field taken to refuse.
BOTS = {"tilted": "random", "tower": "random", "tribalance": "planner"}
#: Rules each game must refuse in its own words within the script.
EXPECTED = {"tilted": {"not_yours", "off_beam", "low_side", "height", "drop_asked",
                       "decision_asked"},
            "tower": {"not_yours", "off_base", "height"},
            "tribalance": {"not_yours", "field_taken"}}


def probes(state) -> list:
    """Actions the game refuses now, as a script tries them (see the docstring)."""
    out = []
    seat = state.current_player
    everyone = [p for s in range(len(state.players)) for p in state.hand(s)]
    legal = state.legal_pieces()
    decisions = state.legal_decisions()
    if "place" in state.game.action_types:
        fields = range(len(state.rules.fields))
        for piece in legal[:2]:
            out.extend(Place(piece, f) for f in fields)
        out.extend(Place(p, 0) for p in everyone if p not in legal)
        return out
    if decisions:
        piece = (state.hand(seat) or everyone)[0]
        return [Drop(piece, 0.0, 0.0, 0.01), Choose("nonsense", 1)]
    out.extend(Drop(p, 0.0, 0.0, 0.01) for p in everyone if p not in legal)
    out.append(Choose("buy", True))
    for piece in legal[:1]:
        for x in np.arange(-GRID_HALF, GRID_HALF + 1e-9, GRID_STEP):
            for y in np.arange(-GRID_HALF, GRID_HALF + 1e-9, GRID_STEP):
                out.append(Drop(piece, float(x), float(y), 0.01))
                out.append(Drop(piece, float(x), float(y), 0.01, 0.0, "flat"))
        area = state.release_area()
        if area and area["regions"]:
            x, y = np.mean(area["regions"][0]["polygon"], axis=0)
            out.extend([Drop(piece, float(x), float(y), 0.0),
                        Drop(piece, float(x), float(y), 1.0)])
    return out


def scripted_refusals(name: str) -> list:
    """``(state, reason, words)`` of every refusal of the script for game ``name``:
    a copy of the state as it was when refused, the game's reason, the window's
    words for it."""
    state = new_game(name, SEATS[name], seed=1)
    bots = [make_bot(BOTS[name], 1, s, game=name) for s in range(SEATS[name])]
    found = []
    for _ in range(TURNS[name]):
        if state.is_over:
            break
        before = state.clone()
        for action in probes(state):
            ok, reason = state.is_legal(action)
            if not ok:
                found.append((before, reason, worded(state, reason)))
        state.apply(bots[state.current_player].choose(state))
    return found


@pytest.fixture(scope="module", params=sorted(TURNS))
def refusals(request):
    return request.param, scripted_refusals(request.param)


def test_no_worded_refusal_shows_an_id_and_each_says_what_to_do(refusals):
    name, found = refusals
    assert found
    for _, reason, words in found:
        assert not IDS.search(words), (words, reason)
        assert INSTRUCTIONS.search(words), (words, reason)
        assert words.reason == reason            # the game's own, for the log and trace


def test_every_rule_refused_is_worded_by_the_game_not_passed_through(refusals):
    name, found = refusals
    codes = {reason.code for _, reason, _ in found}
    assert EXPECTED[name] <= codes, codes
    text = game_text(name)
    for state, reason, words in found:
        if reason.code not in ("malformed", "over", "running", "no_such_action"):
            assert words != common_refusal(reason), (reason.code, words)
        assert words == text.refusal(state, reason)
