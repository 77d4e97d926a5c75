"""Tilted's judge on the real physics: hand-built situations on the default scene.

Positions are given in the beam's frame: ``s`` m along the beam from its centre line
(the high side is ``s < 0``: every situation starts with the beam's +x end on the
table), ``t`` m across it.  Blocks are staged (``TiltedState.stage``) and then one
drop is played and judged.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.games import Drop, IllegalActionError
from balance3d.games.tilted import TiltedState, piece_length
from balance3d.games.tilted.judge import BEAM, FULCRUM, BeamFrame

ACROSS = math.pi / 2  # yaw of a block lying across the beam
#: The bundled scene's sections (scenes/tilted.toml, rules.sections): value ->
#: (from, to) m from the centre line.  Literals, so that a wrong rules parser fails
#: these tests instead of moving their targets.
SECTIONS = {3: (0.0125, 0.10), 2: (0.10, 0.20), 1: (0.20, 0.30)}
#: m, width of a painted section line (rules.line_width).
LINE_WIDTH = 0.002
#: Coins in the game (rules.coins).
COINS = 20


def drop(state: TiltedState, piece: str, s: float, t: float = 0.0, *, height: float = 0.002,
         yaw: float = 0.0, pose: str = "flat") -> Drop:
    """A drop of ``piece`` released above the beam point (s, t) (beam frame, m)."""
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(s, t, frame.half[2])])[0]
    return Drop(piece, float(x), float(y), height, yaw=yaw, pose=pose)


def game(hands=None, coins=None, bank=None) -> TiltedState:
    """Two players, seat 0 to play, the beam's +x end on the table."""
    return TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=hands, coins=coins,
                                bank=bank)


def block(verdict, piece: str) -> dict:
    return next(b for b in verdict.blocks if b["piece"] == piece)


@pytest.mark.parametrize("value", [3, 2, 1])
def test_a_block_in_each_section_of_the_empty_beam_tilts_it_and_earns_the_section(value):
    state = game()
    start, stop = SECTIONS[value]
    verdict = state.apply(drop(state, "1u-1", -(start + stop) / 2))
    assert verdict.tilted and verdict.beam_resting
    assert (verdict.low_end_before, verdict.low_end_after) == (+1, -1)
    assert block(verdict, "1u-1")["sections"] == [value]
    assert verdict.value == verdict.coins_won == value
    assert verdict.coins == [2 + value, 2]
    assert verdict.bank == COINS - 4 - value
    assert state.low_end == -1 and not verdict.returned


def test_a_block_on_a_section_line_counts_the_lower_section():
    state = game()
    line = SECTIONS[3][1]  # the line between sections 3 and 2
    verdict = state.apply(drop(state, "2u-1", -line))
    assert verdict.tilted
    assert block(verdict, "2u-1")["sections"] == [2, 3]
    assert verdict.coins_won == 2


def test_a_block_resting_on_another_earns_its_supporters_value():
    state = game(hands=[[6], [6, 3, 1]])
    state.stage([drop(state, "6u-2", 0.20, yaw=ACROSS),     # low side: holds the beam down
                 drop(state, "3u-2", -0.15, yaw=ACROSS)])   # high side, section 2
    assert state.low_end == +1
    # Released 5 mm up: the release height is measured under the corners and the
    # centre, and the supporter's sloped top rises 1.7 mm from its centre to its edge.
    verdict = state.apply(drop(state, "6u-1", -0.15, yaw=ACROSS, height=0.005))
    assert verdict.tilted
    top = block(verdict, "6u-1")
    assert top["sections"] == [] and top["supports"] == ["3u-2"]
    assert block(verdict, "3u-2")["sections"] == [2]
    assert verdict.value == verdict.coins_won == 2


