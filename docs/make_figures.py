"""Make (or check) the figures the README and docs/tuning.md quote from the bundled
example sweeps and the README's ``tune fit`` example: ``docs/figures.json``.

Every quoted number that does not depend on the machine's speed comes out of here:
for each sweep, per combination and case, the runs made and each outcome's count
(a probability outcome: how many of the runs were true; its Wilson interval follows
from the count) or mean with its 95 % Student t interval (rounded to
:data:`SIGNIFICANT` significant digits); for the fit, each value's count of the
target outcome, the value found and its interval (rounded alike) and the check's
count.  Run times are not figures of this file: they follow the machine.

The runs are seeded (each run from its sweep's seed and its own values) and the
simulator gives the same bits on every x86-64 machine, so ``--check`` must find
the committed file again anywhere::

    python docs/make_figures.py                 # every sweep and the fit (minutes)
    python docs/make_figures.py --only tribalance-plate-mass
    python docs/make_figures.py --check         # exit 1 and name what differs

``--workers N`` sets the local worker processes (default: every core); the figures
do not depend on it.  ``--runs DIR`` keeps each sweep's outputs in ``DIR/NAME``, from
which ``balance3d tune plot DIR/NAME --out docs/sweeps/NAME`` draws the plots the
docs show.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from balance3d.tune.fit import FitRequest, fit_sweep
from balance3d.tune.runner import run_sweep
from balance3d.tune.summary import summarise
from balance3d.tune.sweep import bundled_sweeps, load_sweep

FIGURES = Path(__file__).with_name("figures.json")
#: Significant digits of every mean and fitted value kept (the docs quote at most 4).
SIGNIFICANT = 4
#: The README's ``tune fit`` example: the sweep and the request.
FIT_NAME = "fit:tilted-light-blocks"
FIT_SWEEP = "tilted-light-blocks"
FIT_REQUEST = FitRequest("materials.block_wood.density", 100.0, 700.0, "tipped", 0.5,
                         case={}, points=7, repetitions=20, check=40, max_runs=140)


def rounded(value: float) -> float | None:
    """``value`` to :data:`SIGNIFICANT` significant digits (None for NaN)."""
    if math.isnan(value):
        return None
    return float(f"{value:.{SIGNIFICANT}g}")


def sweep_figures(name: str, workers: int | None,
                  runs: Path | None = None) -> list[dict[str, Any]]:
    """Per combination and case of the bundled sweep ``name``: its parameter and case
    values, ``n`` and each outcome's count, or its rounded mean and interval.
    ``runs``: a folder whose subfolder ``name`` keeps the sweep's outputs (for
    ``tune plot``; a rerun resumes there), or None."""
    sweep = load_sweep(name)
    kinds = sweep.make_experiment().outcomes
    rows = run_sweep(sweep, out=None if runs is None else runs / name, workers=workers,
                     progress=False)
    out = []
    for record in summarise(rows, sweep).to_dict("records"):
        cell: dict[str, Any] = {k: _plain(v) for k, v in record.items()
                                if k.startswith(("param.", "case."))}
        n = int(record["n"])
        cell["n"] = n
        for outcome, kind in kinds.items():
            mean = float(record[f"{outcome}.mean"])
            if kind == "probability":
                cell[outcome] = round(mean * n)
            else:
                cell[outcome] = rounded(mean)
                cell[f"{outcome}.interval"] = [rounded(float(record[f"{outcome}.low"])),
                                               rounded(float(record[f"{outcome}.high"]))]
        out.append(cell)
    return out


def fit_figures(workers: int | None) -> dict[str, Any]:
    """The README's fit: each value's count of the outcome, the value found and its
    interval (rounded) and the check's count."""
    report = fit_sweep(load_sweep(FIT_SWEEP), FIT_REQUEST, workers=workers, progress=False)
    fit, check = report["fit"], report["check"]
    return {
        "runs": [{"value": rounded(r["value"]), "n": int(r["n"]),
                  "count": round(r["mean"] * r["n"])} for r in report["runs"]],
        "value": rounded(fit["value"]),
        "interval": [rounded(fit["low"]), rounded(fit["high"])],
        "check": {"value": rounded(check["value"]), "n": int(check["n"]),
                  "count": round(check["mean"] * check["n"])},
    }


def _plain(value: Any) -> Any:
    """A table value as plain JSON (numpy scalars to Python numbers)."""
    return value.item() if hasattr(value, "item") else value


def make(names: list[str], workers: int | None, runs: Path | None = None) -> dict[str, Any]:
    """The figures of ``names`` (bundled sweep names and :data:`FIT_NAME`)."""
    figures = {}
    for name in names:
        print(f"make_figures: {name} ...", file=sys.stderr, flush=True)
        figures[name] = fit_figures(workers) if name == FIT_NAME \
            else sweep_figures(name, workers, runs)
    return figures


def differences(saved: Any, made: Any, where: str = "") -> list[str]:
    """Where two figure values differ, one line each."""
    if isinstance(saved, dict) and isinstance(made, dict):
        return [line for key in sorted(set(saved) | set(made))
                for line in differences(saved.get(key), made.get(key),
                                        f"{where}.{key}" if where else key)]
    if isinstance(saved, list) and isinstance(made, list) and len(saved) == len(made):
        return [line for i, (a, b) in enumerate(zip(saved, made))
                for line in differences(a, b, f"{where}[{i}]")]
    return [] if saved == made else [f"{where}: committed {saved!r}, made {made!r}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with docs/figures.json instead of writing it")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help=f"these sweeps only ({', '.join(bundled_sweeps())}, {FIT_NAME})")
    parser.add_argument("--workers", type=int, metavar="N", help="local worker processes")
    parser.add_argument("--runs", type=Path, metavar="DIR",
                        help="keep each sweep's outputs in DIR/NAME (for balance3d tune plot)")
    args = parser.parse_args(argv)
    known = [n for n in bundled_sweeps() if n != FIT_SWEEP] + [FIT_NAME]
    names = args.only or known
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"--only: unknown {', '.join(unknown)} (known: {', '.join(known)})")
    made = make(names, args.workers, args.runs)
    saved = json.loads(FIGURES.read_text()) if FIGURES.is_file() else {}
    if args.check:
        lines = [line for name in names
                 for line in differences(saved.get(name), made[name], name)]
        for line in lines:
            print(f"make_figures: differs: {line}")
        print(f"make_figures: {len(names)} checked, "
              f"{'all the same' if not lines else f'{len(lines)} differences'}")
        return 1 if lines else 0
    saved.update(made)
    FIGURES.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
    print(f"make_figures: wrote {', '.join(names)} to {FIGURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
