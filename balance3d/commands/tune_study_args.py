"""The engine options shared by the study verbs of ``balance3d tune`` (sensitivity,
search): ``--workers``, ``--engine``, ``--address``, ``--quiet``, checked alike."""
from __future__ import annotations

import argparse

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
