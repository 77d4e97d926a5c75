"""How long the window takes to open and to close, broken into its parts.

Opening is measured as ``balance3d play GAME`` opens it (a person in seat 0, the
game's default bot in the others), in a fresh Python process each time, in wall
seconds from starting the process:

* ``python``: the interpreter starting, until the first line of the child runs;
* ``imports``: balance3d's modules (games, physics, meshes) and Panda3D's;
* ``window``: the ShowBase opening its window on the display;
* ``scene``: the game made (scene file, meshes and the World built);
* ``meshes``: the table view built (the bodies' meshes turned into Panda3D geometry,
  lights, trays, HUD);
* ``shaders``: the first frame's extra cost over a frame drawn afterwards (the
  shaders compiled, geometry and textures sent to the GPU);
* ``first frame``: the rest of the first frame; ``open``: all of them.

Closing is measured with a bot thinking hard: four towers of 24 pieces (seat 0's
one short, as in ``gui_fps --game tower``) and every seat played by the planner,
whose trials there take seconds.  Once the planner has reported its first
trial under way, the window is closed as Ctrl+Q closes it (the session closed,
the ShowBase destroyed) and the process ends; ``close`` is the wall time from
there until the process has exited.

Each is measured ``--runs`` times after one warm-up run (the second start: the
operating system's file caches warm); the median is printed and saved with the
load average, which slows every figure on a shared machine.  ``--code DIR``
measures the balance3d of another checkout (for a before-and-after comparison).
Needs a display: run under Xvfb with Mesa's software OpenGL, e.g.

    xvfb-run -s "-screen 0 1280x800x24" python -m benchmarks.gui_startup

(from the root of a checkout).  Writes ``benchmarks/results/gui_startup.json`` and
``gui_startup.md``.
"""
from __future__ import annotations

import time

START = time.time()

import argparse  # noqa: E402  (the child's clock starts before its imports)
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

#: The parts of the opening, in order (see the module).
OPEN_PARTS = ("python", "imports", "window", "scene", "meshes", "shaders", "first frame")
#: Frames drawn after the first to price a frame without its one-off costs.
LATER_FRAMES = 5
#: Window size, pixels.
SIZE = (1280, 720)
#: s, longest a child may take before the benchmark gives up on it.
CHILD_TIMEOUT = 600.0
#: The checkout this file belongs to.
ROOT = Path(__file__).resolve().parents[1]


def child_open(game: str, spawned: float) -> dict[str, float]:
    """In the child: open the window as ``balance3d play`` does; the wall seconds of
    each part of :data:`OPEN_PARTS`."""
    marks = {"spawned": spawned, "started": START}
    from balance3d.gui.launch import PRC
    from panda3d.core import loadPrcFileData
    loadPrcFileData("gui-startup", PRC + "win-size {} {}\n".format(*SIZE))
    from direct.showbase.ShowBase import ShowBase

    from balance3d.games import get_game
    from balance3d.gui.app import TableApp
    from balance3d.gui.session import Session
    from balance3d.gui.trace import Trace
    marks["imports"] = time.time()
    base = ShowBase()
    base.disableMouse()
    app = TableApp(base, Path(os.devnull), Trace(None))
    marks["window"] = time.time()
    known = get_game(game)
    session = Session.new(game, players=["Player 1", "Player 2"],
                          bots=[None, known.default_bot], seed=0)
    marks["scene"] = time.time()
    app.start(session)
    marks["meshes"] = time.time()
    base.taskMgr.step()
    marks["first frame"] = time.time()
    for _ in range(LATER_FRAMES):
        base.taskMgr.step()
    later = (time.time() - marks["first frame"]) / LATER_FRAMES
    app.close()
    base.destroy()
    first = marks["first frame"] - marks["meshes"]
    parts = {"python": START - spawned, "imports": marks["imports"] - START,
             "window": marks["window"] - marks["imports"],
             "scene": marks["scene"] - marks["window"],
             "meshes": marks["meshes"] - marks["scene"],
             "shaders": max(0.0, first - later), "first frame": min(first, later)}
    parts["open"] = marks["first frame"] - spawned
    return parts


