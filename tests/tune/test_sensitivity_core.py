"""Sensitivity indices against functions whose indices are known analytically: the
Ishigami function (Sobol indices; Ishigami & Homma 1990, Sobol' & Levitan 1999), with
and without noise added to each run, and linear functions (Morris elementary
effects).  No physics: the core takes a plain function."""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d.tune.sensitivity_core import (SensitivityError, Space, budget, noise,
                                             sample, sensitivity_of)

A, B = 7.0, 0.1
#: Analytic variance and indices of Ishigami(a=7, b=0.1) on [-pi, pi]^3.
VARIANCE = A ** 2 / 8 + B * math.pi ** 4 / 5 + B ** 2 * math.pi ** 8 / 18 + 0.5
V1 = 0.5 * (1 + B * math.pi ** 4 / 5) ** 2
V2 = A ** 2 / 8
V13 = B ** 2 * math.pi ** 8 * (1 / 18 - 1 / 50)
S1 = (V1 / VARIANCE, V2 / VARIANCE, 0.0)
ST = ((V1 + V13) / VARIANCE, V2 / VARIANCE, V13 / VARIANCE)
#: Base sample of the Sobol tests (1024 x 8 points).
N = 1024
#: Largest distance of an estimated index from the analytic one at N (the bootstrap
#: half-widths there are 0.03 to 0.09).
TOLERANCE = 0.05
#: Standard deviation of the noise added to each run, and the runs per point.
NOISE_SD, REPETITIONS = 3.0, 4
SPACE = Space(("x1", "x2", "x3"), ((-math.pi, math.pi),) * 3)


def ishigami(x: np.ndarray) -> np.ndarray:
    return np.sin(x[:, 0]) + A * np.sin(x[:, 1]) ** 2 + B * x[:, 2] ** 4 * np.sin(x[:, 0])


def test_the_analytic_indices_are_those_of_the_literature():
    # Saltelli et al., Global Sensitivity Analysis: The Primer (2008), the Ishigami
    # example: S = 0.314, 0.442, 0; ST = 0.558, 0.442, 0.244; V = 13.84
    assert [round(s, 3) for s in S1] == [0.314, 0.442, 0.0]
    assert [round(s, 3) for s in ST] == [0.558, 0.442, 0.244]
    assert VARIANCE == pytest.approx(13.84, abs=0.01)


def test_sobol_indices_of_ishigami_match_the_analytic_ones():
    report = sensitivity_of(lambda x: ishigami(x)[:, None], SPACE, "sobol", N, seed=3)
    assert report["points"] == N * (2 * 3 + 2) == budget("sobol", 3, N)
    for row, s1, st in zip(report["indices"], S1, ST):
        assert row["S1"] == pytest.approx(s1, abs=TOLERANCE), row["parameter"]
        assert row["ST"] == pytest.approx(st, abs=TOLERANCE), row["parameter"]
        assert 0 < row["S1_conf"] < 0.1 and 0 < row["ST_conf"] < 0.1
    pairs = {tuple(p["parameters"]): p["S2"] for p in report["pairs"]}
    assert pairs[("x1", "x3")] == pytest.approx(V13 / VARIANCE, abs=TOLERANCE)
    assert pairs[("x1", "x2")] == pytest.approx(0.0, abs=TOLERANCE)
    assert math.isnan(report["noise"]["noise_share"])  # one run per point: unknown


def noisy_ishigami(seed: int):
    rng = np.random.default_rng(seed)
    return lambda x: ishigami(x)[:, None] + NOISE_SD * rng.standard_normal(
        (len(x), REPETITIONS))


def test_with_noise_the_noise_share_and_the_corrected_indices_are_right():
    report = sensitivity_of(noisy_ishigami(5), SPACE, "sobol", N, seed=3)
    share = NOISE_SD ** 2 / (NOISE_SD ** 2 + VARIANCE)  # 0.39
    assert report["noise"]["noise_share"] == pytest.approx(share, abs=0.02)
    assert report["noise"]["within"] == pytest.approx(NOISE_SD ** 2, rel=0.05)
    assert report["repetitions"] == REPETITIONS
    assert report["runs"] == N * 8 * REPETITIONS
    for row, s1, st in zip(report["indices"], S1, ST):
        assert row["S1"] == pytest.approx(s1, abs=1.5 * TOLERANCE), row["parameter"]
        assert row["ST"] == pytest.approx(st, abs=1.5 * TOLERANCE), row["parameter"]
    # without the correction the noise left in the point means (9/4 of 13.8 + 2.25)
    # dilutes S1 and inflates ST: x3's total comes out near (V13 + 2.25) / 16.1
    x3 = report["indices"][2]
    diluted = (V13 + NOISE_SD ** 2 / REPETITIONS) / (VARIANCE + NOISE_SD ** 2 / REPETITIONS)
    assert x3["ST_salib"] == pytest.approx(diluted, abs=TOLERANCE)
    assert x3["ST_salib"] - x3["ST"] > 0.05


def test_morris_effects_of_a_linear_function_are_its_slopes_times_the_ranges():
    space = Space(("a", "b", "c"), ((0.0, 1.0), (0.0, 2.0), (1.0, 3.0)))
    report = sensitivity_of(lambda x: (2.0 * x[:, 0] - 0.5 * x[:, 1])[:, None], space,
                            "morris", 10, seed=1)
    assert report["points"] == 10 * (3 + 1)
    rows = {r["parameter"]: r for r in report["indices"]}
    # an elementary effect is the change per full range: slope x (high - low)
    assert rows["a"]["mu_star"] == pytest.approx(2.0) and rows["a"]["mu"] == pytest.approx(2.0)
    assert rows["b"]["mu_star"] == pytest.approx(1.0) and rows["b"]["mu"] == pytest.approx(-1.0)
    assert rows["c"]["mu_star"] == pytest.approx(0.0, abs=1e-12)
    assert all(r["sigma"] == pytest.approx(0.0, abs=1e-9) for r in rows.values())


def test_morris_shows_ishigami_x3_acting_through_an_interaction():
    report = sensitivity_of(lambda x: ishigami(x)[:, None], SPACE, "morris", 40, seed=2)
    rows = {r["parameter"]: r for r in report["indices"]}
    # x3 acts only through its product with sin(x1): its effects change sign
    assert abs(rows["x3"]["mu"]) < rows["x3"]["mu_star"]
    assert rows["x3"]["sigma"] > 0.5 * rows["x3"]["mu_star"]


def test_noise_of_runs_is_the_pooled_within_point_variance():
    runs = np.array([[1.0, 3.0], [5.0, 5.0], [0.0, 2.0]])
    spread = noise(runs)
    assert spread["within"] == pytest.approx((2.0 + 0.0 + 2.0) / 3)
    assert spread["total"] == pytest.approx(np.var(runs.ravel(), ddof=1))


def test_the_sample_is_seeded_and_a_bad_request_is_one_line():
    assert np.array_equal(sample(SPACE, "sobol", 8, 4), sample(SPACE, "sobol", 8, 4))
    assert not np.array_equal(sample(SPACE, "sobol", 8, 4), sample(SPACE, "sobol", 8, 5))
    with pytest.raises(SensitivityError, match="^n: Sobol sampling takes a power of 2"):
        sample(SPACE, "sobol", 12, 0)
    with pytest.raises(SensitivityError, match="^method: 'fast' is not one of"):
        sample(SPACE, "fast", 8, 0)
    with pytest.raises(SensitivityError, match="^parameters.x: low must be below high"):
        Space(("x",), ((1.0, 1.0),))
