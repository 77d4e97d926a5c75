"""``balance3d play``: its arguments are checked before anything opens, every error is
one line with exit status 2, and neither the help nor any error imports Panda3D."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance3d import cli
from balance3d.commands import play
from balance3d.games import get_game

ROOT = Path(__file__).resolve().parents[2]

#: Runs each argument list given as JSON on stdin through ``cli.main`` in one
#: fresh interpreter; prints per case the exit status, stderr and whether any
#: Panda3D module was imported by then.
_RUNNER = r"""
import contextlib, io, json, sys
from balance3d import bots, cli

class TowerOnly:
    name, games = "tower_only", ("tower",)
    def __init__(self, seed, seat): pass

bots.REGISTRY["tower_only"] = "__main__:TowerOnly"
out = []
for argv in json.load(sys.stdin):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
    panda = sorted(m for m in sys.modules if m.split(".")[0] in ("panda3d", "direct"))
    out.append([status, err.getvalue(), panda])
print(json.dumps(out))
"""


@pytest.fixture(autouse=True)
def _display(monkeypatch):
    """A display name for the in-process checks (nothing opens it)."""
    monkeypatch.setenv("DISPLAY", ":987")


def _run(cases: list[list[str]], env_display: str | None = ":987") -> list[list]:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if env_display is not None:
        env["DISPLAY"] = env_display
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(cases),
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    return json.loads(done.stdout)


def _error(text: str) -> str:
    """The one line after the command's error prefix."""
    assert text.endswith("\n") and text.count("\n") == 1, text
    assert text.startswith("balance3d play: error: "), text
    return text[len("balance3d play: error: "):-1]


def test_help_imports_no_panda3d():
    [(status, err, panda)] = _run([["play", "--help"]])
    assert (status, err, panda) == (0, "", [])


def test_every_argument_error_is_one_line_exit_2_and_imports_no_panda3d(tmp_path):
    other = tmp_path / "other.json"
    assert cli.main(["simulate", "tilted", "--bots", "random", "--seed", "1", "--quiet",
                     "--record", str(other)]) == 0
    counts = get_game("tilted").player_counts("basic")
    cases = {
        "--variant 'nope': tilted has no such variant (variants: basic, solo, advanced)":
            ["play", "tilted", "--variant", "nope"],
        f"--players 7: tilted (basic) plays with {', '.join(map(str, counts[:-1]))} or "
        f"{counts[-1]} player(s)": ["play", "tilted", "--players", "7"],
        "--names gives 1: tilted (basic) plays with 2, 3 or 4 player(s); 1 player(s) play "
        "--variant solo": ["play", "tilted", "--names", "Ann"],
        "--bots: unknown bot 'nosuch' (known: planner, random, tower_only; - for a person)":
            ["play", "tilted", "--bots", "-,nosuch"],
        "--bots tower_only: does not play tilted (bots that play it: planner, random)":
            ["play", "tilted", "--bots", "-,tower_only"],
        "--bots names 3 seats for 2 players":
            ["play", "tilted", "--players", "2", "--bots", "-,planner,random"],
        "--seed -1: must be a non-negative integer": ["play", "tilted", "--seed", "-1"],
        f"--record {tmp_path}: is a folder, not a record file":
            ["play", "tilted", "--record", str(tmp_path)],
        f"--record {tmp_path / 'no' / 'r.json'}: folder {tmp_path / 'no'} does not exist":
            ["play", "tilted", "--record", str(tmp_path / "no" / "r.json")],
        "--turns: only with --screenshot FILE.png": ["play", "tilted", "--turns", "3"],
        f"--screenshot {tmp_path / 'a.jpg'}: the file name must end in .png":
            ["play", "tilted", "--screenshot", str(tmp_path / "a.jpg")],
        "--size 12x: give WIDTHxHEIGHT in pixels, such as 1280x720":
            ["play", "tilted", "--size", "12x"],
        "--size 100x100: each side must be 320 to 7680 pixels":
            ["play", "tilted", "--size", "100x100"],
        "--players: not without GAME (the start menu); give GAME to start a new game":
            ["play", "--players", "3"],
        "GAME and --load: give only one of GAME, --load FILE and --replay FILE":
            ["play", "tilted", "--load", str(other)],
        "--record: not with --replay (a replay records nothing)":
            ["play", "--replay", str(other), "--record", str(tmp_path / "r.json")],
    }
    results = _run(list(cases.values()))
    for (message, argv), (status, err, panda) in zip(cases.items(), results):
        assert (status, _error(err), panda) == (2, message, []), argv
    # an existing record of another game is refused, naming both games
    [(status, err, panda)] = _run([["play", "tilted", "--seed", "2", "--record", str(other)]])
    line = _error(err)
    assert (status, panda) == (2, [])
    assert line.startswith(f"--record {other}: holds another game (tilted (basic), scene tilted")
    assert "seed 1" in line and "seed 2" in line and line.endswith("it is kept: give another file")
    # the same game and players with only the seed changed is another game too
    [(status, err, panda)] = _run([["play", "tilted", "--seed", "2", "--bots", "random",
                                    "--record", str(other)]])
    line = _error(err)
    assert (status, panda) == (2, [])
    assert line.startswith(f"--record {other}: holds another game (tilted (basic), scene tilted")
    assert "seed 1, " in line and "seed 2, " in line
    # a record of this very game with actions the new game would not keep
    [(status, err, panda)] = _run([["play", "tilted", "--seed", "1", "--bots", "random",
                                    "--record", str(other)]])
    turns = len(json.loads(other.read_text())["turns"])
    assert (status, _error(err), panda) == (
        2, f"--record {other}: holds {turns} actions of this game; go on with them with "
           f"--load {other}, or give another file", [])