def child_close() -> float:
    """In the child: a window over four full towers with the planner thinking; the
    time (``time.time()``) at which it is closed, once a trial is under way."""
    from balance3d.gui.launch import PRC
    from panda3d.core import loadPrcFileData
    loadPrcFileData("gui-startup", PRC + "win-size {} {}\n".format(*SIZE))
    from direct.showbase.ShowBase import ShowBase

    from balance3d import record as rec
    from balance3d.bots import make_bot
    from balance3d.gui.app import TableApp
    from balance3d.gui.session import Session
    from balance3d.gui.trace import Trace
    sys.path.append(str(ROOT))
    from benchmarks.gui_fps import four_towers

    state, _ = four_towers()
    bots = [make_bot("planner", state.seed, seat, state.name)
            for seat in range(len(state.players))]
    base = ShowBase()
    base.disableMouse()
    app = TableApp(base, Path(os.devnull), Trace(None))
    session = Session(rec.Recorder(state), bots)
    app.start(session)
    while not _trial_under_way(session):
        base.taskMgr.step()
    closing = time.time()
    app.close()
    base.destroy()
    return closing


def _trial_under_way(session) -> bool:
    """True once the thinking bot is inside a trial (it has reported, or, for a
    session without progress reports, it has been thinking for a frame)."""
    if not session.bot_thinking():
        return False
    report = getattr(session, "bot_progress", lambda: True)()
    return report is not None


def run_child(args: list[str], code: Path) -> tuple[dict, float]:
    """Run this file as a child with ``args``; its JSON answer and when it exited."""
    env = dict(os.environ, PYTHONPATH=str(code))
    spawned = time.time()
    done = subprocess.run([sys.executable, __file__, *args, "--spawned", repr(spawned)],
                          env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT,
                          cwd=str(code))
    exited = time.time()
    answers = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not answers:
        raise RuntimeError(f"the measuring child failed (exit status {done.returncode}): "
                           f"{done.stdout.strip()[-1000:]} {done.stderr.strip()[-2000:]}")
    return json.loads(answers[-1]), exited


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tower", help="the game opened (default tower)")
    parser.add_argument("--runs", type=int, default=3, help="measured runs after a warm-up")
    parser.add_argument("--code", type=Path, default=ROOT,
                        help="the checkout whose balance3d is measured (default this one)")
    parser.add_argument("--no-save", action="store_true", help="print only")
    parser.add_argument("--child", choices=("open", "close"), help=argparse.SUPPRESS)
    parser.add_argument("--spawned", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child == "open":
        print(json.dumps(child_open(args.game, args.spawned)))
        return 0
    if args.child == "close":
        print(json.dumps({"closing": child_close()}))
        return 0
    if not os.environ.get("DISPLAY"):
        print("gui_startup: no display (DISPLAY is unset); run it under Xvfb: "
              "xvfb-run -s \"-screen 0 1280x800x24\" python -m benchmarks.gui_startup",
              file=sys.stderr)
        return 2
    from benchmarks.results_io import (facts_text, machine_facts, markdown_table,
                                       measuring, write_results)
    code = args.code.resolve()
    with measuring(one_core=False) as facts:
        print(f"load average {facts['load_average_before']} on {os.cpu_count()} CPUs; "
              f"measuring {code}")
        opens, closes = [], []
        for run in range(args.runs + 1):
            parts, _ = run_child(["--child", "open", "--game", args.game], code)
            answer, exited = run_child(["--child", "close"], code)
            if run:
                opens.append(parts)
                closes.append(exited - answer["closing"])
            print(("warm-up: " if not run else f"run {run}: ")
                  + ", ".join(f"{k} {v:.2f} s" for k, v in parts.items())
                  + f"; close {exited - answer['closing']:.2f} s")
    median = {k: statistics.median(p[k] for p in opens) for k in (*OPEN_PARTS, "open")}
    median["close"] = statistics.median(closes)
    print("median: " + ", ".join(f"{k} {v:.2f} s" for k, v in median.items()))
    if not args.no_save:
        table = markdown_table(["part", "median (s)"],
                               [[k, f"{v:.2f}"] for k, v in median.items()])
        write_results("gui_startup", {"facts": facts, "game": args.game, "runs": opens,
                                      "closes": closes, "median": median},
                      f"Opening `balance3d play {args.game}` and closing it with the "
                      f"planner thinking over four full towers, {SIZE[0]}x{SIZE[1]}, medians "
                      f"of {args.runs} runs after a warm-up.  "
                      f"{facts_text(facts, machine_facts())}\n\n{table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
