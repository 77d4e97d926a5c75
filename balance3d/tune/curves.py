"""Curves fitted to runs of one parameter, solved for a target outcome.

Runs at K values of the parameter give, per run, the parameter value ``x`` and an
outcome ``y``.  A model of the outcome against ``x`` is fitted by maximum
likelihood:

- a "probability" outcome (``y`` 0 or 1): logistic, P(y = 1) = 1 / (1 + exp(-(b0 +
  b1 z))), as a binomial GLM (statsmodels) on the count of ones at each value;
- a "mean" outcome: a line or a parabola in ``z`` by least squares (the maximum
  likelihood fit under normal errors of one variance),

where ``z = (x - centre) / scale`` maps the fitted range onto [-1, 1], so the
coefficients are of one size whatever the parameter's unit.  The fitted curve is
solved for the target with :func:`scipy.optimize.brentq`; the 95% interval of the
value found is the delta method's: the variance of the root propagated from the fit's
covariance (the GLM's inverse information for the logistic, the least squares
covariance scaled by the residual variance otherwise), with the normal quantile for
the logistic and Student's t with the residual degrees of freedom otherwise.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

from balance3d.tune.summary import CONFIDENCE

#: points on which a fitted curve is scanned for the brackets :func:`solve` refines
#: with brentq (a curve here turns at most once, so this many cannot miss a root
#: pair of a parabola by more than 1/SCAN_POINTS of the range).
SCAN_POINTS = 1001
#: the logistic fit (IRLS) stops when the deviance changes by less than this between
#: iterations: far below what moves a root visibly.
GLM_TOLERANCE = 1e-12
#: most IRLS iterations of a logistic fit (it takes under ten on overlapping runs).
GLM_ITERATIONS = 100
#: model names by outcome kind: the first is the default.
MODELS = {"probability": ("logistic",), "mean": ("linear", "quadratic")}


class FitError(ValueError):
    """The data cannot answer the fit as asked: the message says why in one line."""


class SeparationError(FitError):
    """The 0/1 outcomes change at one place with mixed results at one value at most:
    every run at or below ``below`` gave one answer and every run at or above
    ``above`` the other (parameter values; a value with mixed results lies between
    them); the change lies between them."""

    def __init__(self, message: str, below: float, above: float) -> None:
        super().__init__(message)
        self.below = below
        self.above = above


@dataclass(frozen=True)
class Curve:
    """A model fitted to an outcome against a parameter.

    model : "logistic", "linear" or "quadratic".
    coef : (p,) float, coefficients of 1, z (and z^2) in the standardised variable
        z = (x - centre) / scale; for the logistic, of the log-odds.
    cov : (p, p) float, their covariance.
    centre, scale : in the parameter's unit.
    df : residual degrees of freedom of a least squares fit (None: logistic).
    deviance : the logistic's deviance against the saturated model of the values'
        rates (None for least squares); a large one says the logistic shape fits badly.
    deviance_df : its degrees of freedom (distinct values - 2).
    variance : the residual variance of a least squares fit, in the outcome's unit
        squared (None: logistic).
    """

    model: str
    coef: np.ndarray
    cov: np.ndarray
    centre: float
    scale: float
    df: int | None = None
    deviance: float | None = None
    deviance_df: int | None = None
    variance: float | None = None

    def run_information(self, x: float) -> np.ndarray:
        """(p, p) information about the coefficients that one more run at ``x``
        brings: the design row's outer product, weighted by p (1 - p) for the
        logistic and by 1 / variance for least squares."""
        row = self.basis(x)[0]
        if self.model == "logistic":
            p = float(special.expit(row @ self.coef))
            weight = p * (1 - p)
        else:
            weight = 1.0 / self.variance if self.variance else 0.0
        return weight * np.outer(row, row)

    def z(self, x: np.ndarray | float) -> np.ndarray:
        """Standardised values of parameter values ``x``."""
        return (np.asarray(x, dtype=float) - self.centre) / self.scale

    def basis(self, x: np.ndarray | float) -> np.ndarray:
        """(n, p) design rows [1, z, (z^2)] at ``x``."""
        z = np.atleast_1d(self.z(x))
        return np.stack([z ** k for k in range(len(self.coef))], axis=1)

    def __call__(self, x: np.ndarray | float) -> np.ndarray:
        """The fitted outcome (a probability for the logistic) at ``x``."""
        eta = self.basis(x) @ self.coef
        return special.expit(eta) if self.model == "logistic" else eta

    def gradient(self, x: float) -> np.ndarray:
        """(p,) derivative of the fitted outcome at ``x`` by the coefficients."""
        row = self.basis(x)[0]
        if self.model == "logistic":
            p = float(special.expit(row @ self.coef))
            return row * p * (1 - p)
        return row

    def slope(self, x: float) -> float:
        """Derivative of the fitted outcome at ``x`` by the parameter (per unit of x)."""
        z = float(self.z(x))
        deta = sum(k * self.coef[k] * z ** (k - 1) for k in range(1, len(self.coef)))
        if self.model == "logistic":
            p = float(self(x)[0])
            deta *= p * (1 - p)
        return deta / self.scale

    def quantile(self) -> float:
        """The two-sided :data:`CONFIDENCE` quantile its intervals use."""
        tail = (1 + CONFIDENCE) / 2
        return float(stats.norm.ppf(tail) if self.df is None else stats.t.ppf(tail, self.df))

    def deviance_p(self) -> float | None:
        """p-value of the logistic's deviance (chi-squared on :attr:`deviance_df`): a
        small one says the runs' rates stray from the logistic shape more than
        chance would make them (None for least squares, or without spare values)."""
        if self.deviance is None or not self.deviance_df:
            return None
        return float(stats.chi2.sf(self.deviance, self.deviance_df))

    def slope_p(self) -> float:
        """Two-sided p-value of "the outcome does not change with the parameter"
        (the linear coefficient is zero; Wald test)."""
        t = self.coef[1] / math.sqrt(self.cov[1, 1])
        if self.df is None:
            return float(2 * stats.norm.sf(abs(t)))
        return float(2 * stats.t.sf(abs(t), self.df))


@dataclass(frozen=True)
class Root:
    """The parameter value at which a fitted curve reaches the target.

    value : in the parameter's unit.
    sd : its standard error by the delta method.
    low, high : its :data:`CONFIDENCE` interval, value -/+ quantile x sd.
    """

    value: float
    sd: float
    low: float
    high: float


def _standardise(x: np.ndarray) -> tuple[float, float]:
    low, high = float(np.min(x)), float(np.max(x))
    if not high > low:
        raise FitError(f"the runs were all at one parameter value ({low:g}): "
                       f"a fit needs at least two")
    return (low + high) / 2, (high - low) / 2


def fit_logistic(x: np.ndarray, y: np.ndarray) -> Curve:
    """Maximum likelihood logistic fit of 0/1 outcomes ``y`` against ``x`` (one
    entry per run): a binomial GLM with the logit link (statsmodels, iteratively
    reweighted least squares) on each value's count of ones out of its runs.
    :class:`FitError` when the outcomes do not overlap (every run below some value
    gave 0 and every run above it 1, or the other way round): the likelihood then has
    no maximum, and the message names the bracket in which the change happens."""
    from statsmodels.genmod.families import Binomial
    from statsmodels.genmod.generalized_linear_model import GLM

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if not np.isin(y, (0.0, 1.0)).all():
        raise FitError("a probability outcome must be 0/1 (true/false) in every run")
    centre, scale = _standardise(x)
    _check_overlap(x, y)
    values, index = np.unique(x, return_inverse=True)
    ones = np.bincount(index, weights=y)
    runs = np.bincount(index).astype(float)
    z = (values - centre) / scale
    design = np.stack([np.ones_like(z), z], axis=1)
    result = GLM(np.stack([ones, runs - ones], axis=1), design,
                 family=Binomial()).fit(tol=GLM_TOLERANCE, maxiter=GLM_ITERATIONS)
    if not result.converged:
        raise FitError(f"the logistic fit did not converge in {GLM_ITERATIONS} iterations")
    # the deviance of the grouped counts is against the saturated model of the
    # values' rates; its degrees of freedom are the values less the 2 coefficients
    return Curve("logistic", np.asarray(result.params), np.asarray(result.cov_params()),
                 centre, scale, deviance=float(result.deviance),
                 deviance_df=len(values) - 2)


def _check_overlap(x: np.ndarray, y: np.ndarray) -> None:
    """:class:`FitError` when 0s and 1s are separated by a parameter value."""
    if y.min() == y.max():
        raise FitError(f"every run gave {'true' if y[0] else 'false'} across "
                       f"[{x.min():g}, {x.max():g}]: the change lies outside this range")
    for ones_above in (True, False):
        zeros, ones = x[y == (0.0 if ones_above else 1.0)], x[y == (1.0 if ones_above else 0.0)]
        if zeros.max() <= ones.min():
            # the values all of whose runs gave the answer below (above) the change
            values = np.unique(x)
            rates = np.array([y[x == v].mean() for v in values])
            low_answer = 0.0 if ones_above else 1.0
            low_side = values[rates == low_answer]
            high_side = values[rates == 1.0 - low_answer]
            # a mixed value at an end of the runs bounds the change itself
            below = float(low_side.max() if len(low_side) else values.min())
            above = float(high_side.min() if len(high_side) else values.max())
            raise SeparationError(
                f"the outcome changes from {'false' if ones_above else 'true'} to "
                f"{'true' if ones_above else 'false'} between {zeros.max():g} and "
                f"{ones.min():g} with no mixed results elsewhere: fit within that "
                f"range, or with more repetitions", below, above)


def fit_least_squares(x: np.ndarray, y: np.ndarray, degree: int = 1) -> Curve:
    """Least squares polynomial of ``degree`` (1 or 2) of outcomes ``y`` against
    ``x`` (one entry per run), with the coefficients' covariance."""
    if degree not in (1, 2):
        raise FitError(f"degree must be 1 or 2, got {degree}")
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    centre, scale = _standardise(x)
    model = "linear" if degree == 1 else "quadratic"
    if len(np.unique(x)) <= degree:
        raise FitError(f"a {model} fit needs at least {degree + 1} parameter values")
    df = len(x) - (degree + 1)
    if df < 1:
        raise FitError(f"a {model} fit needs more than {degree + 1} runs, got {len(x)}")
    z = (x - centre) / scale
    design = np.stack([z ** k for k in range(degree + 1)], axis=1)
    coef, _, _, _ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    variance = float(residual @ residual) / df
    cov = variance * np.linalg.inv(design.T @ design)
    return Curve(model, coef, cov, centre, scale, df=df, variance=variance)


