"""The planner: it finds the tilting drops, predicts their verdicts exactly, and
decides sensibly."""
from __future__ import annotations

import math

from balance3d.bots import make_bot
from balance3d.games.base import Choose, Drop, Pass
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame


def _across(state: TiltedState, piece: str, s: float, yaw: float = math.pi / 2) -> Drop:
    """Drop ``piece`` flat at distance ``s`` (m) from the centre line on the high
    side, 3 mm up, turned ``yaw`` from the beam's axis."""
    frame = BeamFrame.of(state.world)
    x, y = frame.to_world([(-state.low_end * s, 0.0, frame.half[2])])[0, :2]
    return Drop(piece, float(x), float(y), 0.003, yaw, "flat")


def test_planner_tilts_when_it_can_and_earns_at_least_what_simple_drops_earn():
    state = TiltedState.arranged(2, seed=4, hands=[[1, 6], [2]], first=0)
    # The situation has a tilting drop: the 6u block near the beam's end.
    far = state.clone().apply(_across(state, "6u-1", 0.27))
    assert far.tilted and far.coins_won == 1
    # Simple alternatives: the 6u block along the beam, centred in each section.
    probes = [state.clone().apply(_across(state, "6u-1", s, yaw=0.0)).coins_won
              for s in (0.09, 0.15, 0.22)]
    trial = make_bot("planner", 4, 0).plan_drop(state)
    assert trial.verdict.tilted
    assert trial.verdict.penalty_paid == 0 and not trial.verdict.returned
    assert trial.verdict.coins_won >= max(probes + [far.coins_won])
    # What the planner saw in its copy is what the real drop does.
    assert state.apply(trial.drop) == trial.verdict


def test_planner_buys_except_in_solo():
    bot = make_bot("planner", 0, 0)
    state = TiltedState.arranged(2, seed=1, hands=[[2, 3], [2]], coins=[3, 0], first=0)
    state.apply(bot.choose(state))
    assert state.phase == "buy" and bot.choose(state) == Choose("buy", True)
    solo = TiltedState.arranged(1, seed=1, variant="solo", hands=[[2, 3]], coins=[3], first=0)
    solo.apply(bot.choose(solo))
    assert solo.phase == "buy" and bot.choose(solo) == Choose("buy", False)


def test_planner_takes_the_larger_fallback_size():
    # Every 2u..5u block is dealt, so the supply holds only 1u and 6u blocks: a roll
    # of 2..5 offers both.
    hands = [[2] * 5 + [3] * 5, [4] * 5 + [5] * 5]
    for seed in range(10):
        state = TiltedState.arranged(2, seed=seed, hands=hands, coins=[3, 0], first=0)
        bot = make_bot("planner", seed, 0)
        state.apply(bot.choose(state))
        state.apply(Choose("buy", True))
        if state.phase == "size":
            assert state.legal_decisions() == [Choose("size", 1), Choose("size", 6)]
            assert bot.choose(state) == Choose("size", 6)
            return
    raise AssertionError("no seed in 0..9 rolled a 2..5")


def test_planner_bids_at_most_a_block_price_and_plays_an_auction_through():
    state = TiltedState.arranged(2, seed=2, variant="advanced", hands=[[1, 2], [1, 2]],
                                 coins=[9, 9], first=0)
    bots = [make_bot("planner", 2, seat) for seat in range(2)]
    bids = []
    for _ in range(20):
        action = bots[state.current_player].choose(state)
        if state.phase == "bid":
            assert action in state.legal_decisions()
            bids.append(action)
        verdict = state.apply(action)
        if getattr(verdict, "closed", False):
            break
    else:
        raise AssertionError("no auction closed in 20 actions")
    assert any(isinstance(b, Choose) for b in bids)
    assert all(isinstance(b, Pass) or b.value <= state.rules.buy_cost + 1 for b in bids)
    assert verdict.winner is not None and verdict.price <= state.rules.buy_cost + 1
