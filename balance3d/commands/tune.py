"""``balance3d tune``: run a sweep of scene values through a game's experiment.

``tune SWEEP.toml --out DIR`` runs every combination of the sweep's parameters, every
case of its experiment and every repetition, on every core (or ``--workers N``, or a
Ray cluster with ``--engine ray``), with a progress bar and the time left.  It writes
``DIR/runs.parquet`` (one row per run), ``DIR/summary.csv`` and ``summary.parquet``
(per combination and case, each outcome with its 95 % interval) and
``DIR/runs.jsonl`` (runs as they finish: run the same command again to resume a
stopped sweep).  ``tune list [GAME]`` prints the experiments with their outcomes and
options, then the bundled example sweeps and studies with a line on each.
``tune plot DIR`` draws a finished sweep's summary as PNG files, and
``tune fit SWEEP.toml ...`` finds the value of one parameter that gives a target
outcome and checks it.  ``balance3d tune run --help`` (``plot --help``,
``fit --help``) lists the options of each.

Examples::

    balance3d tune list tilted
    balance3d tune scenes/sweeps/block-density.toml --out runs/block-density
    balance3d tune my-sweep.toml --out runs/my --workers 2 --csv
    balance3d tune my-sweep.toml --out runs/my --engine ray --address ray://head:10001
    balance3d tune plot runs/block-density
    balance3d tune fit my-sweep.toml --param materials.block_wood.density \
        --within 300 1500 --outcome tipped --target 0.5 --case block=2 --case section=2
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import textwrap
from typing import TYPE_CHECKING

from balance3d.commands import CommandError, help_texts, plain, tune_analysis

if TYPE_CHECKING:
    from balance3d.tune.engines import LocalPool

#: Line width of ``tune list``.
LIST_WIDTH = 79
#: The libraries a sweep needs (the ``tune`` extra).
TUNE_LIBRARIES = ("pandas", "pyarrow", "tqdm", "statsmodels", "pydantic")
#: Further ``tune`` verbs, each a module of :mod:`balance3d.commands` with
#: ``add_parser(subparsers)`` (registers its verb on ``tune``'s sub-parsers) and
#: ``run(args) -> int`` (runs it).  Keep these modules light to import: every
#: ``balance3d`` command builds their parsers.
EXTRA_VERBS: tuple[str, ...] = ("tune_sensitivity", "tune_compare", "tune_search")


class _AnyWord:
    """The choices of :class:`_VerbOrSweep`: every word passes argparse's check (a
    word that is no verb is a sweep file); iterating gives the verbs."""

    def __init__(self, verbs: dict) -> None:
        self.verbs = verbs

    def __contains__(self, word: object) -> bool:
        return True

    def __iter__(self):
        return iter(self.verbs)


class _VerbOrSweep(argparse._SubParsersAction):
    """Sub-commands of ``tune`` where a first word that is no verb is a sweep file:
    ``tune SWEEP.toml ...`` reads as ``tune run SWEEP.toml ...``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.choices = _AnyWord(self._name_parser_map)

    def __call__(self, parser, namespace, values, option_string=None):
        if values and values[0] not in self._name_parser_map:
            values = ["run", *values]
        super().__call__(parser, namespace, values, option_string)


def add_parser(subparsers) -> None:
    """Register ``tune`` with its verbs ``run`` (the default: a sweep file),
    ``list``, ``plot`` and ``fit``."""
    description, examples = help_texts(__doc__)
    parser = subparsers.add_parser(
        "tune", help="sweep scene values through a game's experiment",
        description=description, epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="balance3d tune SWEEP.toml --out DIR [options]\n"
              "       balance3d tune list [GAME]\n"
              "       balance3d tune plot DIR [--out PLOTDIR]\n"
              "       balance3d tune fit SWEEP.toml --param PATH --within LO HI "
              "--outcome NAME --target VALUE [options]")
    parser.register("action", "parsers", _VerbOrSweep)
    verbs = parser.add_subparsers(dest="tune_command", metavar="SWEEP.toml | list | plot | fit")
    verbs.required = True
    runner = verbs.add_parser(
        "run", help="run a sweep file (the default: 'tune SWEEP.toml' is 'tune run ...')",
        prog="balance3d tune", description=plain(__doc__.split("\n\n")[1]))
    runner.add_argument("sweep", metavar="SWEEP.toml",
                        help="the sweep file, or the name of a bundled example sweep "
                             "(tune list names them)")
    runner.add_argument("--out", required=True, metavar="DIR",
                        help="folder of the outputs (runs so far in it are kept: resume)")
    runner.add_argument("--workers", type=int, metavar="N",
                        help="worker processes (default: every core); with Ray, tasks in "
                             "flight (default: twice the cluster's CPUs)")
    runner.add_argument("--csv", action="store_true", help="also write DIR/runs.csv")
    runner.add_argument("--engine", choices=("local", "ray"), default="local",
                        help="local process pool (default) or Ray (balance3d[ray])")
    runner.add_argument("--address", metavar="ADDR",
                        help="Ray cluster address (default: start a local Ray instance)")
    runner.add_argument("--quiet", action="store_true", help="no progress bar")
    runner.set_defaults(run=run_sweep_command)
    listing = verbs.add_parser("list", help="experiments, bundled sweeps and studies",
                               prog="balance3d tune list",
                               description="Print each experiment of GAME (default: every "
                                           "game) with its description, outcomes and "
                                           "options, then the bundled example sweeps and "
                                           "studies, each with its description.")
    listing.add_argument("game", nargs="?", metavar="GAME", help="a registered game")
    listing.set_defaults(run=run_list)
    tune_analysis.add_verbs(verbs)
    add_extra_verbs(verbs)
    verbs.metavar = " | ".join(["SWEEP.toml", *(v for v in verbs._name_parser_map if v != "run")])


