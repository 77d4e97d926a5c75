"""``balance3d simulate``: play a game headless with bots or a script, print a
summary and write its record.

Examples::

    balance3d simulate tilted --players 3 --bots planner,random,planner --seed 7 \\
        --record game.json
    balance3d simulate tilted --variant solo --bots planner --seed 3
    balance3d simulate tilted --script actions.json --seed 7 --record out.json
    balance3d simulate tilted --script game.json --bots random --record more.json

``--script`` plays the listed actions first (a JSON list of action dicts, or a
record whose turns' actions are taken), each shown as ``[script]``; then the bots,
if given, play on to the end, else the game stops where the script ends and the
run says whose move it waits for.  When the script is a record, its player count,
variant and seed are the defaults.  An action dict is written as a record's turns
hold it: ``{"type": "drop", "piece": "2u-1", "x": 0.1, "y": 0.0, "height": 0.01}``
(world x and y of the block's centre and its clearance at release, in metres,
above the high side: the setup line says which end the beam rests on; optional
``yaw`` in radians and ``pose``: flat, edge or upright),
``{"type": "choose", "what": "buy", "value": false}`` or ``{"type": "pass"}``.

The arguments and the ``--record`` target are checked before the game is set up:
a folder, a missing or unwritable folder, or an existing file that is not a record
of the same game, variant, scene (name and content digest), seed and players is
refused at once (``--force`` replaces such a file).  The record is written
atomically; an existing file is kept unless it already holds the very same bytes
(then it is left as is) or ``--force`` is given.
The record keeps the table's state after every turn, and the content of a scene
given by path (it opens where that file is not; see :mod:`balance3d.record`).
The summary ends with the result: who won and why, who went out and when, and what
the ranking follows when it is not the order of the scores.
"""
from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.commands import HELP_WIDTH, CommandError, help_texts, report
from balance3d.commands.checks import (check_output_path, counts_text, existing_record,
                                       players_from_bots, record_identity, seat_bot_names)
from balance3d.games import Player, game_names, get_game, new_game
from balance3d.scene import load_scene


def add_parser(subparsers) -> None:
    description, examples = help_texts(__doc__)
    games = []
    for name in game_names():
        game = get_game(name)
        variants = ", ".join(f"{v} (scene {game.scene_name(v)})" for v in game.variants)
        games.append(textwrap.fill(
            f"{name}: variants {variants}; bots {', '.join(game.bots)} (default "
            f"{game.default_bot})", HELP_WIDTH, initial_indent="  ", subsequent_indent="    ",
            break_on_hyphens=False))
    p = subparsers.add_parser(
        "simulate", help="play a game headless with bots or a script and record it",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"{examples}\n\ngames:\n" + "\n".join(games))
    p.add_argument("game", choices=game_names(), help="game to play")
    p.add_argument("--players", type=int, metavar="N",
                   help="number of players (default: one per --bots name, else 2, or "
                        "the variant's only count: 1 for solo)")
    p.add_argument("--bots", metavar="NAME[,NAME...]",
                   help="bot per seat, comma separated, or one name for every seat "
                        "(default without --script: the game's default bot)")
    p.add_argument("--seed", type=int, metavar="INT",
                   help="the game's seed: dice, first player and bots (default 0)")
    p.add_argument("--variant", metavar="NAME", help="rules variant (default: the scene's)")
    p.add_argument("--scene", metavar="NAME|PATH",
                   help="bundled scene name or scene file (default: the variant's scene)")
    p.add_argument("--script", metavar="FILE",
                   help="play these actions first (list of action dicts, or a record)")
    p.add_argument("--record", metavar="FILE",
                   help="write the game record (JSON) here, atomically; an existing file "
                        "holding a different record is kept unless --force")
    p.add_argument("--force", action="store_true",
                   help="replace an existing, different record file")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.seed is not None and args.seed < 0:
        raise CommandError(f"--seed {args.seed}: must be a non-negative integer")
    record_path = Path(args.record) if args.record is not None else None
    if record_path is not None:
        check_output_path("--record", record_path, "record file")
    script, source = [], None
    if args.script is not None:
        script, source = rec.load_script(args.script)
    players, variant, seed = args.players, args.variant, args.seed
    if source is not None:
        players = players or len(source.players)
        variant = variant or source.variant
        seed = source.seed if seed is None else seed
    seed = 0 if seed is None else seed
    scene = load_scene(args.scene) if args.scene is not None else None
    game = get_game(args.game)
    if scene is not None and scene.game != game.name:
        bundled = ", ".join(game.scene_name(v) for v in game.variants)
        raise CommandError(f"--scene {args.scene}: is a scene of {scene.game}, not of "
                           f"{game.name} (bundled {game.name} scenes: {bundled})")
    known = game.variants
    variant = variant or (scene.variant if scene is not None else known[0])
    if variant not in known:
        origin = "--variant" if args.variant is not None else (
            f"{args.script}: variant" if source is not None else f"scene {scene.name}: variant")
        raise CommandError(f"{origin} {variant!r}: {args.game} has no such variant "
                           f"(variants: {', '.join(known)})")
    if players is not None and players not in game.player_counts(variant):
        origin = "--players" if args.players is not None else f"{args.script}: players"
        raise CommandError(f"{origin} {players}: {counts_text(game, variant, players)}")
    bots_text = (args.bots if args.bots is not None or args.script is not None
                 else game.default_bot)
    names = seat_bot_names(bots_text, players, game)
    if players is None:
        players = players_from_bots(names, game, variant)
        names = names * players if len(names) == 1 else names

    scene = scene if scene is not None else load_scene(game.scene_name(variant))
    seats = [Player(seat, f"Player {seat + 1}", names[seat] if names else None)
             for seat in range(players)]
    if record_path is not None and record_path.exists() and not args.force:
        existing_record(record_path, record_identity(game.name, variant, seed, scene, seats),
                        "it is kept: pass --force to replace it")

    state = new_game(args.game, players=seats, seed=seed, scene=scene, variant=variant)
    bots = [make_bot(n, seed, seat) for seat, n in enumerate(names)]
    recorder = rec.Recorder(state)
    players_json = [{"name": p.name, "bot": p.bot} for p in state.players]

    def show(index: int, entry: dict) -> None:
        if not args.quiet:
            print(report.describe_turn(index, entry, players_json, scripted=index < len(script)),
                  flush=True)

    if not args.quiet:
        print(f"{args.game} ({state.variant}), {players} player(s), seed {seed}, "
              f"scene {state.scene.name}")
        for event in recorder.setup:
            print(f"  setup: {event['text']}")
    try:
        playing.play(recorder, bots, script, on_turn=show)
    except playing.ScriptError as exc:
        raise CommandError(f"{args.script}: {exc}") from None
    record = recorder.record()
    if state.is_over:
        for line in report.describe_outcome(record):
            print(line)
    else:
        print(report.describe_waiting(record, state.current_player, state.phase))
    if record_path is not None:
        try:
            status = rec.write_record(record, record_path, force=args.force)
        except OSError as exc:
            raise CommandError(f"--record {record_path}: cannot write: "
                               f"{exc.strerror or exc}") from None
        print(f"record {status}: {args.record}")
    return 0
