"""Sequential design of a one-parameter fit: where ``tune fit`` puts its next runs,
what its runs say, and when it stops.

A fit opens with ``points`` evenly spaced values across [low, high], one batch of
``batch`` runs at each.  After every batch :func:`decide` estimates the answer from
all the runs so far and either stops or names the value of the next batch:

- when the 0/1 outcomes separate (one answer below some value, the other above it),
  the change lies between the two values (:class:`~balance3d.tune.curves.SeparationError`):
  the next batch goes half-way between them (bisection), into the wider half where a
  value with mixed results lies between, and that bracket is the answer once its
  half-width is at most the precision;
- otherwise the curve (:mod:`balance3d.tune.curves`) is fitted *locally*: to the runs
  within :data:`LOCAL_PRECISIONS` precisions of the answer (:func:`local_fit`).  A
  measured response seldom has the model's shape across a whole range (it may climb
  steeply, then stall); the model only has to hold near the answer, and far runs
  fitted to the wrong shape pull the root off it.  The answer's 95 % interval is
  Fieller's (:func:`fieller`), which carries the uncertainty of the slope as well
  as of the level, and is accepted once its half-width is at most the precision.
  Until then the next batch goes to the value, of :data:`CANDIDATES` across the
  local window, whose runs would shrink the root's delta-method variance most: the
  information the batch is expected to bring
  (:meth:`~balance3d.tune.curves.Curve.run_information` at the fitted curve) is added
  to the fit's, and the root's variance recomputed.  That is where the fitted curve
  is most uncertain about the target.

Every decision depends only on the runs of the batches before it, and each run's
seed only on its value, case and repetition, so the design and the answer are the
same with any number of workers and on Ray.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special

from balance3d.tune.curves import (Curve, FitError, Root, SeparationError, fit_curve,
                                   root_gradient, solve)

#: values across the local window scanned for the next batch (a step of 1/200 of
#: the window: finer than any precision worth asking of a few hundred runs).
CANDIDATES = 201
#: significant digits of every value run (so a value reads as a designer writes it).
VALUE_DIGITS = 6
#: half-width of the local fit's window around the answer, in precisions (the
#: requested half-width): the model is asked to hold only over twice the resolution
#: wanted each side (in trial fits of the skewed curve of
#: tests/tune/test_adaptive_coverage.py, 3 let its far side bias the root: the
#: interval covered it in 17 of 20 fits, against 19 of 20 with 2).
LOCAL_PRECISIONS = 2.0
#: fewest distinct values a local window holds (it widens until it does): one more
#: than the two coefficients of a logistic or a line.
MIN_LOCAL_VALUES = 3
#: most refits while the window moves with the answer (it settles in two or three).
LOCAL_ITERATIONS = 10
#: models whose fitted predictor is linear in the parameter: their interval is
#: Fieller's; a parabola's is the delta method's.
FIELLER_MODELS = ("logistic", "linear")


def rounded(value: float) -> float:
    """``value`` to :data:`VALUE_DIGITS` significant digits."""
    return float(f"{value:.{VALUE_DIGITS}g}")


def opening(low: float, high: float, points: int) -> list[float]:
    """The opening design's values: ``points`` evenly spaced, both ends included."""
    return [rounded(v) for v in np.linspace(low, high, points)]


@dataclass(frozen=True)
class Estimate:
    """What the runs so far say about the value that gives the target.

    value, low, high : the value and its 95 % interval, in the parameter's unit.
    method : "fieller" or "delta" (the local fit's root; see :data:`FIELLER_MODELS`)
        or "bracket" (outcomes separated: the change lies in [low, high], value
        half-way or at the mixed value between).
    curve, root : the local fit and its root with the delta method's interval (None
        for a bracket).
    window : (2,) the values the local fit took its runs from, in the parameter's
        unit (None for a bracket).
    mixed : a value with mixed results inside a bracket (None: none).
    """

    value: float
    low: float
    high: float
    method: str
    curve: Curve | None = None
    root: Root | None = None
    window: tuple[float, float] | None = None
    mixed: float | None = None

    @property
    def half_width(self) -> float:
        """Half the interval's width, in the parameter's unit."""
        return (self.high - self.low) / 2


