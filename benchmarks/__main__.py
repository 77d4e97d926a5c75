"""``python -m benchmarks``: run the benchmark sections, write the summary and the
README's table.

From the root of a checkout (the ``benchmarks`` folder is not part of the
installed package)::

    python -m benchmarks [--quick] [--only world|judge|games|welding|scaling|tune ...] [--no-readme]

Each section (:mod:`benchmarks.sections`) but ``tune`` runs pinned to one core, with
the load average printed before and after it.  Writes ``benchmarks/results/summary.json`` and
``summary.md`` (the sections run now replace theirs; the others stay) and rewrites
the README's table between its ``<!-- bench:begin -->`` and ``<!-- bench:end -->``
markers.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from benchmarks.results_io import RESULTS, machine_facts, measuring, write_results
from benchmarks.sections import FULL, QUICK, SECTIONS
from benchmarks.summary import (SummaryError, check_readme, load_summary, markdown, merged,
                                readme_table, rewrite_readme)

#: The README whose table the run rewrites.
README = Path(__file__).resolve().parents[1] / "README.md"


def _positive(kind: type):
    """argparse type: a number of ``kind`` greater than 0."""
    def parse(text: str):
        value = kind(text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
        return value
    return parse


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (argparse exits with status 2 naming a bad argument)."""
    names = [s.name for s in SECTIONS]
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="a short run: fewer repeats, moves and games")
    parser.add_argument("--only", action="append", choices=names, metavar="NAME",
                        help=f"run only this section ({', '.join(names)}); may be repeated")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--readme", type=Path, default=README,
                        help="the README whose table is rewritten")
    parser.add_argument("--no-readme", action="store_true", help="leave the README alone")
    parser.add_argument("--repeats", type=_positive(int), help="runs per World figure")
    parser.add_argument("--seconds", type=_positive(float),
                        help="simulated s per World run (at least)")
    parser.add_argument("--min-wall", type=_positive(float),
                        help="wall-clock s per World run (at least)")
    parser.add_argument("--moves", type=_positive(int), help="judged moves timed per game")
    parser.add_argument("--seeds", type=int, nargs="+",
                        help="seeds of the whole planner games")
    parser.add_argument("--tune-repetitions", type=_positive(int),
                        help="repetitions of the tune sweep (12 runs each)")
    parser.add_argument("--tune-pairs", type=_positive(int),
                        help="times the tune sweep runs with 1 worker then 2 (median kept)")
    parser.add_argument("--welding-states", type=_positive(int),
                        help="mid-game Tilted states of the welding section")
    parser.add_argument("--welding-repeats", type=_positive(int),
                        help="interleaved runs of each side per state in the welding section")
    parser.add_argument("--scaling-repeats", type=_positive(int),
                        help="cold judged runs per point of the scaling section")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    budget = QUICK if args.quick else FULL
    budget = dataclasses.replace(budget, **{
        k: v for k, v in (("repeats", args.repeats), ("seconds", args.seconds),
                          ("min_wall", args.min_wall), ("moves", args.moves),
                          ("seeds", tuple(args.seeds) if args.seeds else None),
                          ("tune_repetitions", args.tune_repetitions),
                          ("tune_pairs", args.tune_pairs),
                          ("welding_states", args.welding_states),
                          ("welding_repeats", args.welding_repeats),
                          ("scaling_repeats", args.scaling_repeats))
        if v is not None})
    chosen = [s for s in SECTIONS if args.only is None or s.name in args.only]
    summary_path = args.out / "summary.json"
    try:
        summary = load_summary(summary_path)
        if not args.no_readme:  # a README without its markers fails before the run
            check_readme(args.readme)
    except (SummaryError, OSError) as exc:
        print(f"benchmarks: {exc}", file=sys.stderr)
        return 2

    machine = machine_facts()
    entries = {}
    for section in chosen:
        with measuring(section.one_core) as facts:
            print(f"== {section.name}: {section.title}; load average "
                  f"{facts['load_average_before']}, pinned CPU {facts['pinned_cpu']}",
                  flush=True)
            rows, figures = section.run(budget)
        facts.update(budget={k: getattr(budget, k) for k in section.budget},
                     quick=args.quick)
        print(f"== {section.name} done in {facts['wall_s']} s; load average "
              f"{facts['load_average_after']}", flush=True)
        entries[section.name] = {"title": section.title, "facts": facts, "rows": rows,
                                 "figures": figures}

    summary = merged(summary, machine, entries, [s.name for s in SECTIONS])
    paths = write_results("summary", summary, markdown(summary), args.out)
    print(f"wrote {paths[0]} and {paths[1]}")
    if not args.no_readme:
        rewrite_readme(args.readme, readme_table(summary))
        print(f"rewrote the benchmark table of {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
