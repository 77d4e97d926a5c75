"""Find the value of one scene parameter that gives a stated behaviour, and check it.

A fit runs a sweep's experiment, restricted to one of its cases, at values of one
parameter in [low, high] (the sweep's other parameters held at their single value),
fits the outcome against the parameter (:mod:`balance3d.tune.curves`: logistic for a
"probability" outcome, a line or a parabola for a "mean"), to the runs near the
answer only, and solves the fitted curve for the target, with Fieller's interval
(:func:`balance3d.tune.adaptive.estimate`).  The values come from a sequential design
(:mod:`balance3d.tune.adaptive`): an opening of ``points`` evenly spaced values,
``repetitions`` runs each, then batches of ``repetitions`` runs, each at the value
where the fit is least sure of the target, until the answer's 95 % interval has a
half-width of at most ``precision`` (in the parameter's unit) or ``max_runs`` are
spent.  It then runs the experiment ``check`` more times at the value found (rounded
to :data:`CHECK_DIGITS` significant digits, as a designer would write it) to see
whether the observed outcome's 95 % interval holds the target.

The check's runs use the sweep's seed plus :data:`CHECK_SEED_OFFSET`, so they are
independent of the fit's runs even when the value found is one the fit ran at.

With an output folder every run is appended to ``fit_runs.jsonl`` or
``check_runs.jsonl`` as it finishes, so a fit that is stopped, loses a run or is
refused keeps them: the same request again runs only the missing ones and takes the
same decisions.  ``fit_request.json`` names what the runs depend on (the sweep, the
parameter, the case), and a folder holding another fit's runs, or a sweep's, is
refused.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.scene import OverrideError, SceneError, load_scene
from balance3d.tune import adaptive, engines, outputs, plot, runner
from balance3d.tune.curves import MODELS, FitError
from balance3d.tune.experiment import outcome_units
from balance3d.tune.summary import t_interval, wilson
from balance3d.tune.sweep import Sweep

#: significant digits of the value the check runs at (and the report prints).
CHECK_DIGITS = 4
#: added to the sweep's seed for the check's runs.
CHECK_SEED_OFFSET = 1
#: fewest parameter values per model: one more than its coefficients, so that the
#: runs can show the model's shape is wrong.
MIN_POINTS = {"logistic": 3, "linear": 3, "quadratic": 4}
#: the default precision: the range's width divided by this (5 % of the range).
DEFAULT_PRECISION_PARTS = 20
#: below this p-value the deviance says the rates stray from the logistic shape.
SHAPE_P = 0.05
#: The fit's run files in its output folder.
FIT_RUNS, CHECK_RUNS = "fit_runs.jsonl", "check_runs.jsonl"
#: How the interval of the value found is computed, for the report.
INTERVAL_METHODS = {
    "fieller": "Fieller: the values whose fitted predictor is within the quantile times "
               "its standard error of the target (normal quantile for the logistic, "
               "Student t for a line), from the local fit",
    "delta": "delta method: the fitted coefficients' covariance propagated to the root "
             "(Student t), from the local fit",
    "bracket": "bracket: the outcomes separate, every run below it gave one answer and "
               "every run above it the other"}


@dataclass(frozen=True)
class FitRequest:
    """What a fit looks for.

    param : the scene value path varied (a number).
    low, high : the range searched, in the parameter's unit.
    outcome : one of the experiment's outcomes.
    target : the outcome's value wanted (a rate in (0, 1) for a probability).
    case : case key -> value selecting the one case fitted (may be empty when the
        experiment has one case).
    points : values of the opening design (evenly spaced, both ends included).
    repetitions : runs at each opening value, and in each later batch.
    check : runs at the value found.
    model : "logistic", "linear" or "quadratic" (None: the outcome kind's default).
    precision : the 95 % interval's half-width at which the fit stops, in the
        parameter's unit (None: the range's width / :data:`DEFAULT_PRECISION_PARTS`).
    max_runs : the most runs the fit spends (the check's excluded).
    """

    param: str
    low: float
    high: float
    outcome: str
    target: float
    case: dict[str, Any] = field(default_factory=dict)
    points: int = 5
    repetitions: int = 4
    check: int = 40
    model: str | None = None
    precision: float | None = None
    max_runs: int = 100

    def stop_width(self) -> float:
        """The precision asked for, in the parameter's unit."""
        if self.precision is not None:
            return self.precision
        return (self.high - self.low) / DEFAULT_PRECISION_PARTS


def check_request(sweep: Sweep, request: FitRequest) -> tuple[str, str]:
    """The outcome's kind and the model to fit (:class:`FitError` naming the bad
    option, the case included), before any run."""
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
    if request.precision is not None and not request.precision > 0:
        raise FitError(f"--precision: must be above 0, got {request.precision:g}")
    opening = request.points * request.repetitions
    if request.max_runs < opening:
        raise FitError(f"--max-runs: at least the opening's {request.points} x "
                       f"{request.repetitions} = {opening} runs, got {request.max_runs}")
    try:
        load_scene(sweep.scene, {request.param: request.low})
    except OverrideError as exc:
        raise FitError(f"--param {exc.key}: {exc.reason}") from None
    except SceneError as exc:
        raise FitError(f"--param {request.param} = {request.low:g}: {exc}") from None
    for path, values in sweep.parameters.items():
        if path != request.param and len(values) != 1:
            raise FitError(f"parameters.{json.dumps(path)}: has {len(values)} values; a fit "
                           f"varies --param alone, so give it one value")
    _plan(sweep, request)
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


class _Runs:
    """The runs of one part of a fit (its design, or its check), kept in a file of
    the output folder when there is one: a run already there is not run again."""

    def __init__(self, folder: Path | None, name: str, param: str, options: dict) -> None:
        self.folder, self.name, self.param, self.options = folder, name, param, options
        rows = outputs.read_runs(folder, name) if folder is not None else []
        self.rows = {self.key(row): row for row in rows}

    def key(self, row: dict[str, Any]) -> tuple[float, int]:
        """A run's place in the design: its value and repetition."""
        return float(row[f"param.{self.param}"]), int(row["repetition"])

    def get(self, tasks: list[dict[str, Any]], progress: bool) -> list[dict[str, Any]]:
        """The rows of ``tasks``, running those not kept yet."""
        todo = [t for t in tasks if (float(t["values"][self.param]), t["repetition"])
                not in self.rows]
        if todo:
            for row in runner.execute(todo, self.folder, progress=progress,
                                      runs_file=self.name, **self.options):
                self.rows[self.key(row)] = row
        return [self.rows[(float(t["values"][self.param]), t["repetition"])] for t in tasks]


def _prepare(out: Path, sweep: Sweep, request: FitRequest) -> None:
    """Make ``out`` for the fit, or check that the runs it holds are of this fit's
    sweep, parameter and case (:class:`~balance3d.tune.outputs.OutputError`)."""
    if out.exists() and not out.is_dir():
        raise outputs.OutputError(f"{out}: is a file, not a folder for a fit's outputs")
    marker = out / outputs.FIT_IDENTITY
    if (out / outputs.IDENTITY).exists() and not marker.exists():
        raise outputs.OutputError(f"{out}: holds a sweep's outputs ({outputs.IDENTITY}); "
                                  f"give the fit another --out folder")
    identity = sweep.identity()
    identity["parameters"] = {k: v for k, v in identity["parameters"].items()
                              if k != request.param}
    runs = {"sweep": identity, "param": request.param, "case": request.case}
    if marker.is_file():
        old = json.loads(marker.read_text())["runs"]
        if old != runs:
            differ = sorted(k for k in runs if old.get(k) != runs[k])
            raise outputs.OutputError(f"{out}: holds runs of another fit (its "
                                      f"{', '.join(differ)} differ); give another --out "
                                      f"folder or remove it")
    try:
        out.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"runs": runs, "request": asdict(request)}, indent=1)
                          + "\n")
    except OSError as exc:
        raise outputs.OutputError(f"{marker}: cannot write: {exc.strerror or exc}") from None