def test_an_overhang_that_does_not_touch_a_section_keeps_the_higher_value():
    state = game(hands=[[4], [1, 2, 3]])
    state.stage([drop(state, "1u-2", 0.20, yaw=ACROSS), drop(state, "2u-2", -0.06)])
    assert state.low_end == +1
    # Lands on 2u-2 and sticks out over section 2 (5 mm up, as above).
    verdict = state.apply(drop(state, "4u-1", -0.07, height=0.005))
    assert verdict.tilted
    frame = BeamFrame.of(state.world)
    reach = np.abs(frame.to_beam(state.world.vertices("4u-1"))[:, 0]).max()
    line = SECTIONS[3][1] + LINE_WIDTH / 2
    assert reach > line, "the block must hang over section 2 for this test to mean anything"
    top = block(verdict, "4u-1")
    assert top["sections"] == [] and top["supports"] == ["2u-2"]
    assert block(verdict, "2u-2")["sections"] == [3]
    assert verdict.value == verdict.coins_won == 3


def test_blocks_knocked_off_go_back_to_the_supply_with_a_penalty_each():
    # Two upright 2u blocks stand on the high end, their bases 3 mm past it: while
    # the end is up their centres of mass lie over the beam, once it is down they lie
    # past the end.  The drop tips the beam, they fall onto the table, and the beam
    # tips back.
    state = game(hands=[[4], [6, 2, 2, 1]], coins=[1, 2])
    state.stage([drop(state, "6u-2", 0.25, yaw=ACROSS),
                 drop(state, "2u-2", -0.303, -0.0155, height=0.004, pose="upright"),
                 drop(state, "2u-3", -0.303, +0.0155, height=0.004, pose="upright")])
    assert state.low_end == +1 and state.on_beam == ["6u-2", "2u-2", "2u-3"]
    verdict = state.apply(drop(state, "4u-1", -0.20, yaw=ACROSS))
    assert [r["piece"] for r in verdict.returned] == ["2u-2", "2u-3"]
    assert all(r["reason"] == "touches the table" for r in verdict.returned)
    assert verdict.penalty_due == 2 and verdict.penalty_paid == 1   # all seat 0 had
    assert not verdict.tilted and verdict.coins_won == 0
    assert verdict.coins == [0, 2] and verdict.bank == COINS - 3 + 1
    assert state.supply.count("2u-2") == 1 and "2u-3" in state.supply
    assert state.on_beam == ["6u-2", "4u-1"]


def test_a_block_across_the_fulcrum_line_goes_back_to_the_supply():
    state = game()
    verdict = state.apply(drop(state, "6u-1", -0.004))
    assert verdict.returned == [{"piece": "6u-1", "reason": "lies across the fulcrum line"}]
    assert verdict.value is None and verdict.coins_won == 0
    assert verdict.penalty_paid == 1 and verdict.coins == [1, 2]
    assert "6u-1" in state.supply and state.on_beam == []


def test_a_block_across_the_line_carrying_another_stays_frozen_and_refuses_drops_above():
    state = game(hands=[[1, 2], [6, 1, 3, 4, 5]])
    state.stage([drop(state, "3u-2", 0.20, yaw=ACROSS),   # low side
                 drop(state, "6u-2", 0.0),                # across the centre line
                 drop(state, "1u-2", -0.03)])             # on 6u-2, high side
    verdict = state.apply(drop(state, "1u-1", -0.15))
    assert not verdict.returned
    assert verdict.frozen == ["6u-2", "1u-2"] == state.frozen
    assert block(verdict, "6u-2")["across"] and block(verdict, "6u-2")["frozen"]
    assert block(verdict, "1u-2")["supports"] == ["6u-2"]
    assert not block(verdict, "1u-1")["frozen"]
    assert state.current_player == 1
    high = -state.low_end
    before = state.to_json()
    for s in (0.06, 0.03):                  # above 6u-2, above 1u-2
        action = drop(state, "4u-2", high * s, yaw=ACROSS)
        ok, reason = state.is_legal(action)
        assert not ok and "frozen block" in reason
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    assert state.is_legal(drop(state, "4u-2", high * 0.25, yaw=ACROSS)) == (True, "")


