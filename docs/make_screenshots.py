"""Make the README's screenshots: seeded games of bots played to a few moments, each
frame rendered offscreen by ``balance3d play --screenshot`` (no display needed).

Run from the repository root (balance3d installed, or ``PYTHONPATH=.``)::

    python docs/make_screenshots.py

Each PNG in ``docs/screenshots/`` is made by the command printed before it, so any
of them can be made again by hand: bots' games at a few turns, then each game's
window at the moments a player meets (``docs/screenshot_moments.py``).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: Where the PNGs go.
FOLDER = Path(__file__).resolve().parent / "screenshots"
#: pixels, size of every screenshot.
SIZE = "1280x720"
#: The games shown: (arguments of ``balance3d play``).
TILTED = ("tilted", "--players", "3", "--bots", "planner,random,planner", "--seed", "7")
TRIBALANCE = ("tribalance", "--players", "3", "--bots", "planner,random,planner", "--seed", "7")
TOWER = ("tower", "--players", "4", "--bots", "planner,random,planner,random", "--seed", "7")
#: (file name, game, actions played before the frame, what it shows).
SHOTS = (
    ("tilted-start.png", TILTED, 0,
     "the table at the start: beam, fulcrum, each seat's tray, the supply"),
    ("tilted-turn-6.png", TILTED, 6, "a few turns in: blocks on the beam, coins won"),
    ("tilted-turn-16.png", TILTED, 16, "later: a loaded beam, the HUD and the event log"),
    ("tribalance-turn-8.png", TRIBALANCE, 8,
     "Tri-Ba-Lance: the plate on its ball, numbered fields, pieces placed, each seat's tray"),
    ("tower-turn-12.png", TOWER, 12,
     "Tower: four bases with their towers, the roll, the marker on the tower's top, the "
     "trays and the pieces that left the game"),
)
#: The games whose moments (holding a piece, a refusal, a decision, a question, the
#: end) ``docs/screenshot_moments.py`` shows: (game, seats, seed).
MOMENTS = (("tilted", 3, 2), ("tribalance", 3, 2), ("tower", 4, 0))


def main() -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, game, turns, what in SHOTS:
        command = [sys.executable, "-m", "balance3d.cli", "play", *game, "--size", SIZE,
                   "--turns", str(turns), "--screenshot", str(FOLDER / name)]
        print(f"{name}: {what}\n  balance3d play {' '.join(command[4:])}", flush=True)
        subprocess.run(command, check=True)
    for game, seats, seed in MOMENTS:
        command = [sys.executable, str(Path(__file__).with_name("screenshot_moments.py")),
                   game, str(seats), str(seed), str(FOLDER), "--size", SIZE]
        print(f"{game}'s moments:\n  python docs/screenshot_moments.py "
              f"{' '.join(command[2:])}", flush=True)
        subprocess.run(command, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
