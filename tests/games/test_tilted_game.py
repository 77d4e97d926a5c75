"""Tilted's rules around the judge: bank, buying, elimination, solo, auctions, illegal
actions, determinism.  Real physics on the default scenes; the beam's +x end starts
on the table, so the high side is ``s < 0`` (beam frame, m)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from balance3d.games import (Choose, Drop, GameError, IllegalActionError, Pass, Place,
                             new_game)
from balance3d.games.tilted import (TiltedAuctionVerdict, TiltedBuyVerdict, TiltedState,
                                    TiltedVerdict, piece_length, roll_d6)
from balance3d.games.placement import release_pose
from balance3d.games.tilted.judge import BeamFrame

ACROSS = math.pi / 2


def drop(state: TiltedState, piece: str, s: float, t: float = 0.0, *, height: float = 0.002,
         yaw: float = 0.0, pose: str = "flat") -> Drop:
    """A drop of ``piece`` released above the beam point (s, t) (beam frame, m)."""
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(s, t, frame.half[2])])[0]
    return Drop(piece, float(x), float(y), height, yaw=yaw, pose=pose)


def high(state: TiltedState, distance: float) -> float:
    """Beam-frame s of the point ``distance`` m out on the high side."""
    return -state.low_end * distance


def next_roll(state: TiltedState) -> int:
    """The die the game will roll next (read from a copy of its generator)."""
    copy = np.random.Generator(np.random.PCG64())
    copy.bit_generator.state = state.rng.bit_generator.state
    return roll_d6(copy)


def random_action(state, rng: np.random.Generator):
    """A uniformly random legal action: a decision, or a flat drop from 2-20 mm
    sampled in the release area's bounding box until one is legal."""
    decisions = state.legal_decisions()
    if decisions:
        return decisions[rng.integers(len(decisions))]
    pieces = state.legal_pieces()
    polygon = np.asarray(state.release_area()["regions"][0]["polygon"])
    (x0, y0), (x1, y1) = polygon.min(axis=0), polygon.max(axis=0)
    for _ in range(200):
        action = Drop(pieces[rng.integers(len(pieces))], float(rng.uniform(x0, x1)),
                      float(rng.uniform(y0, y1)), float(rng.uniform(0.002, 0.02)),
                      yaw=float(rng.uniform(0.0, math.pi)))
        if state.is_legal(action)[0]:
            return action
    raise AssertionError("no legal drop found")


# ---------------------------------------------------------------------- coins
def test_the_bank_pays_when_empty_and_goes_negative():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, coins=[2, 2], bank=0)
    verdict = state.apply(drop(state, "1u-1", -0.056))
    assert verdict.tilted and verdict.coins_won == 3
    assert verdict.bank == state.bank == -3
    assert verdict.coins == [5, 2]
    assert any(e.kind == "bank" and e.data["bank"] == -3 for e in state.events)


# ---------------------------------------------------------------------- buying
def seed_where(predicate, **kwargs) -> int:
    """The first seed whose first die roll after set-up satisfies ``predicate``."""
    for seed in range(200):
        if predicate(next_roll(TiltedState.arranged(2, seed=seed, **kwargs))):
            return seed
    raise AssertionError("no seed found")


def buying_game(seed: int, missing: set[int]) -> TiltedState:
    """Seat 0 holds a 1u block and 2 coins; seat 1 holds every other block of the
    ``missing`` lengths (or a 6u block), so the supply has none of them."""
    others = [n for n in sorted(missing) for _ in range(5 - (n == 1))] or [6]
    return TiltedState.arranged(2, seed=seed, low_end=+1, first=0, hands=[[1], others])


