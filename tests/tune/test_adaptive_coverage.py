"""The sequential fit's interval covers the true answer at about its nominal 95 %:
many seeded fits, without physics, on response curves whose 50 % point is known, a
logistic one and a skewed one (steep below the answer, shallow above it, as a
measured response often is), each driven by :func:`balance3d.tune.adaptive.decide`
exactly as ``tune fit`` drives it."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from balance3d.tune import adaptive

#: the range searched, the opening, the batch and the budget (units of the made-up
#: parameter).
LOW, HIGH, POINTS, BATCH, MAX_RUNS = 100.0, 700.0, 3, 6, 400
#: simulated fits per curve: the coverage of a 95 % interval over this many has a
#: binomial sd of 2.8 %.
FITS = 60
#: the least coverage accepted: 95 % less 3.5 binomial sd.
LEAST_COVERAGE = 0.85
#: the least share of the fits that reach the precision within MAX_RUNS.
LEAST_REACHED = 0.9
#: the logistic's 50 % point.
MIDDLE = 350.0
#: the skewed curve's knots: (parameter, p), joined by straight lines.  It climbs
#: steeply to 0.34, then slowly through 0.5 at 275 and stalls before a last rise, as
#: the README's beam does (benchmarks/results/fit_truth.json), so that one logistic
#: over the whole range misses its 50 % point.
KNOTS = ((100.0, 0.0), (150.0, 0.08), (200.0, 0.34), (275.0, 0.5), (400.0, 0.67),
         (500.0, 0.73), (600.0, 0.88), (650.0, 1.0), (700.0, 1.0))


def logistic(x: np.ndarray) -> np.ndarray:
    """p = 0.27 at MIDDLE - 60, 0.73 at MIDDLE + 60."""
    return special.expit((x - MIDDLE) / 60.0)


def skewed(x: np.ndarray) -> np.ndarray:
    """p through :data:`KNOTS`."""
    return np.interp(x, *zip(*KNOTS))


def simulate(chance, precision: float, seed: int) -> tuple[adaptive.Estimate, str, int]:
    """One fit to ``precision`` of 0/1 runs drawn with probability ``chance``
    (parameter -> p): its estimate, why it stopped and its runs."""
    rng = np.random.default_rng(seed)
    x = np.repeat(adaptive.opening(LOW, HIGH, POINTS), BATCH)
    y = (rng.random(len(x)) < chance(x)).astype(float)
    while True:
        found, stopped, value = adaptive.decide(x, y, "logistic", 0.5, LOW, HIGH,
                                                precision, BATCH, MAX_RUNS)
        if stopped is not None:
            return found, stopped, len(x)
        new = np.full(BATCH, value)
        x = np.concatenate([x, new])
        y = np.concatenate([y, (rng.random(BATCH) < chance(new)).astype(float)])


# the half-widths asked: the skewed curve's slope at its middle, 0.0021 per unit, needs
# 100 runs at least for 60 (the logistic's, 0.0042, 30 for 40)
@pytest.mark.parametrize("chance, middle, precision", [(logistic, MIDDLE, 40.0),
                                                       (skewed, 275.0, 60.0)])
def test_the_interval_covers_the_known_middle_at_about_95_percent(chance, middle,
                                                                  precision):
    assert chance(np.array([middle]))[0] == pytest.approx(0.5)
    fits = [simulate(chance, precision, seed) for seed in range(FITS)]
    covered = sum(found.low <= middle <= found.high for found, _, _ in fits)
    assert covered / FITS >= LEAST_COVERAGE, covered
    # and not by giving up: nearly every fit reached the precision inside its budget
    reached = [found.half_width <= precision for found, stopped, _ in fits
               if stopped == "precision"]
    assert all(reached) and len(reached) >= LEAST_REACHED * FITS, len(reached)
    assert all(stopped in ("precision", "max_runs") and runs <= MAX_RUNS
               for _, stopped, runs in fits)
