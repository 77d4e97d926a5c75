"""``balance3d tune search``: several parameters at once, to a stated behaviour.

The search is stated in the sweep file's ``[search]`` table::

    [search]
    target = "valid = 0.5 and tilt_deg < 3.5"   # see balance3d.tune.targets
    case = {weight = 3, field = 2}              # the case run (may be left out with one)
    trials = 24                                 # parameter sets tried in all
    batch = 4                                   # trials asked and run together
    startup = 8                                 # first trials drawn at random (default
                                                # 2 batches), then TPE
    repetitions = 10                            # runs per trial (default: [sweep]'s)

    [search.parameters]                         # searched, uniform over [low, high]
    "materials.plate_wood.density" = {low = 400.0, high = 560.0}   # kg/m^3

Optuna's TPE sampler proposes the trials, ``batch`` at a time: a batch's trials are
asked together from a sampler seeded by the sweep's seed and the batch's number,
run together (each trial's runs are runs of the sweep, seeded as a sweep's are), and
told back in trial order.  The trials therefore do not depend on the engine, the
workers or the order runs finish in.  With an output folder the study lives in
``search.db`` (Optuna's SQLite storage) and every run in ``runs.jsonl``: the same
command resumes a stopped search, and a larger ``trials`` continues a finished one.
It writes ``best.json`` (the best trial's values and observed outcomes),
``trials.csv`` (one row per trial, in trial order) and ``search.png``.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.tune.fit import observed
from balance3d.tune.points import PointRunner, StudyError, prepare_folder, ray_session
from balance3d.tune.sensitivity_core import Space
from balance3d.tune.sensitivity_study import check_space, space_of, study_path
from balance3d.tune.study_file import load_study, study_keys, study_whole
from balance3d.tune.sweep import Sweep, SweepError
from balance3d.tune.targets import Term, TargetError, loss, parse_target

TABLE = "search"
KEYS = ("target", "case", "trials", "batch", "startup", "repetitions", "parameters")
#: Default trials asked and run together.
DEFAULT_BATCH = 4
#: Default trials in all.
DEFAULT_TRIALS = 24
#: The study's storage file in the output folder.
STORAGE = "search.db"


@dataclass(frozen=True)
class SearchStudy:
    """A checked search: the sweep, the space searched and the request."""

    sweep: Sweep
    space: Space
    target: str
    terms: tuple[Term, ...]
    case: dict[str, Any]
    trials: int
    batch: int
    startup: int
    repetitions: int

    def identity(self) -> dict[str, Any]:
        """What decides the search's trials (JSON); ``trials`` is left out, so a
        larger count continues a search."""
        return {"study": TABLE, "sweep": self.sweep.identity(),
                "parameters": dict(zip(self.space.names, map(list, self.space.bounds))),
                "target": self.target, "case": self.case, "batch": self.batch,
                "startup": self.startup, "repetitions": self.repetitions}


def _whole(path: Path, table: dict, key: str, default: int, least: int) -> int:
    return study_whole(path, f"{TABLE}.{key}", table.get(key, default), least)


def load_search(name_or_path: str | Path) -> SearchStudy:
    """Read and check a search file (:class:`SweepError`, one line)."""
    path = study_path(name_or_path)
    sweep, table = load_study(path, TABLE)
    study_keys(path, TABLE, table, KEYS)
    if "target" not in table:
        raise SweepError(f"{path}: {TABLE}.target: missing")
    try:
        terms = parse_target(table["target"], sweep.make_experiment().outcomes)
    except TargetError as exc:
        raise SweepError(f"{path}: {TABLE}.target: {exc}") from None
    case = table.get("case", {})
    if not isinstance(case, dict):
        raise SweepError(f"{path}: {TABLE}.case: must be a table KEY = VALUE, got {case!r}")
    batch = _whole(path, table, "batch", DEFAULT_BATCH, 1)
    study = SearchStudy(
        sweep=sweep, space=space_of(path, table.get("parameters"), f"{TABLE}.parameters"),
        target=table["target"], terms=terms, case=case,
        trials=_whole(path, table, "trials", DEFAULT_TRIALS, 1), batch=batch,
        startup=_whole(path, table, "startup", 2 * batch, 0),
        repetitions=_whole(path, table, "repetitions", sweep.repetitions, 1))
    check_space(path, f"{TABLE}.parameters", sweep, study.space)
    try:
        PointRunner(sweep, case, terms[0].outcome, 1, where=f"{TABLE}.case").tasks(
            [dict(zip(study.space.names, (b[0] for b in study.space.bounds)))])
    except StudyError as exc:
        raise SweepError(f"{path}: {exc}") from None
    return study


def _batch_seed(seed: int, batch: int) -> int:
    """The seed of the sampler that asks batch number ``batch``."""
    return int(np.random.SeedSequence([seed, batch]).generate_state(1)[0])


def _quiet_optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _study(optuna, folder: Path | None, name: str, sampler):
    storage = f"sqlite:///{(folder / STORAGE).resolve()}" if folder is not None else None
    if storage is None:
        return optuna.create_study(direction="minimize", sampler=sampler)
    return optuna.create_study(storage=storage, study_name=name, direction="minimize",
                               sampler=sampler, load_if_exists=True)


def run_search(study: SearchStudy, out: str | Path | None = None, workers: int | None = None,
               engine: str = "local", address: str | None = None,
               progress: bool = False) -> dict[str, Any]:
    """Run the search to ``study.trials`` trials and return its report (the content
    of ``best.json`` with the trials); with ``out``, keep the study and the runs
    there (a stopped search resumes) and write the outputs."""
    optuna = _quiet_optuna()
    from optuna.distributions import FloatDistribution
    from optuna.samplers import TPESampler

    folder = Path(out) if out is not None else None
    if folder is not None:
        prepare_folder(folder, study.identity())
    names = study.space.names
    distributions = {n: FloatDistribution(lo, hi) for n, (lo, hi) in
                     zip(names, study.space.bounds)}
    outcomes = list(dict.fromkeys(t.outcome for t in study.terms))
    evaluate = PointRunner(study.sweep, study.case, outcomes[0], study.repetitions, folder,
                           workers, engine, address, progress, where=f"{TABLE}.case")
    def sampler(number: int):
        return TPESampler(seed=_batch_seed(study.sweep.seed, number),
                          n_startup_trials=study.startup)

    current = _study(optuna, folder, study.sweep.name, sampler(0))
    with ray_session(engine, address):
        _run_batches(study, current, evaluate, distributions, outcomes, sampler)
    return _report(study, current, evaluate, outcomes, folder)


def _run_batches(study: SearchStudy, current, evaluate: PointRunner, distributions,
                 outcomes: list[str], sampler) -> None:
    """Ask, run and tell batches until ``study.trials`` trials are complete."""
    from optuna.trial import TrialState

    batch = study.batch
    while True:
        trials = current.get_trials(deepcopy=False)
        complete = [t for t in trials if t.state == TrialState.COMPLETE]
        if len(complete) >= study.trials:
            break
        size = min(batch, study.trials - len(complete))
        pending = sorted((t for t in trials if t.state == TrialState.RUNNING),
                         key=lambda t: t.number)
        if len(pending) != size:
            for trial in pending:
                current.tell(trial.number, state=TrialState.FAIL)
            pending = []
        current.sampler = sampler(len(complete) // batch)
        asked = [(t.number, t.params) for t in pending]
        while len(asked) < size:
            trial = current.ask(distributions)
            asked.append((trial.number, trial.params))
        runs = evaluate.values([params for _, params in asked], outcomes,
                               first=asked[0][0])
        for k, (number, _) in enumerate(asked):
            current.tell(number, loss(study.terms,
                                      {o: float(runs[o][k].mean()) for o in outcomes}))


def _report(study: SearchStudy, current, evaluate: PointRunner, outcomes: list[str],
            folder: Path | None) -> dict[str, Any]:
    from optuna.trial import TrialState

    trials = sorted((t for t in current.get_trials(deepcopy=False)
                     if t.state == TrialState.COMPLETE), key=lambda t: t.number)
    runs = evaluate.values([t.params for t in trials], outcomes)
    kinds = evaluate._experiment.outcomes
    rows = []
    for k, trial in enumerate(trials):
        row: dict[str, Any] = {"trial": trial.number, "batch": k // study.batch,
                               **{f"param.{n}": trial.params[n] for n in study.space.names}}
        for o in outcomes:
            seen = observed(runs[o][k], kinds[o])
            row.update({f"{o}.mean": seen["mean"], f"{o}.low": seen["low"],
                        f"{o}.high": seen["high"]})
        row["loss"] = float(trial.value)
        rows.append(row)
    best = min(rows, key=lambda r: (r["loss"], r["trial"]))
    report = {"sweep": study.sweep.name, "experiment": study.sweep.experiment,
              "target": study.target, "case": study.case, "seed": study.sweep.seed,
              "trials": len(rows), "batch": study.batch, "startup": study.startup,
              "repetitions": study.repetitions, "sampler": "optuna TPESampler",
              "best": {"trial": best["trial"],
                       "values": {n: best[f"param.{n}"] for n in study.space.names},
                       "observed": {o: {"mean": best[f"{o}.mean"], "low": best[f"{o}.low"],
                                        "high": best[f"{o}.high"]} for o in outcomes},
                       "loss": best["loss"],
                       "met": _met(study.terms, best)},
              "table": rows}
    if folder is not None:
        try:
            write_outputs(report, folder)
        except OSError as exc:
            raise StudyError(f"{folder}: cannot write: {exc.strerror or exc}") from None
    return report


def _met(terms: tuple[Term, ...], row: dict[str, Any]) -> dict[str, bool]:
    """Per term: does the best trial meet it?  ``=``: the value lies in the observed
    95 % interval; an inequality: the observed rate or mean satisfies it."""
    met = {}
    for term in terms:
        mean, low, high = (row[f"{term.outcome}.{k}"] for k in ("mean", "low", "high"))
        if term.op == "=":
            met[term.text()] = bool(math.isfinite(low) and low <= term.value <= high)
        else:
            met[term.text()] = term.holds(mean)
    return met


def write_outputs(report: dict[str, Any], out: Path) -> list[str]:
    """``best.json``, ``trials.csv`` and ``search.png`` in ``out``."""
    import pandas as pd

    from balance3d.tune import plot
    from balance3d.tune.study_plots import search_figure

    best = {k: v for k, v in report.items() if k != "table"}
    (out / "best.json").write_text(json.dumps(best, indent=1) + "\n", encoding="utf-8")
    pd.DataFrame.from_records(report["table"]).to_csv(out / "trials.csv", index=False)
    plot.save(search_figure(report), out / "search.png")
    return ["best.json", "trials.csv", "search.png"]


def report_lines(report: dict[str, Any]) -> list[str]:
    """The short text report of a search."""
    best = report["best"]
    case = " ".join(f"{k}={v}" for k, v in report["case"].items())
    lines = [f"search: {report['target']}" + (f" ({case})" if case else "")
             + f"; {report['trials']} trials in batches of {report['batch']}, "
               f"{report['repetitions']} runs each",
             f"best: trial {best['trial']}, loss {best['loss']:.3g}"]
    lines += [f"  {name} = {value:.5g}" for name, value in best["values"].items()]
    for outcome, seen in best["observed"].items():
        lines.append(f"  {outcome} {seen['mean']:.3f} [{seen['low']:.3f}, "
                     f"{seen['high']:.3f}]")
    lines += [f"  {term}: {'met' if ok else 'NOT met'}" for term, ok in best["met"].items()]
    return lines
