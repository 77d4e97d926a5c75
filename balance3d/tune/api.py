"""The notebook API: ``balance3d.tune``'s four functions, one call each.

``from balance3d.tune import run_sweep, fit_target, search, sensitivity`` (imported
lazily: ``import balance3d`` loads none of pandas, SALib or Optuna).  Each takes a
file path or a bundled name as the commands do, and the keyword arguments that
shrink a study for a quick look (fewer repetitions, trials or points); without them
it runs what the file says.  The engine keywords (``workers``, ``engine``,
``address``) and ``out`` mean what the commands' options do; ``progress`` shows the
progress bar (default off in a notebook).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from balance3d.tune.sensitivity_core import SensitivityError, Space, check_request


def _sweep(sweep, repetitions: int | None = None, seed: int | None = None,
           options: Mapping[str, Any] | None = None):
    from balance3d.tune.sweep import Sweep, load_sweep

    loaded = sweep if isinstance(sweep, Sweep) else load_sweep(sweep)
    changes: dict[str, Any] = {}
    if repetitions is not None:
        changes["repetitions"] = repetitions
    if seed is not None:
        changes["seed"] = seed
    if options is not None:
        changes["options"] = {**loaded.options, **options}
    changed = loaded.replace(**changes)
    if changes:
        changed.make_experiment()
    return changed


def run_sweep(sweep: str | Path | Any, out: str | Path | None = None, *,
              repetitions: int | None = None, seed: int | None = None,
              options: Mapping[str, Any] | None = None, workers: int | None = None,
              engine: str = "local", address: str | None = None, progress: bool = False,
              csv: bool = False):
    """Run a sweep (a path, a bundled name or a loaded ``Sweep``) and return its run
    table (pandas DataFrame: one row per run, ``param.*``, ``case.*``, ``out.*``).

    repetitions, seed : replace the file's.
    options : experiment options merged over the file's (checked by the experiment).
    """
    from balance3d.tune import runner

    return runner.run_sweep(_sweep(sweep, repetitions, seed, options), out=out,
                            workers=workers, engine=engine, address=address,
                            progress=progress, csv=csv)


def fit_target(sweep: str | Path | Any, param: str, low: float, high: float, outcome: str,
               target: float, *, out: str | Path | None = None, workers: int | None = None,
               engine: str = "local", address: str | None = None, progress: bool = False,
               **request: Any) -> dict[str, Any]:
    """Fit ``param`` in [low, high] for ``outcome`` = ``target`` and check it, as
    ``balance3d tune fit`` does; returns its report (the content of ``fit.json``).
    ``request``: the fit's other fields (``case``, ``points``, ``repetitions``,
    ``check``, ``model``, ...: :class:`balance3d.tune.fit.FitRequest`)."""
    from balance3d.tune.fit import FitRequest, fit_sweep

    asked = FitRequest(param=param, low=float(low), high=float(high), outcome=outcome,
                       target=float(target), **request)
    return fit_sweep(_sweep(sweep), asked, out=out, workers=workers, engine=engine,
                     address=address, progress=progress)


def search(study: str | Path, out: str | Path | None = None, *, trials: int | None = None,
           batch: int | None = None, repetitions: int | None = None,
           workers: int | None = None, engine: str = "local", address: str | None = None,
           progress: bool = False) -> dict[str, Any]:
    """Run the search of a study file's ``[search]`` table (a path or a bundled
    study's name), ``trials``, ``batch`` and ``repetitions`` replacing the file's.
    Returns the report: ``best`` (values, observed outcomes, loss, terms met) and
    ``table`` (the trials, a pandas DataFrame in trial order)."""
    import pandas as pd

    from balance3d.tune.points import StudyError
    from balance3d.tune.search_study import load_search, run_search

    loaded = load_search(study)
    changes = {k: v for k, v in (("trials", trials), ("batch", batch),
                                 ("repetitions", repetitions)) if v is not None}
    for key, value in changes.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise StudyError(f"{key}: must be a whole number >= 1, got {value!r}")
    report = run_search(dataclasses.replace(loaded, **changes), out=out, workers=workers,
                        engine=engine, address=address, progress=progress)
    return {**report, "table": pd.DataFrame.from_records(report["table"])}


def sensitivity(study: str | Path | Callable[[np.ndarray], np.ndarray],
                out: str | Path | None = None, *,
                bounds: Mapping[str, tuple[float, float]] | None = None,
                method: str | None = None, n: int | None = None,
                repetitions: int | None = None, seed: int = 0,
                workers: int | None = None, engine: str = "local",
                address: str | None = None, progress: bool = False) -> dict[str, Any]:
    """Sensitivity indices, of a study file's ``[sensitivity]`` table (a path or a
    bundled study's name; ``method``, ``n`` and ``repetitions`` replace the file's),
    or of a plain function.

    A function takes (m, D) points (columns in the order of ``bounds``, name ->
    (low, high)) and returns (m,) values or (m, r) values, r runs per point; ``method``
    (default "sobol"), ``n`` (default 64) and ``seed`` then say how it is sampled.
    Returns the report of :func:`balance3d.tune.sensitivity_core.analyse`:
    ``indices`` (one dict per parameter), ``noise``, ``points``, ``runs``, ...
    """
    if callable(study):
        if not bounds:
            raise SensitivityError("bounds: a function's parameters need bounds, "
                                   "name -> (low, high)")
        from balance3d.tune.sensitivity_core import sensitivity_of

        space = Space(tuple(bounds), tuple((float(lo), float(hi))
                                           for lo, hi in bounds.values()))

        def evaluate(points: np.ndarray) -> np.ndarray:
            values = np.asarray(study(points), dtype=float)
            return values[:, None] if values.ndim == 1 else values

        return sensitivity_of(evaluate, space, method or "sobol", n or 64, seed)
    from balance3d.tune.sensitivity_study import load_sensitivity, run_sensitivity

    loaded = load_sensitivity(study)
    changes = {k: v for k, v in (("method", method), ("n", n),
                                 ("repetitions", repetitions)) if v is not None}
    changed = dataclasses.replace(loaded, **changes)
    check_request(changed.method, changed.n)
    if changed.repetitions < 1:
        raise SensitivityError(f"repetitions: must be at least 1, got {changed.repetitions}")
    return run_sensitivity(changed, out=out, workers=workers, engine=engine,
                           address=address, progress=progress)