def link(curve: Curve, target: float) -> float:
    """The target on the scale of the curve's linear predictor (its log-odds for a
    logistic, itself for a line)."""
    return float(special.logit(target)) if curve.model == "logistic" else target


def fieller(curve: Curve, target: float, low: float, high: float) -> tuple[float, float]:
    """Fieller's 95 % interval of the value where a fitted line (in the predictor:
    b0 + b1 z, z the standardised parameter) reaches ``target``: every value x whose
    predictor is within the quantile times its standard error of the target's,
    (b0 + b1 z - g)^2 <= q^2 (v00 + 2 v01 z + v11 z^2).  Unlike the delta method it
    widens, and turns asymmetric, when the slope is uncertain; when the slope itself
    is not significant at that level the set is unbounded and the interval is the
    whole range [``low``, ``high``].  In the parameter's unit."""
    (b0, b1), v = curve.coef, curve.cov
    q = curve.quantile()
    a = b0 - link(curve, target)
    qa = b1 * b1 - q * q * v[1, 1]
    qb = a * b1 - q * q * v[0, 1]
    qc = a * a - q * q * v[0, 0]
    disc = qb * qb - qa * qc
    if qa <= 0 or disc < 0:
        return low, high
    ends = sorted(((-qb - math.sqrt(disc)) / qa, (-qb + math.sqrt(disc)) / qa))
    return (float(curve.centre + curve.scale * ends[0]),
            float(curve.centre + curve.scale * ends[1]))


def _window(x: np.ndarray, centre: float, half: float) -> np.ndarray:
    """Whether each run lies within ``half`` of ``centre``, the half-width doubled
    until :data:`MIN_LOCAL_VALUES` distinct values lie inside."""
    values = np.unique(x)
    while half < np.ptp(x) * 2 and \
            np.count_nonzero(np.abs(values - centre) <= half) < MIN_LOCAL_VALUES:
        half *= 2
    return np.abs(x - centre) <= half


def _overlap(x: np.ndarray, y: np.ndarray) -> bool:
    """Whether the runs' 0/1 outcomes overlap: neither answer's runs all lie at or
    below the other's (what a logistic fit needs; a mean outcome always overlaps)."""
    if not np.isin(y, (0.0, 1.0)).all():
        return True
    zeros, ones = x[y == 0.0], x[y == 1.0]
    return len(zeros) > 0 and len(ones) > 0 and zeros.max() > ones.min() \
        and ones.max() > zeros.min()


def _fit(x: np.ndarray, y: np.ndarray, model: str) -> Curve:
    """:func:`~balance3d.tune.curves.fit_curve`, without statsmodels' warning of
    fitted chances near 0 or 1: a value of the runs that gave one answer only is
    what the outcomes say, not a failed fit (outcomes that separate are refused)."""
    from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PerfectSeparationWarning)
        return fit_curve(x, y, model)


def local_fit(x: np.ndarray, y: np.ndarray, model: str, target: float, low: float,
              high: float, half: float) -> tuple[Curve, Root, tuple[float, float]]:
    """The curve fitted to the runs within ``half`` (parameter units) of its own
    root, with that root and the window's ends.  It starts from the fit to every run
    and refits to the runs near the root found until the window's runs stay the same
    (at most :data:`LOCAL_ITERATIONS` refits); a window whose runs cannot be fitted
    (too few values, separated outcomes, a root outside it) is left at the last
    window that could.  :class:`FitError` when not even every run gives a fit."""
    curve = _fit(x, y, model)
    root = solve(curve, target, low, high)
    inside = np.ones(len(x), dtype=bool)
    for _ in range(LOCAL_ITERATIONS):
        chosen = _window(x, root.value, half)
        if np.array_equal(chosen, inside) or not _overlap(x[chosen], y[chosen]):
            break
        try:
            near = _fit(x[chosen], y[chosen], model)
            found = solve(near, target, low, high)
        except FitError:
            break
        curve, root, inside = near, found, chosen
    return curve, root, (float(x[inside].min()), float(x[inside].max()))


