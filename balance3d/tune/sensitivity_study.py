"""``balance3d tune sensitivity``: which of a sweep's parameters matter most for an
outcome of one case, by Sobol indices or Morris screening
(:mod:`balance3d.tune.sensitivity_core`) over the game's runs.

The study is stated in the sweep file's ``[sensitivity]`` table::

    [sensitivity]
    outcome = "tipped"                 # one of the experiment's outcomes
    case = {block = 2, section = 2}    # the case run (may be left out with one case)
    method = "sobol"                   # or "morris" (default "sobol")
    n = 8                              # Sobol: base sample size, a power of 2;
                                       # Morris: trajectories
    repetitions = 4                    # runs per point (default: [sweep] repetitions)

    [sensitivity.parameters]           # the parameters varied, uniform over [low, high]
    "materials.block_wood.density" = {low = 300.0, high = 700.0}   # kg/m^3
    "materials.block_wood.friction" = {low = 0.2, high = 0.6}

The sweep's ``[parameters]`` hold one value each (the values kept fixed).  Every
point's runs are runs of the sweep, seeded as its runs are; the output folder keeps
them (``runs.jsonl``), so a stopped study resumes.  It writes ``sensitivity.json``
(the report), ``indices.csv`` (one row per parameter) and ``sensitivity.png`` (the
indices as bars with their 95 % intervals).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.games import get_game
from balance3d.games.base import GameError
from balance3d.resources import scenes_dir
from balance3d.scene import OverrideError, SceneError, load_scene
from balance3d.tune.points import PointRunner, StudyError, prepare_folder
from balance3d.tune.sensitivity_core import (METHODS, SensitivityError, Space, analyse,
                                             budget, check_request, sample)
from balance3d.tune.study_file import load_study, study_keys, study_whole
from balance3d.tune.sweep import Sweep, SweepError

TABLE = "sensitivity"
KEYS = ("outcome", "case", "method", "n", "repetitions", "parameters")
#: Default Sobol base sample (or Morris trajectories).
DEFAULT_N = 8
#: The folder of the bundled study files (sensitivity studies and searches).
STUDIES = "studies"


def bundled_studies() -> list[str]:
    """Names of the bundled study files (``scenes/studies``), sorted."""
    return sorted(p.stem for p in (scenes_dir() / STUDIES).glob("*.toml"))


def study_path(name_or_path: str | Path) -> Path:
    """An existing file, a path, or the name of a bundled study file."""
    text = str(name_or_path)
    if Path(text).is_file() or text.endswith(".toml") or "/" in text or "\\" in text:
        return Path(text)
    bundled = scenes_dir() / STUDIES / f"{text}.toml"
    if not bundled.is_file():
        raise SweepError(f"no study file {text!r} and no bundled study of that name; "
                         f"bundled studies: {', '.join(bundled_studies())}")
    return bundled


@dataclass(frozen=True)
class SensitivityStudy:
    """A checked sensitivity study: the sweep, the parameters' space and the request."""

    sweep: Sweep
    space: Space
    outcome: str
    case: dict[str, Any]
    method: str
    n: int
    repetitions: int

    def identity(self) -> dict[str, Any]:
        """What decides the study's runs and report (JSON)."""
        return {"study": TABLE, "sweep": self.sweep.identity(),
                "parameters": dict(zip(self.space.names, map(list, self.space.bounds))),
                "outcome": self.outcome, "case": self.case, "method": self.method,
                "n": self.n, "repetitions": self.repetitions}

    def points(self) -> int:
        """Points the study evaluates."""
        return budget(self.method, len(self.space.names), self.n)

    def announce(self) -> str:
        """The budget, stated before the study runs."""
        d = len(self.space.names)
        form = f"N(2D+2) = {self.n} x {2 * d + 2}" if self.method == "sobol" else \
            f"n(D+1) = {self.n} x {d + 1}"
        return (f"{self.method}: D = {d} parameters, {form} = {self.points()} points x "
                f"{self.repetitions} repetitions = {self.points() * self.repetitions} runs")


