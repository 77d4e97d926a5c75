"""``balance3d tune compare A B``: two sweeps of the same cases, cell by cell.

A and B are sweep output folders (``balance3d tune SWEEP --out DIR``) of one game's
experiment, for example one per version of a part.  A *cell* is a combination of
the swept values (by its index: the k-th combination of A against the k-th of B)
and a case; the two sweeps must have the same cells, else they are refused in one
line naming the first cell one of them lacks.  Per cell and outcome it gives B's
estimate minus A's with a 95 % interval and a two-sided p-value:

- a "probability" outcome: the difference of the two rates, the interval and the
  test of statsmodels' ``confint_proportions_2indep`` and ``test_proportions_2indep``
  (Agresti-Caffo: defined at rates of 0 and 1 too);
- a "mean" outcome: the difference of the two means, Welch's unequal-variance t test
  (scipy's ``ttest_ind(equal_var=False)``) and its interval (statsmodels'
  ``CompareMeans.tconfint_diff(usevar="unequal")``); cells without spread in either
  sweep get no p-value.

The p-values of one outcome are Holm-adjusted across its cells (statsmodels'
``multipletests(method="holm")``), so ``differs`` (Holm p < :data:`ALPHA`) holds
the chance of calling any unchanged cell different to 5 %.  The intervals are each
cell's own 95 % intervals.
"""
from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any, Mapping

import numpy as np

#: Family-wise error rate of ``differs`` (Holm), and 1 - confidence of the intervals.
ALPHA = 0.05


class CompareError(ValueError):
    """Two sweeps cannot be compared: one line saying why."""


def _cells(runs, name: str) -> dict[str, dict[str, Any]]:
    """Cell key (JSON of combination index and case values) -> the cell's values."""
    cases = [c for c in runs.columns if c.startswith("case.")]
    cells: dict[str, dict[str, Any]] = {}
    for (combination, case), group in runs.groupby(["combination", "case"], sort=True):
        first = group.iloc[0]
        values = {c[len("case."):]: _plain(first[c]) for c in cases}
        key = json.dumps({"combination": int(combination), **values}, sort_keys=True)
        cells[key] = {"combination": int(combination), "case": values, "rows": group}
    if not cells:
        raise CompareError(f"{name}: holds no runs")
    return cells


def _plain(value: Any) -> Any:
    """A table value as a JSON scalar."""
    return value.item() if isinstance(value, np.generic) else value


def _describe(key: str) -> str:
    cell = json.loads(key)
    return " ".join(f"{k}={v}" for k, v in cell.items())


