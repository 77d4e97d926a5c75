"""Tri-Ba-Lance in a real window under Xvfb (the fixtures of ``conftest.py`` and the
window driver of ``test_window_xvfb.py``): xdotool picks a piece from the tray,
points at a free field and clicks; the record, replayed headless, has that Place
on that field.  A click on a taken field is refused with the game's reason and
the record does not change; the Pass button passes once Yes answers its question.
And ``play tribalance --screenshot`` draws the plate and its fields offscreen, without a display."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import shapely

from balance3d import record as rec
from balance3d.games import Pass, Place, new_game
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.gui.games import game_text
from balance3d.gui.games.tribalance import table as tb
from balance3d.gui.widgets import YES_LABEL
from test_window_xvfb import (ROOT, TITLE, _click, _png, _state_after,  # noqa: F401
                              project, window)

#: Largest chromaticity distance (r, g, b over their sum) for "this colour".
SAME_HUE = 0.02

#: The free field aimed at (numbered 1: any lone piece there keeps the plate clear
#: of the frame on the default scene).
FIELD = 0


def field_point(state, field: int) -> np.ndarray:
    """World point (m) of ``field``'s middle on the plate's top, from the release area."""
    region, = [r for r in state.release_area()["regions"] if r["field"] == field]
    centre = shapely.Polygon(region["polygon"]).centroid
    return np.array([centre.x, centre.y, region["top_z"]])


def test_a_piece_placed_with_the_mouse_a_taken_field_refused_and_a_pass(
        window, xdotool, tmp_path):
    record = tmp_path / "game.json"
    w = window("tribalance", "--players", "2", "--bots", "-,planner", "--seed", "4",
               "--record", str(record), "--size", "1280x720", "--speed", "fast")
    ready = w.wait(lambda e: e["event"] == "ready" and e["phase"] == "place",
                   "the person's first placement (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = new_game("tribalance", players=2, seed=4)
    assert state.current_player == 0 and ready["legal"] == state.legal_pieces()
    pass_label = game_text("tribalance").decision_label(state, Pass())
    assert list(ready["buttons"]) == [pass_label]
    # pick the lightest piece from the tray and release it over field 0
    piece = ready["legal"][0]
    _click(w, xdotool, window_id, ready["pieces"][piece])
    before = len(w.events())
    _click(w, xdotool, window_id, np.round(project(ready, field_point(state, FIELD))))
    release = w.wait(lambda e: e["event"] in ("release", "refused"), "the release", before)
    assert release["event"] == "release", release
    assert release["action"] == {"type": "place", "piece": piece, "field": FIELD}
    verdict = w.wait(lambda e: e["event"] == "verdict", "the placement's verdict", before)
    # the bot plays, then the person again: the field is taken now
    mine = w.wait(lambda e: e["event"] == "ready", "the person's second turn",
                  w.events().index(verdict) + 1)
    assert mine["turns"] == 2
    saved = record.read_bytes()
    done = rec.load_record(record)
    entry = done.data["turns"][0]
    assert entry["player"] == 0 and entry["action"] == release["action"]
    assert entry["verdict"] == verdict["verdict"] and entry["verdict"]["valid"]
    now = _state_after(record, 2)
    assert now.placed[piece] == FIELD and now.current_player == 0
    # a click on the taken field (at the top of the piece standing there) is refused
    other = mine["legal"][0]
    _click(w, xdotool, window_id, mine["pieces"][other])
    pos, _ = now.world.pose(piece)
    high = now.piece_part(piece).mesh.bounds[1][2]
    before = len(w.events())
    _click(w, xdotool, window_id, np.round(project(mine, np.asarray(pos) + (0, 0, high))))
    refused = w.wait(lambda e: e["event"] in ("release", "refused"), "the refusal", before)
    assert refused["event"] == "refused", refused
    assert refused["action"] == {"type": "place", "piece": other, "field": FIELD}
    ok, reason = now.is_legal(Place(other, FIELD))
    assert not ok and refused["reason"] == reason == f"field {FIELD} is taken by {piece}"
    assert record.read_bytes() == saved             # nothing recorded, nothing changed
    refusal = before
    # Esc puts the piece back; the Pass button passes and puts the person out
    before = len(w.events())
    xdotool("key", "Escape")
    w.wait(lambda e: e["event"] == "put back" and e["piece"] == other, "Esc's put back", before)
    before = len(w.events())
    _click(w, xdotool, window_id, mine["buttons"][pass_label], table=False)
    asked = w.wait(lambda e: e["event"] == "buttons" and e["confirm"], "the question", before)
    _click(w, xdotool, window_id, asked["confirm"][YES_LABEL], table=False)
    passed = w.wait(lambda e: e["event"] == "verdict", "the pass", before)
    # the window handles the clicks in order: the refused one released and judged
    # nothing before the pass's verdict
    assert [e for e in w.events()[refusal:] if e["event"] in ("release", "verdict")][0] \
        == passed
    assert passed["verdict"]["kind"] == "TribalancePassVerdict"
    assert not any(e["event"] == "release" for e in w.events()[before:])
    assert w.close(xdotool) == 0
    turns = rec.load_record(record).data["turns"]
    assert turns[2]["player"] == 0 and turns[2]["action"] == {"type": "pass"}


def chroma(rgb):
    rgb = np.asarray(rgb, float)
    return rgb / max(rgb.sum(), 1e-9)


def test_play_tribalance_screenshot_shows_the_plate_and_its_fields_without_a_display(tmp_path):
    shot, trace = tmp_path / "table.png", tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "play", "tribalance",
                           "--seed", "3", "--screenshot", str(shot), "--size", "640x360",
                           "--trace", str(trace)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    [frame] = [json.loads(line) for line in trace.read_text().splitlines()
               if json.loads(line)["event"] == "frame"]
    pixels = _png(shot)
    state = new_game("tribalance", players=2, seed=3)
    plate = PlateFrame.of(state.world, state.side)
    # the plate's wood in the middle of three neighbouring fields (0.030 m from each,
    # outside their 0.024 m circles); the +y corner field's paint beside its number
    field = max(state.rules.fields, key=lambda f: f.y)
    for (x, y), colour in (((0.0, 0.030), tb.PLATE_WOOD),
                           ((field.x + 0.010, field.y), tb.FIELD_PAINT)):
        px, py = np.round(project(frame, plate.top_point(x, y))).astype(int)
        rgb = pixels[py - 1:py + 2, px - 1:px + 2].reshape(-1, 3)
        seen = np.median(rgb.astype(float), axis=0)
        assert np.linalg.norm(chroma(seen) - chroma(colour[:3])) < SAME_HUE, (x, y, seen)