def _batch(sweep: Sweep, request: FitRequest, fixed: dict, value: float, first: int,
           count: int, seed: int) -> list[dict[str, Any]]:
    """The tasks of ``count`` runs of the requested case at ``value``, repetitions
    ``first`` on (so a value run again gets fresh seeds)."""
    part = sweep.replace(parameters={request.param: (value,), **fixed},
                         repetitions=first + count, seed=seed)
    return [t for t in _plan(part, request) if t["repetition"] >= first]


def _xy(rows: list[dict[str, Any]], request: FitRequest) -> tuple[np.ndarray, np.ndarray]:
    x = np.array([row[f"param.{request.param}"] for row in rows], dtype=float)
    y = np.array([row[f"out.{request.outcome}"] for row in rows], dtype=float)
    return x, y


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
    """Fit ``request.param`` of ``sweep`` for the requested behaviour by a sequential
    design (:mod:`balance3d.tune.adaptive`) and check the value found; returns the
    report (the content of ``out/fit.json`` when ``out`` is given).  :class:`FitError`
    (one line) when the request is wrong or the runs cannot answer it (the runs made
    are kept in ``out``); :class:`~balance3d.tune.outputs.OutputError` for a folder
    that cannot take the fit."""
    kind, model = check_request(sweep, request)
    fixed = {p: v for p, v in sweep.parameters.items() if p != request.param}
    folder = Path(out) if out is not None else None
    if folder is not None:
        _prepare(folder, sweep, request)
    options = {"workers": workers, "engine": engine, "address": address}
    size, precision = request.repetitions, request.stop_width()
    started = time.perf_counter()
    counts: dict[float, int] = {}
    batches: list[dict[str, Any]] = []

    def tasks_at(value: float) -> list[dict[str, Any]]:
        first = counts.get(value, 0)
        counts[value] = first + size
        batches.append({"value": value, "runs": size})
        return _batch(sweep, request, fixed, value, first, size, sweep.seed)

    with engines.session(engine, address, workers) as pool:
        fit_runs = _Runs(folder, FIT_RUNS, request.param, {**options, "pool": pool})
        check_runs = _Runs(folder, CHECK_RUNS, request.param, {**options, "pool": pool})
        rows = fit_runs.get([t for v in adaptive.opening(request.low, request.high,
                                                         request.points)
                             for t in tasks_at(v)], progress)
        while True:
            found, stopped, value = adaptive.decide(
                *_xy(rows, request), model, request.target, request.low, request.high,
                precision, size, request.max_runs)
            if stopped is not None:
                break
            rows = rows + fit_runs.get(tasks_at(value), progress)
        value = float(f"{found.value:.{CHECK_DIGITS}g}")
        checked = check_runs.get(_batch(sweep, request, fixed, value, 0, request.check,
                                        sweep.seed + CHECK_SEED_OFFSET), progress)
    check = observed(_xy(checked, request)[1], kind)
    check["value"] = value
    check["target_inside"] = bool(check["low"] <= request.target <= check["high"])
    if found.curve is not None:
        check["fitted"] = float(found.curve(value)[0])
    design = {"opening": request.points, "batch": size, "batches": batches,
              "runs": len(rows), "precision": precision, "max_runs": request.max_runs,
              "stopped": stopped}
    report = _report(sweep, request, kind, found, _at_values(rows, request, kind), check,
                     design, time.perf_counter() - started)
    if folder is not None:
        _write(folder, report, found, rows, checked, sweep)
    return report


