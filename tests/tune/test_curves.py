"""``balance3d.tune.curves``: the fit's statistics on synthetic data with known answers."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special

from balance3d.tune.curves import FitError, fit_least_squares, fit_logistic, solve

MIDPOINT = 600.0      # kg/m^3, where the made-up tip probability is 0.5
WIDTH = 60.0          # kg/m^3, logistic scale: p goes 0.27 -> 0.73 over 2 WIDTH
DENSITIES = np.linspace(400.0, 800.0, 9)


def bernoulli_runs(rng, repetitions=40, sign=1.0):
    x = np.repeat(DENSITIES, repetitions)
    p = special.expit(sign * (x - MIDPOINT) / WIDTH)
    return x, (rng.random(len(x)) < p).astype(float)


def true_root(target, sign=1.0):
    return MIDPOINT + sign * WIDTH * special.logit(target)


@pytest.mark.parametrize("target", [0.5, 0.8])
def test_logistic_root_interval_covers_the_true_value(target):
    x, y = bernoulli_runs(np.random.default_rng(1))
    curve = fit_logistic(x, y)
    root = solve(curve, target, 400.0, 800.0)
    assert root.low < true_root(target) < root.high
    assert root.high - root.low < 60.0  # 360 runs pin the root to tens of kg/m^3
    assert curve.slope_p() < 1e-6


def test_logistic_score_equations_hold_at_the_fit():
    """At a maximum of the binomial likelihood the residuals sum to zero, alone and
    weighted by the parameter."""
    x, y = bernoulli_runs(np.random.default_rng(2), repetitions=10)
    curve = fit_logistic(x, y)
    residual = y - curve(x)
    assert abs(residual.sum()) < 1e-5
    assert abs((residual * curve.z(x)).sum()) < 1e-5


def test_a_falling_probability_is_fitted_falling():
    x, y = bernoulli_runs(np.random.default_rng(3), sign=-1.0)
    curve = fit_logistic(x, y)
    assert curve.coef[1] < 0
    assert curve(450.0)[0] > 0.8 and curve(750.0)[0] < 0.2
    root = solve(curve, 0.8, 400.0, 800.0)
    assert root.low < true_root(0.8, sign=-1.0) < root.high


def test_delta_method_intervals_cover_at_about_95_percent():
    rng = np.random.default_rng(4)
    trials = 300
    covered = 0
    for _ in range(trials):
        x, y = bernoulli_runs(rng, repetitions=20)
        root = solve(fit_logistic(x, y), 0.5, 400.0, 800.0)
        covered += root.low < MIDPOINT < root.high
    # binomial sd of the coverage over 300 trials is 1.3%: 95% +- 3 sd
    assert 0.91 <= covered / trials <= 0.99


def test_separated_outcomes_name_the_bracket_of_the_change():
    x = np.repeat(DENSITIES, 5)
    y = (x >= 650.0).astype(float)
    with pytest.raises(FitError, match="changes from false to true between 600 and 650"):
        fit_logistic(x, y)
    with pytest.raises(FitError, match="every run gave false across \\[400, 800\\]"):
        fit_logistic(x, np.zeros_like(x))


def test_a_target_the_curve_does_not_reach_is_one_line_naming_the_range():
    x, y = bernoulli_runs(np.random.default_rng(5))
    curve = fit_logistic(x, y)
    with pytest.raises(FitError, match=r"target 0.5 is outside what the fitted curve "
                                       r"reaches in \[650, 800\]") as info:
        solve(curve, 0.5, 650.0, 800.0)
    assert "\n" not in str(info.value)


def test_linear_least_squares_root_and_interval():
    rng = np.random.default_rng(6)
    x = np.repeat(np.linspace(0.03, 0.07, 5), 8)
    y = 10.0 - 100.0 * x + rng.normal(0.0, 0.2, len(x))   # 5.0 at x = 0.05
    curve = fit_least_squares(x, y)
    assert curve.coef[1] < 0
    assert curve.slope(0.05) == pytest.approx(-100.0, rel=0.1)
    root = solve(curve, 5.0, 0.03, 0.07)
    assert root.low < 0.05 < root.high
    # sd of the root ~ sd(mean at 0.05) / |slope| = 0.2 / sqrt(40) / 100 = 3.2e-4 m
    assert root.sd == pytest.approx(0.2 / math.sqrt(40) / 100, rel=0.35)
    assert curve.df == len(x) - 2


def test_a_parabola_reaching_the_target_twice_is_refused():
    x = np.repeat(np.linspace(-1.0, 1.0, 7), 3)
    y = x ** 2 + np.tile([-0.01, 0.0, 0.01], 7)
    curve = fit_least_squares(x, y, degree=2)
    with pytest.raises(FitError, match=r"reaches 0.25 more than once .*-0.5.*0.5"):
        solve(curve, 0.25, -1.0, 1.0)
    root = solve(curve, 0.25, 0.0, 1.0)
    assert root.value == pytest.approx(0.5, abs=0.01)


def test_too_few_values_are_refused():
    with pytest.raises(FitError, match="all at one parameter value"):
        fit_logistic(np.full(10, 3.0), np.tile([0.0, 1.0], 5))
    with pytest.raises(FitError, match="quadratic fit needs at least 3 parameter values"):
        fit_least_squares(np.repeat([1.0, 2.0], 4), np.arange(8.0), degree=2)



def test_the_deviance_tells_a_logistic_from_a_step_with_a_plateau():
    """Rates drawn from the logistic itself give a deviance near its degrees of
    freedom; rates that climb, stall and jump (0, 0.1, 0.5, 0.5, 0.5, 1, 1 at 40 runs
    each) give a small p."""
    x, y = bernoulli_runs(np.random.default_rng(7))
    assert fit_logistic(x, y).deviance_p() > 0.01
    rates = [0.0, 0.1, 0.5, 0.5, 0.5, 1.0, 1.0]
    x = np.repeat(np.arange(7.0), 40)
    y = np.concatenate([np.arange(40) < 40 * r for r in rates]).astype(float)
    curve = fit_logistic(x, y)
    assert curve.deviance_df == 5 and curve.deviance_p() < 0.01
    assert fit_least_squares(x, y).deviance_p() is None
