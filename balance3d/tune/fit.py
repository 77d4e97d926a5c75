"""Find the value of one scene parameter that gives a stated behaviour, and check it.

A fit runs a sweep's experiment, restricted to one of its cases, at ``points``
evenly spaced values of one parameter across [low, high] (``repetitions`` runs
each; the sweep's other parameters held at their single value), fits the outcome
against the parameter (:mod:`balance3d.tune.curves`: logistic for a
"probability" outcome, a line or a parabola for a "mean"), solves the fitted curve
for the target, and then runs the experiment ``check`` more times at the value found
(rounded to :data:`CHECK_DIGITS` significant digits, as a designer would write it)
to see whether the observed outcome's 95% interval holds the target.

The check's runs use the sweep's seed plus :data:`CHECK_SEED_OFFSET`, so they are
independent of the fit's runs even when the value found is one the fit ran at.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.tune import plot, runner
from balance3d.tune.curves import MODELS, Curve, FitError, Root, fit_curve, solve
from balance3d.tune.summary import t_interval, wilson
from balance3d.tune.sweep import Sweep

#: significant digits of the value the check runs at (and the report prints).
CHECK_DIGITS = 4
#: added to the sweep's seed for the check's runs.
CHECK_SEED_OFFSET = 1
#: fewest parameter values per model: one more than its coefficients, so that the
#: runs can show the model's shape is wrong.
MIN_POINTS = {"logistic": 3, "linear": 3, "quadratic": 4}
#: How the interval of the value found is computed, for the report.
INTERVAL_METHOD = ("delta method: the fitted coefficients' covariance propagated to the "
                   "root (normal quantile for the logistic, Student t for least squares)")


@dataclass(frozen=True)
class FitRequest:
    """What a fit looks for.

    param : the scene value path varied (a number).
    low, high : the range searched, in the parameter's unit.
    outcome : one of the experiment's outcomes.
    target : the outcome's value wanted (a rate in (0, 1) for a probability).
    case : case key -> value selecting the one case fitted (may be empty when the
        experiment has one case).
    points : parameter values run (evenly spaced, both ends included).
    repetitions : runs per value.
    check : runs at the value found.
    model : "logistic", "linear" or "quadratic" (None: the outcome kind's default).
    """

    param: str
    low: float
    high: float
    outcome: str
    target: float
    case: dict[str, Any] = field(default_factory=dict)
    points: int = 7
    repetitions: int = 20
    check: int = 40
    model: str | None = None


def _check_request(sweep: Sweep, request: FitRequest) -> tuple[str, str]:
    """The outcome's kind and the model to fit (:class:`FitError` naming the bad
    option)."""
    outcomes = sweep.make_experiment().outcomes
    if request.outcome not in outcomes:
        raise FitError(f"--outcome: {sweep.experiment} has no outcome {request.outcome!r} "
                       f"(outcomes: {', '.join(outcomes)})")
    kind = outcomes[request.outcome]
    model = request.model or MODELS[kind][0]
    if model not in MODELS[kind]:
        raise FitError(f"--model: a {kind} outcome is fitted with "
                       f"{' or '.join(MODELS[kind])}, not {model!r}")
    if not request.low < request.high:
        raise FitError(f"--within: LO must be below HI, got {request.low:g} {request.high:g}")
    if kind == "probability" and not 0.0 < request.target < 1.0:
        raise FitError(f"--target: a rate strictly between 0 and 1, got {request.target:g}")
    for name, value, minimum in (("--points", request.points, MIN_POINTS[model]),
                                 ("--repetitions", request.repetitions, 1),
                                 ("--check", request.check, 2)):
        if value < minimum:
            raise FitError(f"{name}: at least {minimum} for a {model} fit, got {value}")
    for path, values in sweep.parameters.items():
        if path != request.param and len(values) != 1:
            raise FitError(f"parameters.{json.dumps(path)}: has {len(values)} values; a fit "
                           f"varies --param alone, so give it one value")
    return kind, model


def _plan(sweep: Sweep, request: FitRequest) -> list[dict[str, Any]]:
    """The sweep's runs restricted to the requested case (:class:`FitError` when the
    case names no case, or more than one)."""
    tasks = runner.plan(sweep)
    cases: dict[str, dict[str, Any]] = {}
    for task in tasks:
        cases.setdefault(json.dumps(task["case_values"], sort_keys=True), task["case_values"])
    keys = sorted({k for case in cases.values() for k in case})
    for key in request.case:
        if key not in keys:
            raise FitError(f"--case {key}: {sweep.experiment} has no case key {key!r} "
                           f"(keys: {', '.join(keys) or 'none'})")
    chosen = [c for c in cases.values()
              if all(_same(c[k], v) for k, v in request.case.items())]
    if not chosen:
        values = {k: sorted({str(c[k]) for c in cases.values()}) for k in request.case}
        known = "; ".join(f"{k}: {', '.join(v)}" for k, v in values.items())
        raise FitError(f"--case: no case of {sweep.experiment} has "
                       f"{_case_text(request.case)} ({known})")
    if len(chosen) > 1:
        free = [k for k in keys if len({json.dumps(c[k]) for c in chosen}) > 1]
        raise FitError(f"--case: {len(chosen)} cases of {sweep.experiment} match "
                       f"{_case_text(request.case) or 'no --case'}; choose one with "
                       f"--case for {', '.join(free)}")
    return [t for t in tasks if t["case_values"] == chosen[0]]


def _same(value: Any, wanted: Any) -> bool:
    """A case value equals a requested one (numbers by value: 2 == 2.0)."""
    if isinstance(value, (int, float)) and isinstance(wanted, (int, float)) \
            and not isinstance(value, bool) and not isinstance(wanted, bool):
        return float(value) == float(wanted)
    return value == wanted


def _case_text(case: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in case.items())


def _run(sweep: Sweep, request: FitRequest, workers: int | None, engine: str,
         address: str | None, progress: bool):
    """Run the requested case of ``sweep``: its run table (pandas DataFrame)."""
    tasks = _plan(sweep, request)
    rows = runner.execute(tasks, workers=workers, engine=engine, address=address,
                          progress=progress)
    return runner.table(rows, sweep)


def observed(values: np.ndarray, kind: str) -> dict[str, float]:
    """An outcome's runs as n, mean and 95% interval (Wilson for a rate, Student t
    for a mean)."""
    values = np.asarray(values, dtype=float)
    if kind == "probability":
        low, high = wilson(int(values.sum()), len(values))
        return {"n": len(values), "mean": float(values.mean()), "low": low, "high": high}
    mean, _, low, high = t_interval(values.tolist())
    return {"n": len(values), "mean": mean, "low": low, "high": high}


def fit_sweep(sweep: Sweep, request: FitRequest, out: str | Path | None = None,
              workers: int | None = None, engine: str = "local", address: str | None = None,
              progress: bool = True) -> dict[str, Any]:
    """Fit ``request.param`` of ``sweep`` for the requested behaviour and check the
    value found; returns the report (the content of ``out/fit.json`` when ``out`` is
    given).  :class:`FitError` (one line) when the request is wrong or the fitted
    curve does not reach the target in the range."""
    kind, model = _check_request(sweep, request)
    fixed = {p: v for p, v in sweep.parameters.items() if p != request.param}
    grid = tuple(float(v) for v in np.linspace(request.low, request.high, request.points))
    started = time.perf_counter()
    fit_runs = _run(sweep.replace(parameters={request.param: grid, **fixed},
                                  repetitions=request.repetitions),
                    request, workers, engine, address, progress)
    x = fit_runs[f"param.{request.param}"].to_numpy(dtype=float)
    y = fit_runs[f"out.{request.outcome}"].to_numpy(dtype=float)
    at_values = [{"value": float(v), **observed(y[x == v], kind)} for v in grid]
    curve = fit_curve(x, y, model)
    root = solve(curve, request.target, request.low, request.high)
    value = float(f"{root.value:.{CHECK_DIGITS}g}")
    check_runs = _run(sweep.replace(parameters={request.param: (value,), **fixed},
                                    repetitions=request.check,
                                    seed=sweep.seed + CHECK_SEED_OFFSET),
                      request, workers, engine, address, progress)
    check = observed(check_runs[f"out.{request.outcome}"].to_numpy(dtype=float), kind)
    check["value"] = value
    check["target_inside"] = bool(check["low"] <= request.target <= check["high"])
    check["fitted"] = float(curve(value)[0])
    report = _report(sweep, request, kind, curve, root, at_values, check,
                     time.perf_counter() - started)
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "fit.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        fit_runs.to_parquet(out / "fit_runs.parquet", index=False)
        check_runs.to_parquet(out / "check_runs.parquet", index=False)
        plot.save(plot.fit_figure(report, curve), out / "fit.png")
    return report


def _report(sweep: Sweep, request: FitRequest, kind: str, curve: Curve, root: Root,
            at_values: list[dict[str, Any]], check: dict[str, Any],
            wall: float) -> dict[str, Any]:
    fit: dict[str, Any] = {
        "model": curve.model, "centre": curve.centre, "scale": curve.scale,
        "coefficients": curve.coef.tolist(), "covariance": curve.cov.tolist(),
        "slope_p": curve.slope_p(),
        "value": root.value, "sd": root.sd, "low": root.low, "high": root.high,
        "interval": INTERVAL_METHOD}
    if curve.deviance is not None:
        fit.update(deviance=curve.deviance, deviance_df=curve.deviance_df,
                   deviance_p=curve.deviance_p())
    return {
        "sweep": sweep.name, "scene": sweep.scene, "experiment": sweep.experiment,
        "param": request.param, "within": [request.low, request.high],
        "outcome": request.outcome, "kind": kind, "target": request.target,
        "case": request.case, "fixed": {p: v[0] for p, v in sweep.parameters.items()
                                        if p != request.param},
        "points": request.points, "repetitions": request.repetitions, "seed": sweep.seed,
        "runs": at_values, "fit": fit,
        "check": {**check, "runs": request.check, "seed": sweep.seed + CHECK_SEED_OFFSET},
        "wall_s": wall,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The short text report of a fit."""
    fit, check = report["fit"], report["check"]
    what = f"{report['outcome']} = {report['target']:g}"
    case = _case_text(report["case"])
    param = plot.label(report["param"])
    lines = [f"fit: {report['param']} for {what}"
             + (f" ({case})" if case else "")
             + f" in [{report['within'][0]:g}, {report['within'][1]:g}]",
             f"runs: {report['points']} values x {report['repetitions']} repetitions, "
             f"{fit['model']} fit (slope p = {fit['slope_p']:.2g})"]
    for row in report["runs"]:
        lines.append(f"  {row['value']:>10.5g}  {report['outcome']} {row['mean']:.3f} "
                     f"[{row['low']:.3f}, {row['high']:.3f}]  n={row['n']}")
    if fit.get("deviance_p") is not None:
        lines.append(f"shape: deviance {fit['deviance']:.3g} on {fit['deviance_df']} df, "
                     f"p = {fit['deviance_p']:.2g} (a small p: the rates stray from the "
                     f"logistic)")
    lines.append(f"found: {param} = {fit['value']:.5g}, 95% interval "
                 f"[{fit['low']:.5g}, {fit['high']:.5g}] (delta method)")
    verdict = "inside" if check["target_inside"] else "OUTSIDE"
    lines.append(f"check at {check['value']:g} ({check['n']} runs): {report['outcome']} "
                 f"{check['mean']:.3f} [{check['low']:.3f}, {check['high']:.3f}], "
                 f"target {report['target']:g} {verdict}")
    return lines
