"""``balance3d play``: play a game in a 3D window, with the mouse, against people at
the same computer or bots.

Examples::

    balance3d play                                   # the start menu
    balance3d play tilted --players 2 --bots -,planner --seed 7
    balance3d play tilted --variant advanced --names Ann,Bob,Cy --bots -,-,planner
    balance3d play tilted --record game.json         # saved after every action
    balance3d play --load game.json                  # go on with a saved game
    balance3d play --replay game.json                # step through a record
    balance3d play tilted --bots planner --seed 3 --screenshot table.png --turns 6

Without GAME and game options the start menu opens (game, variant, players, a bot
or a person per seat, seed).  In ``--bots`` a ``-`` marks a seat played by a
person; without ``--bots`` the first seat is a person and the others play the
game's default bot.  ``--record FILE`` writes the record after every finished
action.  It is checked before the window opens: a folder, a missing or unwritable
folder, or an existing file that is not an earlier record of the same game (game,
variant, scene, seed and players; its actions the first ones of this game) is
refused, and the file is kept.  Ctrl+S saves there too, else to the ``--load`` file,
else to a file named after the game, seed and time.  ``--load FILE`` restores
a saved game at the state its record kept after the last turn (nothing is
simulated) and goes on from there; ``--replay FILE`` shows each recorded turn as
the record kept it, one at a time (no physics runs).  A record of format 2, which
keeps no states, is played again when opened and refused in one line where it no
longer plays as recorded.

``--screenshot FILE.png`` needs no display: it renders offscreen, plays
``--turns`` actions at once (``--script`` first, then the bots; without
``--bots`` every seat plays the game's default bot), saves the frame and exits.

The window needs a display.  Without one (no DISPLAY on Linux) the command says
so in one line, exit status 2: play headless with ``balance3d simulate``.
``--trace FILE`` writes JSON lines of what the window did (camera and lens, each
release with the pointer pixel, refusals, HUD prompts, verdicts), for tests and
bug reports.  Panda3D is imported only once every argument has been checked.
"""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from balance3d import play as playing
from balance3d import record as rec
from balance3d.commands import HELP_WIDTH, CommandError, help_texts
from balance3d.commands.checks import (check_output_path, counts_text, existing_record,
                                       players_from_bots, record_identity, seat_bot_names)
from balance3d.games import Game, Player, game_names, get_game
from balance3d.games.base import Action
from balance3d.scene import load_scene

#: Seat marker in ``--bots`` for a seat played by a person.
HUMAN = "-"
#: How fast bots' and replayed actions play out: real time, faster, or at once.
SPEEDS = ("real", "fast", "instant")
#: pixels, window size when ``--size`` is not given.
DEFAULT_SIZE = (1280, 720)
#: pixels, smallest and largest window side ``--size`` accepts.
SIZE_LIMITS = (320, 7680)


@dataclass(frozen=True)
class PlayOptions:
    """Checked arguments of ``balance3d play``, handed to
    :func:`balance3d.gui.launch.launch`.

    game : registered game name; None for the start menu (or with ``load`` /
        ``replay``, which name their game).
    names, bots : per seat, the player's name and bot (None: a person).
    size : (width, height) pixels.  turns : actions a screenshot plays first.
    script : actions a screenshot plays before the bots.
    """

    game: str | None = None
    variant: str | None = None
    names: tuple[str, ...] = ()
    bots: tuple[str | None, ...] = ()
    seed: int = 0
    record: Path | None = None
    load: Path | None = None
    replay: Path | None = None
    screenshot: Path | None = None
    turns: int = 0
    script: tuple[Action, ...] = ()
    size: tuple[int, int] = DEFAULT_SIZE
    speed: str = "real"
    trace: Path | None = None

    @property
    def menu(self) -> bool:
        """True when the start menu chooses the game."""
        return self.game is None and self.load is None and self.replay is None


