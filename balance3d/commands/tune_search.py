"""``balance3d tune search STUDY.toml``: search several parameters at once for a
stated behaviour written in the sweep file's ``[search]`` table, such as ``target =
"tipped = 0.5 and rest_x < 0.1"`` (its syntax: docs/tuning.md, "Studies"), with
Optuna's seeded TPE sampler in fixed batches, so the trials are the same with any
engine and number of workers.  ``--out DIR`` keeps the study (search.db) and the
runs, so the same command resumes, and writes best.json, trials.csv and search.png.
"""
from __future__ import annotations

import argparse

from balance3d.commands import help_texts
from balance3d.commands.tune_study_args import add_engine_arguments, run_study

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
    from balance3d.tune.search_study import load_search, report_lines, run_search

    def announce(study) -> str:
        return (f"search: {study.trials} trials in batches of {study.batch}, "
                f"{study.repetitions} runs each ({study.trials * study.repetitions} runs "
                f"at most)")

    return run_study(args, "search", load_search, announce, run_search, report_lines,
                     kept="the study and its finished runs are",
                     wrote="best.json, trials.csv, search.png")
