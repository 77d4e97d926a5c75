"""The window end to end under Xvfb with Mesa's software GL: real X events from
xdotool (never calls into the window's handlers), checked through the game record
the window writes, replayed headless, and the window's ``--trace``.

The tests aim with their own pinhole maths: from the camera pose and lens the
trace reports, a world point is projected to a pixel, and the ray back through
the pixel the pointer really was at is met with the plane of the beam's top face.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d import play as playing
from balance3d import record as rec
from balance3d.games import Choose, Drop, new_game
from balance3d.gui.games import game_text
from balance3d.gui.gesture import DEFAULT_HEIGHT

ROOT = Path(__file__).resolve().parents[2]
#: s, longest wait for the window to reach a traced moment (software GL, 2 cores
#: shared with the bots' thinking).
WAIT = 120.0
#: m, how close the block must come to rest to the point under the pointer.
LANDING_TOLERANCE = 0.005
#: m, a release point must keep this distance from any point whose drop tips the
#: beam or returns the block (the pointer lands within a pixel of the aim).
AIM_MARGIN = 0.004
#: m, spacing of the release points tried along the beam when aiming.
AIM_STEP = 0.004
#: Title of the window xdotool looks for.
TITLE = "balance3d"


class Window:
    """``balance3d play ARGS --trace`` running on the test display."""

    def __init__(self, display: str, args: list[str], folder: Path) -> None:
        self.trace = folder / "trace.jsonl"
        env = dict(os.environ, DISPLAY=display)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self.stderr = open(folder / "stderr.txt", "w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "balance3d.cli", "play", *args, "--trace", str(self.trace)],
            env=env, stdout=subprocess.DEVNULL, stderr=self.stderr, cwd=folder)

    def events(self) -> list[dict]:
        if not self.trace.exists():
            return []
        lines = self.trace.read_text().splitlines()
        return [json.loads(line) for line in lines if line.endswith("}")]

    def wait(self, check, what: str, after: int = 0) -> dict:
        """The first traced event (from index ``after``) for which ``check`` holds."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            for event in self.events()[after:]:
                if check(event):
                    return event
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stderr.seek(0)
        last = [e["event"] for e in self.events()[after:]][-12:]
        pytest.fail(f"the window never traced {what}; its last lines: {last}; exit "
                    f"{self.process.poll()}; stderr: {self.stderr.read()[-2000:]}")

    def close(self, xdotool) -> int:
        """Ctrl+Q and the exit status."""
        xdotool("key", "ctrl+q")
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail("the window did not close on Ctrl+Q")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


@pytest.fixture
def window(xvfb, tmp_path):
    opened = []

    def start(*args: str) -> Window:
        opened.append(Window(xvfb, list(args), tmp_path))
        return opened[-1]

    yield start
    for w in opened:
        w.kill()


def _point(w: Window, xdotool, window_id: str, pixel) -> None:
    """Move the pointer to ``pixel`` and wait until a frame of the window has used
    it there (its ``pointer`` line)."""
    before = len(w.events())
    at = [int(pixel[0]), int(pixel[1])]
    xdotool("mousemove", "--window", window_id, *(str(v) for v in at))
    w.wait(lambda e: e["event"] == "pointer" and e["pointer"] == at, f"the pointer at {at}",
           before)


def _click(w: Window, xdotool, window_id: str, pixel, table: bool = True) -> None:
    """Move the pointer to ``pixel`` and click there, in one xdotool call (the window
    sees the click where the pointer went).  A click on the ``table`` (not a widget:
    widgets keep their clicks) is waited for, its ``click`` line, so that whatever
    the test does next comes after the window has handled it."""
    before = len(w.events())
    at = [int(pixel[0]), int(pixel[1])]
    xdotool("mousemove", "--window", window_id, *(str(v) for v in at), "click", "1")
    if table:
        w.wait(lambda e: e["event"] == "click" and e["pointer"] == at, f"the click at {at}",
               before)


