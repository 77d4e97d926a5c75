"""What the study verbs of ``balance3d tune`` (sensitivity, search) share: the engine
options ``--workers``, ``--engine``, ``--address``, ``--quiet``, checked alike, and
the run of a study with its one-line errors."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

from balance3d.commands import CommandError


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers N``, ``--engine local|ray``, ``--address ADDR``, ``--quiet``."""
    parser.add_argument("--workers", type=int, metavar="N",
                        help="worker processes (default: every core); with Ray, tasks in "
                             "flight (default: twice the cluster's CPUs)")
    parser.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local process pool (default) or Ray (balance3d[ray])")
    parser.add_argument("--address", metavar="ADDR",
                        help="Ray cluster address (default: start a local Ray instance)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def check_engine_arguments(args: argparse.Namespace) -> None:
    """Refuse fewer than one worker, and an address without Ray, in one line."""
    if args.workers is not None and args.workers < 1:
        raise CommandError(f"--workers: must be at least 1, got {args.workers}")
    if args.address is not None and args.engine != "ray":
        raise CommandError("--address: only with --engine ray")


def run_study(args: argparse.Namespace, verb: str, load: Callable[[str], Any],
              announce: Callable[[Any], str], run: Callable[..., Any],
              report_lines: Callable[[Any], list[str]], kept: str, wrote: str) -> int:
    """Load ``args.study`` with ``load``, print ``announce(study)``, run it with
    ``run`` on the engine the arguments name and print its report; every error of
    the study, its runs or the engine as one line (a :class:`CommandError`), and on
    an interrupt, where ``kept`` (what stays) is and how to resume.  ``wrote``: the
    files named as written in ``--out``."""
    from balance3d.tune.engines import EngineError
    from balance3d.tune.experiment import ExperimentError
    from balance3d.tune.outputs import OutputError
    from balance3d.tune.points import StudyError
    from balance3d.tune.sweep import SweepError
    from balance3d.tune.worker import RunError

    check_engine_arguments(args)
    try:
        study = load(args.study)
        print(announce(study), flush=True)
        report = run(study, out=args.out, workers=args.workers, engine=args.engine,
                     address=args.address, progress=not args.quiet)
    except KeyboardInterrupt:
        if args.out:
            print(f"balance3d tune: stopped; {kept} in {args.out}: run the same command "
                  f"again to resume", file=sys.stderr)
        raise
    except (SweepError, StudyError, OutputError, EngineError, ExperimentError,
            RunError) as exc:
        raise CommandError(str(exc)) from None
    except ImportError as exc:
        raise CommandError(f"tune {verb} needs {exc.name}: install balance3d[tune]") \
            from None
    print("\n".join(report_lines(report)))
    if args.out:
        print(f"wrote {wrote} in {Path(args.out)}")
    return 0