def space_of(path: Path, table: Any, where: str) -> Space:
    """The space of a study's ``parameters`` table (PATH = {low, high}), named
    ``where`` in errors (:class:`SweepError`)."""
    if not isinstance(table, dict) or not table:
        raise SweepError(f"{path}: {where}: must be a table of PATH = {{low, high}}")
    names, bounds = [], []
    for name, spec in table.items():
        if not isinstance(spec, dict) or set(spec) != {"low", "high"} or not all(
                isinstance(spec[k], (int, float)) and not isinstance(spec[k], bool)
                and math.isfinite(spec[k]) for k in ("low", "high")):
            raise SweepError(f'{path}: {where}."{name}": must be {{low = NUMBER, high = '
                             f'NUMBER}}, got {spec!r}')
        if not spec["low"] < spec["high"]:
            raise SweepError(f'{path}: {where}."{name}": low must be below high, got '
                             f'{spec["low"]!r} {spec["high"]!r}')
        names.append(name)
        bounds.append((float(spec["low"]), float(spec["high"])))
    return Space(tuple(names), tuple(bounds))


def check_space(path: Path, where: str, sweep: Sweep, space: Space) -> None:
    """Load the scene at each parameter's low and high (the others at their lows, the
    sweep's fixed values kept) and read its rules, so a bad path or range fails
    before any run (:class:`SweepError` naming the parameter)."""
    for name in space.names:
        if name in sweep.parameters and len(sweep.parameters[name]) != 1:
            raise SweepError(f'{path}: parameters."{name}": varied by the study, give it '
                             f'one value or none')
    for path_, values in sweep.parameters.items():
        if len(values) != 1:
            raise SweepError(f'{path}: parameters."{path_}": has {len(values)} values; a '
                             f'study keeps the sweep\'s parameters fixed, give it one value')
    fixed = {p: v[0] for p, v in sweep.parameters.items()}
    lows = dict(zip(space.names, (b[0] for b in space.bounds)))
    game = get_game(sweep.game)
    for name, (low, high) in zip(space.names, space.bounds):
        for value in (low, high):
            try:
                game.rules(load_scene(sweep.scene, {**fixed, **lows, name: value}))
            except OverrideError as exc:
                raise SweepError(f'{path}: {where}."{exc.key}": {exc.reason}') from None
            except (SceneError, GameError) as exc:
                raise SweepError(f'{path}: {where}."{name}" = {value!r}: {exc}') from None


def load_sensitivity(name_or_path: str | Path) -> SensitivityStudy:
    """Read and check a sensitivity study file (:class:`SweepError`, one line)."""
    path = study_path(name_or_path)
    sweep, table = load_study(path, TABLE)
    study_keys(path, TABLE, table, KEYS)
    if "outcome" not in table:
        raise SweepError(f"{path}: {TABLE}.outcome: missing")
    outcomes = sweep.make_experiment().outcomes
    outcome = table["outcome"]
    if not isinstance(outcome, str) or outcome not in outcomes:
        raise SweepError(f"{path}: {TABLE}.outcome: {sweep.experiment} has no outcome "
                         f"{outcome!r} (outcomes: {', '.join(outcomes)})")
    case = table.get("case", {})
    if not isinstance(case, dict):
        raise SweepError(f"{path}: {TABLE}.case: must be a table KEY = VALUE, got {case!r}")
    method = table.get("method", "sobol")
    if method not in METHODS:
        raise SweepError(f"{path}: {TABLE}.method: {method!r} is not one of "
                         f"{', '.join(METHODS)}")
    n = study_whole(path, f"{TABLE}.n", table.get("n", DEFAULT_N), 2)
    try:
        check_request(method, n)
    except SensitivityError as exc:
        raise SweepError(f"{path}: {TABLE}.{exc}") from None
    repetitions = study_whole(path, f"{TABLE}.repetitions",
                              table.get("repetitions", sweep.repetitions), 1)
    space = space_of(path, table.get("parameters"), f"{TABLE}.parameters")
    check_space(path, f"{TABLE}.parameters", sweep, space)
    study = SensitivityStudy(sweep, space, outcome, case, method, n, repetitions)
    try:
        PointRunner(sweep, case, outcome, 1, where=f"{TABLE}.case").tasks(
            [dict(zip(space.names, (b[0] for b in space.bounds)))])
    except StudyError as exc:
        raise SweepError(f"{path}: {exc}") from None
    return study


