"""The ``balance3d tune plot`` and ``balance3d tune fit`` verbs (see
:mod:`balance3d.commands.tune`, which registers them).

``tune plot DIR`` draws a finished sweep's summary as PNG files: heat maps when the
experiment's cases have two keys (block size by section), and each outcome against
each swept parameter with its 95% intervals.

``tune fit SWEEP.toml --param PATH --within LO HI --outcome NAME --target VALUE``
finds the value of one parameter for which the sweep's experiment (one case of it,
chosen with ``--case KEY=VALUE``) gives the target outcome.  It opens with
``--points`` values evenly spaced across [LO, HI], ``--repetitions`` runs each, fits
the outcome against the parameter by maximum likelihood (logistic for a rate, a line
or parabola for a mean), near the answer only, and solves the fit for the target
with its 95% interval (Fieller's; a parabola's by the delta method).  Then it runs batches of ``--repetitions`` runs, each at the value
where the fit is least sure of the target (half-way across the gap while the
outcomes separate), until the interval's half-width is at most ``--precision`` or
``--max-runs`` are spent, and checks the answer with ``--check`` more runs at the
value found.  With ``--out DIR`` every run is kept in DIR as it finishes: the same
command resumes a fit that was stopped or refused.  With ``--engine ray [--address
ADDR]`` the runs go to a Ray cluster, as for ``tune run``.
"""
from __future__ import annotations

import argparse
import math
import sys
import textwrap
import tomllib
from pathlib import Path

from balance3d.commands import HELP_WIDTH, CommandError, plain

PLOT_EXAMPLES = """\
examples:
  balance3d tune plot runs/block-density
  balance3d tune plot runs/block-density --out docs/block-density"""
FIT_EXAMPLES = """\
examples:
  balance3d tune fit scenes/sweeps/block-density.toml \\
      --param materials.block_wood.density --within 300 1500 \\
      --outcome tipped --target 0.5 --case block=2 --case section=2 --out runs/fit
  balance3d tune fit my-sweep.toml --param materials.block_wood.density \\
      --within 300 1500 --outcome tipped --target 0.5 --case block=2 \\
      --engine ray --address ray://head:10001"""