def fit_curve(x: np.ndarray, y: np.ndarray, model: str) -> Curve:
    """Fit ``model`` (one of :data:`MODELS`' names) to runs (``x``, ``y``)."""
    if model == "logistic":
        return fit_logistic(x, y)
    if model in ("linear", "quadratic"):
        return fit_least_squares(x, y, 1 if model == "linear" else 2)
    raise FitError(f"unknown model {model!r} (known: logistic, linear, quadratic)")


def root_gradient(curve: Curve, value: float) -> np.ndarray:
    """(p,) derivative of the root at ``value`` by the coefficients (the target held):
    -(d curve / d coef) / (d curve / d x), in the parameter's unit per coefficient."""
    return -curve.gradient(value) / curve.slope(value)


def solve(curve: Curve, target: float, low: float, high: float) -> Root:
    """The value in [``low``, ``high``] where ``curve`` equals ``target``, with its
    delta-method interval.  :class:`FitError` when the fitted curve does not reach the
    target there (naming the range it covers), or reaches it more than once."""
    grid = np.linspace(low, high, SCAN_POINTS)
    gap = curve(grid) - target
    roots = [float(g) for g, d in zip(grid, gap) if d == 0.0]
    for i in np.flatnonzero(gap[:-1] * gap[1:] < 0):
        roots.append(optimize.brentq(lambda v: float(curve(v)[0]) - target,
                                     grid[i], grid[i + 1], xtol=1e-12 * (high - low)))
    if not roots:
        reach = curve(grid)
        raise FitError(f"target {target:g} is outside what the fitted curve reaches in "
                       f"[{low:g}, {high:g}] ({reach.min():.4g} .. {reach.max():.4g})")
    if len(roots) > 1:
        raise FitError(f"the fitted curve reaches {target:g} more than once in [{low:g}, "
                       f"{high:g}] (at {', '.join(f'{r:.6g}' for r in roots)}): narrow "
                       f"the range")
    value = roots[0]
    jacobian = root_gradient(curve, value)
    sd = math.sqrt(float(jacobian @ curve.cov @ jacobian))
    half = curve.quantile() * sd
    return Root(value, sd, value - half, value + half)

