"""``balance3d replay``: play a record's actions again and print the summary; with
``--verify``, check that the simulator still gives every recorded verdict, event
and the outcome.

Examples::

    balance3d replay game.json
    balance3d replay game.json --verify          # exit 1 on any difference
    balance3d replay game.json --verify --ignore-scene-change

Exit status: 0 replayed (and, with ``--verify``, identical); 1 ``--verify`` found a
difference (the first ones are named: ``turns[3].verdict.coins_won: recorded 2,
replayed 3``) or a recorded action is now illegal; 2 the record is malformed or its
scene cannot be loaded or has changed (its digest differs; ``--ignore-scene-change``
replays it anyway, to see what the new scene makes of the same actions).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance3d import play as playing
from balance3d import record as rec
from balance3d.commands import help_texts, report


def add_parser(subparsers) -> None:
    description, examples = help_texts(__doc__)
    p = subparsers.add_parser(
        "replay", help="replay a game record; --verify checks it plays the same",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples)
    p.add_argument("record", metavar="FILE", help="record written by 'balance3d simulate'")
    p.add_argument("--verify", action="store_true",
                   help="exit 1 if any verdict, event or the outcome differs from the record")
    p.add_argument("--ignore-scene-change", action="store_true",
                   help="replay even if the scene's content has changed since recording")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    record = rec.load_record(args.record)
    scene = playing.record_scene(record, Path(args.record).resolve().parent,
                                 ignore_digest=args.ignore_scene_change)
    players = record.data["players"]

    def show(index: int, entry: dict) -> None:
        if not args.quiet:
            print(report.describe_turn(index, entry, players), flush=True)

    if not args.quiet:
        print(f"{record.game} ({record.variant}), {len(players)} player(s), "
              f"seed {record.seed}, scene {scene.name}")
    try:
        recorder = playing.replay(record, scene, on_turn=show)
    except playing.ReplayError as exc:
        if not args.verify:
            raise
        print(f"verify: FAILED: {exc}", file=sys.stderr)
        return 1
    replayed, state = recorder.record(), recorder.state
    if state.is_over:
        for line in report.describe_outcome(replayed):
            print(line)
    else:
        print(report.describe_waiting(replayed, state.current_player, state.phase))
    if not args.verify:
        return 0
    differences = rec.diff_records(record.data, replayed)
    if differences:
        print(f"verify: FAILED: the replay differs from {args.record}:", file=sys.stderr)
        for line in differences:
            print(f"  {line}", file=sys.stderr)
        return 1
    if record.data["balance3d"] != replayed["balance3d"]:
        print(f"verify: note: recorded by balance3d {record.data['balance3d']}, "
              f"replayed by {replayed['balance3d']}")
    print(f"verify: ok: {len(replayed['turns'])} actions, every verdict and the outcome "
          f"identical")
    return 0