def drop_and_buy(state: TiltedState) -> TiltedBuyVerdict:
    """Seat 0 tilts the beam from section 2 (+2 coins: 4), sees the die's roll on
    offer, and decides to buy."""
    roll = next_roll(state)
    assert state.apply(drop(state, "1u-1", -0.15)).coins_won == 2
    assert state.phase == "buy" and state.current_player == 0
    assert state.size_choice.roll == roll and state.size_choice.purpose == "buy"
    assert state.legal_decisions() == [Choose("buy", True), Choose("buy", False)]
    return state.apply(Choose("buy", True))


def test_buying_the_rolled_length():
    seed = seed_where(lambda r: True, low_end=+1)
    state = buying_game(seed, set())
    roll = next_roll(state)
    verdict = drop_and_buy(state)
    assert verdict.roll == roll and piece_length(verdict.piece) == roll
    assert verdict.paid == 3 and verdict.coins == [1, 2] and verdict.piece in state.hand(0)
    assert verdict.piece not in state.supply
    assert state.current_player == 1 and state.phase == "drop"


@pytest.mark.parametrize("case", ["larger", "smaller"])
def test_buying_falls_back_to_the_only_nearest_length_left(case):
    if case == "larger":    # no block of the roll's length or shorter is left
        seed = seed_where(lambda r: r <= 5, low_end=+1)
    else:                   # none of the roll's length or longer
        seed = seed_where(lambda r: r >= 2, low_end=+1)
    roll = next_roll(TiltedState.arranged(2, seed=seed, low_end=+1))
    missing = set(range(1, roll + 1)) if case == "larger" else set(range(roll, 7))
    state = buying_game(seed, missing)
    verdict = drop_and_buy(state)
    assert verdict.roll == roll
    assert piece_length(verdict.piece) == (roll + 1 if case == "larger" else roll - 1)
    assert verdict.coins == [1, 2]


@pytest.mark.parametrize("pick", [0, 1])
def test_buying_asks_for_a_size_when_both_fallbacks_exist(pick):
    seed = seed_where(lambda r: 2 <= r <= 5, low_end=+1)
    roll = next_roll(TiltedState.arranged(2, seed=seed, low_end=+1))
    state = buying_game(seed, {roll})
    state.apply(drop(state, "1u-1", -0.15))
    assert state.phase == "buy" and state.size_choice.options == [roll - 1, roll + 1]
    verdict = state.apply(Choose("buy", True))
    assert verdict.roll == roll and verdict.options == [roll - 1, roll + 1]
    assert verdict.piece is None and verdict.coins == [4, 2]
    assert state.phase == "size" and state.current_player == 0
    choice = verdict.options[pick]
    assert state.legal_decisions() == [Choose("size", roll - 1), Choose("size", roll + 1)]
    done = state.apply(Choose("size", choice))
    assert piece_length(done.piece) == choice and done.coins == [1, 2]
    assert state.current_player == 1


def test_no_buying_from_an_empty_supply_or_without_enough_coins():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0,
                                 hands=[[1], [n for n in range(1, 7) for _ in range(5)][1:]])
    assert state.supply == []
    state.apply(drop(state, "1u-1", -0.15))
    assert state.scores == (4, 2) and state.phase == "drop" and state.current_player == 1
    poor = TiltedState.arranged(2, seed=0, low_end=+1, first=0, coins=[0, 2])
    poor.apply(drop(poor, "1u-1", -0.25))
    assert poor.scores == (1, 2) and poor.phase == "drop" and poor.current_player == 1


