"""Which parameters matter most for an outcome: Sobol indices and Morris screening,
from SALib, for any function of the parameters that may be noisy.

The function is asked for ``repetitions`` values at every point (``evaluate(points)
-> (m, r)``), as a game's runs are random: the indices describe the *mean* response
at a point (the average of the repetitions), and the spread of the repetitions says
how much of the variance is noise.

- **Noise.**  ``within`` is the pooled variance of the repetitions about their point's
  mean; ``total`` the variance of all single runs.  ``noise_share = within / total``
  is the share of a single run's variance that no parameter explains (a yes/no
  outcome near a rate of 0.5 is mostly noise).  The point means still carry
  ``within / r`` of noise.
- **Sobol** (``method = "sobol"``): SALib's Saltelli sampling of the Sobol sequence,
  ``n (2 D + 2)`` points for D parameters (``n`` a power of 2), and SALib's
  estimators with bootstrap intervals: first-order ``S1``, total ``ST`` and
  second-order ``S2`` indices.  Noise in the point means biases them: ``S1`` and
  ``S2`` down by the factor V_f / V (V the point means' variance, V_f = V - within/r
  the mean response's), ``ST`` up by adding the noise to each parameter's total.
  The indices reported are corrected for that: ``S1 = S1_salib V / V_f``, ``ST =
  (ST_salib V - within / r) / V_f`` (the intervals scaled by V / V_f), with SALib's
  own values kept as ``S1_salib`` and ``ST_salib``.
- **Morris** (``method = "morris"``): SALib's Morris trajectories, ``n (D + 1)``
  points on a grid of ``levels`` levels, for screening many parameters with few
  runs: ``mu_star`` (mean absolute elementary effect, in the outcome's unit per full
  range of the parameter), its bootstrap interval, and ``sigma`` (their spread: an
  interaction or a curved response).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

#: The methods: Sobol indices, Morris screening.
METHODS = ("sobol", "morris")
#: Two-sided confidence level of the indices' intervals.
CONFIDENCE = 0.95
#: Bootstrap resamples of SALib's intervals.
RESAMPLES = 1000
#: Morris grid levels (even, as SALib wants).
MORRIS_LEVELS = 4


class SensitivityError(ValueError):
    """A sensitivity study asked wrongly: one line naming the option."""


@dataclass(frozen=True)
class Space:
    """The parameters varied and their ranges.

    names : parameter names (scene value paths).
    bounds : (low, high) of each, in its unit; low < high.
    """

    names: tuple[str, ...]
    bounds: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if not self.names:
            raise SensitivityError("parameters: give at least one parameter to vary")
        for name, (low, high) in zip(self.names, self.bounds):
            if not (math.isfinite(low) and math.isfinite(high) and low < high):
                raise SensitivityError(f"parameters.{name}: low must be below high, got "
                                       f"{low!r} {high!r}")

    def problem(self) -> dict[str, Any]:
        """The SALib problem of the space."""
        return {"num_vars": len(self.names), "names": list(self.names),
                "bounds": [list(b) for b in self.bounds]}


def budget(method: str, dimensions: int, n: int) -> int:
    """Points a study evaluates: n (2 D + 2) for Sobol (second order included),
    n (D + 1) for Morris (n trajectories)."""
    return n * (2 * dimensions + 2) if method == "sobol" else n * (dimensions + 1)


def _salib_seed(seed: int) -> int:
    """A seed for SALib's bootstraps (SALib ignores a seed of 0)."""
    return int(np.random.SeedSequence(seed).generate_state(1)[0]) or 1


def check_request(method: str, n: int) -> None:
    """:class:`SensitivityError` for an unknown method or a bad ``n``."""
    if method not in METHODS:
        raise SensitivityError(f"method: {method!r} is not one of {', '.join(METHODS)}")
    if method == "sobol" and (n < 2 or n & (n - 1)):
        raise SensitivityError(f"n: Sobol sampling takes a power of 2 (>= 2), got {n}")
    if method == "morris" and n < 2:
        raise SensitivityError(f"n: Morris screening takes at least 2 trajectories, got {n}")


def sample(space: Space, method: str, n: int, seed: int) -> np.ndarray:
    """(budget, D) float: the points of the study, in SALib's order."""
    check_request(method, n)
    if method == "sobol":
        from SALib.sample import sobol

        return sobol.sample(space.problem(), n, calc_second_order=True, scramble=True,
                            seed=seed)
    from SALib.sample import morris

    return morris.sample(space.problem(), n, num_levels=MORRIS_LEVELS, seed=seed)


