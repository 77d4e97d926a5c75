"""Tri-Ba-Lance in a real window under Xvfb: the tray piece nearest the Pass button
picks up when clicked, and nothing passes; Pass asks first, No goes back to the
turn, and only Yes passes.  Real X events from xdotool (pointer moved and clicked
in one xdotool call, so the window sees them in order); every wait is on a line
of the window's ``--trace``."""
from __future__ import annotations

import numpy as np

from balance3d import record as rec
from balance3d.games import Pass, new_game
from balance3d.gui.games import game_text
from balance3d.gui.widgets import NO_LABEL, YES_LABEL
from test_window_xvfb import TITLE, window  # noqa: F401

#: The window's size (the one the pass misclick was seen at).
SIZE = "1280x800"


def click(xdotool, window_id: str, pixel) -> None:
    """Move the pointer to ``pixel`` of the window and click there."""
    xdotool("mousemove", "--window", window_id, str(int(round(pixel[0]))),
            str(int(round(pixel[1]))), "click", "1")


def test_the_piece_by_the_pass_button_picks_and_passing_asks_first(window, xdotool, tmp_path):
    record = tmp_path / "game.json"
    w = window("tribalance", "--players", "2", "--bots", "-,planner", "--seed", "0",
               "--record", str(record), "--size", SIZE, "--speed", "fast")
    ready = w.wait(lambda e: e["event"] == "ready" and e["phase"] == "place",
                   "the person's first placement (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = new_game("tribalance", players=2, seed=0)
    label = game_text("tribalance").decision_label(state, Pass())
    button = np.array(ready["buttons"][label])
    # the Pass button lies in the bar's region, and no tray piece does
    x, y, bw, bh = ready["regions"]["bar"]
    assert x <= button[0] <= x + bw and y <= button[1] <= y + bh
    mine = {p: np.array(px) for p, px in ready["pieces"].items() if p in ready["legal"]}
    for pixel in ready["pieces"].values():
        assert not (x <= pixel[0] <= x + bw and y <= pixel[1] <= y + bh), pixel
    # the person's piece nearest the Pass button: a click on it picks it, never passes
    piece = min(mine, key=lambda p: np.linalg.norm(mine[p] - button))
    before = len(w.events())
    click(xdotool, window_id, mine[piece])
    picked = w.wait(lambda e: e["event"] in ("picked", "asked", "verdict"), "the pick", before)
    assert picked["event"] == "picked" and picked["piece"] == piece, picked
    # Pass, clicked while holding the piece, releases nothing: it puts the piece back
    # and asks; No goes back to the turn, and nothing passed
    before = len(w.events())
    click(xdotool, window_id, button)
    asked = w.wait(lambda e: e["event"] in ("asked", "verdict", "release", "refused"),
                   "the question", before)
    assert asked["event"] == "asked" and asked["action"] == {"type": "pass"}, asked
    assert asked["question"] == game_text("tribalance").confirm(state, Pass())
    shown = w.wait(lambda e: e["event"] == "buttons" and e["confirm"], "the answers shown",
                   before)
    assert shown["decisions"] == {}              # the Pass button hides meanwhile
    assert shown["confirm"] == asked["buttons"]
    no, yes = asked["buttons"][NO_LABEL], asked["buttons"][YES_LABEL]
    # the answers lie in the confirm region at the top, away from the bar and the table
    cx, cy, cw, ch = ready["regions"]["confirm"]
    for pixel in (no, yes):
        assert cx <= pixel[0] <= cx + cw and cy <= pixel[1] <= cy + ch, pixel
    before = len(w.events())
    click(xdotool, window_id, no)
    answered = w.wait(lambda e: e["event"] in ("answered", "verdict"), "the No", before)
    assert answered == {**answered, "event": "answered", "yes": False}
    back = w.wait(lambda e: e["event"] == "buttons" and not e["confirm"], "Pass again", before)
    assert back["decisions"] == ready["buttons"]
    # a second Pass, this time answered Yes: now the person passes and is out
    before = len(w.events())
    click(xdotool, window_id, button)
    w.wait(lambda e: e["event"] == "buttons" and e["confirm"], "the answers again", before)
    click(xdotool, window_id, yes)
    passed = w.wait(lambda e: e["event"] == "verdict", "the pass", before)
    assert passed["verdict"]["kind"] == "TribalancePassVerdict"
    events = w.events()
    verdicts = [e for e in events if e["event"] == "verdict"]
    assert verdicts[0] == passed                # the first action played: the pass
    assert [e["yes"] for e in events if e["event"] == "answered"] == [False, True]
    assert w.close(xdotool) == 0
    turns = rec.load_record(record).data["turns"]
    assert [(t["player"], t["action"]) for t in turns[:1]] == [(0, {"type": "pass"})]