@pytest.mark.parametrize("start, can_buy", [(1, True), (0, False)])
def test_buying_takes_exactly_the_cost(start, can_buy):
    """docs/rules/tilted.md, Buy: a player with at least buy_cost (3) coins may buy.
    A drop tilting the beam from section 2 earns 2: from 1 coin that is exactly 3,
    and buying then leaves 0 and pays the bank 3; from 0 coins it is 2, one short,
    and the game asks nothing."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, coins=[start, 2])
    assert state.rules.buy_cost == 3
    bank = state.bank
    assert state.apply(drop(state, "1u-1", -0.15)).coins_won == 2
    if not can_buy:
        assert state.scores == (2, 2) and state.phase == "drop" and state.current_player == 1
        return
    assert state.phase == "buy" and state.legal_decisions() == [Choose("buy", True),
                                                                 Choose("buy", False)]
    verdict = state.apply(Choose("buy", True))
    assert verdict.paid == 3 and verdict.coins == [0, 2] and state.scores == (0, 2)
    assert state.bank == bank - 2 + 3 and verdict.piece in state.hand(0)


def test_the_die_is_rolled_before_the_decision_and_declining_keeps_the_coins():
    """docs/rules/tilted.md, Buy: the die is rolled first, then the player may pay
    3 coins for a block of that size, or decline.  The roll is made when the buy
    step opens (one draw of the game's generator), before any decision; declining
    it draws nothing more, pays nothing and takes nothing from the supply."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0)
    roll = next_roll(state)
    after_roll = np.random.Generator(np.random.PCG64())
    after_roll.bit_generator.state = state.rng.bit_generator.state
    roll_d6(after_roll)
    supply = state.supply
    assert state.apply(drop(state, "1u-1", -0.15)).coins_won == 2
    assert state.phase == "buy"
    assert json.dumps(state.rng.bit_generator.state) == json.dumps(after_roll.bit_generator.state)
    assert state.size_choice.roll == roll and state.size_choice.options == [roll]
    assert [e for e in state.events if e.kind == "roll"][-1].data["roll"] == roll
    verdict = state.apply(Choose("buy", False))
    assert verdict.buy is False and verdict.roll == roll and verdict.piece is None
    assert verdict.paid == 0 and verdict.coins == [4, 2] and state.supply == supply
    assert json.dumps(state.rng.bit_generator.state) == json.dumps(after_roll.bit_generator.state)
    assert state.size_choice is None and state.current_player == 1 and state.phase == "drop"


# ---------------------------------------------------------------------- the end
def play_out(state: TiltedState, positions: list[tuple[float, float]]) -> list[int]:
    """Play until the end, declining every purchase; each drop takes the player's
    first block to the next of ``positions`` ((distance on the high side, t) m).
    Returns the seats in the order they dropped."""
    droppers = []
    while not state.is_over:
        if state.phase == "buy":
            state.apply(Choose("buy", False))
            continue
        d, t = positions[len(droppers)]
        seat = state.current_player
        state.apply(drop(state, state.hand(seat)[0], high(state, d), t, yaw=ACROSS))
        droppers.append(seat)
    return droppers


def test_players_without_a_block_are_eliminated_and_the_last_one_wins():
    state = TiltedState.arranged(3, seed=0, low_end=+1, first=0, hands=[[1], [1, 2], [1, 2, 3]])
    droppers = play_out(state, [(0.05, 0.0), (0.15, 0.0), (0.25, 0.0), (0.10, 0.0),
                                (0.20, 0.0), (0.05, 0.0)])
    assert droppers == [0, 1, 2, 1, 2]
    assert state.eliminated == [0, 1]
    assert [e.player for e in state.events if e.kind == "eliminated"] == [0, 1]
    outcome = state.outcome
    assert outcome.termination == "last_player"
    assert outcome.ranks == (3, 2, 1) and outcome.winners == (2,)
    assert outcome.scores == tuple(float(c) for c in state.scores)
    assert state.current_player is None and state.legal_decisions() == []
    ok, reason = state.is_legal(Choose("buy", True))
    assert not ok and reason == "the game is over"
    assert len(state.hand(2)) == 1          # the winner still had a block


def test_solo_ends_when_the_player_has_no_block_and_scores_the_coins_left():
    state = TiltedState.arranged(1, seed=0, variant="solo", low_end=+1, hands=[[1, 2]],
                                 coins=[3])
    assert state.variant == "solo" and state.current_player == 0
    first = state.apply(drop(state, "1u-1", -0.25))
    assert first.tilted and first.coins == [4]
    assert state.phase == "buy"             # optional: decline it
    state.apply(Choose("buy", False))
    assert state.current_player == 0 and state.phase == "drop"
    state.apply(drop(state, "2u-1", high(state, 0.15), yaw=ACROSS))
    if state.phase == "buy":
        state.apply(Choose("buy", False))
    assert state.is_over
    outcome = state.outcome
    assert outcome.termination == "no_blocks" and outcome.ranks == (1,)
    assert outcome.scores == (float(state.scores[0]),) and state.scores[0] >= 4


def test_variants_check_their_player_counts():
    with pytest.raises(GameError, match="solo"):
        new_game("tilted", players=2, variant="solo")
    with pytest.raises(GameError, match="basic"):
        new_game("tilted", players=1)
    assert new_game("tilted", players=4, seed=2).current_player in range(4)


def test_the_first_player_is_the_highest_roll_with_ties_rolled_again():
    rerolls = 0
    for seed in range(6):
        state = new_game("tilted", players=4, seed=seed)
        rolls = [e.data["rolls"] for e in state.events if e.kind == "roll"]
        last = rolls[-1]
        best = max(last.values())
        assert [int(s) for s, v in last.items() if v == best] == [state.current_player]
        for earlier, later in zip(rolls, rolls[1:]):
            top = max(earlier.values())
            assert sorted(later) == sorted(s for s, v in earlier.items() if v == top)
            rerolls += 1
    assert rerolls, "no seed tied: the re-roll rule was not exercised"


# ---------------------------------------------------------------------- illegal actions
def refused(state: TiltedState, action) -> str:
    """Assert ``action`` is refused with a reason and changes nothing; return the reason."""
    before = state.to_json()
    ok, reason = state.is_legal(action)
    assert not ok and reason
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.reason == reason
    assert state.to_json() == before
    return reason


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0)
    assert "not yours" in refused(state, drop(state, "1u-2", -0.1))      # seat 1's block
    assert "supply" in refused(state, drop(state, "1u-3", -0.1))
    assert "no such block" in refused(state, drop(state, "9u-9", -0.1))
    assert "high side" in refused(state, drop(state, "1u-1", +0.1))      # the low side
    assert "off the beam" in refused(state, drop(state, "1u-1", -0.32))   # past the end
    assert "off the beam" in refused(state, drop(state, "1u-1", -0.1, 0.035))  # past the edge
    assert "pose" in refused(state, drop(state, "1u-1", -0.1, pose="sideways"))
    assert "height" in refused(state, drop(state, "1u-1", -0.1, height=0.0))
    assert "height" in refused(state, drop(state, "1u-1", -0.1, height=0.5))
    assert "finite" in refused(state, Drop("1u-1", float("nan"), 0.0, 0.01))
    assert refused(state, Choose("buy", True))
    assert refused(state, Pass())
    assert refused(state, Place("1u-1", 0))
    state.apply(drop(state, "1u-1", -0.15))
    assert state.phase == "buy"
    assert refused(state, drop(state, "2u-1", high(state, 0.1)))
    assert refused(state, Choose("buy", 1))
    assert refused(state, Choose("size", 3))
    assert refused(state, Pass())


