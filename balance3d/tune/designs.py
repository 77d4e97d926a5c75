"""Space-filling draws of one parameter (scipy.stats.qmc), beside a sweep's grids
(lists, ranges) and plain random draws.

``sobol`` takes a scrambled Sobol' sequence, ``latin_hypercube`` a Latin hypercube
sample: both spread ``samples`` values over [low, high] more evenly than
independent uniform draws (a Latin hypercube puts exactly one value in each of
``samples`` equal slices; the first 2^k points of a Sobol' sequence fill the range's
2^k slices one each, hence its power-of-2 sample counts).  Both are seeded from the
generator given (the sweep's seed and the parameter's path), so the same sweep file
draws the same values with the same scipy release.
"""
from __future__ import annotations

import numpy as np

#: The space-filling draws and the scipy.stats.qmc engine of each.
SPACE_FILLING = {"sobol": "Sobol", "latin_hypercube": "LatinHypercube"}


class DesignError(ValueError):
    """A space-filling draw cannot be made as asked: the message says why."""


def space_filling(name: str, low: float, high: float, samples: int,
                  rng: np.random.Generator) -> list[float]:
    """``samples`` values in [low, high) drawn by the design ``name`` (one of
    :data:`SPACE_FILLING`) from ``rng``."""
    from scipy.stats import qmc

    if not low < high:
        raise DesignError(f"empty range: low {low} must be below high {high}")
    if name == "sobol" and samples & (samples - 1):
        raise DesignError(f"sobol draws take a power of 2 samples (its balance needs "
                          f"them), got {samples}")
    if name == "sobol":
        engine = qmc.Sobol(d=1, scramble=True, seed=rng)
    else:
        engine = qmc.LatinHypercube(d=1, seed=rng)
    units = engine.random(samples)[:, 0]
    return [float(v) for v in low + (high - low) * units]