# ---------------------------------------------------------------- pinhole maths
def _camera(ready: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Camera position, world-from-camera rotation, tan of the half fields of view,
    window size, from a traced "ready" event (camera looks along its +y, z up)."""
    pos = np.array(ready["camera"]["pos"])
    rot = Rotation.from_quat(ready["camera"]["quat"]).as_matrix()
    half = np.tan(np.radians(np.array(ready["fov"])) / 2.0)
    return pos, rot, half, np.array(ready["size"], float)


def project(ready: dict, point) -> np.ndarray:
    """Pixel (x right, y down) of a world point."""
    pos, rot, half, size = _camera(ready)
    local = rot.T @ (np.asarray(point, float) - pos)
    ndc = np.array([local[0] / local[1] / half[0], local[2] / local[1] / half[1]])
    return np.array([(ndc[0] + 1.0) / 2.0 * size[0], (1.0 - ndc[1]) / 2.0 * size[1]])


def ray_hit_on_top_face(ready: dict, pixel, state) -> np.ndarray:
    """Where the ray through the centre of ``pixel`` meets the plane of the beam's
    top face in ``state``'s world."""
    pos, rot, half, size = _camera(ready)
    ndc = np.array([(pixel[0] + 0.5) / size[0] * 2.0 - 1.0,
                    1.0 - (pixel[1] + 0.5) / size[1] * 2.0])
    direction = rot @ np.array([ndc[0] * half[0], 1.0, ndc[1] * half[1]])
    beam_pos, beam_quat = state.world.pose("beam")
    beam_rot = Rotation.from_quat(beam_quat).as_matrix()
    thickness = state.world.part("beam").extents[2]
    normal = beam_rot[:, 2]
    on_face = np.asarray(beam_pos) + normal * thickness / 2.0
    t = (on_face - pos) @ normal / (direction @ normal)
    return pos + t * direction


# ---------------------------------------------------------------- the game
def _seed_where_the_bot_starts() -> int:
    """A seed of a 2-player game whose first drop is seat 1's (the bot's): the
    person then drops on a loaded beam, where a drop near the fulcrum holds it."""
    return next(s for s in range(50) if new_game("tilted", players=2, seed=s).current_player == 1)


def _state_after(path: Path, turns: int):
    """The headless state after the first ``turns`` actions of the record ``path``."""
    data = rec.read_json(path)
    data = dict(data, turns=data["turns"][:turns], outcome=None)
    record = rec.parse_record(data)
    return playing.replay(record, playing.record_scene(record)).state


def _top_point(state, x: float, y: float) -> np.ndarray:
    """World (x, y) on the highest surface there (m)."""
    return np.array([x, y, state.world.height_below([[x, y]])])


def _face_z(state, x: float, y: float) -> float:
    """Height (m) of the beam's top-face plane above world (x, y)."""
    beam_pos, beam_quat = state.world.pose("beam")
    n = Rotation.from_quat(beam_quat).as_matrix()[:, 2]
    face = np.asarray(beam_pos) + n * state.world.part("beam").extents[2] / 2.0
    return float(face[2] - (n[0] * (x - face[0]) + n[1] * (y - face[1])) / n[2])


def _centre_line(state) -> tuple[np.ndarray, np.ndarray]:
    """The release area's centre line: its point on the fulcrum line and its point
    at the high end (m, world x, y)."""
    corners = np.array(state.release_area()["regions"][0]["polygon"])
    return (corners[0] + corners[3]) / 2.0, (corners[1] + corners[2]) / 2.0


def _aim(state, piece: str, wanted, what: str) -> np.ndarray:
    """A point along the high side's centre line where a drop of ``piece`` gets a
    verdict with ``wanted(verdict)`` true, and so do the drops at every point within
    AIM_MARGIN of it (the pointer lands within a pixel of the aim)."""
    inner, outer = _centre_line(state)
    along = (outer - inner) / np.linalg.norm(outer - inner)
    fits = []
    for d in np.arange(0.0, np.linalg.norm(outer - inner), AIM_STEP):
        drop = Drop(piece, *(float(v) for v in inner + along * d), DEFAULT_HEIGHT)
        trial = state.clone()
        fits.append(trial.is_legal(drop)[0] and bool(wanted(trial.apply(drop))))
    span = int(np.ceil(AIM_MARGIN / AIM_STEP))
    for i in range(span, len(fits) - span):
        if all(fits[i - span:i + span + 1]):
            return _top_point(state, *(inner + along * i * AIM_STEP))
    pytest.fail(f"no drop of {piece} on the high side {what} in this game")


def _quiet_point(state, piece: str) -> np.ndarray:
    """Where a drop of ``piece`` neither tips the beam nor goes back."""
    return _aim(state, piece, lambda v: not v.tilted and not v.returned, "holds the beam")


def _winning_point(state, piece: str) -> np.ndarray:
    """Where a drop of ``piece`` tips the beam, stays and wins coins."""
    return _aim(state, piece, lambda v: v.coins_won > 0 and not v.returned, "wins coins")


def _low_point(state) -> np.ndarray:
    """A point of the beam's top face in the middle of the low half, beside the
    centre line if a block lies there."""
    inner, outer = _centre_line(state)
    middle = inner - (outer - inner) / 2.0
    side = np.array([-(outer - inner)[1], (outer - inner)[0]]) / np.linalg.norm(outer - inner)
    for offset in (0.0, 0.018, -0.018):
        x, y = middle + side * offset
        point = _top_point(state, x, y)
        if abs(point[2] - _face_z(state, x, y)) < 1e-4:
            return point
    pytest.fail("every point tried on the low half has a block on it")


def _start_to_person(window, xdotool, tmp_path):
    """Open the game of test 1 and 2 and wait until the person is to drop: the
    window, its id, the "ready" event, the record path and the headless state."""
    seed = _seed_where_the_bot_starts()
    record = tmp_path / "game.json"
    w = window("tilted", "--players", "2", "--bots", "-,planner", "--seed", str(seed),
               "--record", str(record), "--size", "1280x720")
    ready = w.wait(lambda e: e["event"] == "ready" and e["phase"] == "drop",
                   "the person's drop (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = _state_after(record, ready["turns"])
    assert state.current_player == 0 and ready["legal"] == state.legal_pieces()
    assert ready["size"] == [1280, 720]
    return w, window_id, ready, record, state


def test_a_drop_on_the_high_side_lands_under_the_pointer_and_the_bot_plays_next(
        window, xdotool, tmp_path):
    w, window_id, ready, record, state = _start_to_person(window, xdotool, tmp_path)
    piece = min(ready["legal"], key=lambda p: state.piece_part(p).mesh.volume)
    target = _quiet_point(state, piece)
    _click(w, xdotool, window_id, ready["pieces"][piece])
    aim = np.round(project(ready, target))
    before = len(w.events())
    _click(w, xdotool, window_id, aim)
    release = w.wait(lambda e: e["event"] in ("release", "refused"), "the release", before)
    assert release["event"] == "release", release
    assert release["action"]["piece"] == piece
    hit = ray_hit_on_top_face(ready, release["pointer"], state)
    verdict = w.wait(lambda e: e["event"] == "verdict", "the drop's verdict", before)
    after = w.events().index(verdict)
    prompt = w.wait(lambda e: e["event"] == "hud", "the next HUD prompt", after + 1)
    assert w.close(xdotool) == 0
    # the record holds the person's drop, replayed headless
    done = rec.load_record(record)
    assert len(done.data["turns"]) >= ready["turns"] + 1
    entry = done.data["turns"][ready["turns"]]
    assert entry["player"] == 0 and entry["action"] == release["action"]
    assert entry["verdict"] == verdict["verdict"]
    landed = _state_after(record, ready["turns"] + 1)
    assert not entry["verdict"]["tilted"] and entry["verdict"]["returned"] == []
    rest, _ = landed.world.pose(piece)
    assert np.linalg.norm(np.asarray(rest[:2]) - hit[:2]) <= LANDING_TOLERANCE, (rest, hit)
    # the next turn is the bot's, and the HUD says so
    assert landed.current_player == 1
    assert landed.players[1].name in prompt["prompt"]


def test_a_drop_over_the_low_side_is_refused_with_the_games_reason(window, xdotool, tmp_path):
    w, window_id, ready, record, state = _start_to_person(window, xdotool, tmp_path)
    saved = record.read_bytes()
    piece = ready["legal"][0]
    _click(w, xdotool, window_id, ready["pieces"][piece])
    before = len(w.events())
    _click(w, xdotool, window_id, np.round(project(ready, _low_point(state))))
    refused = w.wait(lambda e: e["event"] in ("release", "refused"), "the refusal", before)
    assert refused["event"] == "refused", refused
    action = rec.action_from_dict(refused["action"])
    assert action.piece == piece
    hit = ray_hit_on_top_face(ready, refused["pointer"], state)
    assert np.hypot(action.x - hit[0], action.y - hit[1]) <= LANDING_TOLERANCE
    ok, reason = state.is_legal(action)
    assert not ok and refused["reason"] == reason
    # the window handles Ctrl+Q after the click: everything the click did is traced
    # before its "quit"
    assert w.close(xdotool) == 0
    after = w.events()[before:]
    assert after[-1]["event"] == "quit"
    assert record.read_bytes() == saved            # no turn recorded, nothing changed
    assert not any(e["event"] in ("release", "verdict") for e in after)


def test_a_decision_button_buys_and_ctrl_z_undoes_it_and_ctrl_s_saves(
        window, xdotool, tmp_path):
    seed = next(s for s in range(50) if new_game("tilted", players=2, seed=s).current_player == 0)
    record = tmp_path / "game.json"
    w = window("tilted", "--players", "2", "--bots", "-,planner", "--seed", str(seed),
               "--record", str(record), "--speed", "fast")
    ready = w.wait(lambda e: e["event"] == "ready", "the person's first drop (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = new_game("tilted", players=2, seed=seed)
    piece = ready["legal"][0]
    _click(w, xdotool, window_id, ready["pieces"][piece])
    _click(w, xdotool, window_id, np.round(project(ready, _winning_point(state, piece))))
    buy = w.wait(lambda e: e["event"] == "ready" and e["phase"] == "buy", "the buy decision")
    assert buy["turns"] == 1
    after_drop = record.read_bytes()
    state = _state_after(record, 1)
    label = game_text("tilted").decision_label(state, Choose("buy", True))
    assert sorted(buy["buttons"]) == sorted(
        game_text("tilted").decision_label(state, a) for a in state.legal_decisions())
    before = len(w.events())
    _click(w, xdotool, window_id, buy["buttons"][label], table=False)
    bought = w.wait(lambda e: e["event"] == "verdict", "the purchase", before)
    assert bought["verdict"]["kind"] == "TiltedBuyVerdict" and bought["verdict"]["buy"] is True
    assert rec.load_record(record).data["turns"][1]["action"] == {
        "type": "choose", "what": "buy", "value": True}
    # the bot plays; then Ctrl+Z goes back to the buy decision: the purchase and the
    # bot's turns after it are gone
    mine = w.wait(lambda e: e["event"] == "ready", "the person's next turn",
                  w.events().index(bought))
    assert mine["turns"] > 2
    before = len(w.events())
    xdotool("key", "ctrl+z")
    again = w.wait(lambda e: e["event"] == "ready", "the buy decision again", before)
    assert (again["phase"], again["turns"]) == ("buy", 1)
    assert record.read_bytes() == after_drop            # the autosave went back too
    xdotool("key", "ctrl+s")
    saved = w.wait(lambda e: e["event"] == "saved", "the save", before)
    assert Path(saved["path"]) == record and record.read_bytes() == after_drop
    assert w.close(xdotool) == 0


def test_the_designers_what_if_shows_the_verdict_a_copy_gives_and_changes_nothing(
        window, xdotool, tmp_path):
    seed = next(s for s in range(50) if new_game("tilted", players=2, seed=s).current_player == 0)
    w = window("tilted", "--players", "2", "--bots", "-,planner", "--seed", str(seed))
    ready = w.wait(lambda e: e["event"] == "ready", "the person's first drop (ready)")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    state = new_game("tilted", players=2, seed=seed)
    piece = ready["legal"][0]
    _click(w, xdotool, window_id, ready["pieces"][piece])
    target = np.round(project(ready, _winning_point(state, piece)))
    _point(w, xdotool, window_id, target)
    before = len(w.events())
    xdotool("key", "d")
    xdotool("key", "v")
    preview = w.wait(lambda e: e["event"] == "preview", "the what-if verdict", before)
    action = rec.action_from_dict(preview["action"])
    assert action.piece == piece
    trial = state.clone()
    assert trial.apply(action).to_dict() == preview["verdict"]
    assert w.close(xdotool) == 0
    assert not any(e["event"] in ("release", "verdict") for e in w.events())


def test_a_replay_steps_through_the_record_with_space_and_right(window, xdotool, tmp_path):
    from balance3d import cli
    record = tmp_path / "game.json"
    assert cli.main(["simulate", "tilted", "--bots", "random", "--seed", "2", "--quiet",
                     "--record", str(record)]) == 0
    turns = rec.load_record(record).data["turns"]
    w = window("--replay", str(record), "--speed", "fast")
    w.wait(lambda e: e["event"] == "hud", "the replay's HUD")
    xdotool("search", "--sync", "--name", f"^{TITLE}$")
    xdotool("mousemove", "640", "360")
    shown = []
    for key in ("space", "Right"):
        before = len(w.events())
        xdotool("key", key)
        shown.append(w.wait(lambda e: e["event"] == "verdict", f"the verdict after {key}",
                            before)["verdict"])
    assert shown == [turns[0]["verdict"], turns[1]["verdict"]]
    assert w.close(xdotool) == 0


def test_the_start_menu_opens_without_arguments_and_start_begins_a_game(
        window, xdotool, tmp_path):
    w = window()
    menu = w.wait(lambda e: e["event"] == "menu", "the start menu")
    window_id = xdotool("search", "--sync", "--name", f"^{TITLE}$").split()[0]
    _click(w, xdotool, window_id, menu["start"], table=False)
    hud = w.wait(lambda e: e["event"] == "hud", "a HUD prompt")
    first = new_game("tilted", players=2, seed=0)
    assert first.players[first.current_player].name in hud["prompt"]
    assert w.close(xdotool) == 0


def _png(path: Path) -> np.ndarray:
    """(h, w, 3) uint8 pixels of a PNG file."""
    from panda3d.core import PNMImage
    image = PNMImage()
    assert image.read(str(path)), f"cannot read {path}"
    w, h = image.getXSize(), image.getYSize()
    return np.array([[[image.getRedVal(x, y), image.getGreenVal(x, y), image.getBlueVal(x, y)]
                      for x in range(w)] for y in range(h)], dtype=np.uint8)


def test_a_screenshot_renders_the_table_offscreen_without_a_display(tmp_path):
    shot, trace = tmp_path / "table.png", tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "play", "tilted", "--seed", "3",
                           "--screenshot", str(shot), "--size", "640x360", "--trace", str(trace)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    [frame] = [json.loads(line) for line in trace.read_text().splitlines()
               if json.loads(line)["event"] == "frame"]
    pixels = _png(shot)
    assert pixels.shape == (360, 640, 3) and frame["size"] == [640, 360]
    state = new_game("tilted", players=2, seed=3)
    beam_pos, beam_quat = state.world.pose("beam")
    rot = Rotation.from_quat(beam_quat).as_matrix()
    half = np.asarray(state.world.part("beam").extents) / 2.0
    # points on the beam's top face in section 2 on either side, between its line and
    # its painted value (section bounds from the scene's rules)
    section = next(s for s in state.rules.sections if s.value == 2)
    inner, outer = section.start, section.stop
    along = inner + (outer - inner) / 4.0
    on_beam = [np.asarray(beam_pos) + rot @ np.array([s * along, 0.0, half[2]])
               for s in (-1.0, 1.0)]
    # points on the table two beam widths beside those, on the camera's side
    toward = np.sign((np.asarray(frame["camera"]["pos"]) - beam_pos) @ rot[:, 1])
    beside = [p + rot @ np.array([0.0, toward * 4 * half[1], 0.0]) for p in on_beam]
    for p in beside:
        p[2] = 0.0
    for top, table in zip(on_beam, beside):
        x, y = np.round(project(frame, top)).astype(int)
        tx, ty = np.round(project(frame, table)).astype(int)
        wood, cloth = pixels[y, x].astype(int), pixels[ty, tx].astype(int)
        assert wood[0] > wood[2] + 20, wood          # a wood tone: red well above blue
        assert np.abs(wood - cloth).sum() > 60, (wood, cloth)   # not the table
