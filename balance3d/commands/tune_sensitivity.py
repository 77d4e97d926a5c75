"""``balance3d tune sensitivity STUDY.toml``: which parameters matter most for an
outcome (Sobol indices, or Morris screening for many parameters), stated in the
sweep file's ``[sensitivity]`` table (its syntax: docs/tuning.md, "Studies").

It prints the budget before any run, then the indices with their 95 % intervals and
the noise's share of a run's variance.  ``--out DIR`` keeps the runs (the same
command resumes a stopped study) and writes sensitivity.json, indices.csv and
sensitivity.png.
"""
from __future__ import annotations

import argparse

from balance3d.commands import help_texts
from balance3d.commands.tune_study_args import add_engine_arguments, run_study

EXAMPLES = """\
examples:
  balance3d tune sensitivity tribalance-plate-sensitivity --out runs/sensitivity
  balance3d tune sensitivity my-study.toml --out runs/my --workers 2"""


def add_parser(subparsers) -> None:
    """Register ``tune sensitivity``."""
    parser = subparsers.add_parser(
        "sensitivity", help="which parameters matter most for an outcome (Sobol, Morris)",
        prog="balance3d tune sensitivity", description=help_texts(__doc__)[0],
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("study", metavar="STUDY.toml",
                        help="a sweep file with a [sensitivity] table, or a bundled "
                             "study's name")
    parser.add_argument("--out", metavar="DIR",
                        help="folder of the runs (resumed) and the outputs")
    add_engine_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the study, print its budget first and its report at the end."""
    from balance3d.tune.sensitivity_study import (load_sensitivity, report_lines,
                                                  run_sensitivity)

    return run_study(args, "sensitivity", load_sensitivity, lambda study: study.announce(),
                     run_sensitivity, report_lines, kept="the finished runs are",
                     wrote="sensitivity.json, indices.csv, sensitivity.png")