def test_a_drop_that_would_overlap_a_block_at_release_is_refused(monkeypatch):
    # Release heights are measured by rays over the whole footprint, so a real drop
    # is released above whatever lies beneath it; the refusal path is reached here by
    # a release pose forced onto a block that is already on the beam.
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[6], [6, 6, 1]])
    state.stage([drop(state, "6u-2", 0.25, yaw=ACROSS),
                 drop(state, "6u-3", -0.15)])
    occupied = state.world.pose("6u-3")
    monkeypatch.setattr("balance3d.games.tilted.drops.release_pose",
                        lambda world, part, action: (tuple(occupied[0]), tuple(occupied[1])))
    assert "overlap" in refused(state, drop(state, "6u-1", -0.15))


def test_is_legal_creates_moves_and_removes_no_body(monkeypatch):
    """The legality check asks the World without changing it: no pybullet body is
    created, moved or removed, legal or not, and the body ids stay as they were."""
    import pybullet

    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[6, 1], [6, 6, 1]])
    state.stage([drop(state, "6u-2", 0.25, yaw=ACROSS), drop(state, "6u-3", -0.15)])
    world = state.world
    count, ids = world.client.getNumBodies(), [world.body_id(n) for n in world.names]
    calls = []
    for function in ("createMultiBody", "removeBody", "resetBasePositionAndOrientation",
                     "resetBaseVelocity"):
        original = getattr(pybullet, function)
        monkeypatch.setattr(pybullet, function, lambda *a, _f=original, _n=function, **k:
                            calls.append(_n) or _f(*a, **k))
    assert state.is_legal(drop(state, "1u-1", -0.25)) == (True, "")
    occupied = world.pose("6u-3")
    monkeypatch.setattr("balance3d.games.tilted.drops.release_pose",
                        lambda world, part, action: (tuple(occupied[0]), tuple(occupied[1])))
    assert "overlap" in refused(state, drop(state, "6u-1", -0.15))
    assert calls == []
    assert world.client.getNumBodies() == count
    assert [world.body_id(n) for n in world.names] == ids


