"""The summary: rates with Wilson intervals, means with t intervals, per combination
and case; expected values worked by hand from the formulas."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from balance3d.tune.summary import summarise, t_interval, wilson


def test_wilson_of_7_in_20():
    # p = 0.35, z = 1.96: centre (p + z^2/2n) / (1 + z^2/n) = 0.3742,
    # half-width z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n) = 0.1930
    low, high = wilson(7, 20)
    assert low == pytest.approx(0.181, abs=5e-4) and high == pytest.approx(0.567, abs=5e-4)


def test_wilson_of_none_and_all():
    # k = 0: [0, z^2 / (n + z^2)] = [0, 3.8415 / 13.8415]
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    for n in range(1, 41):    # the interval holds the rate itself (a plot's error bar)
        assert wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0, n


def test_t_interval_of_four_values():
    # mean 2.5, sd sqrt(5/3) = 1.29099, t(0.975, 3) = 3.18245: half 2.05426
    mean, sd, low, high = t_interval([1.0, 2.0, 3.0, 4.0])
    assert (mean, sd) == pytest.approx((2.5, 1.290994), abs=1e-6)
    assert (low, high) == pytest.approx((0.44574, 4.55426), abs=1e-5)


def test_a_single_value_has_no_interval():
    mean, sd, low, high = t_interval([3.0])
    assert mean == 3.0 and all(math.isnan(v) for v in (sd, low, high))


def test_summarise_groups_by_combination_and_case():
    rows = pd.DataFrame({
        "combination": [0] * 20 + [1] * 4, "case": [0] * 20 + [0] * 4,
        "repetition": list(range(20)) + list(range(4)),
        "param.materials.wood.density": [500.0] * 20 + [800.0] * 4,
        "case.part": ["block_1"] * 24,
        "out.tipped": [True] * 7 + [False] * 13 + [True, False, False, False],
        "out.height": [0.0] * 20 + [1.0, 2.0, 3.0, 4.0],
    })
    summary = summarise(rows, outcomes={"tipped": "probability", "height": "mean"})
    assert list(summary.columns) == [
        "combination", "case", "param.materials.wood.density", "case.part", "n",
        "tipped.mean", "tipped.low", "tipped.high",
        "height.mean", "height.sd", "height.low", "height.high"]
    first, second = summary.iloc[0], summary.iloc[1]
    assert first["n"] == 20 and first["tipped.mean"] == 0.35
    assert first["tipped.low"] == pytest.approx(0.181, abs=5e-4)
    assert second["param.materials.wood.density"] == 800.0 and second["n"] == 4
    assert second["height.mean"] == 2.5
    assert second["height.high"] == pytest.approx(4.55426, abs=1e-5)
