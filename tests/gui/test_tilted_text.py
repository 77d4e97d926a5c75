"""Tilted's words in the window, checked against the state's and the rules' facts."""
from __future__ import annotations

import re

import numpy as np
import pytest

from balance3d.bots import make_bot
from balance3d.games import Choose, Drop, Pass, new_game
from balance3d.games.tilted import TiltedState, piece_length, roll_d6
from balance3d.games.tilted.judge import BeamFrame
from balance3d.games.tilted.verdicts import TiltedVerdict
from balance3d.gui.games import game_text
from balance3d.gui.games.tilted.text import end_name

TEXT = game_text("tilted")
#: A block's id ("6u-5"): never in the window's words.
BLOCK_ID = re.compile(r"\b\du-\d+")


def coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def beam_drop(state: TiltedState, piece: str, s: float) -> Drop:
    """A flat drop of ``piece`` 2 mm above the beam-frame point (s, 0)."""
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(s, 0.0, frame.half[2])])[0]
    return Drop(piece, float(x), float(y), 0.002)


def test_seat_lines_count_coins_and_blocks_and_say_out():
    state = TiltedState.arranged(3, seed=0, low_end=+1, hands=[[1, 2, 3, 4, 5, 6], [2], []],
                                 coins=[4, 1, 0], first=2)
    assert 2 in state.eliminated                   # no block at the start of its turn
    assert TEXT.seat_line(state, 0) == "Player 1  4 coins  6 blocks"
    assert TEXT.seat_line(state, 1) == "Player 2  1 coin  1 block"
    assert TEXT.seat_line(state, 2).endswith("out")
    assert "out" not in TEXT.seat_line(state, 0)


# With two players the supply's mat takes the table's right side (+x), beyond the
# beam's +x end; no tray lies beyond the -x end.
@pytest.mark.parametrize("low_end, high", [(+1, "the end away from the supply"),
                                           (-1, "the end by the supply")])
def test_the_drop_prompt_names_the_player_and_the_high_end(low_end, high):
    state = TiltedState.arranged(2, seed=0, low_end=low_end, first=1)
    prompt = TEXT.prompt(state)
    assert prompt.startswith("Player 2:") and "high side" in prompt
    assert f"({high}, where the arrow points)" in prompt
    assert "x end" not in prompt


def next_roll(state: TiltedState) -> int:
    """The die the game will roll next (read from a copy of its generator)."""
    copy = np.random.Generator(np.random.PCG64())
    copy.bit_generator.state = state.rng.bit_generator.state
    return roll_d6(copy)


