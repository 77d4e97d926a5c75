"""Tower in a real window under Xvfb (the fixtures of ``conftest.py`` and the window
driver of ``test_window_xvfb.py``): xdotool picks a piece from the tray and clicks
over the opponent's base, which the game refuses with its reason and nothing is
recorded, then over the player's own base: the record, replayed headless, has that
Drop and the piece rests on that base under the pointer.  And ``play tower
--screenshot`` draws the bases and the trays offscreen, without a display."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import shapely

from balance3d import record as rec
from balance3d.games import new_game
from balance3d.games.tower.judge import base_outline
from balance3d.gui.games.tower import table as tt
from test_window_xvfb import (ROOT, TITLE, _camera, _click, _png,  # noqa: F401
                              _state_after, project, window)

#: m, how close the piece must come to rest to the point under the pointer (its
#: footprint's middle to the ray's hit on the base's top).
LANDING_TOLERANCE = 0.005
#: Largest chromaticity distance (r, g, b over their sum) for "this colour".
SAME_HUE = 0.02


def base_top_centre(state, seat: int) -> np.ndarray:
    """World point (m) of the middle of ``seat``'s base's top face."""
    centre = base_outline(state.world, state.base(seat)).centroid
    return np.array([centre.x, centre.y, state.world.vertices(state.base(seat))[:, 2].max()])


def ray_hit_at_height(ready: dict, pixel, z: float) -> np.ndarray:
    """Where the ray through the centre of ``pixel`` meets the plane at height z m."""
    pos, rot, half, size = _camera(ready)
    ndc = np.array([(pixel[0] + 0.5) / size[0] * 2.0 - 1.0,
                    1.0 - (pixel[1] + 0.5) / size[1] * 2.0])
    direction = rot @ np.array([ndc[0] * half[0], 1.0, ndc[1] * half[1]])
    return pos + (z - pos[2]) / direction[2] * direction


def test_a_piece_from_the_tray_refused_on_the_opponents_base_lands_on_the_own(
        window, xdotool, tmp_path):
    seed = next(s for s in range(50)
                if (g := new_game("tower", players=2, seed=s)).current_player == 0
                and g.phase == "drop")
    record = tmp_path / "game.json"
    w = window("tower", "--players", "2", "--bots", "-,planner", "--seed", str(seed),
               "--record", str(record), "--size", "1280x720", "--speed", "fast")
    ready = w.wait(lambda e: e["event"] == "ready" and e["phase"] == "drop",
                   "the person's first drop (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = new_game("tower", players=2, seed=seed)
    assert ready["turns"] == 0 and ready["legal"] == state.legal_pieces()
    saved = record.read_bytes() if record.exists() else None
    piece = next(p for p in ready["legal"] if "logo" in p)
    _click(w, xdotool, window_id, ready["pieces"][piece])
    # over the opponent's base: refused with the game's reason, nothing recorded
    before = len(w.events())
    _click(w, xdotool, window_id, np.round(project(ready, base_top_centre(state, 1))))
    refused = w.wait(lambda e: e["event"] in ("release", "refused"), "the refusal", before)
    assert refused["event"] == "refused", refused
    action = rec.action_from_dict(refused["action"])
    assert action.piece == piece
    assert base_outline(state.world, state.base(1)).contains(shapely.Point(action.x, action.y))
    ok, reason = state.is_legal(action)
    assert not ok and refused["reason"] == reason
    assert "not over your base" in reason
    assert (record.read_bytes() if record.exists() else None) == saved
    refusal = before
    # over the middle of the own base: released, judged, recorded
    before = len(w.events())
    _click(w, xdotool, window_id, np.round(project(ready, base_top_centre(state, 0))))
    release = w.wait(lambda e: e["event"] in ("release", "refused"), "the release", before)
    assert release["event"] == "release", release
    assert release["action"]["type"] == "drop" and release["action"]["piece"] == piece
    top = base_top_centre(state, 0)[2]
    hit = ray_hit_at_height(ready, release["pointer"], top)
    verdict = w.wait(lambda e: e["event"] == "verdict", "the drop's verdict", before)
    # the window handles the clicks in order: the refused one released and judged
    # nothing before this release and its verdict
    assert [e for e in w.events()[refusal:] if e["event"] in ("release", "verdict")][:2] \
        == [release, verdict]
    assert w.close(xdotool) == 0
    done = rec.load_record(record)
    entry = done.data["turns"][0]
    assert entry["player"] == 0 and entry["action"] == release["action"]
    assert entry["verdict"] == verdict["verdict"]
    landed = _state_after(record, 1)
    assert landed.tower(0) == [piece] and piece not in landed.hand(0)
    verts = landed.world.vertices(piece)
    middle = (verts[:, :2].min(axis=0) + verts[:, :2].max(axis=0)) / 2.0
    assert np.linalg.norm(middle - hit[:2]) <= LANDING_TOLERANCE, (middle, hit)
    # it lies on the base: its lowest point on the base's top face
    assert abs(verts[:, 2].min() - top) < 0.001


def chroma(rgb):
    rgb = np.asarray(rgb, float)
    return rgb / max(rgb.sum(), 1e-9)


def test_play_tower_screenshot_shows_the_bases_and_trays_without_a_display(tmp_path):
    shot, trace = tmp_path / "table.png", tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "play", "tower",
                           "--seed", "3", "--screenshot", str(shot), "--size", "640x360",
                           "--trace", str(trace)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    [frame] = [json.loads(line) for line in trace.read_text().splitlines()
               if json.loads(line)["event"] == "frame"]
    pixels = _png(shot)
    state = new_game("tower", players=2, seed=3)
    x0, y0, x1, y1 = base_outline(state.world, state.base(1)).bounds
    top = state.world.vertices(state.base(1))[:, 2].max()
    # the back of seat 1's base's top (its front carries the name band); seat 0's
    # colour band on its mat, left of the name
    mat = tt.mat_extent(state, 0, 24)
    shown = [(((x0 + x1) / 2.0, y1 - 0.01, top), tt.BASE_WOOD),
             ((mat[0] + 0.01, mat[3] - tt.NAME_BAND / 2.0, 0.0), tt.seat_colour(0))]
    for point, colour in shown:
        px, py = np.round(project(frame, point)).astype(int)
        seen = np.median(pixels[py - 1:py + 2, px - 1:px + 2].reshape(-1, 3).astype(float),
                         axis=0)
        assert np.linalg.norm(chroma(seen) - chroma(colour[:3])) < SAME_HUE, (point, seen)