def add_verbs(verbs) -> None:
    """Register ``plot`` and ``fit`` on the ``tune`` command's verbs."""
    doc = [textwrap.fill(plain(" ".join(p.split())), HELP_WIDTH, break_long_words=False,
                         break_on_hyphens=False) for p in __doc__.split("\n\n")]
    plotter = verbs.add_parser(
        "plot", help="draw a finished sweep's summary as PNG files",
        prog="balance3d tune plot", description=doc[1],
        epilog=PLOT_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    plotter.add_argument("directory", metavar="DIR", help="a sweep's output folder (--out)")
    plotter.add_argument("--out", metavar="PLOTDIR", help="folder of the PNG files "
                                                          "(default: DIR/plots)")
    plotter.set_defaults(run=run_plot)
    fitter = verbs.add_parser(
        "fit", help="find the parameter value that gives a target outcome, and check it",
        prog="balance3d tune fit", description=doc[2],
        epilog=FIT_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    fitter.add_argument("sweep", metavar="SWEEP.toml",
                        help="the sweep file (scene, experiment, options, seed)")
    fitter.add_argument("--param", required=True, metavar="PATH",
                        help="the scene value to vary (a path as in [parameters])")
    fitter.add_argument("--within", required=True, nargs=2, type=float, metavar=("LO", "HI"),
                        help="the range searched, in the parameter's unit")
    fitter.add_argument("--outcome", required=True, metavar="NAME",
                        help="one of the experiment's outcomes")
    fitter.add_argument("--target", required=True, type=float, metavar="VALUE",
                        help="the outcome wanted (a rate in (0, 1) for a probability)")
    fitter.add_argument("--case", action="append", default=[], metavar="KEY=VALUE",
                        help="the case fitted (repeat for each case key)")
    fitter.add_argument("--model", choices=("logistic", "linear", "quadratic"),
                        help="curve fitted (default: logistic for a rate, linear for a mean)")
    fitter.add_argument("--points", type=int, default=5, metavar="K",
                        help="values of the opening design, evenly spaced (default 5)")
    fitter.add_argument("--repetitions", type=int, default=4, metavar="R",
                        help="runs at each opening value and in each later batch "
                             "(default 4)")
    fitter.add_argument("--precision", type=float, metavar="W",
                        help="stop once the 95%% interval's half-width is at most W, in "
                             "the parameter's unit (default: 5%% of HI - LO)")
    fitter.add_argument("--max-runs", type=int, default=100, metavar="N",
                        help="the most runs before the check (default 100)")
    fitter.add_argument("--check", type=int, default=40, metavar="N",
                        help="runs at the value found (default 40)")
    fitter.add_argument("--out", metavar="DIR",
                        help="folder for fit.json, fit.png and the runs' tables")
    fitter.add_argument("--workers", type=int, metavar="N",
                        help="worker processes (default: every core); with Ray, tasks in "
                             "flight (default: twice the cluster's CPUs)")
    fitter.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local process pool (default) or Ray (balance3d[ray])")
    fitter.add_argument("--address", metavar="ADDR",
                        help="Ray cluster address (default: start a local Ray instance)")
    fitter.add_argument("--quiet", action="store_true", help="no progress bar")
    fitter.set_defaults(run=run_fit)


def run_plot(args: argparse.Namespace) -> int:
    """``tune plot DIR``: draw the summary, print the files written."""
    from balance3d.commands.checks import check_output_folder, write_error
    from balance3d.tune.plot import PlotError, plot_directory

    if args.out:
        check_output_folder("--out", Path(args.out))
    try:
        written = plot_directory(args.directory, args.out)
    except PlotError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise write_error("--out" if args.out else "DIR", Path(args.out or args.directory),
                          exc) from None
    except ImportError as exc:
        raise CommandError(f"tune plot needs {exc.name}: install balance3d[tune]") from None
    print(f"wrote {len(written)} plots:")
    for path in written:
        print(f"  {path}")
    return 0


def parse_case(items: list[str]) -> dict[str, object]:
    """``--case KEY=VALUE`` options as a dict, each value read as a TOML value (a
    number, true/false or a quoted string; anything else is kept as text)."""
    case: dict[str, object] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise CommandError(f"--case {item}: must be KEY=VALUE")
        try:
            case[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError:
            case[key] = text
    return case


def run_fit(args: argparse.Namespace) -> int:
    """``tune fit``: fit, check, print the report (and write it with --out)."""
    from balance3d.commands.checks import check_output_folder, write_error
    from balance3d.tune.curves import FitError
    from balance3d.tune.engines import EngineError, RunsLostError
    from balance3d.tune.experiment import ExperimentError
    from balance3d.tune.fit import FitRequest, check_request, fit_sweep, report_lines
    from balance3d.tune.outputs import OutputError
    from balance3d.tune.sweep import SweepError, load_sweep
    from balance3d.tune.worker import RunError

    if args.workers is not None and args.workers < 1:
        raise CommandError(f"--workers: must be at least 1, got {args.workers}")
    if args.address is not None and args.engine != "ray":
        raise CommandError("--address: only with --engine ray")
    if not all(math.isfinite(v) for v in args.within):
        raise CommandError(f"--within: LO and HI must be finite numbers, got "
                           f"{args.within[0]:g} {args.within[1]:g}")
    if not math.isfinite(args.target):
        raise CommandError(f"--target: must be a finite number, got {args.target:g}")
    if args.precision is not None and not math.isfinite(args.precision):
        raise CommandError(f"--precision: must be a finite number, got {args.precision:g}")
    if args.out:
        check_output_folder("--out", Path(args.out))
    request = FitRequest(param=args.param, low=args.within[0], high=args.within[1],
                         outcome=args.outcome, target=args.target,
                         case=parse_case(args.case), points=args.points,
                         repetitions=args.repetitions, check=args.check, model=args.model,
                         precision=args.precision, max_runs=args.max_runs)
    kept = (f"the finished runs are in {args.out}: run the same command again to resume"
            if args.out else "give --out DIR to keep the runs and resume")
    started = False
    try:
        sweep = load_sweep(args.sweep)
        check_request(sweep, request)
        started = True
        report = fit_sweep(sweep, request, out=args.out, workers=args.workers,
                           engine=args.engine, address=args.address,
                           progress=not args.quiet)
    except KeyboardInterrupt:
        print(f"balance3d tune fit: stopped; {kept}", file=sys.stderr)
        raise
    except RunsLostError as exc:
        raise CommandError(f"{exc}; {kept}") from None
    except FitError as exc:
        ran = f"; {kept}" if started and args.out else ""
        raise CommandError(f"{exc}{ran}") from None
    except (SweepError, OutputError, EngineError, ExperimentError, RunError) as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        if not args.out:
            raise
        raise write_error("--out", Path(args.out), exc) from None
    except ImportError as exc:
        raise CommandError(f"tune fit needs {exc.name}: install balance3d[tune]") from None
    print("\n".join(report_lines(report)))
    if args.out:
        print(f"wrote fit.json, fit.png, fit_runs.parquet, check_runs.parquet (and the runs "
              f"as they finished: fit_runs.jsonl, check_runs.jsonl) in {args.out}")
    return 0
