"""``balance3d simulate``: play a game headless with bots or a script, print a
summary and write its record.

Examples::

    balance3d simulate tilted --players 3 --bots planner,random,planner --seed 7 \\
        --record game.json
    balance3d simulate tilted --variant solo --bots planner --seed 3
    balance3d simulate tilted --script actions.json --seed 7 --record out.json
    balance3d simulate tilted --script game.json --bots random --record more.json

``--script`` plays the listed actions first (a JSON list of action dicts, or a
record whose turns' actions are taken); then the bots, if given, play on to the
end, else the game stops where the script ends.  When the script is a record, its
player count, variant and seed are the defaults.

The record file is written atomically.  An existing file is kept unless it already
holds the very same bytes (then it is left as is) or ``--force`` is given: a record
of a different game is never replaced by accident.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import bot_names, make_bot
from balance3d.commands import CommandError
from balance3d.games import game_names, get_game, new_game
from balance3d.scene import list_scenes, load_scene


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="play a game headless with bots or a script and record it",
        description="Play a whole game headless (bots, or scripted actions), print a "
                    "summary per turn and the result, and write the game record.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"bots: {', '.join(bot_names())}.  bundled scenes: {', '.join(list_scenes())}.")
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


def _bot_names(text: str | None, players: int | None) -> list[str]:
    """Bot name per seat from ``--bots`` text (one name fills every seat)."""
    if text is None:
        return []
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if n not in bot_names():
            raise CommandError(f"unknown bot {n!r} (known: {', '.join(bot_names())})")
    if len(names) == 1 and players is not None:
        names = names * players
    if players is not None and len(names) != players:
        raise CommandError(f"--bots names {len(names)} bots for {players} players")
    return names


def run(args: argparse.Namespace) -> int:
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
    variant = variant or (scene.variant if scene is not None else game.variants[0])
    bots_text = args.bots if (args.bots is not None or args.script is not None) \
        else game.default_bot
    names = _bot_names(bots_text, players)
    if players is None:
        counts = game.player_counts(variant)
        players = len(names) if len(names) > 1 else (2 if 2 in counts else min(counts))
        names = names * players if len(names) == 1 else names
    if players < 1:
        raise CommandError(f"--players must be at least 1, got {players}")

    if args.record is not None and not Path(args.record).resolve().parent.is_dir():
        raise CommandError(f"--record {args.record}: folder "
                           f"{Path(args.record).resolve().parent} does not exist")
    scene_file = None
    if args.scene is not None and (Path(args.scene).suffix == ".toml"
                                   or Path(args.scene).exists()):
        scene_file = args.scene
    state = new_game(args.game, players=players, seed=seed, scene=scene,
                     variant=variant, bots=names or None)
    bots = [make_bot(n, seed, seat) for seat, n in enumerate(names)]
    recorder = rec.Recorder(state, scene_file)
    players_json = [{"name": p.name, "bot": p.bot} for p in state.players]

    def show(index: int, entry: dict) -> None:
        if not args.quiet:
            print(rec.describe_turn(index, entry, players_json), flush=True)

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
    for line in rec.describe_outcome(record):
        print(line)
    if args.record is not None:
        status = rec.write_record(record, args.record, force=args.force)
        print(f"record {status}: {args.record}")
    return 0
