"""The summary table: per combination and case, each outcome's estimate with its 95 %
confidence interval.

A ``"probability"`` outcome (booleans) gives the rate ``<name>.mean`` with the Wilson
score interval (statsmodels) ``<name>.low`` .. ``<name>.high``; a ``"mean"`` outcome gives the
sample mean, its standard deviation ``<name>.sd`` and Student's t interval of the mean
(NaN bounds and sd for a single run).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from scipy import stats

#: Two-sided confidence level of every interval.
CONFIDENCE = 0.95


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval of a rate ``successes / n`` (statsmodels'
    ``proportion_confint``), with its ends exactly 0 and 1 when the rate is."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    low = 0.0 if successes == 0 else max(0.0, float(low))  # exact ends: rounding
    high = 1.0 if successes == n else min(1.0, float(high))  # must not exclude p
    return low, high


def t_interval(values, confidence: float = CONFIDENCE) -> tuple[float, float, float, float]:
    """``(mean, sd, low, high)`` of ``values``: sample mean, sample standard deviation
    (n - 1) and Student's t interval of the mean."""
    n = len(values)
    mean = float(sum(values) / n)
    if n < 2:
        return mean, math.nan, math.nan, math.nan
    sd = float(math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)))
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def summarise(rows, sweep=None, outcomes: Mapping[str, str] | None = None):
    """The summary (pandas DataFrame) of the run table ``rows``: one row per
    (combination, case) with its parameter and case columns, ``n`` and each outcome's
    estimate and interval.  Outcome kinds come from ``outcomes`` (name -> kind) or
    the ``sweep``'s experiment."""
    import pandas as pd

    if outcomes is None:
        outcomes = sweep.make_experiment().outcomes
    keys = [c for c in rows.columns if c.startswith(("param.", "case."))]
    records: list[dict[str, Any]] = []
    for (combination, case), group in rows.groupby(["combination", "case"], sort=True):
        first = group.iloc[0]
        record: dict[str, Any] = {"combination": int(combination), "case": int(case)}
        record.update({k: first[k] for k in keys})
        record["n"] = len(group)
        for name, kind in outcomes.items():
            values = [float(v) for v in group[f"out.{name}"]]
            if kind == "probability":
                mean = sum(values) / len(values)
                low, high = wilson(int(sum(values)), len(values))
                record.update({f"{name}.mean": mean, f"{name}.low": low,
                               f"{name}.high": high})
            else:
                mean, sd, low, high = t_interval(values)
                record.update({f"{name}.mean": mean, f"{name}.sd": sd,
                               f"{name}.low": low, f"{name}.high": high})
        records.append(record)
    return pd.DataFrame.from_records(records)
