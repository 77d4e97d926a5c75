"""The true answer of the README's ``tune fit`` question, measured on a dense grid,
against which ``benchmarks/fit_seeds.py``'s sequential fits are judged.

The question (``scenes/sweeps/tilted-light-blocks.toml``): at which block density
does a 2u drop on section 2 of a beam loaded on its low side tip it in half of the
drops?  This runs :data:`DENSE_RUNS` drops at each of :data:`DENSE` (kg/m^3, around
the answer) and :data:`WIDE_RUNS` at each of :data:`WIDE` (the rest of [100, 700],
for the curve's shape), all seeded from :data:`SEED`, which no fit of the benchmark
uses.  It reports each density's rate with its Wilson interval and:

- the answer: the density where a logistic fitted to the dense grid alone crosses
  0.5, with Fieller's 95 % interval, and the deviance of that local fit (whether the
  logistic shape holds over the dense grid);
- the curve's slope there (per kg/m^3) and what it costs: even with the slope known
  and every run at the answer, a 95 % interval of half-width ``h`` needs at least
  (q / 2 / (slope h))^2 runs (the binomial information at p = 0.5), given for
  ``h`` = :data:`PRECISION`;
- the logistic fitted to the whole range, for comparison: where it puts the answer
  when the far values, of another shape, pull it.

    python benchmarks/fit_truth.py [--workers N] [--keep DIR]

``--keep DIR`` keeps the grids' runs (``DIR/truth-dense``, ``DIR/truth-wide``), so a
stopped run resumes.  Writes ``benchmarks/results/fit_truth.json``.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from scipy import stats

from balance3d.tune import adaptive
from balance3d.tune.curves import fit_logistic, solve
from balance3d.tune.runner import run_sweep
from balance3d.tune.summary import CONFIDENCE, wilson
from balance3d.tune.sweep import load_sweep

#: The sweep and the question (the README's fit).
SWEEP = Path(__file__).resolve().parents[1] / "scenes" / "sweeps" / "tilted-light-blocks.toml"
PARAM, LOW, HIGH, OUTCOME, TARGET = "materials.block_wood.density", 100.0, 700.0, "tipped", 0.5
#: kg/m^3, the dense grid around the answer, and its runs per density.
DENSE, DENSE_RUNS = tuple(200.0 + 10.0 * k for k in range(15)), 120
#: kg/m^3, the rest of the range, and its runs per density.
WIDE, WIDE_RUNS = (100.0, 150.0, 350.0, 400.0, 450.0, 500.0, 550.0, 600.0, 650.0,
                   700.0), 60
#: the grids' sweep seed (the fits of benchmarks/fit_seeds.py use 1 to 10).
SEED = 1000
#: kg/m^3, the half-width benchmarks/fit_seeds.py asks for.
PRECISION = 41.0
RESULTS = Path(__file__).resolve().parent / "results" / "fit_truth.json"


def grid(values: tuple[float, ...], runs: int, workers: int | None,
         keep: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """Densities and outcomes (one entry per run) of ``runs`` drops at each value."""
    sweep = load_sweep(SWEEP).replace(parameters={PARAM: values}, repetitions=runs,
                                      seed=SEED)
    rows = run_sweep(sweep, out=keep, workers=workers, progress=False)
    return (rows[f"param.{PARAM}"].to_numpy(float),
            rows[f"out.{OUTCOME}"].to_numpy(float))


def answer(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Where a logistic fitted to runs (``x``, ``y``) crosses the target, with
    Fieller's interval, the deviance's p-value and the slope there (per kg/m^3)."""
    curve = fit_logistic(x, y)
    root = solve(curve, TARGET, LOW, HIGH)
    low, high = adaptive.fieller(curve, TARGET, LOW, HIGH)
    return {"value": root.value, "low": low, "high": high, "deviance": curve.deviance,
            "deviance_df": curve.deviance_df, "deviance_p": curve.deviance_p(),
            "slope_per_kg_m3": curve.slope(root.value)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None)
    args = parser.parse_args()
    dense = grid(DENSE, DENSE_RUNS, args.workers, args.keep and args.keep / "truth-dense")
    wide = grid(WIDE, WIDE_RUNS, args.workers, args.keep and args.keep / "truth-wide")
    x, y = np.concatenate([dense[0], wide[0]]), np.concatenate([dense[1], wide[1]])
    rates = []
    for value in np.unique(x):
        n, count = int(np.sum(x == value)), int(y[x == value].sum())
        low, high = wilson(count, n)
        rates.append({"value": float(value), "n": n, "count": count, "rate": count / n,
                      "low": low, "high": high})
        print(f"{value:6.0f} kg/m^3: {count:3d} of {n:3d} tipped, {count / n:.3f} "
              f"[{low:.3f}, {high:.3f}]")
    local, whole = answer(*dense), answer(x, y)
    quantile = stats.norm.ppf((1 + CONFIDENCE) / 2)
    runs_needed = (quantile / 2 / (local["slope_per_kg_m3"] * PRECISION)) ** 2
    for name, found in (("dense grid", local), ("whole range", whole)):
        print(f"{name}: 0.5 at {found['value']:.1f} kg/m^3 [{found['low']:.1f}, "
              f"{found['high']:.1f}] (Fieller); slope {found['slope_per_kg_m3']:.5f} per "
              f"kg/m^3; deviance {found['deviance']:.1f} on {found['deviance_df']} df, "
              f"p = {found['deviance_p']:.2g}")
    print(f"a 95 % half-width of {PRECISION:g} kg/m^3 needs at least {runs_needed:.0f} "
          f"runs at the answer, with its slope known")
    RESULTS.write_text(json.dumps({
        "seed": SEED, "dense_runs": DENSE_RUNS, "wide_runs": WIDE_RUNS, "rates": rates,
        "answer": local, "whole_range_logistic": whole, "precision": PRECISION,
        "runs_needed_at_precision": runs_needed}, indent=1) + "\n")


if __name__ == "__main__":
    main()
