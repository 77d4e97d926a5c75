"""Sequential design of a one-parameter fit: where ``tune fit`` puts its next runs.

A fit opens with ``points`` evenly spaced values across [low, high], one batch of
``batch`` runs at each.  After every batch it fits the curve to all the runs so far
(:mod:`balance3d.tune.curves`) and solves it for the target:

- when the 0/1 outcomes separate (one answer below some value, the other above it),
  the change lies between the two values (:class:`~balance3d.tune.curves.SeparationError`):
  the next batch goes half-way between them (bisection), into the wider half where a
  value with mixed results lies between, and that bracket is the answer once its
  half-width is at most the precision;
- otherwise the answer is the root with its 95 % delta-method interval, accepted once
  the interval's half-width is at most the precision.  Until then the next batch goes
  to the value, of :data:`CANDIDATES` across [low, high], whose runs would shrink the
  root's delta-method variance most: the information the batch is expected to bring
  (:meth:`~balance3d.tune.curves.Curve.run_information` at the fitted curve) is added
  to the fit's, and the root's variance recomputed.  That is where the fitted curve
  is most uncertain about the target.

Every decision depends only on the runs of the batches before it, and each run's
seed only on its value, case and repetition, so the design and the answer are the
same with any number of workers and on Ray.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from balance3d.tune.curves import Curve, Root, SeparationError, fit_curve, root_gradient, solve

#: values across the searched range scanned for the next batch (a step of 1/200 of
#: the range: finer than any precision worth asking of a few hundred runs).
CANDIDATES = 201
#: significant digits of every value run (so a value reads as a designer writes it).
VALUE_DIGITS = 6


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
    method : "delta" (the fitted curve's root) or "bracket" (outcomes separated: the
        change lies in [low, high], value half-way or at the mixed value between).
    curve, root : the fitted curve and its root (None for a bracket).
    mixed : a value with mixed results inside a bracket (None: none).
    """

    value: float
    low: float
    high: float
    method: str
    curve: Curve | None = None
    root: Root | None = None
    mixed: float | None = None

    @property
    def half_width(self) -> float:
        """Half the interval's width, in the parameter's unit."""
        return (self.high - self.low) / 2


def estimate(x: np.ndarray, y: np.ndarray, model: str, target: float, low: float,
             high: float) -> Estimate:
    """The estimate from runs (``x`` values, ``y`` outcomes, one entry per run);
    :class:`~balance3d.tune.curves.FitError` when they cannot give one (every run
    alike, a curve that does not reach the target in [low, high])."""
    try:
        curve = fit_curve(x, y, model)
    except SeparationError as exc:
        inside = np.unique(x[(x > exc.below) & (x < exc.above)])
        mixed = float(inside[0]) if len(inside) else None
        value = mixed if mixed is not None else (exc.below + exc.above) / 2
        return Estimate(value, exc.below, exc.above, "bracket", mixed=mixed)
    root = solve(curve, target, low, high)
    return Estimate(root.value, root.low, root.high, "delta", curve, root)


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
    information = np.linalg.inv(curve.cov)
    best, best_variance = None, math.inf
    for candidate in np.linspace(low, high, CANDIDATES):
        cov = np.linalg.inv(information + batch * curve.run_information(float(candidate)))
        variance = float(gradient @ cov @ gradient)
        if variance < best_variance:
            best, best_variance = float(candidate), variance
    return rounded(best)