def add_parser(subparsers) -> None:
    description, examples = help_texts(__doc__)
    games = [textwrap.fill(f"{name}: variants {', '.join(get_game(name).variants)}; bots "
                           f"{', '.join(get_game(name).bots)}", HELP_WIDTH,
                           initial_indent="  ", subsequent_indent="    ")
             for name in game_names()]
    p = subparsers.add_parser(
        "play", help="play a game in a 3D window (mouse, hot seat, bots)",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"{examples}\n\ngames:\n" + "\n".join(games))
    p.add_argument("game", nargs="?", choices=game_names(),
                   help="game to play (default: choose it in the start menu)")
    p.add_argument("--variant", metavar="NAME", help="rules variant (default: the game's first)")
    seats = p.add_mutually_exclusive_group()
    seats.add_argument("--players", type=int, metavar="N",
                       help="number of players (default: one per --bots entry, else 2, or "
                            "the variant's only count)")
    seats.add_argument("--names", metavar="NAME[,NAME...]",
                       help="the players' names, comma separated (one seat each)")
    p.add_argument("--bots", metavar="BOT|-[,...]",
                   help="per seat a bot name or - for a person (one name fills every seat)")
    p.add_argument("--seed", type=int, metavar="INT",
                   help="the game's seed: dice, first player and bots (default 0)")
    p.add_argument("--record", metavar="FILE",
                   help="write the game record (JSON) here after every action")
    p.add_argument("--load", metavar="FILE",
                   help="go on with a saved game (a record) from its last kept state")
    p.add_argument("--replay", metavar="FILE",
                   help="step through a record's turns, each as it was kept (no physics)")
    p.add_argument("--screenshot", metavar="FILE.png",
                   help="render offscreen (no display needed), save this PNG and exit")
    p.add_argument("--turns", type=int, metavar="N",
                   help="with --screenshot: actions to play first (default: the script's)")
    p.add_argument("--script", metavar="FILE",
                   help="with --screenshot: actions to play first (list or record)")
    p.add_argument("--size", metavar="WxH", help="window size in pixels (default 1280x720)")
    p.add_argument("--speed", choices=SPEEDS, default="real",
                   help="how bots' actions play out (default real; keys 1/2/3 change it)")
    p.add_argument("--trace", metavar="FILE", help="write what the window did as JSON lines")
    p.set_defaults(run=run)