def estimate(x: np.ndarray, y: np.ndarray, model: str, target: float, low: float,
             high: float, precision: float) -> Estimate:
    """The estimate from runs (``x`` values, ``y`` outcomes, one entry per run),
    fitted within :data:`LOCAL_PRECISIONS` x ``precision`` of the answer;
    :class:`~balance3d.tune.curves.FitError` when they cannot give one (every run
    alike, a curve that does not reach the target in [low, high])."""
    try:
        curve, root, window = local_fit(x, y, model, target, low, high,
                                        LOCAL_PRECISIONS * precision)
    except SeparationError as exc:
        inside = np.unique(x[(x > exc.below) & (x < exc.above)])
        mixed = float(inside[0]) if len(inside) else None
        value = mixed if mixed is not None else (exc.below + exc.above) / 2
        return Estimate(value, exc.below, exc.above, "bracket", mixed=mixed)
    if model in FIELLER_MODELS:
        ends = fieller(curve, target, low, high)
        return Estimate(root.value, *ends, "fieller", curve, root, window)
    return Estimate(root.value, root.low, root.high, "delta", curve, root, window)


def next_value(found: Estimate, batch: int, low: float, high: float) -> float | None:
    """Where the next batch of ``batch`` runs goes (None: nowhere left that the
    values' rounding can tell apart)."""
    if found.method == "bracket":
        a, b = found.low, found.high
        if found.mixed is not None:
            a, b = (a, found.mixed) if found.mixed - a >= b - found.mixed else (found.mixed, b)
        value = rounded((a + b) / 2)
        return value if a < value < b else None
    curve, root = found.curve, found.root
    gradient = root_gradient(curve, root.value)
    candidates = np.linspace(max(low, found.window[0]), min(high, found.window[1]),
                             CANDIDATES)
    # the batch adds k w r r^T to the information (r a candidate's design row, w its
    # weight): by Sherman-Morrison the root's variance g^T C g drops by
    # k w (g^T C r)^2 / (1 + k w r^T C r), C the fit's covariance
    rows = curve.basis(candidates)
    weights = _run_weights(curve, candidates)
    spread = rows @ curve.cov
    drop = batch * weights * (spread @ gradient) ** 2 \
        / (1 + batch * weights * np.einsum("ij,ij->i", spread, rows))
    return rounded(float(candidates[int(np.argmax(drop))]))


def _run_weights(curve: Curve, x: np.ndarray) -> np.ndarray:
    """(n,) the weight of one run's information at each of ``x``, as
    :meth:`~balance3d.tune.curves.Curve.run_information` weighs it: p (1 - p) for
    the logistic, 1 / variance for least squares."""
    if curve.model == "logistic":
        p = curve(x)
        return p * (1 - p)
    return np.full(len(x), 1.0 / curve.variance if curve.variance else 0.0)


def decide(x: np.ndarray, y: np.ndarray, model: str, target: float, low: float,
           high: float, precision: float, batch: int, max_runs: int
           ) -> tuple[Estimate, str | None, float | None]:
    """One step of the design after a batch: the estimate from the runs so far, why
    the fit stops ("precision", "max_runs", "resolution"; None: it goes on) and,
    when it goes on, the value of the next batch of ``batch`` runs."""
    found = estimate(x, y, model, target, low, high, precision)
    if found.half_width <= precision:
        return found, "precision", None
    if len(x) + batch > max_runs:
        return found, "max_runs", None
    value = next_value(found, batch, low, high)
    return (found, "resolution", None) if value is None else (found, None, value)