def test_a_drop_over_a_thin_upright_block_is_released_above_it():
    # A 6u block dropped across a 1u-wide upright block lands on it, not through it.
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[6], [6, 6, 1]])
    state.stage([drop(state, "6u-2", 0.25, yaw=ACROSS),
                 drop(state, "6u-3", -0.15, pose="upright")])
    top = state.world.vertices("6u-3")[:, 2].max()
    assert state.is_legal(drop(state, "6u-1", -0.15, height=0.002)) == (True, "")
    part = state.world.part("6u-3")
    pos, _ = release_pose(state.world, part, drop(state, "6u-1", -0.15, height=0.002))
    lowest = pos[2] - 0.0125                  # the flat 6u block's half height
    assert top < lowest <= top + 0.002 + 1e-9


# ---------------------------------------------------------------------- advanced
def test_returned_blocks_are_auctioned_in_the_offenders_order_then_the_round_goes_on():
    state = TiltedState.arranged(2, seed=0, variant="advanced", low_end=+1, first=0,
                                 hands=[[4, 1], [6, 2, 2, 1]], coins=[1, 2])
    state.stage([drop(state, "6u-2", 0.25, yaw=ACROSS),
                 drop(state, "2u-2", -0.303, -0.0155, height=0.004, pose="upright"),
                 drop(state, "2u-3", -0.303, +0.0155, height=0.004, pose="upright")])
    verdict = state.apply(drop(state, "4u-1", -0.20, yaw=ACROSS))
    assert [r["piece"] for r in verdict.returned] == ["2u-2", "2u-3"]
    assert verdict.penalty_paid == 1 and verdict.coins == [0, 2]
    assert state.phase == "auction_order" and state.current_player == 0
    assert state.legal_decisions() == [Choose("auction_order", "2u-2"),
                                       Choose("auction_order", "2u-3")]
    opened = state.apply(Choose("auction_order", "2u-3"))
    assert isinstance(opened, TiltedAuctionVerdict) and opened.piece == "2u-3"
    assert state.phase == "bid" and state.current_player == 1     # after the offender
    assert "a bid must be" in refused(state, Choose("bid", 0))
    assert "only 2 coins" in refused(state, Choose("bid", 3))
    assert refused(state, Choose("bid", True))
    before = state.to_json()
    state.clone().apply(Choose("bid", 2))         # a clone's auction is its own
    assert state.to_json() == before
    sold = state.apply(Choose("bid", 1))
    assert sold.closed and sold.winner == 1 and sold.price == 1
    assert sold.passed == [0]                   # seat 0 has no coin to raise
    assert "2u-3" in state.hand(1) and state.scores == (0, 1)
    assert state.phase == "bid" and state.current_player == 1      # then 2u-2
    unsold = state.apply(Pass())
    assert unsold.closed and unsold.winner is None and unsold.piece == "2u-2"
    assert "2u-2" in state.supply
    assert state.phase == "drop" and state.current_player == 1      # the round goes on
    last = state.apply(drop(state, "1u-2", high(state, 0.15), yaw=ACROSS))
    assert last.auction["kind"] == "round" and last.auction["roll"] in range(1, 7)
    if state.phase == "size":
        state.apply(state.legal_decisions()[0])
    assert state.phase == "bid" and state.current_player == 1       # the roller bids first
    piece = state._auction.piece
    won = state.apply(Choose("bid", 1))
    assert won.closed and won.winner == 1 and piece in state.hand(1)
    assert state.phase == "drop" and state.current_player == 1      # and starts the round