def noise(values: np.ndarray) -> dict[str, float]:
    """The noise of (m, r) runs: ``within`` (pooled variance of the repetitions about
    their point's mean), ``total`` (variance of all runs), ``noise_share`` (within /
    total; NaN with one repetition or no variance) and ``repetitions``."""
    values = np.asarray(values, dtype=float)
    r = values.shape[1]
    total = float(np.var(values, ddof=1)) if values.size > 1 else math.nan
    within = float(np.mean(np.var(values, axis=1, ddof=1))) if r > 1 else math.nan
    share = within / total if r > 1 and total > 0 else math.nan
    return {"within": within, "total": total, "noise_share": share, "repetitions": r}


def _sobol(space: Space, means: np.ndarray, within: float, r: int,
           seed: int) -> dict[str, Any]:
    from SALib.analyze import sobol

    d = len(space.names)
    found = sobol.analyze(space.problem(), means, calc_second_order=True,
                          num_resamples=RESAMPLES, conf_level=CONFIDENCE,
                          seed=_salib_seed(seed))
    step = 2 * d + 2
    variance = float(np.var(np.r_[means[0::step], means[step - 1::step]]))
    noise_of_means = within / r if math.isfinite(within) else 0.0
    signal = variance - noise_of_means
    scale = variance / signal if signal > 0 else math.nan
    rows = []
    for i, name in enumerate(space.names):
        rows.append({
            "parameter": name,
            "S1": float(found["S1"][i]) * scale,
            "S1_conf": float(found["S1_conf"][i]) * scale,
            "ST": (float(found["ST"][i]) * variance - noise_of_means) / signal
            if signal > 0 else math.nan,
            "ST_conf": float(found["ST_conf"][i]) * scale,
            "S1_salib": float(found["S1"][i]), "ST_salib": float(found["ST"][i])})
    pairs = [{"parameters": [space.names[i], space.names[j]],
              "S2": float(found["S2"][i, j]) * scale,
              "S2_conf": float(found["S2_conf"][i, j]) * scale}
             for i in range(d) for j in range(i + 1, d)]
    return {"indices": rows, "pairs": pairs, "mean_variance": variance,
            "signal_variance": signal}


def _morris(space: Space, points: np.ndarray, means: np.ndarray,
            seed: int) -> dict[str, Any]:
    from SALib.analyze import morris

    found = morris.analyze(space.problem(), points, means, num_resamples=RESAMPLES,
                           conf_level=CONFIDENCE, num_levels=MORRIS_LEVELS,
                           seed=_salib_seed(seed))
    rows = [{"parameter": name, "mu": float(found["mu"][i]),
             "mu_star": float(found["mu_star"][i]),
             "mu_star_conf": float(found["mu_star_conf"][i]),
             "sigma": float(found["sigma"][i])}
            for i, name in enumerate(space.names)]
    return {"indices": rows}


def analyse(space: Space, method: str, points: np.ndarray, values: np.ndarray,
            seed: int) -> dict[str, Any]:
    """The indices of ``values`` ((m, r) float: r runs at each of the m points of
    :func:`sample`), with the noise (:func:`noise`), method, points and repetitions."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 2 or values.shape[0] != len(points):
        raise SensitivityError(f"values: expected ({len(points)}, r) runs, got shape "
                               f"{values.shape}")
    means = values.mean(axis=1)
    spread = noise(values)
    if method == "sobol":
        found = _sobol(space, means, spread["within"], values.shape[1], seed)
    else:
        found = _morris(space, np.asarray(points), means, seed)
    return {"method": method, "parameters": list(space.names),
            "bounds": [list(b) for b in space.bounds], "points": len(points),
            "repetitions": values.shape[1], "runs": int(values.size),
            "confidence": CONFIDENCE, "noise": spread, **found}


def sensitivity_of(evaluate: Callable[[np.ndarray], np.ndarray], space: Space,
                   method: str = "sobol", n: int = 64, seed: int = 0) -> dict[str, Any]:
    """Sample ``space``, evaluate it and analyse it: the report of :func:`analyse`.

    evaluate : (m, D) float points -> (m, r) float, r runs at each point (r >= 1;
        r >= 2 gives the noise's share)."""
    points = sample(space, method, n, seed)
    return analyse(space, method, points, np.asarray(evaluate(points), dtype=float), seed)
