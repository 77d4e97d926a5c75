"""The sequential fit's estimate: Fieller's interval from its definition, and the
local fit that leaves out far runs of another shape."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special, stats

from balance3d.tune import adaptive
from balance3d.tune.curves import Curve, fit_logistic, solve


def line(coef, cov) -> Curve:
    """A fitted logistic predictor b0 + b1 z on z = (x - 10) / 2."""
    return Curve("logistic", np.array(coef, float), np.array(cov, float), 10.0, 2.0)


def test_fieller_ends_solve_its_defining_equation():
    curve = line([0.3, 1.5], [[0.04, 0.01], [0.01, 0.09]])
    low, high = adaptive.fieller(curve, 0.5, 0.0, 20.0)
    q = stats.norm.ppf(0.975)
    for x in (low, high):
        z = (x - 10.0) / 2.0
        # (b0 + b1 z - logit 0.5)^2 = q^2 Var(b0 + b1 z) at both ends
        assert (0.3 + 1.5 * z) ** 2 == pytest.approx(
            q * q * (0.04 + 2 * 0.01 * z + 0.09 * z * z))
    root = 10.0 + 2.0 * (-0.3 / 1.5)
    assert low < root < high
    # an uncertain slope makes it asymmetric, wider away from the intercept's side
    assert high - root != pytest.approx(root - low)


def test_fieller_is_the_whole_range_when_the_slope_is_not_significant():
    # slope 1.5 with sd 1: z = 1.5 < 1.96
    curve = line([0.3, 1.5], [[0.04, 0.0], [0.0, 1.0]])
    assert adaptive.fieller(curve, 0.5, 0.0, 20.0) == (0.0, 20.0)


def test_the_local_fit_leaves_out_far_runs_of_another_shape():
    """Rates from a logistic through 0.5 at 400 near it, and a plateau at 0.7 far
    above: the whole-range logistic is pulled up, the local one is not."""
    near = np.arange(340.0, 461.0, 20.0)
    far = np.arange(560.0, 701.0, 20.0)
    rates = np.concatenate([special.expit((near - 400.0) / 40.0), np.full(len(far), 0.7)])
    values = np.concatenate([near, far])
    x = np.repeat(values, 100)
    y = np.concatenate([np.arange(100) < round(100 * r) for r in rates]).astype(float)
    found = adaptive.estimate(x, y, "logistic", 0.5, 300.0, 700.0, precision=35.0)
    assert found.method == "fieller" and found.window == (340.0, 460.0)
    alone = fit_logistic(x[x <= 460.0], y[x <= 460.0])
    assert found.curve.coef == pytest.approx(alone.coef)
    assert found.value == pytest.approx(400.0, abs=2.0)
    assert found.low < 400.0 < found.high
    # the plateau pulls the whole range's logistic up, far more than the local's error
    assert solve(fit_logistic(x, y), 0.5, 300.0, 700.0).value > 415.0
