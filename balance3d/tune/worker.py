"""One run of a sweep, as a worker process (or a Ray task) does it.

A task is a plain dict (it crosses process boundaries); :func:`run_task` turns it
into one row of the table.  A worker keeps the scenes and experiments it built, so
the runs of one combination load their scene once.
"""
from __future__ import annotations

import hashlib
import importlib
import json
from functools import lru_cache
from typing import Any

import numpy as np

from balance3d.scene import Scene, load_scene
from balance3d.tune.experiment import OUTCOME_KINDS, Experiment, ExperimentError, Jitter

#: Scenes (one per combination) a worker keeps.
SCENE_CACHE = 16


def canonical(value: Any) -> str:
    """Canonical JSON of ``value``: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def run_digest(combination: dict[str, Any], case: dict[str, Any], repetition: int) -> bytes:
    """SHA-256 of a run's identity: its combination's values, its case and its
    repetition (not their indices, nor the other runs)."""
    return hashlib.sha256(canonical([combination, case, repetition]).encode()).digest()


def run_generator(seed: int, combination: dict[str, Any], case: dict[str, Any],
                  repetition: int) -> np.random.Generator:
    """The generator of one run: seeded by the sweep's ``seed`` and the run's
    digest words (32-bit), so it depends on nothing else."""
    words = np.frombuffer(run_digest(combination, case, repetition), dtype="<u4")
    return np.random.default_rng(np.random.SeedSequence([seed, *map(int, words)]))


def run_seed(combination: dict[str, Any], case: dict[str, Any], repetition: int) -> int:
    """A run's id in the table: the first 63 bits of its digest."""
    return int.from_bytes(run_digest(combination, case, repetition)[:8], "little") >> 1


@lru_cache(maxsize=SCENE_CACHE)
def _scene(scene: str, combination: str) -> Scene:
    return load_scene(scene, json.loads(combination))


@lru_cache(maxsize=4)
def _experiment(cls_path: str, options: str, jitter: str) -> Experiment:
    module, _, attr = cls_path.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls(json.loads(options), Jitter(**json.loads(jitter)))


def check_outcomes(experiment: Experiment, values: dict[str, Any]) -> None:
    """Raise :class:`ExperimentError` unless ``values`` holds exactly the declared
    outcomes, booleans for probabilities and finite numbers for means (stored as
    floats)."""
    declared = experiment.outcomes
    if set(values) != set(declared):
        raise ExperimentError(f"experiment {experiment.name}: run returned outcomes "
                              f"{sorted(values)}, declared {sorted(declared)}")
    for name, kind in declared.items():
        value = values[name]
        if kind not in OUTCOME_KINDS:
            raise ExperimentError(f"experiment {experiment.name}: outcome {name} has kind "
                                  f"{kind!r} (known: {', '.join(OUTCOME_KINDS)})")
        flag = isinstance(value, (bool, np.bool_))
        number = isinstance(value, (int, float, np.integer, np.floating)) and not flag
        if not (flag if kind == "probability" else number and np.isfinite(value)):
            raise ExperimentError(f"experiment {experiment.name}: outcome {name} "
                                  f"({kind}) got {value!r}")


class RunError(RuntimeError):
    """A run failed: the message names its combination, case and repetition."""


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Run one task and return its row (JSON values only); :class:`RunError` naming
    the run for any failure.

    task keys: scene, experiment ("module:Class"), options, jitter (dict), seed,
    combination (index), values (path -> value), case (index), case_values,
    repetition."""
    try:
        return _row(task)
    except Exception as exc:
        raise RunError(f"run of combination {task['combination']}, case {task['case']}, "
                       f"repetition {task['repetition']} failed: "
                       f"{type(exc).__name__}: {exc}") from None


def _row(task: dict[str, Any]) -> dict[str, Any]:
    scene = _scene(task["scene"], canonical(task["values"]))
    experiment = _experiment(task["experiment"], canonical(task["options"]),
                             canonical(task["jitter"]))
    rng = run_generator(task["seed"], task["values"], task["case_values"],
                        task["repetition"])
    outcomes = experiment.run(scene, task["case_values"], rng)
    check_outcomes(experiment, outcomes)
    row: dict[str, Any] = {
        "combination": task["combination"], "case": task["case"],
        "repetition": task["repetition"],
        "run_seed": run_seed(task["values"], task["case_values"], task["repetition"]),
    }
    row.update({f"param.{k}": v for k, v in task["values"].items()})
    row.update({f"case.{k}": v for k, v in task["case_values"].items()})
    row.update({f"out.{k}": bool(v) if experiment.outcomes[k] == "probability" else float(v)
                for k, v in outcomes.items()})
    return json.loads(json.dumps(row))
