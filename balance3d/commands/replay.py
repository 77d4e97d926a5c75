"""``balance3d replay``: print a record's turns and result, read from the record;
with ``--verify``, check that this simulator still judges every turn as recorded.

Examples::

    balance3d replay game.json
    balance3d replay game.json --verify          # re-judge each turn from its kept state
    balance3d replay game.json --verify --strict # ... and demand identical bits
    balance3d replay game.json --verify --from-start   # play it all again, byte for byte
    balance3d replay game.json --verify --ignore-scene-change

Without ``--verify`` nothing is simulated: the turns and the outcome are the
record's, and an unfinished game's next move is read from its last kept state.

``--verify`` re-judges each turn from the state the record kept before it (the
start, or the state after the previous turn), so a difference stays at the turn
where it happened, and checks that a fresh game of the seed gives the recorded
setup.  Each turn is identical (bit for bit), within tolerance (the
verdict's lengths, angles and times differ by at most the tolerances of
:mod:`balance3d.verify`, everything else the same) or different; every turn that
is not identical gets a line, and a summary ends it: ``verify: 53 turns: 50
identical, 3 within tolerance (largest: turns[6].verdict.settle_time 0.034 s), 0
different``.  ``--strict`` demands that every turn be identical.
``--from-start`` plays every action again from the first one instead, and
compares the whole record byte for byte (the determinism check on one machine: it
needs the same physics bits throughout).  A format 2 record keeps no states: it is
always verified from the start.

Exit status: 0 shown (and, with ``--verify``, no turn different; with ``--strict``
or ``--from-start``, all identical); 1 ``--verify`` found a different verdict,
event or outcome, or a recorded action is now illegal; 2 the record is malformed or
its scene cannot be loaded or has changed (its digest differs;
``--ignore-scene-change`` verifies it anyway, to see what the new scene makes of
the same actions).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance3d import play as playing
from balance3d import record as rec
from balance3d import verify
from balance3d.commands import CommandError, help_texts, report


def add_parser(subparsers) -> None:
    description, examples = help_texts(__doc__)
    p = subparsers.add_parser(
        "replay", help="show a game record; --verify checks it is judged the same",
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples)
    p.add_argument("record", metavar="FILE", help="record written by 'balance3d simulate'")
    p.add_argument("--verify", action="store_true",
                   help="re-judge every turn from its kept state; exit 1 if a verdict, "
                        "event or the outcome differs")
    p.add_argument("--strict", action="store_true",
                   help="with --verify: exit 1 unless every turn is identical, bit for bit")
    p.add_argument("--from-start", action="store_true",
                   help="with --verify: play every action again from the start and compare "
                        "the whole record byte for byte")
    p.add_argument("--ignore-scene-change", action="store_true",
                   help="verify even if the scene's content has changed since recording")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for option, given in (("--strict", args.strict), ("--from-start", args.from_start)):
        if given and not args.verify:
            raise CommandError(f"{option}: only with --verify")
    record = rec.load_record(args.record)
    scene = playing.record_scene(record, Path(args.record).resolve().parent,
                                 ignore_digest=args.ignore_scene_change)
    players = record.data["players"]
    if not args.quiet:
        print(f"{record.game} ({record.variant}), {len(players)} player(s), "
              f"seed {record.seed}, scene {scene.name}")
    if args.verify and (args.from_start or not record.keeps_states):
        return _from_start(args, record, scene)
    shown = record
    if not record.keeps_states:
        shown, note = playing.opened(record, scene)
        if note is not None:
            print(f"note: {note}", file=sys.stderr)
    if not args.quiet:
        for index, entry in enumerate(shown.data["turns"]):
            print(report.describe_turn(index, entry, players), flush=True)
    if args.verify:
        checked = verify.verify_turns(record, scene)
    _result(shown, scene)
    if not args.verify:
        return 0
    for line in checked.lines():
        print(line, file=sys.stderr if line.startswith(verify.DIFFERENT) else sys.stdout)
    failed = checked.failed or (args.strict and not checked.identical)
    print(checked.summary(), file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0


def _result(record: rec.Record, scene) -> None:
    """Print the outcome, or whose move an unfinished game waits for (read from its
    last kept state)."""
    if record.data["outcome"] is not None:
        for line in report.describe_outcome(record.data):
            print(line)
        return
    state = playing.restore(record, scene)
    print(report.describe_waiting(record.data, state.current_player, state.phase))


def _from_start(args: argparse.Namespace, record: rec.Record, scene) -> int:
    """``--verify --from-start`` (and any verify of a record without kept states):
    every action played again from the start, the records compared."""
    players = record.data["players"]

    def show(index: int, entry: dict) -> None:
        if not args.quiet:
            print(report.describe_turn(index, entry, players), flush=True)

    try:
        recorder = playing.replay(record, scene, on_turn=show)
    except playing.ReplayError as exc:
        print(f"verify: FAILED: {exc}", file=sys.stderr)
        return 1
    replayed, state = recorder.record(), recorder.state
    if state.is_over:
        for line in report.describe_outcome(replayed):
            print(line)
    else:
        print(report.describe_waiting(replayed, state.current_player, state.phase))
    what = "byte for byte"
    if record.keeps_states:
        differences = rec.diff_records(record.data, replayed)
    else:
        what = (f"in its verdicts, events and outcome (a format {record.data['format']} "
                f"record keeps no states)")
        differences = rec.diff_records(playing.played(record.data), playing.played(replayed))
    if differences:
        print(f"verify: FAILED: the replay differs from {args.record}:", file=sys.stderr)
        for line in differences:
            print(f"  {line}", file=sys.stderr)
        return 1
    if record.data["balance3d"] != replayed["balance3d"]:
        print(f"verify: note: recorded by balance3d {record.data['balance3d']}, "
              f"replayed by {replayed['balance3d']}")
    print(f"verify: ok: {len(replayed['turns'])} actions played again from the start, "
          f"identical {what}")
    return 0