def test_the_buy_prompt_and_buttons_name_the_rolled_block_and_its_cost():
    """The die is rolled before the player decides: the question names the block it
    offers and the rules' price (3 coins)."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, coins=[5, 5])
    roll = next_roll(state)
    state.apply(beam_drop(state, "1u-1", -0.15))
    assert state.phase == "buy"
    cost = state.rules.buy_cost
    assert TEXT.prompt(state) == (f"Player 1: the die rolled {roll}: buy the {roll}-long "
                                  f"block for {coins(cost)}?")
    labels = {TEXT.decision_label(state, a): a for a in state.legal_decisions()}
    assert labels == {f"Buy the {roll}-long block ({coins(cost)})": Choose("buy", True),
                      "Don't buy": Choose("buy", False)}


#: Seeds tried for a die roll of 2 to 5 (each roll has probability 2/3).
SEEDS_TRIED = 200


def test_the_size_prompt_offers_both_fallback_lengths():
    # a seed whose next die roll is 2..5; seat 1 holds every other block of that
    # length, so the supply has the lengths on either side but not the roll's
    for seed in range(SEEDS_TRIED):
        probe = TiltedState.arranged(2, seed=seed, low_end=+1)
        copy = np.random.Generator(np.random.PCG64())
        copy.bit_generator.state = probe.rng.bit_generator.state
        roll = roll_d6(copy)
        if 2 <= roll <= 5:
            break
    else:
        pytest.fail(f"no seed below {SEEDS_TRIED} rolls 2 to 5 next: the size prompt "
                    f"was not tested")
    state = TiltedState.arranged(2, seed=seed, low_end=+1, first=0,
                                 hands=[[1], [roll] * 5], coins=[5, 5])
    state.apply(beam_drop(state, "1u-1", -0.15))
    assert f"a {roll - 1}-long or a {roll + 1}-long block" in TEXT.prompt(state)
    assert TEXT.decision_label(state, Choose("buy", True)) == "Buy (3 coins), then pick the length"
    state.apply(Choose("buy", True))
    assert state.phase == "size"
    prompt = TEXT.prompt(state)
    assert f"rolled {roll}" in prompt and f"a {roll - 1}-long or a {roll + 1}-long block" in prompt
    assert [TEXT.decision_label(state, a) for a in state.legal_decisions()] == \
        [f"{roll - 1}-long block", f"{roll + 1}-long block"]


def test_every_phase_of_an_advanced_game_is_worded_from_the_state():
    state = new_game("tilted", 3, seed=0, variant="advanced")
    bots = [make_bot("random", 0, seat) for seat in range(3)]
    seen = set()
    while not state.is_over:
        phase, prompt = state.phase, TEXT.prompt(state)
        seen.add(phase)
        name = state.players[state.current_player].name
        assert prompt.startswith(f"{name}:")
        decisions = state.legal_decisions()
        labels = [TEXT.decision_label(state, a) for a in decisions]
        # buttons tell apart all but alike blocks (of one length)
        assert len(set(labels)) == len({piece_length(a.value) if phase == "auction_order"
                                        else a for a in decisions})
        assert not any(BLOCK_ID.search(text) for text in [prompt, *labels])
        if phase == "drop":
            assert f"({end_name(state, -state.low_end)}, where the arrow points)" in prompt
        elif phase == "bid":
            auction = state.auction
            need = max(auction.high + 1, state.rules.auction_min_bid)
            assert f"the {piece_length(auction.piece)}-long block (lit in the supply)" in prompt
            assert f"at least {coins(need)}" in prompt
            if auction.high_bidder is not None:
                assert "raise to" in prompt and f"high bid {auction.high} by " \
                       f"{state.players[auction.high_bidder].name}" in prompt
            else:
                assert "no bid yet" in prompt
            for action, label in zip(decisions, labels):
                assert label == ("Pass" if isinstance(action, Pass) else
                                 f"Bid {coins(action.value)}")
        elif phase == "auction_order":
            for action, label in zip(decisions, labels):
                block = f"{piece_length(action.value)}-long block"
                assert block in prompt and label == f"Auction the {block} next"
        verdict = state.apply(bots[state.current_player].choose(state))
        lines = TEXT.verdict_lines(verdict)
        assert not any(BLOCK_ID.search(line) for line in lines), lines
        if isinstance(verdict, TiltedVerdict):
            text = "\n".join(lines)
            assert lines[0].startswith(f"the {piece_length(verdict.piece)}-long block: ")
            for item in verdict.returned:
                assert (f"a {piece_length(item['piece'])}-long block goes back to the supply: "
                        f"{item['reason']}") in lines
            if verdict.coins_won:
                assert f"{coins(verdict.coins_won)} won" in text
            if verdict.tilted and verdict.value is not None:
                assert f"is worth {coins(verdict.value)}" in text
            if not verdict.tilted:
                assert "no coins" in text
            if verdict.penalty_due:
                assert f"penalty: {verdict.penalty_paid} of {coins(verdict.penalty_due)}" in text
    assert {"drop", "bid", "auction_order"} <= seen
    winner = state.players[state.outcome.winners[0]].name
    assert TEXT.prompt(state) == f"game over: {winner} wins"