def _at_values(rows: list[dict[str, Any]], request: FitRequest, kind: str
               ) -> list[dict[str, Any]]:
    """Each value run, in increasing order, with its runs' observed outcome."""
    x, y = _xy(rows, request)
    return [{"value": float(v), **observed(y[x == v], kind)} for v in np.unique(x)]


def _write(folder: Path, report: dict[str, Any], found: adaptive.Estimate,
           rows: list[dict[str, Any]], checked: list[dict[str, Any]], sweep: Sweep) -> None:
    (folder / "fit.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    runner.table(rows, sweep).to_parquet(folder / "fit_runs.parquet", index=False)
    runner.table(checked, sweep).to_parquet(folder / "check_runs.parquet", index=False)
    plot.save(plot.fit_figure(report, found.curve), folder / "fit.png")


def _report(sweep: Sweep, request: FitRequest, kind: str, found: adaptive.Estimate,
            at_values: list[dict[str, Any]], check: dict[str, Any], design: dict[str, Any],
            wall: float) -> dict[str, Any]:
    fit: dict[str, Any] = {"method": found.method, "value": found.value, "low": found.low,
                           "high": found.high, "interval": INTERVAL_METHODS[found.method]}
    curve, root = found.curve, found.root
    if curve is not None:
        fit.update(model=curve.model, centre=curve.centre, scale=curve.scale,
                   coefficients=curve.coef.tolist(), covariance=curve.cov.tolist(),
                   slope_p=curve.slope_p(), sd=root.sd, window=list(found.window),
                   window_runs=sum(r["n"] for r in at_values
                                   if found.window[0] <= r["value"] <= found.window[1]))
        if curve.deviance is not None:
            fit.update(deviance=curve.deviance, deviance_df=curve.deviance_df,
                       deviance_p=curve.deviance_p())
    return {
        "sweep": sweep.name, "scene": sweep.scene, "experiment": sweep.experiment,
        "param": request.param, "within": [request.low, request.high],
        "outcome": request.outcome, "kind": kind,
        "unit": outcome_units(sweep.make_experiment())[request.outcome],
        "target": request.target,
        "case": request.case, "fixed": {p: v[0] for p, v in sweep.parameters.items()
                                        if p != request.param},
        "points": request.points, "repetitions": request.repetitions, "seed": sweep.seed,
        "design": design, "runs": at_values, "fit": fit,
        "check": {**check, "runs": request.check, "seed": sweep.seed + CHECK_SEED_OFFSET},
        "wall_s": wall,
    }


def report_lines(report: dict[str, Any]) -> list[str]:
    """The short text report of a fit."""
    fit, check, design = report["fit"], report["check"], report["design"]
    what = f"{report['outcome']} = {report['target']:g}"
    case = _case_text(report["case"])
    param = plot.label(report["param"])
    unit = "" if report["kind"] == "probability" else f" {report['unit']}"
    later = len(design["batches"]) - design["opening"]
    stop = {"precision": f"half-width {(fit['high'] - fit['low']) / 2:.4g} within the "
                         f"precision {design['precision']:.4g}",
            "max_runs": f"--max-runs {design['max_runs']} spent before the precision "
                        f"{design['precision']:.4g}",
            "resolution": "no value left between the bracket's ends"}[design["stopped"]]
    model = f"{fit['model']} fit (slope p = {fit['slope_p']:.2g})" if "model" in fit \
        else "outcomes separated"
    then = f", then {later} batch{'es' if later > 1 else ''} of {design['batch']} where " \
           f"the fit was least sure" if later else ""
    lines = [f"fit: {report['param']} for {what}"
             + (f" ({case})" if case else "")
             + f" in [{report['within'][0]:g}, {report['within'][1]:g}]",
             f"runs: {design['opening']} values x {design['batch']}{then}: "
             f"{design['runs']} runs; {model}",
             f"stopped: {stop}"]
    for row in report["runs"]:
        lines.append(f"  {row['value']:>10.5g}  {report['outcome']} {row['mean']:.3f}{unit} "
                     f"[{row['low']:.3f}, {row['high']:.3f}]  n={row['n']}")
    if fit.get("deviance_p") is not None:
        hint = " (a small p: the rates stray from the logistic)" \
            if fit["deviance_p"] < SHAPE_P else ""
        lines.append(f"shape: deviance {fit['deviance']:.3g} on {fit['deviance_df']} df, "
                     f"p = {fit['deviance_p']:.2g}{hint}")
    how = {"fieller": "Fieller", "delta": "delta method",
           "bracket": "bracket of the change"}[fit["method"]]
    if "window" in fit:
        how += (f"; fitted to the {fit['window_runs']} runs in [{fit['window'][0]:.5g}, "
                f"{fit['window'][1]:.5g}]")
    lines.append(f"found: {param} = {fit['value']:.5g}, 95% interval "
                 f"[{fit['low']:.5g}, {fit['high']:.5g}] ({how})")
    verdict = "inside" if check["target_inside"] else "OUTSIDE"
    lines.append(f"check at {check['value']:g} ({check['n']} runs): {report['outcome']} "
                 f"{check['mean']:.3f}{unit} [{check['low']:.3f}, {check['high']:.3f}], "
                 f"target {report['target']:g} {verdict}")
    return lines