def add_extra_verbs(verbs) -> None:
    """Register the verbs of :data:`EXTRA_VERBS`: each module's ``add_parser`` adds
    its parser, whose ``run`` is the module's ``run`` unless it set its own."""
    for name in EXTRA_VERBS:
        module = importlib.import_module(f"balance3d.commands.{name}")
        before = set(verbs._name_parser_map)
        module.add_parser(verbs)
        for verb in sorted(set(verbs._name_parser_map) - before):
            parser = verbs._name_parser_map[verb]
            if parser.get_default("run") is None:
                parser.set_defaults(run=module.run)


def _libraries() -> None:
    """Refuse in one line when tune's libraries are missing (found, not imported:
    each is imported where it is first used)."""
    for name in TUNE_LIBRARIES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            raise CommandError(f"tune needs {name}: install balance3d[tune]")


def run_sweep_command(args: argparse.Namespace) -> int:
    """``tune SWEEP.toml --out DIR``: run the sweep, print where the tables are."""
    from balance3d.tune.engines import LocalPool, default_workers

    _libraries()
    if args.workers is not None and args.workers < 1:
        raise CommandError(f"--workers: must be at least 1, got {args.workers}")
    if args.address is not None and args.engine != "ray":
        raise CommandError("--address: only with --engine ray")
    # the local workers start (the fork server's imports with them) while this
    # process imports what reads and checks the sweep, and checks it
    pool = LocalPool(args.workers or default_workers()) if args.engine == "local" else None
    try:
        if pool is not None:
            pool.warm(args.workers or default_workers())
        return _sweep(args, pool)
    finally:
        if pool is not None:
            pool.close()


def _sweep(args: argparse.Namespace, pool: "LocalPool | None") -> int:
    """Read, check and run the sweep of ``tune SWEEP.toml`` on ``pool`` (a started
    :class:`~balance3d.tune.engines.LocalPool`, None for Ray); print where the
    tables are."""
    from balance3d.tune.engines import EngineError, RunsLostError
    from balance3d.tune.experiment import ExperimentError
    from balance3d.tune.outputs import OutputError
    from balance3d.tune.runner import run_sweep
    from balance3d.tune.sweep import SweepError, load_sweep
    from balance3d.tune.worker import RunError

    try:
        sweep = load_sweep(args.sweep)
        rows = run_sweep(sweep, out=args.out, workers=args.workers, engine=args.engine,
                         address=args.address, progress=not args.quiet, csv=args.csv,
                         pool=pool)
    except KeyboardInterrupt:
        print(f"balance3d tune: stopped; the finished runs are in {args.out}/runs.jsonl: "
              f"run the same command again to resume", file=sys.stderr)
        raise
    except RunsLostError as exc:
        raise CommandError(f"{exc}; the finished runs are in {args.out}/runs.jsonl: run "
                           f"the same command again to resume") from None
    except (SweepError, OutputError, EngineError, ExperimentError, RunError) as exc:
        raise CommandError(str(exc)) from None
    tables = ["runs.parquet", *(["runs.csv"] if args.csv else []), "summary.csv",
              "summary.parquet", "timing.json"]
    print(f"{sweep.name}: {len(rows)} runs of {sweep.game} {sweep.experiment}; wrote "
          f"{', '.join(tables)} in {args.out}")
    return 0


def run_list(args: argparse.Namespace) -> int:
    """``tune list [GAME]``: each experiment, its outcomes and options."""
    from balance3d.games import game_names
    from balance3d.tune.experiment import experiment_class, experiment_names, outcome_units

    games = [args.game] if args.game else game_names()
    blocks = []
    for game in games:
        names = experiment_names(game)
        if not names:
            blocks.append(f"{game}: no experiments")
            continue
        for name in names:
            cls = experiment_class(game, name)
            units = outcome_units(cls)
            lines = [f"{game} {name}: {cls.description}",
                     textwrap.fill("outcomes: " + ", ".join(
                         f"{o} ({k}, {units[o]})" for o, k in cls.outcomes.items()),
                         LIST_WIDTH, initial_indent="  ", subsequent_indent="    ")]
            if cls.option_docs:
                lines.append("  options:")
                lines += [textwrap.fill(f"{key}: {doc}", LIST_WIDTH, initial_indent="    ",
                                        subsequent_indent="      ")
                          for key, doc in cls.option_docs.items()]
            blocks.append("\n".join(lines))
    blocks.append(bundled_listing())
    print("\n\n".join(blocks))
    return 0


def bundled_listing() -> str:
    """The bundled example sweeps and studies, each by name with its one-line
    description, the studies with the verb that runs each."""
    from balance3d.tune.sensitivity_study import bundled_studies, study_path
    from balance3d.tune.study_file import describe
    from balance3d.tune.sweep import bundled_sweeps, resolve_sweep_path

    def entry(name: str, text: str) -> str:
        return textwrap.fill(f"{name}: {text}" if text else name, LIST_WIDTH,
                             initial_indent="  ", subsequent_indent="    ",
                             break_on_hyphens=False)

    sweeps = ["example sweeps (balance3d tune NAME --out DIR):"]
    sweeps += [entry(name, describe(resolve_sweep_path(name))[0]) for name in bundled_sweeps()]
    studies = ["studies (balance3d tune sensitivity|search NAME --out DIR):"]
    for name in bundled_studies():
        text, table = describe(study_path(name))
        studies.append(entry(f"{name} ({table})" if table else name, text))
    return "\n".join(sweeps) + "\n\n" + "\n".join(studies)
