"""Waiting on a bot in the window's session, headless: its progress as it reports
it, the HUD's line for it, and closing, which abandons the move between two trials
without waiting for it.  The bot here is driven by events the test sets, so every
step is counted; nothing is timed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from balance3d import record as rec
from balance3d.bots import make_bot, progress
from balance3d.games import new_game
from balance3d.games.tilted import planner as tilted_planner
from balance3d.gui.hud import hud_text
from balance3d.gui.session import Session

#: s a test waits at most for the worker to reach a point before failing.
PATIENCE = 60.0
#: s, one 60 Hz frame.
FRAME = 1.0 / 60.0
#: The checkout under test.
ROOT = Path(__file__).resolve().parents[2]


class SteppedBot:
    """A bot of ``trials`` trials, each begun only when the test sets its ``go``
    event; it reports as a planner does and says what it did."""

    name = "stepped"
    games = None

    def __init__(self, trials: int) -> None:
        self.trials = trials
        self.go = [threading.Event() for _ in range(trials)]
        self.reported = [threading.Event() for _ in range(trials + 1)]
        self.begun: list[int] = []
        self.ended = threading.Event()
        self.finished = False

    def choose(self, state):
        try:
            progress.report(0, self.trials)
            self.reported[0].set()
            for n in range(self.trials):
                assert self.go[n].wait(PATIENCE)
                self.begun.append(n)
                progress.report(n + 1, self.trials)
                self.reported[n + 1].set()
            self.finished = True
            return state.legal_release()
        finally:
            self.ended.set()


def bot_session(bot) -> Session:
    state = new_game("tilted", players=["Ann", "Bob"], seed=3)
    bots = [bot if seat == state.current_player else None for seat in range(2)]
    return Session(rec.Recorder(state), bots)


def test_the_session_and_the_hud_show_the_trials_made_of_those_planned():
    bot = SteppedBot(3)
    with bot_session(bot) as session:
        name = session.state.players[session.state.current_player].name
        assert hud_text(session).prompt == f"{name} (stepped) plays next"
        session.tick(FRAME)
        assert session.bot_thinking()
        assert bot.reported[0].wait(PATIENCE)
        assert session.bot_progress() == progress.Progress(0, 3)
        assert hud_text(session).prompt == f"{name} (stepped): 0 of 3 candidates tried"
        bot.go[0].set()
        assert bot.reported[1].wait(PATIENCE)
        assert session.bot_progress() == progress.Progress(1, 3)
        assert hud_text(session).prompt == f"{name} (stepped): 1 of 3 candidates tried"
        for event in bot.go[1:]:
            event.set()
        assert bot.ended.wait(PATIENCE) and bot.finished
        while session.bot_thinking():
            session.tick(FRAME)
        assert session.bot_progress() is None
        assert session.running is not None or len(session.recorder.turns) == 1


def test_closing_returns_at_once_and_the_move_stops_before_its_next_trial():
    bot = SteppedBot(3)
    session = bot_session(bot)
    session.tick(FRAME)
    bot.go[0].set()
    assert bot.reported[1].wait(PATIENCE)
    # the bot is now inside its second trial's wait: closing does not wait for it
    session.close()
    assert not bot.ended.is_set()
    assert all(t.daemon for t in threading.enumerate() if t.name == "balance3d-bot")
    bot.go[1].set()                  # the trial under way finishes ...
    assert bot.ended.wait(PATIENCE)
    assert bot.begun == [0, 1]       # ... and no further trial is begun
    assert not bot.finished and not bot.reported[2].is_set()


def test_restarting_abandons_the_move_being_worked_out():
    bot = SteppedBot(3)
    with bot_session(bot) as session:
        session.tick(FRAME)
        bot.go[0].set()
        assert bot.reported[1].wait(PATIENCE)
        session.restart()                # the new game's seats have no bot
        assert not session.bot_thinking() and session.bot_progress() is None
        bot.go[1].set()
        assert bot.ended.wait(PATIENCE)
        assert bot.begun == [0, 1] and not bot.finished
        session.tick(FRAME)
        assert session.recorder.turns == [] and session.human_to_act()


def test_a_planner_in_the_session_reports_against_its_own_budget():
    seen = set()
    with Session.new("tilted", players=["Ann", "Bob"], bots=["planner", "planner"],
                     seed=0, speed="instant") as session:
        while len(session.recorder.turns) < 9:
            session.tick(FRAME)
            if session.bot_progress() is not None:
                seen.add(session.bot_progress())
    assert seen
    assert all(p.planned == tilted_planner.MAX_TRIALS and 0 <= p.tried <= p.planned
               for p in seen)


def test_a_screenshot_with_a_bot_to_play_next_shows_no_thinking_line(tmp_path):
    shot, trace = tmp_path / "table.png", tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    # two actions by the default bots: seat to act next is a bot's
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "play", "tilted", "--seed", "3",
                           "--turns", "2", "--screenshot", str(shot), "--size", "640x360",
                           "--trace", str(trace)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    prompts = [json.loads(line)["prompt"] for line in trace.read_text().splitlines()
               if json.loads(line)["event"] == "hud"]
    state = new_game("tilted", players=2, seed=3)
    bots = [make_bot(state.game.default_bot, 3, s, "tilted") for s in range(2)]
    for _ in range(2):
        state.apply(bots[state.current_player].choose(state))
    seat = state.current_player
    assert not state.is_over and seat is not None
    assert prompts == [f"{state.players[seat].name} (planner) plays next"]
