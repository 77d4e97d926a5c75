"""The HUD's text for a session, against the state's and the rules' facts."""
from __future__ import annotations

import math
import time

import pytest

from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import Choose, Drop
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BeamFrame
from balance3d.gui.games import game_text
from balance3d.gui.hud import CURRENT_MARK, LOG_LINES, hud_text
from balance3d.gui.session import Session

TEXT = game_text("tilted")
FRAME = 1.0 / 60.0


#: Ticks without a bot thinking before a wait counts as making no progress.
MOST_TICKS = 2_000_000
#: s, the pause between two looks while a bot thinks in its thread.
BOT_POLL = 0.001


def tick_until(session: Session, done) -> None:
    """Tick ``session`` until ``done()``; ticks spent while a bot thinks in its thread
    do not count towards :data:`MOST_TICKS`."""
    counted = 0
    while not done():
        assert counted <= MOST_TICKS, f"no progress in {MOST_TICKS} ticks"
        session.tick(FRAME)
        if session.bot_thinking():
            time.sleep(BOT_POLL)
        else:
            counted += 1


@pytest.fixture
def session():
    """Seat 0 human with 5 coins (enough to buy), seat 1 the random bot; seat 0 to
    drop on the beam whose +x end rests on the table."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, coins=[5, 5])
    s = Session(rec.Recorder(state), [None, make_bot("random", 0, 1)])
    yield s
    s.close()


def marked(hud) -> list[int]:
    return [i for i, line in enumerate(hud.seats) if line.startswith(CURRENT_MARK)]


def test_a_human_drop_turn(session):
    state = session.state
    hud = hud_text(session)
    assert hud.title == f"Tilted (basic) - turn {state.turn}"
    assert marked(hud) == [state.current_player] == [0]
    assert hud.seats[0] == CURRENT_MARK + TEXT.seat_line(state, 0)
    assert hud.seats[1].endswith("[random]")
    assert hud.prompt == TEXT.prompt(state) and "high side of the beam (the end" in hud.prompt
    assert hud.decisions == [] and hud.verdict == []
    assert hud.log == [e.text for e in state.events[-LOG_LINES:]]


def test_a_running_drop_then_the_buy_decision_and_its_verdict(session):
    state = session.state
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(-0.15, 0.0, frame.half[2])])[0]
    drop = Drop("1u-1", float(x), float(y), 0.002)
    session.submit(drop)
    hud = hud_text(session)
    assert hud.prompt.startswith("Player 1: drop 1u-1") and hud.decisions == []
    tick_until(session, lambda: session.running is None)
    verdict = session.last_verdict
    assert verdict.tilted and verdict.coins_won > 0
    hud = hud_text(session)
    assert hud.verdict == TEXT.verdict_lines(verdict)
    assert any(f"{verdict.coins_won} coins won" in line for line in hud.verdict)
    assert state.phase == "buy" and session.human_to_act()
    cost = state.rules.buy_cost
    roll = state.size_choice.roll
    assert hud.decisions == [(f"Buy the {roll}-long block ({cost} coins)", Choose("buy", True)),
                             ("Don't buy", Choose("buy", False))]
    assert hud.seats[0] == CURRENT_MARK + f"Player 1  {5 + verdict.coins_won} coins  5 blocks"
    # declining hands the turn to the bot: it thinks, no buttons
    session.submit(Choose("buy", False))
    session.tick(FRAME)
    hud = hud_text(session)
    assert marked(hud) == [1] == [state.current_player]
    assert session.bot_thinking()           # its move is played on a later frame
    assert hud.prompt == "Player 2 (random) is thinking..."
    assert hud.decisions == []
    assert hud.log[-1] == state.events[-1].text


def test_a_finished_game_shows_who_won_and_why():
    with Session.new("tilted", players=["Ann", "Bob"], bots=["random", "random"], seed=1,
                     speed="instant") as s:
        tick_until(s, lambda: s.state.is_over)
        hud = hud_text(s)
        state = s.state
        winner = state.players[state.outcome.winners[0]].name
        lines = hud.prompt.split("\n")
        assert lines[0].startswith(f"{winner} wins")
        # every seat's coins, in coins, by rank
        order = sorted(range(2), key=lambda seat: state.outcome.ranks[seat])
        coins = [int(state.outcome.scores[seat]) for seat in order]
        assert lines[-2:] == [f"  {state.outcome.ranks[seat]}. {state.players[seat].name}  "
                              f"{n} coin{'' if n == 1 else 's'}"
                              for seat, n in zip(order, coins)]
        assert "[random]" not in hud.prompt and "result (" not in hud.prompt
        assert marked(hud) == [] and hud.decisions == []


def test_a_replay_says_how_far_it_is(tmp_path):
    with Session.new("tilted", players=["Ann"], bots=["random"], seed=3, variant="solo",
                     speed="instant") as s:
        tick_until(s, lambda: s.state.is_over)
        s.save(tmp_path / "solo.json")
        total = len(s.recorder.turns)
    with Session.replaying(tmp_path / "solo.json") as r:
        assert hud_text(r).prompt.startswith(f"replay: 0 of {total} actions")
        r.next_action()
        assert hud_text(r).prompt.startswith(f"replay: 1 of {total} actions shown")
        assert hud_text(r).decisions == []
        first = rec.load_record(tmp_path / "solo.json").data["turns"][0]
        assert r.last_verdict.to_dict() == first["verdict"] and hud_text(r).verdict
        while r.next_action() is not None:
            pass
        lines = hud_text(r).prompt.split("\n")
        assert lines[0] == f"replay: the end; all {total} verdicts as recorded"
        # the solo result: the score in coins and why the game ended
        coins = int(r.state.outcome.scores[0])
        assert lines[1] == f"Ann scores {coins} coin{'' if coins == 1 else 's'}"
        assert lines[2:] == ["Ann has no block and is out"]


def test_a_pass_the_game_takes_beside_a_place_gets_a_button():
    """Tri-Ba-Lance lists no decisions in its place phase, yet takes a Pass there
    (the player is then out): the HUD offers it, and clicking it passes."""
    from balance3d.games.base import Pass
    from balance3d.games.tribalance import TribalanceState

    state = TribalanceState.arranged(2, first=0)
    assert state.legal_decisions() == [] and state.is_legal(Pass())[0]
    s = Session(rec.Recorder(state), [None, make_bot("random", 0, 1)])
    try:
        hud = hud_text(s)
        assert hud.decisions == [(game_text("tribalance").decision_label(state, Pass()),
                                  Pass())]
        s.submit(hud.decisions[0][1])
        assert 0 in s.state.out
        # the bot's seat is not a human's: no buttons
        assert hud_text(s).decisions == []
    finally:
        s.close()


def test_alike_blocks_to_auction_get_one_button():
    """Two 2u blocks thrown off the beam in the advanced game: the offender picks
    which to auction first, and blocks of one length are alike, so the HUD offers one
    button for them (two would read the same), which puts the first up."""
    state = TiltedState.arranged(2, seed=0, variant="advanced", low_end=+1, first=0,
                                 hands=[[4, 1], [6, 2, 2, 1]], coins=[1, 2])
    frame = BeamFrame.of(state.world)

    def drop(piece: str, s: float, t: float = 0.0, **pose) -> Drop:
        x, y, _ = frame.to_world([(s, t, frame.half[2])])[0]
        return Drop(piece, float(x), float(y), pose.pop("height", 0.002), **pose)

    state.stage([drop("6u-2", 0.25, yaw=math.pi / 2),
                 drop("2u-2", -0.303, -0.0155, height=0.004, pose="upright"),
                 drop("2u-3", -0.303, +0.0155, height=0.004, pose="upright")])
    s = Session(rec.Recorder(state), [None, make_bot("random", 0, 1)])
    try:
        s.submit(drop("4u-1", -0.20, yaw=math.pi / 2))
        tick_until(s, lambda: s.running is None)
        assert s.state.phase == "auction_order" and s.state.current_player == 0
        assert s.state.legal_decisions() == [Choose("auction_order", "2u-2"),
                                             Choose("auction_order", "2u-3")]
        hud = hud_text(s)
        assert hud.decisions == [("Auction the 2-long block next",
                                  Choose("auction_order", "2u-2"))]
        assert hud.prompt == ("Player 1: pick the returned block to auction next "
                              "(two 2-long blocks)")
    finally:
        s.close()


def test_the_title_names_the_game_as_people_write_it():
    s = Session.new("tribalance", players=["Ann", "Bob"], bots=[None, None], seed=1)
    try:
        assert hud_text(s).title == "Tri-Ba-Lance (basic) - turn 0"
    finally:
        s.close()