def run_sensitivity(study: SensitivityStudy, out: str | Path | None = None,
                    workers: int | None = None, engine: str = "local",
                    address: str | None = None, progress: bool = False) -> dict[str, Any]:
    """Run the study and return its report (the content of ``sensitivity.json``); with
    ``out``, keep the runs there (a stopped study resumes) and write the outputs."""
    folder = Path(out) if out is not None else None
    if folder is not None:
        prepare_folder(folder, study.identity())
    points = sample(study.space, study.method, study.n, study.sweep.seed)
    evaluate = PointRunner(study.sweep, study.case, study.outcome, study.repetitions,
                           folder, workers, engine, address, progress,
                           where=f"{TABLE}.case")
    values = evaluate([dict(zip(study.space.names, map(float, row))) for row in points])
    report = analyse(study.space, study.method, points, values, study.sweep.seed)
    report.update(sweep=study.sweep.name, experiment=study.sweep.experiment,
                  outcome=study.outcome, kind=evaluate.kind, case=study.case,
                  seed=study.sweep.seed, n=study.n)
    if folder is not None:
        try:
            write_outputs(report, folder)
        except OSError as exc:
            raise StudyError(f"{folder}: cannot write: {exc.strerror or exc}") from None
    return report


def write_outputs(report: dict[str, Any], out: Path) -> list[str]:
    """``sensitivity.json``, ``indices.csv`` and ``sensitivity.png`` in ``out``."""
    import pandas as pd

    from balance3d.tune import plot
    from balance3d.tune.study_plots import sensitivity_figure

    (out / "sensitivity.json").write_text(json.dumps(report, indent=1) + "\n",
                                          encoding="utf-8")
    pd.DataFrame.from_records(report["indices"]).to_csv(out / "indices.csv", index=False)
    plot.save(sensitivity_figure(report), out / "sensitivity.png")
    return ["sensitivity.json", "indices.csv", "sensitivity.png"]


def _interval(value: float, half: float) -> str:
    return f"{value:.3f} [{value - half:.3f}, {value + half:.3f}]"


def report_lines(report: dict[str, Any]) -> list[str]:
    """The short text report of a study."""
    case = " ".join(f"{k}={v}" for k, v in report["case"].items())
    lines = [f"sensitivity of {report['outcome']}" + (f" ({case})" if case else "")
             + f": {report['method']}, {report['points']} points x "
               f"{report['repetitions']} repetitions = {report['runs']} runs"]
    spread = report["noise"]
    if np.isfinite(spread["noise_share"]):
        lines.append(f"noise: {spread['noise_share']:.0%} of a single run's variance is "
                     f"between repetitions at the same point")
    width = max(len(p) for p in report["parameters"])
    if report["method"] == "sobol":
        lines.append(f"{'parameter':<{width}}  first order S1 [95%]   total ST [95%]")
        for row in report["indices"]:
            lines.append(f"{row['parameter']:<{width}}  {_interval(row['S1'], row['S1_conf'])}"
                         f"  {_interval(row['ST'], row['ST_conf'])}")
    else:
        lines.append(f"{'parameter':<{width}}  mu_star [95%]   sigma")
        for row in report["indices"]:
            lines.append(f"{row['parameter']:<{width}}  "
                         f"{_interval(row['mu_star'], row['mu_star_conf'])}  "
                         f"{row['sigma']:.3g}")
    return lines
