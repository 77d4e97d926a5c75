"""``balance3d tune search STUDY.toml``: search several parameters at once for a
stated behaviour written in the sweep file's ``[search]`` table, such as ``target =
"tipped = 0.5 and rest_x < 0.1"`` (its syntax: docs/tuning.md, "Studies"), with
Optuna's seeded TPE sampler in fixed batches, so the trials are the same with any
engine and number of workers.  ``--out DIR`` keeps the study (search.db) and the
runs, so the same command resumes, and writes best.json, trials.csv and search.png.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance3d.commands import CommandError, help_texts
from balance3d.commands.tune_study_args import add_engine_arguments, check_engine_arguments

EXAMPLES = """\
examples:
  balance3d tune search tilted-light-blocks-search --out runs/plate-search
  balance3d tune search my-search.toml --out runs/my --workers 2"""


def add_parser(subparsers) -> None:
    """Register ``tune search``."""
    parser = subparsers.add_parser(
        "search", help="search several parameters for a stated behaviour (Optuna)",
        prog="balance3d tune search", description=help_texts(__doc__)[0],
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("study", metavar="STUDY.toml",
                        help="a sweep file with a [search] table, or a bundled study's "
                             "name")
    parser.add_argument("--out", metavar="DIR",
                        help="folder of the study, its runs (resumed) and the outputs")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the search, print the best trial."""
    from balance3d.tune.engines import EngineError
    from balance3d.tune.experiment import ExperimentError
    from balance3d.tune.outputs import OutputError
    from balance3d.tune.points import StudyError
    from balance3d.tune.search_study import load_search, report_lines, run_search
    from balance3d.tune.sweep import SweepError
    from balance3d.tune.worker import RunError

    check_engine_arguments(args)
    try:
        study = load_search(args.study)
        print(f"search: {study.trials} trials in batches of {study.batch}, "
              f"{study.repetitions} runs each ({study.trials * study.repetitions} runs "
              f"at most)", flush=True)
        report = run_search(study, out=args.out, workers=args.workers, engine=args.engine,
                            address=args.address, progress=not args.quiet)
    except KeyboardInterrupt:
        if args.out:
            print(f"balance3d tune: stopped; the study and its finished runs are in "
                  f"{args.out}: run the same command again to resume", file=sys.stderr)
        raise
    except (SweepError, StudyError, OutputError, EngineError, ExperimentError,
            RunError) as exc:
        raise CommandError(str(exc)) from None
    except ImportError as exc:
        raise CommandError(f"tune search needs {exc.name}: install balance3d[tune]") \
            from None
    print("\n".join(report_lines(report)))
    if args.out:
        print(f"wrote best.json, trials.csv, search.png in {Path(args.out)}")
    return 0