def holding_moment(state: TiltedState) -> tuple[float, float]:
    """(kg m, m): the moment of every weight on the beam about the fulcrum contact,
    positive towards the low end, and the contact's x."""
    world = state.fresh_world()
    world.step(1)
    points = [c.position_a if c.body_a == BEAM else c.position_b
              for c in world.contacts(BEAM, FULCRUM)]
    pivot = float(np.mean([p[0] for p in points]))
    moment = sum(world.part(n).mass * (world.pose(n)[0][0] - pivot) * state.low_end
                 for n in world.dynamic_names)
    state.fresh_world()
    return moment, pivot


def release_moment(state: TiltedState, action: Drop, pivot: float) -> float:
    """Moment (kg m) of the dropped block's weight at release about ``pivot``,
    positive towards the high end."""
    mass = state.scene.parts[state.rules.block_parts[piece_length(action.piece) - 1]].mass
    return mass * (action.x - pivot) * -state.low_end


@pytest.mark.parametrize("staged, piece, s, tilts", [
    ([], "1u-1", 0.056, True),                      # empty beam, section 3
    ([("3u-2", 0.25)], "6u-1", 0.25, True),         # counterweight beaten
    ([("3u-2", 0.25)], "2u-1", 0.20, False),        # counterweight not beaten
])
def test_tilting_follows_the_lever_rule_moment_about_the_pivot_against_the_dead_band(
        staged, piece, s, tilts):
    state = game(hands=[[1, 2, 6], [3, 1]])
    state.stage([drop(state, p, ps, yaw=ACROSS) for p, ps in staged])
    assert state.low_end == +1
    hold, pivot = holding_moment(state)
    action = drop(state, piece, -s, yaw=ACROSS)
    ratio = release_moment(state, action, pivot) / hold
    # The measured facts are only claimed well away from the dead band's edge.
    assert ratio > 1.4 if tilts else ratio < 0.6
    verdict = state.apply(action)
    assert verdict.tilted is tilts
    assert verdict.coins_won == (verdict.value if tilts else 0)


def test_the_tilt_is_judged_before_returned_blocks_are_taken_away():
    """A crossing block helps the drop tip the beam, then goes back to the supply
    and the beam falls back: the tilt happened, so the coins are paid."""
    state = game(hands=[[3, 2, 1], [4, 6, 1]])
    state.stage([drop(state, "4u-2", 0.25, yaw=ACROSS),   # low side
                 drop(state, "6u-2", -0.07)])             # along the beam, across the line
    assert state.low_end == +1
    hold, pivot = holding_moment(state)
    action = drop(state, "3u-1", -0.27, yaw=ACROSS)        # section 1
    assert release_moment(state, action, pivot) / hold > 1.2
    verdict = state.apply(action)
    assert verdict.tilted and verdict.beam_resting
    assert verdict.returned == [{"piece": "6u-2", "reason": "lies across the fulcrum line"}]
    assert verdict.value == verdict.coins_won == 1
    assert verdict.penalty_paid == 1 and verdict.coins == [2 - 1 + 1, 2]
    # Without the crossing block the low side wins again: the beam is back on its
    # +x end for the next turn, read after the returned block was taken away.
    assert verdict.low_end_after == +1 == state.low_end
    assert verdict.settles == 2


def test_a_tip_caused_only_by_taking_a_returned_block_away_pays_nothing():
    """A crossing block holds the low side down; the drop does not beat it, but once
    the crossing block goes back the beam tips: the drop did not tilt it."""
    state = game(hands=[[3, 2, 1], [4, 6, 1]])
    state.stage([drop(state, "1u-2", 0.10, yaw=ACROSS),   # low side
                 drop(state, "6u-2", 0.074)])             # along the beam, across the line
    assert state.low_end == +1
    hold, pivot = holding_moment(state)
    action = drop(state, "2u-1", -0.12, yaw=ACROSS)
    assert release_moment(state, action, pivot) / hold < 0.6
    verdict = state.apply(action)
    assert not verdict.tilted and verdict.beam_resting
    assert verdict.returned == [{"piece": "6u-2", "reason": "lies across the fulcrum line"}]
    assert verdict.coins_won == 0 and verdict.coins == [1, 2]
    assert verdict.value == 2      # it stayed, in section 2 (0.10..0.20 m), unpaid
    assert verdict.low_end_after == -1 == state.low_end