def _rates(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    from statsmodels.stats.proportion import (confint_proportions_2indep,
                                              test_proportions_2indep)

    counts = (int(b.sum()), len(b), int(a.sum()), len(a))
    with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = confint_proportions_2indep(*counts, compare="diff",
                                               method="agresti-caffo", alpha=ALPHA)
        p = test_proportions_2indep(*counts, compare="diff", method="agresti-caffo").pvalue
    return float(b.mean() - a.mean()), float(low), float(high), float(p)


def _means(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    from scipy import stats
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW

    diff = float(b.mean() - a.mean())
    if len(a) < 2 or len(b) < 2 or (np.ptp(a) == 0 and np.ptp(b) == 0):
        return diff, math.nan, math.nan, math.nan
    p = float(stats.ttest_ind(b, a, equal_var=False).pvalue)
    low, high = CompareMeans(DescrStatsW(b), DescrStatsW(a)).tconfint_diff(
        alpha=ALPHA, usevar="unequal")
    return diff, float(low), float(high), p


def compare_runs(a_runs, b_runs, outcomes: Mapping[str, str], a_name: str = "A",
                 b_name: str = "B"):
    """The comparison table (pandas DataFrame) of two run tables of the same cells:
    one row per cell and outcome with ``combination``, ``case.<key>``, ``outcome``,
    ``a_n``, ``a_mean``, ``b_n``, ``b_mean``, ``difference`` (B - A), ``low``,
    ``high`` (its 95 % interval), ``p``, ``p_holm`` and ``differs``.

    outcomes : outcome name -> kind ("probability" or "mean"), the outcomes compared.
    """
    import pandas as pd
    from statsmodels.stats.multitest import multipletests

    a_cells, b_cells = _cells(a_runs, a_name), _cells(b_runs, b_name)
    for key in sorted(set(a_cells) | set(b_cells)):
        if key not in a_cells or key not in b_cells:
            have, lack = (a_name, b_name) if key in a_cells else (b_name, a_name)
            raise CompareError(f"{a_name} and {b_name} are not over the same cases: "
                               f"{_describe(key)} is in {have}, not in {lack}")
    records = []
    for outcome, kind in outcomes.items():
        column = f"out.{outcome}"
        rows = []
        for key, cell in a_cells.items():
            a = cell["rows"][column].to_numpy(dtype=float)
            b = b_cells[key]["rows"][column].to_numpy(dtype=float)
            diff, low, high, p = (_rates if kind == "probability" else _means)(a, b)
            rows.append({"combination": cell["combination"],
                         **{f"case.{k}": v for k, v in cell["case"].items()},
                         "outcome": outcome, "kind": kind, "a_n": len(a),
                         "a_mean": float(a.mean()), "b_n": len(b), "b_mean": float(b.mean()),
                         "difference": diff, "low": low, "high": high, "p": p})
        tested = [i for i, row in enumerate(rows) if math.isfinite(row["p"])]
        adjusted = multipletests([rows[i]["p"] for i in tested], alpha=ALPHA,
                                 method="holm")[1] if tested else []
        for row in rows:
            row["p_holm"] = math.nan
        for i, p in zip(tested, adjusted):
            rows[i]["p_holm"] = float(p)
        for row in rows:
            row["differs"] = bool(row["p_holm"] < ALPHA)
        records += rows
    return pd.DataFrame.from_records(records)


def read_sweep_runs(folder: str | Path):
    """(the sweep, its run table) of a finished sweep's output folder
    (:class:`CompareError` naming the folder otherwise)."""
    import pandas as pd

    from balance3d.tune.outputs import OutputError, saved_sweep

    folder = Path(folder)
    if not folder.is_dir():
        raise CompareError(f"{folder}: no such sweep output folder")
    try:
        sweep = saved_sweep(folder)
    except OutputError as exc:
        raise CompareError(str(exc)) from None
    table = folder / "runs.parquet"
    if not table.is_file():
        raise CompareError(f"{folder}: holds no finished sweep (runs.parquet is missing: "
                           f"run the sweep to its end)")
    return sweep, pd.read_parquet(table)


def compare_folders(a: str | Path, b: str | Path, outcomes: list[str] | None = None):
    """Compare the sweeps in folders ``a`` and ``b`` (see :func:`compare_runs`);
    ``outcomes``: the outcomes compared (None: every one).  Returns (table, report
    dict for ``compare.json``)."""
    a_sweep, a_runs = read_sweep_runs(a)
    b_sweep, b_runs = read_sweep_runs(b)
    if (a_sweep.game, a_sweep.experiment) != (b_sweep.game, b_sweep.experiment):
        raise CompareError(f"{a} and {b} are not over the same cases: {a_sweep.game} "
                           f"{a_sweep.experiment} against {b_sweep.game} "
                           f"{b_sweep.experiment}")
    kinds = dict(a_sweep.make_experiment().outcomes)
    for name in outcomes or []:
        if name not in kinds:
            raise CompareError(f"--outcome: {a_sweep.experiment} has no outcome {name!r} "
                               f"(outcomes: {', '.join(kinds)})")
    chosen = {k: v for k, v in kinds.items() if not outcomes or k in outcomes}
    table = compare_runs(a_runs, b_runs, chosen, str(a), str(b))
    report = {"a": {"folder": str(a), "sweep": a_sweep.name},
              "b": {"folder": str(b), "sweep": b_sweep.name},
              "game": a_sweep.game, "experiment": a_sweep.experiment, "alpha": ALPHA,
              "cells": int(table["combination"].size // max(1, len(chosen))),
              "differs": {o: int(table[table["outcome"] == o]["differs"].sum())
                          for o in chosen}}
    return table, report


def report_lines(table, report: dict[str, Any]) -> list[str]:
    """The short text report: per outcome, the cells that differ (Holm p < ALPHA)."""
    lines = [f"compare {report['b']['folder']} - {report['a']['folder']}: "
             f"{report['game']} {report['experiment']}, {report['cells']} cells"]
    cases = [c for c in table.columns if c.startswith("case.")]
    for outcome, count in report["differs"].items():
        lines.append(f"{outcome}: {count} of {report['cells']} cells differ "
                     f"(Holm-adjusted p < {ALPHA:g})")
        for _, row in table[(table["outcome"] == outcome) & table["differs"]].iterrows():
            cell = " ".join([f"combination={row['combination']}",
                             *(f"{c[5:]}={row[c]}" for c in cases)])
            lines.append(f"  {cell}: {row['a_mean']:.3g} -> {row['b_mean']:.3g}, "
                         f"difference {row['difference']:+.3g} [{row['low']:+.3g}, "
                         f"{row['high']:+.3g}], p_holm = {row['p_holm']:.2g}")
    return lines