def test_a_missing_or_malformed_load_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    results = _run([["play", "--load", str(tmp_path / "none.json")],
                    ["play", "--load", str(bad)], ["play", "--replay", str(bad)]])
    for status, err, panda in results:
        assert (status, panda) == (2, [])
        assert str(tmp_path) in _error(err)


def test_without_a_display_the_window_refuses_in_one_line_pointing_to_simulate():
    if not sys.platform.startswith("linux"):
        pytest.fail("this check is written for Linux, where the window needs DISPLAY")
    results = _run([["play", "tilted", "--bots", "-,planner"], ["play"]], env_display=None)
    for status, err, panda in results:
        line = _error(err)
        assert (status, panda) == (2, [])
        assert line.startswith("no display (DISPLAY is not set)")
        assert "'balance3d simulate'" in line


def _options(*argv: str) -> play.PlayOptions:
    return play.check(cli.build_parser().parse_args(["play", *argv]))


def test_seats_from_bots_names_and_defaults():
    o = _options("tilted", "--players", "2", "--bots", "-,planner", "--seed", "7")
    assert (o.game, o.variant, o.seed) == ("tilted", "basic", 7)
    assert o.names == ("Player 1", "Player 2") and o.bots == (None, "planner")
    assert not o.menu and o.size == play.DEFAULT_SIZE and o.speed == "real"
    default = get_game("tilted").default_bot
    o = _options("tilted", "--names", "Ann,Bob,Cy")
    assert o.names == ("Ann", "Bob", "Cy") and o.bots == (None, default, default)
    o = _options("tilted", "--variant", "solo")
    assert o.bots == (None,)
    o = _options("tilted", "--bots", "random,-,-")
    assert o.bots == ("random", None, None)
    o = _options("tilted", "--players", "3", "--bots", "random")
    assert o.bots == ("random",) * 3
    assert _options().menu and _options("--size", "800x600").size == (800, 600)


def test_a_screenshot_needs_no_display_and_fills_unnamed_seats_with_bots(tmp_path, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    o = _options("tilted", "--screenshot", str(tmp_path / "a.png"), "--turns", "2")
    default = get_game("tilted").default_bot
    assert o.screenshot == tmp_path / "a.png" and o.turns == 2
    assert o.bots == (default, default)


def test_load_takes_the_game_from_the_record_and_bots_may_change(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert cli.main(["simulate", "tilted", "--players", "3", "--bots", "random", "--seed", "4",
                     "--quiet", "--record", str(path)]) == 0
    o = _options("--load", str(path), "--bots", "-,random,planner")
    assert (o.game, o.seed, o.load) == ("tilted", 4, path)
    assert o.bots == (None, "random", "planner") and len(o.names) == 3
    # the same game's record file is accepted as --record target
    assert _options("--load", str(path), "--record", str(path)).record == path


def test_the_readme_lists_every_control_the_help_overlay_shows():
    from balance3d.gui.widgets import CONTROLS
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for keys, what in CONTROLS:
        assert f"| {keys} | {what} |" in readme
    for line in ("balance3d play tilted --players 2 --bots -,planner --seed 7",):
        assert line in readme
        argv = line.split()[1:]
        assert play.check(cli.build_parser().parse_args(argv)).bots == (None, "planner")


def test_a_display_that_does_not_answer_is_named_in_one_error_line():
    # a display number no X server listens on
    dead = next(f":{n}" for n in range(600, 900) if not Path(f"/tmp/.X11-unix/X{n}").exists()
                and not Path(f"/tmp/.X{n}-lock").exists())
    env = dict(os.environ, DISPLAY=dead, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "play", "tilted"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"balance3d play: error: cannot open a window on display '{dead}'")
    assert "Traceback" not in done.stderr
