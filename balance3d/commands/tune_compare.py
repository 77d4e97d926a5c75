"""``balance3d tune compare A B``: compare two finished sweeps of the same cases, cell
by cell: B's estimate minus A's for every outcome with its 95 % interval,
two-proportion tests for rates and Welch's t test for means, Holm-adjusted across
the cells.  Sweeps whose cases differ are refused in one
line.  ``--out DIR`` writes compare.csv, compare.json and one compare_OUTCOME.png
per outcome.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from balance3d.commands import CommandError, help_texts

EXAMPLES = """\
examples:
  balance3d tune compare runs/beam-v1 runs/beam-v2
  balance3d tune compare runs/beam-v1 runs/beam-v2 --outcome tipped --out runs/v1-v2"""


def add_parser(subparsers) -> None:
    """Register ``tune compare``."""
    parser = subparsers.add_parser(
        "compare", help="compare two sweeps of the same cases, cell by cell",
        prog="balance3d tune compare", description=help_texts(__doc__)[0],
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", metavar="A", help="the first sweep's output folder")
    parser.add_argument("b", metavar="B", help="the second sweep's output folder")
    parser.add_argument("--outcome", action="append", metavar="NAME",
                        help="an outcome compared (repeat; default: every outcome)")
    parser.add_argument("--out", metavar="DIR", help="folder of the table and plots")


def run(args: argparse.Namespace) -> int:
    """Compare, print the cells that differ, write the outputs with --out."""
    from balance3d.commands.checks import check_output_folder, write_error
    from balance3d.tune.compare import CompareError, compare_folders, report_lines

    if args.out:
        check_output_folder("--out", Path(args.out))
    try:
        table, report = compare_folders(args.a, args.b, args.outcome)
    except CompareError as exc:
        raise CommandError(str(exc)) from None
    except ImportError as exc:
        raise CommandError(f"tune compare needs {exc.name}: install balance3d[tune]") \
            from None
    print("\n".join(report_lines(table, report)))
    if args.out:
        try:
            written = write_outputs(table, report, Path(args.out))
        except OSError as exc:
            raise write_error("--out", Path(args.out), exc) from None
        print(f"wrote {', '.join(written)} in {args.out}")
    return 0


def write_outputs(table, report: dict, out: Path) -> list[str]:
    """compare.csv, compare.json and compare_OUTCOME.png in ``out``."""
    import json

    from balance3d.tune import plot
    from balance3d.tune.study_plots import compare_figure

    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "compare.csv", index=False)
    (out / "compare.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    written = ["compare.csv", "compare.json"]
    title = f"{report['b']['sweep']} - {report['a']['sweep']}"
    for outcome in report["differs"]:
        name = plot.file_part(f"compare_{outcome}.png")
        plot.save(compare_figure(table, outcome, title), out / name)
        written.append(name)
    return written