def parse_size(text: str | None) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720), each side within :data:`SIZE_LIMITS` pixels."""
    if text is None:
        return DEFAULT_SIZE
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise CommandError(f"--size {text}: give WIDTHxHEIGHT in pixels, such as 1280x720")
    size = (int(parts[0]), int(parts[1]))
    lo, hi = SIZE_LIMITS
    if not all(lo <= s <= hi for s in size):
        raise CommandError(f"--size {text}: each side must be {lo} to {hi} pixels")
    return size


def seat_bots(text: str | None, players: int | None, game: Game) -> list[str | None]:
    """Per seat, the bot named in ``--bots`` text or None for :data:`HUMAN`; one
    entry fills every seat (:func:`~balance3d.commands.checks.seat_bot_names`)."""
    return [None if n == HUMAN else n for n in seat_bot_names(text, players, game, HUMAN)]


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise CommandError(f"--names {text!r}: a name is empty")
    if len(set(names)) != len(names):
        raise CommandError(f"--names {text!r}: two players have the same name")
    return names


def _game_options(args: argparse.Namespace) -> list[str]:
    """The options given that choose a new game (they need GAME)."""
    given = [("--variant", args.variant), ("--players", args.players),
             ("--names", args.names), ("--bots", args.bots), ("--seed", args.seed),
             ("--script", args.script), ("--turns", args.turns)]
    return [name for name, value in given if value is not None]


def _new_game(args: argparse.Namespace) -> dict:
    """The checked fields of a new game: game, variant, names, bots, seed, script."""
    if args.seed is not None and args.seed < 0:
        raise CommandError(f"--seed {args.seed}: must be a non-negative integer")
    game = get_game(args.game)
    variant = args.variant or game.variants[0]
    if variant not in game.variants:
        raise CommandError(f"--variant {variant!r}: {game.name} has no such variant "
                           f"(variants: {', '.join(game.variants)})")
    counts = game.player_counts(variant)
    names = _names(args.names) if args.names is not None else None
    players = len(names) if names is not None else args.players
    if players is not None and players not in counts:
        option = "--names gives" if names is not None else "--players"
        raise CommandError(f"{option} {players}: {counts_text(game, variant, players)}")
    bots = seat_bots(args.bots, players, game)
    if players is None:
        players = players_from_bots(bots, game, variant, HUMAN)
    if len(bots) == 1:
        bots = bots * players
    if not bots:
        everyone = args.screenshot is not None
        bots = [game.default_bot if seat or everyone else None for seat in range(players)]
    script: list[Action] = []
    if args.script is not None:
        script, _ = rec.load_script(args.script)
    names = names or [f"Player {seat + 1}" for seat in range(players)]
    return {"game": game.name, "variant": variant, "names": tuple(names),
            "bots": tuple(bots), "seed": 0 if args.seed is None else args.seed,
            "script": tuple(script)}


def check(args: argparse.Namespace) -> PlayOptions:
    """Every argument checked (files read, nothing opened): the options to launch
    with; :class:`CommandError` naming the first problem."""
    size = parse_size(args.size)
    sources = [o for o, v in (("GAME", args.game), ("--load", args.load),
                              ("--replay", args.replay)) if v is not None]
    if len(sources) > 1:
        raise CommandError(f"{' and '.join(sources)}: give only one of GAME, --load FILE "
                           f"and --replay FILE")
    if args.screenshot is None:
        extra = [o for o, v in (("--turns", args.turns), ("--script", args.script)) if v]
        if extra:
            raise CommandError(f"{extra[0]}: only with --screenshot FILE.png")
    if args.turns is not None and args.turns < 0:
        raise CommandError(f"--turns {args.turns}: must be a non-negative integer")
    fields: dict = {}
    if args.game is not None:
        fields = _new_game(args)
    else:
        needs_game = [o for o in _game_options(args) if o != "--bots" or args.load is None]
        if needs_game:
            where = f"with {sources[0]}" if sources else "without GAME (the start menu)"
            raise CommandError(f"{needs_game[0]}: not {where}; give GAME to start a new game")
    if args.replay is not None and args.record is not None:
        raise CommandError("--record: not with --replay (a replay records nothing)")
    if args.screenshot is not None and args.game is None and args.load is None:
        raise CommandError("--screenshot: give GAME or --load FILE to render")
    if args.load is not None:
        fields.update(_loaded(Path(args.load), args.bots))
    if args.replay is not None:
        record = rec.load_record(args.replay)
        playing.record_scene(record, Path(args.replay).resolve().parent)
    record_path = Path(args.record) if args.record is not None else None
    if record_path is not None:
        check_output_path("--record", record_path, "record file")
        if record_path.exists() and "game" in fields:
            loaded = rec.load_record(args.load).data["turns"] if args.load else []
            _check_record_target(record_path, _identity(fields), loaded)
    screenshot = Path(args.screenshot) if args.screenshot is not None else None
    if screenshot is not None:
        check_output_path("--screenshot", screenshot, suffix=".png")
    trace = Path(args.trace) if args.trace is not None else None
    if trace is not None:
        check_output_path("--trace", trace)
    if screenshot is None and sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise CommandError("no display (DISPLAY is not set): the window needs one; play "
                           "headless with 'balance3d simulate', or render a frame with "
                           "--screenshot FILE.png")
    turns = args.turns if args.turns is not None else len(fields.get("script", ()))
    return PlayOptions(
        **{k: v for k, v in fields.items() if k != "scene"},
        record=record_path,
        load=Path(args.load) if args.load is not None else None,
        replay=Path(args.replay) if args.replay is not None else None,
        screenshot=screenshot, turns=turns, size=size, speed=args.speed, trace=trace)


def _loaded(path: Path, bots_text: str | None) -> dict:
    """The game fields of the saved game ``path`` (``--bots`` may change who plays
    each seat)."""
    record = rec.load_record(path)
    scene = playing.record_scene(record, path.resolve().parent)
    game = get_game(record.game)
    bots = [p.bot for p in record.players]
    if bots_text is not None:
        bots = seat_bots(bots_text, len(record.players), game)
    return {"game": record.game, "variant": record.variant, "seed": record.seed,
            "names": tuple(p.name for p in record.players), "bots": tuple(bots),
            "scene": scene}


def _check_record_target(path: Path, mine: dict, turns: list) -> None:
    """Refuse an existing ``--record`` file the window would not write over: one
    that is not a record of this game (``mine``, see
    :func:`~balance3d.commands.checks.record_identity`), or holds actions the game
    starting with ``turns`` would not keep (the file is kept, never replaced)."""
    keep = "it is kept: give another file"
    old = existing_record(path, mine, keep)
    if turns[:len(old["turns"])] != old["turns"]:
        raise CommandError(f"--record {path}: holds {len(old['turns'])} actions of this game; "
                           f"go on with them with --load {path}, or {keep.split(': ')[1]}")


def _identity(fields: dict) -> dict:
    """What a record file must hold to be this game's record
    (:func:`~balance3d.commands.checks.record_identity`)."""
    game = get_game(fields["game"])
    scene = fields.get("scene") or load_scene(game.scene_name(fields["variant"]))
    seats = [Player(seat, name, bot)
             for seat, (name, bot) in enumerate(zip(fields["names"], fields["bots"]))]
    return record_identity(game.name, fields["variant"], fields["seed"], scene, seats)


def run(args: argparse.Namespace) -> int:
    options = check(args)
    from balance3d.gui.launch import launch
    return launch(options)