def test_a_full_advanced_game_with_auctions():
    state = new_game("tilted", players=2, seed=11, variant="advanced")
    rng = np.random.default_rng(11)
    kinds, sales = set(), 0
    for _ in range(400):
        if state.is_over:
            break
        verdict = state.apply(random_action(state, rng))
        assert sum(state.scores) + state.bank == state.rules.coins
        if isinstance(verdict, TiltedAuctionVerdict):
            kinds.add(verdict.auction)
            if verdict.closed and verdict.winner is not None:
                sales += 1
                if verdict.auction == "round" and not state.is_over:
                    assert state.current_player == verdict.winner
                    assert state.phase == "drop"
        if isinstance(verdict, TiltedVerdict) and verdict.auction:
            assert verdict.auction["kind"] in ("round", "returned")
    assert state.is_over
    assert "round" in kinds and sales > 0   # returned blocks: the test above
    assert sorted(state.outcome.ranks) == [1, 2]


# ---------------------------------------------------------------------- determinism
@pytest.mark.portable
def test_same_seed_and_actions_give_identical_states_and_clones_play_on_identically():
    first = new_game("tilted", players=3, seed=5)
    rng = np.random.default_rng(5)
    actions = []
    for _ in range(14):
        actions.append(random_action(first, rng))
        first.apply(actions[-1])
    second = new_game("tilted", players=3, seed=5)
    for i, action in enumerate(actions):
        second.apply(action)
        if i == 6:
            clone = second.clone()
            rest = actions[i + 1:]
    assert second.to_json() == first.to_json()
    for action in rest:
        clone.apply(action)
    assert clone.to_json() == first.to_json()


def test_saved_auctions_and_size_choices_round_trip_and_refuse_bad_data():
    from balance3d.games import RecordError
    from balance3d.games.tilted.auction import Auction
    from balance3d.games.tilted.turns import SizeChoice
    auction = Auction("round", "3u-4", [1, 0], [1], high=2, high_bidder=1, last=0)
    saved = auction.to_dict()
    assert saved == {"kind": "round", "piece": "3u-4", "order": [1, 0], "in": [1],
                     "high": 2, "high_bidder": 1, "last": 0}
    assert Auction.from_dict(json.loads(json.dumps(saved))) == auction
    for bad in ({**saved, "kind": "sale"}, {k: v for k, v in saved.items() if k != "in"}, []):
        with pytest.raises(RecordError, match="saved auction"):
            Auction.from_dict(bad)
    choice = SizeChoice(4, [3, 5], "buy")
    assert choice.to_dict() == {"roll": 4, "options": [3, 5], "for": "buy"}
    assert SizeChoice.from_dict(choice.to_dict()) == choice
    with pytest.raises(RecordError, match="saved pending_size"):
        SizeChoice.from_dict({"roll": 4, "options": [3, 5], "for": "gift"})
