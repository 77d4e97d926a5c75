"""Run a sweep's experiment at chosen points of its parameters, ``repetitions`` runs
each, for the studies that choose their own points (sensitivity, search).

Every run is a run of the sweep (:func:`~balance3d.tune.runner.execute`), seeded as
a sweep's runs are: by the sweep's seed and the run's own values, case and
repetition (:func:`~balance3d.tune.worker.run_generator`), so a point's runs do not
depend on the engine, the workers or the other points.  With an output folder every
finished run is appended to its ``runs.jsonl``, and a run already there (the same
run id) is not run again: a study stopped part way resumes.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.games import get_game
from balance3d.scene import load_scene
from balance3d.tune import engines, outputs, runner
from balance3d.tune.experiment import ExperimentError
from balance3d.tune.sweep import Sweep
from balance3d.tune.worker import canonical, run_seed

#: The file of a study's output folder that says which study it holds.
STUDY = "study.json"
#: Files whose presence marks a folder as another command's outputs.
OTHER_OUTPUTS = {"sweep.json": "a sweep's", "fit.json": "a fit's"}


class StudyError(ValueError):
    """A study is asked wrongly, or its folder holds something else: one line."""


def same_value(value: Any, wanted: Any) -> bool:
    """A case value equals a requested one (numbers by value: 2 == 2.0)."""
    if isinstance(value, (int, float)) and isinstance(wanted, (int, float)) \
            and not isinstance(value, bool) and not isinstance(wanted, bool):
        return float(value) == float(wanted)
    return value == wanted


def select_case(cases: list[dict[str, Any]], wanted: dict[str, Any], where: str,
                experiment: str) -> dict[str, Any]:
    """The one case of ``cases`` that has the values ``wanted`` (:class:`StudyError`
    naming ``where``, the option, when none or several match)."""
    keys = sorted({k for case in cases for k in case})
    for key in wanted:
        if key not in keys:
            raise StudyError(f"{where}: {experiment} has no case key {key!r} "
                             f"(keys: {', '.join(keys) or 'none'})")
    chosen = [c for c in cases if all(same_value(c[k], v) for k, v in wanted.items())]
    text = " ".join(f"{k}={v}" for k, v in wanted.items()) or "no case given"
    if not chosen:
        raise StudyError(f"{where}: no case of {experiment} has {text}")
    if len(chosen) > 1:
        free = [k for k in keys if len({json.dumps(c[k]) for c in chosen}) > 1]
        raise StudyError(f"{where}: {len(chosen)} cases of {experiment} match {text}; "
                         f"choose one by {', '.join(free)}")
    return chosen[0]


def prepare_folder(out: Path, identity: dict[str, Any]) -> None:
    """Create the study folder ``out`` or check that it holds this same study
    (``identity``: JSON of what decides its runs); :class:`StudyError` otherwise."""
    if out.exists() and not out.is_dir():
        raise StudyError(f"{out}: is a file, not a folder for a study's outputs")
    for name, whose in OTHER_OUTPUTS.items():
        if (out / name).exists():
            raise StudyError(f"{out}: holds {whose} outputs ({name}); give another --out "
                             f"folder")
    saved = out / STUDY
    if saved.is_file():
        old = json.loads(saved.read_text(encoding="utf-8"))
        if old != json.loads(json.dumps(identity)):
            differ = sorted(k for k in set(old) | set(identity)
                            if json.dumps(old.get(k)) != json.dumps(identity.get(k)))
            raise StudyError(f"{out}: holds runs of another study (its {', '.join(differ)} "
                             f"differ); give another --out folder or remove it")
    try:
        out.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(identity, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise StudyError(f"{out}: cannot write: {exc.strerror or exc}") from None


@contextlib.contextmanager
def ray_session(engine: str, address: str | None) -> Iterator[None]:
    """With ``engine == "ray"``, join the cluster at ``address`` (or start a local
    Ray instance) once for a study that runs in several batches, and shut it down at
    the end; the batches' runs then reuse it.  Nothing for the local engine, or when
    this process already joined Ray."""
    if engine != "ray":
        yield
        return
    try:
        import ray
    except ImportError:
        raise engines.EngineError("--engine ray needs Ray: install balance3d[ray]") from None
    if ray.is_initialized():
        yield
        return
    if address:
        engines.check_address(address)
        engines._bound_join()
        try:
            ray.init(address=address)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise engines.EngineError(f"cannot join Ray at {address}: {exc}") from None
    else:
        engines._start_local(ray)
    try:
        yield
    finally:
        ray.shutdown()


@dataclass
class PointRunner:
    """Runs the ``outcome`` of one case of ``sweep`` at given points.

    sweep : its other parameters hold one value each (kept fixed).
    case : case key -> value choosing the case.
    outcome : the experiment's outcome read by calling it (a rate's runs count 1 or 0).
    repetitions : runs per point.
    folder : output folder whose ``runs.jsonl`` keeps the runs (None: kept in memory).
    workers, engine, address, progress : as for :func:`~balance3d.tune.runner.execute`.
    where : the study key that chose the case, named in errors.
    rows : run id -> row of the runs made so far (read from ``folder``).
    """

    sweep: Sweep
    case: dict[str, Any]
    outcome: str
    repetitions: int
    folder: Path | None = None
    workers: int | None = None
    engine: str = "local"
    address: str | None = None
    progress: bool = False
    where: str = "case"
    rows: dict[int, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        experiment = self.sweep.make_experiment()
        if self.outcome not in experiment.outcomes:
            raise StudyError(f"outcome: {self.sweep.experiment} has no outcome "
                             f"{self.outcome!r} (outcomes: {', '.join(experiment.outcomes)})")
        self.kind = experiment.outcomes[self.outcome]
        self._experiment = experiment
        self.fixed = {p: v[0] for p, v in self.sweep.parameters.items()}
        if self.folder is not None:
            self.rows = {row["run_seed"]: row for row in outputs.read_runs(self.folder)}

    def tasks(self, points: list[dict[str, Any]], first: int = 0) -> list[dict[str, Any]]:
        """The tasks of ``points`` (parameter path -> value), point k as combination
        ``first + k``."""
        cls_path = get_game(self.sweep.game).experiments[self.sweep.experiment]
        jitter = dataclasses.asdict(self.sweep.jitter)
        tasks = []
        for k, point in enumerate(points):
            values = {**self.fixed, **point}
            try:
                cases = self._experiment.cases(load_scene(self.sweep.scene, values))
            except ExperimentError as exc:
                raise StudyError(f"at {canonical(point)}: {exc}") from None
            case = select_case(cases, self.case, self.where, self.sweep.experiment)
            index = cases.index(case)
            tasks += [{"scene": self.sweep.scene, "experiment": cls_path,
                       "options": self.sweep.options, "jitter": jitter,
                       "seed": self.sweep.seed, "combination": first + k, "values": values,
                       "case": index, "case_values": case, "repetition": r}
                      for r in range(self.repetitions)]
        return tasks

    def values(self, points: list[dict[str, Any]], outcomes: list[str],
               first: int = 0) -> dict[str, np.ndarray]:
        """Outcome name -> (len(points), repetitions) float: each outcome of every run
        at every point (1.0 or 0.0 for a rate), the runs not yet made run now."""
        tasks = self.tasks(points, first)
        seeds = [run_seed(t["values"], t["case_values"], t["repetition"]) for t in tasks]
        todo, queued = [], set()
        for task, seed in zip(tasks, seeds):
            if seed not in self.rows and seed not in queued:
                queued.add(seed)
                todo.append(task)
        if todo:
            done = runner.execute(todo, self.folder, self.workers, self.engine,
                                  self.address, self.progress)
            self.rows.update({row["run_seed"]: row for row in done})
        shape = (len(points), self.repetitions)
        return {name: np.asarray([float(self.rows[s][f"out.{name}"]) for s in seeds],
                                 dtype=float).reshape(shape) for name in outcomes}

    def __call__(self, points: list[dict[str, Any]], first: int = 0) -> np.ndarray:
        """(len(points), repetitions) float: :attr:`outcome` of every run at every
        point (see :meth:`values`)."""
        return self.values(points, [self.outcome], first)[self.outcome]
