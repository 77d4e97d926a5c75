"""A player who holds blocks but has no legal drop is out, as a player with no block
is: the game goes on (and ends) instead of stalling.

The situation is built as a saved state: four 6u blocks lie along the beam's high
half, two rows of two, resting on its top face, and are listed as frozen (how they
came to be frozen does not matter to the drop check).  Seen from above they cover
the high half's full length and 50 of its 60 mm width, so every release point above
the high half puts a 1u-wide footprint over one of them.
"""
from __future__ import annotations

import json

import pytest

from balance3d.bots import make_bot
from balance3d.commands.report import describe_outcome
from balance3d.games import Choose, Drop, load_state
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame
from balance3d.record import Recorder
from balance3d.scene import body_pose

COVER = {"6u-2": (0.075, -0.0125), "6u-3": (0.225, -0.0125),
         "6u-4": (0.075, 0.0125), "6u-5": (0.225, 0.0125)}   # piece: (|s|, t) m


def covered(hands: list[list[int]], variant: str = "basic",
            cover: dict[str, tuple[float, float]] = COVER) -> TiltedState:
    """Seat 0 to decide whether to buy the 1u block a roll of 1 offers; the high
    half covered by the frozen blocks ``cover``."""
    state = TiltedState.arranged(len(hands), seed=0, variant=variant, low_end=+1, first=0,
                                 hands=hands, coins=[5] * len(hands))
    data = json.loads(state.to_json())
    frame = BeamFrame.of(state.world)
    _, beam_quat = state.world.pose("beam")
    part = state.scene.parts[state.rules.block_parts[5]]
    lift = float(min(part.extents)) / 2 + 1e-6
    for piece, (s, t) in cover.items():
        centre = frame.to_world([(-s, t, frame.half[2] + lift)])[0]
        pos, quat = body_pose(part, centre, tuple(beam_quat))
        data["world"]["bodies"].append({
            "name": piece, "part": part.name, "static": False, "position": list(pos),
            "orientation": list(quat), "linear_velocity": [0.0] * 3,
            "angular_velocity": [0.0] * 3})
        data["game_state"]["supply"].remove(piece)
    data["game_state"]["frozen"] = list(cover)
    data["game_state"]["phase"] = "buy"
    data["game_state"]["pending_size"] = {"roll": 1, "options": [1], "for": "buy"}
    return load_state(data)


def test_no_spot_on_the_high_half_is_legal_and_the_game_finds_none():
    state = covered([[1, 2], [1, 3]])
    frame = BeamFrame.of(state.world)
    for s in (0.01, 0.05, 0.15, 0.29):
        for t in (-0.029, 0.0, 0.029):
            x, y, _ = frame.to_world([(-s, t, frame.half[2])])[0]
            ok, reason = state.is_legal(Drop("1u-1", float(x), float(y), 0.01, pose="upright"))
            assert not ok and ("frozen block" in reason or "asks for" in reason)
    assert state._find_drop(0) is None and state._find_drop(1) is None
    assert state.legal_release() is None                   # the phase is "buy"


def test_a_player_without_a_legal_drop_is_out_and_the_last_one_left_wins():
    state = covered([[1, 2], [1, 3]])
    verdict = state.apply(Choose("buy", False))
    out = [e for e in state.events if e.kind == "eliminated"]
    assert [(e.player, e.data["reason"]) for e in out] == [(1, "no_legal_drop")]
    assert "has no legal drop" in out[0].text
    assert state.is_over and state.outcome.winners == (0,)
    assert state.hand(1) == ["1u-2", "3u-2"]               # out, holding blocks
    assert verdict.buy is False


def test_the_search_finds_the_one_uncovered_quarter():
    cover = {k: v for k, v in COVER.items() if k != "6u-5"}   # s 0.15..0.30 m, t > 0
    state = covered([[1, 2], [1, 3]], cover=cover)
    found = state._find_drop(1)
    assert found is not None and state._drop_reason(found, 1) is None
    frame = BeamFrame.of(state.world)
    s, t = frame.top_point_below(found.x, found.y)
    half = 0.0125                                           # the 1u block's half width
    assert -s >= 0.15 - half and t >= half - 1e-9           # clear of the frozen rows
    state.apply(Choose("buy", False))
    assert state.current_player == 1 and not state.eliminated


def test_players_with_a_legal_drop_play_on_and_the_game_finds_their_drop():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0)
    found = state.legal_release()
    assert isinstance(found, Drop) and state.is_legal(found) == (True, "")
    assert found.piece == "1u-1"                            # the smallest block held


@pytest.mark.parametrize("variant, hands", [("solo", [[1, 2]]),
                                             ("basic", [[1, 2], [1, 3], [2]])])
def test_random_bots_play_such_a_game_to_its_end(variant, hands):
    state = covered(hands, variant)
    bots = [make_bot("random", 0, seat) for seat in range(len(hands))]
    for _ in range(20):
        if state.is_over:
            break
        state.apply(bots[state.current_player].choose(state))
    assert state.is_over and state.outcome is not None
    assert {e.data["reason"] for e in state.events if e.kind == "eliminated"} \
        == {"no_legal_drop"}


def test_a_solo_game_ended_by_no_legal_drop_says_so_and_the_result_shows_why():
    state = covered([[1, 2]], "solo")
    recorder = Recorder(state)
    recorder.apply(Choose("buy", False))
    assert state.is_over
    out = [e for e in state.events if e.kind == "eliminated"]
    assert [(e.player, e.data["reason"]) for e in out] == [(0, "no_legal_drop")]
    assert state.hand(0) == ["1u-1", "2u-1"]               # blocks held, none droppable
    assert state.outcome.termination == "no_legal_drop"
    assert state.outcome.scores == (5.0,) and state.outcome.ranks == (1,)
    lines = describe_outcome(recorder.record())
    assert lines == ["result (no_legal_drop):", "  Player 1 [human] scores 5 coins",
                     f"  after turn {out[0].turn}: Player 1 has no legal drop and is out"]
