"""The window's wiring, offscreen: whole games of every Tilted variant played through
the app (a person's drops handed to it as the gesture would, decisions by the
buttons the HUD shows), to their end, with the record it autosaves replaying to
the same verdicts.  The real mouse and keys are tested under Xvfb
(test_window_xvfb.py)."""
from __future__ import annotations

import pytest

from balance3d import play as playing
from balance3d import record as rec
from balance3d.gui.hud import hud_text

#: pixels, the offscreen buffer (the size the view's tests use: one ShowBase per process).
SIZE = (640, 360)
#: Frames a whole game may take at speed "instant" (bots think off-thread meanwhile).
MAX_FRAMES = 4000


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base
    return offscreen_base(SIZE)


@pytest.mark.parametrize("variant, players", [("basic", 2), ("solo", 1), ("advanced", 3)])
def test_a_whole_game_is_played_through_the_app_to_its_result(base, tmp_path, variant, players):
    from balance3d.gui.app import TableApp
    from balance3d.gui.session import Session
    from balance3d.gui.trace import Trace

    record = tmp_path / "game.json"
    app = TableApp(base, record, Trace(tmp_path / "trace.jsonl"))
    bots = [None] + ["random"] * (players - 1)
    session = Session.new("tilted", variant=variant, players=[f"P{s}" for s in range(players)],
                          bots=bots, seed=5, record_path=record, speed="instant")
    try:
        app.start(session)
        pressed = drops = 0
        for _ in range(MAX_FRAMES):
            base.taskMgr.step()
            state = session.state
            if state.is_over:
                break
            if not session.human_to_act():
                continue
            if app.widgets.buttons:
                # the buttons shown are the game's decisions, labelled by its words
                assert [a for _, a in app.widgets._decisions] == state.legal_decisions()
                app.widgets.buttons[-1].commandFunc(None)
                pressed += 1
            else:
                app.submit(state.legal_release())
                drops += 1
        assert session.state.is_over, f"not over after {MAX_FRAMES} frames"
        # the banner says who won (or the solo player's coins) in a player's words
        prompt = app.widgets.text("banner")
        outcome, names = session.state.outcome, [p.name for p in session.state.players]
        if players == 1:
            expected = f"P0 scores {int(outcome.scores[0])} coin"
        elif len(outcome.winners) == 1:
            expected = f"{names[outcome.winners[0]]} wins"
        else:
            expected = "Tied first: "
        assert expected in prompt and "result (" not in prompt
        # the banner holds the result's first line only, the verdict panel the whole
        # result, and the log repeats none of it
        hud = hud_text(session)
        assert prompt == f"{hud.title}\n{hud.result[0]}"
        assert app.widgets.text("verdict") == "\n".join(hud.result)
        assert not any(line.strip() in note for note in app.widgets.notes
                       for line in hud.result[1:])
    finally:
        app.destroy()
    saved = rec.load_record(record)
    assert saved.data["outcome"] is not None
    replayed = playing.replay(saved, playing.record_scene(saved)).record()
    assert rec.diff_records(saved.data, replayed) == []
    # every action of the person's seat went through the app: drops and button presses
    mine = [t["action"]["type"] for t in saved.data["turns"] if t["player"] == 0]
    assert drops == mine.count("drop") > 0
    assert pressed == len(mine) - drops


def test_restart_with_autosave_keeps_the_last_game_and_ctrl_s_follows_the_new_file(base, tmp_path):
    from balance3d.gui.app import TableApp
    from balance3d.gui.session import Session
    from balance3d.gui.trace import Trace

    record = tmp_path / "game.json"
    app = TableApp(base, record, Trace(tmp_path / "trace.jsonl"))
    session = Session.new("tilted", players=["Ann", "Bob"], bots=[None, None], seed=5,
                          record_path=record, speed="instant")
    try:
        app.start(session)
        app.submit(session.state.legal_release())
        for _ in range(50):
            base.taskMgr.step()
        played = record.read_bytes()
        assert len(rec.load_record(record).data["turns"]) == 1
        app.restart()
        app.save()
        assert record.read_bytes() == played             # the last game is kept
        fresh = tmp_path / "game-2.json"
        assert app.save_path == fresh and rec.load_record(fresh).data["turns"] == []
        assert str(fresh) in app.widgets.text("hint")
        assert app.widgets.text("message").startswith("saved to")
    finally:
        app.destroy()
