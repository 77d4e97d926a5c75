"""Run a sweep: every combination x case x repetition, on a process pool or Ray.

Each run is seeded by the sweep's seed and the run's own identity (its combination's
values, case and repetition: :func:`~balance3d.tune.worker.run_generator`), so the
rows do not depend on the engine, the number of workers or the order runs finish
in.  With an output folder, finished runs are appended to ``runs.jsonl`` as they
come in and a run started again skips them (see :mod:`balance3d.tune.outputs`).
"""
from __future__ import annotations

import dataclasses
import os
import sys
import time
from pathlib import Path
from typing import Any

from balance3d.games import get_game
from balance3d.scene import load_scene
from balance3d.tune import engines, outputs
from balance3d.tune.sweep import Sweep

#: The columns every run row starts with, its sort key the first three.
KEY_COLUMNS = ("combination", "case", "repetition", "run_seed")


def plan(sweep: Sweep) -> list[dict[str, Any]]:
    """Every run of ``sweep`` as a task (see :func:`~balance3d.tune.worker.run_task`),
    in (combination, case, repetition) order."""
    experiment = sweep.make_experiment()
    cls_path = get_game(sweep.game).experiments[sweep.experiment]
    jitter = dataclasses.asdict(sweep.jitter)
    tasks = []
    for index, values in enumerate(sweep.combinations()):
        cases = experiment.cases(load_scene(sweep.scene, values))
        for case_index, case in enumerate(cases):
            for repetition in range(sweep.repetitions):
                tasks.append({
                    "scene": sweep.scene, "experiment": cls_path, "options": sweep.options,
                    "jitter": jitter, "seed": sweep.seed, "combination": index,
                    "values": values, "case": case_index, "case_values": case,
                    "repetition": repetition})
    return tasks


def _key(row: dict[str, Any]) -> tuple[int, int, int]:
    return row["combination"], row["case"], row["repetition"]


def table(rows: list[dict[str, Any]], sweep: Sweep):
    """The run rows as a DataFrame: sorted by (combination, case, repetition),
    columns :data:`KEY_COLUMNS`, ``param.*`` in the sweep's order, ``case.*``,
    ``out.*`` in the experiment's order."""
    import pandas as pd

    frame = pd.DataFrame.from_records(sorted(rows, key=_key))
    params = [f"param.{p}" for p in sweep.parameters]
    outs = [f"out.{o}" for o in sweep.make_experiment().outcomes]
    cases = [c for c in frame.columns if c.startswith("case.")]
    return frame.reindex(columns=[*KEY_COLUMNS, *params, *cases, *outs])


def run_sweep(sweep: Sweep, out: str | Path | None = None, workers: int | None = None,
              engine: str = "local", address: str | None = None, progress: bool = True,
              csv: bool = False, pool: engines.LocalPool | None = None):
    """Run ``sweep`` and return its run table (pandas DataFrame, see :func:`table`).

    out : folder for the outputs (None: nothing written, nothing resumed).
    workers : local worker processes (None: every core); for Ray, the most tasks in
        flight (None: twice the cluster's CPUs).
    engine : "local" (process pool) or "ray" (``address``: the cluster, None: a
        local Ray instance).
    progress : show a progress bar with the time left on stderr.
    csv : also write ``runs.csv``.
    pool : a local pool started beforehand (None: one started for the runs).
    """
    _check_engine(engine, workers)
    tasks = plan(sweep)
    folder = Path(out) if out is not None else None
    rows: list[dict[str, Any]] = []
    if folder is not None:
        outputs.prepare(folder, sweep)
        rows = outputs.read_runs(folder)
    done = {_key(row) for row in rows}
    todo = [t for t in tasks if (t["combination"], t["case"], t["repetition"]) not in done]
    started = time.perf_counter()
    if todo:
        rows += execute(todo, folder, workers, engine, address, progress, len(tasks),
                        pool=pool)
    wall = time.perf_counter() - started
    frame = table(rows, sweep)
    if folder is not None:
        from balance3d.tune.summary import summarise

        outputs.write_tables(folder, frame, summarise(frame, sweep), csv)
        count = workers or (engines.default_workers() if engine == "local" else None)
        outputs.write_timing(folder, {
            "runs": len(todo), "total_runs": len(tasks), "wall_s": wall,
            "workers": count, "engine": engine,
            "runs_per_s": len(todo) / wall if todo and wall > 0 else None,
            "load_average": list(os.getloadavg())})
    return frame


def _check_engine(engine: str, workers: int | None) -> None:
    """:class:`~balance3d.tune.engines.EngineError` for an unknown engine or fewer
    than one worker."""
    if engine not in engines.ENGINES:
        raise engines.EngineError(f"unknown engine {engine!r} (known: "
                                  f"{', '.join(engines.ENGINES)})")
    if workers is not None and workers < 1:
        raise engines.EngineError(f"workers must be at least 1, got {workers}")


def execute(todo: list[dict[str, Any]], folder: Path | None = None, workers: int | None = None,
            engine: str = "local", address: str | None = None, progress: bool = True,
            total: int | None = None, runs_file: str = outputs.RUNS,
            pool: engines.LocalPool | None = None) -> list[dict[str, Any]]:
    """Run the given tasks (some of :func:`plan`'s, e.g. one case's) and return their
    rows in the order they finished (:func:`table` sorts them).

    folder : an output folder prepared by :func:`run_sweep` whose ``runs.jsonl``
        (or ``runs_file``) gets each row as it comes (None: nothing written).
    workers, engine, address, progress : as for :func:`run_sweep`.
    total : runs the progress bar counts, the ones done before included (None: the
        tasks given).
    pool : a local pool kept across calls (:func:`~balance3d.tune.engines.session`;
        None: one started for these tasks).
    """
    from tqdm import tqdm

    _check_engine(engine, workers)
    total = len(todo) if total is None else total
    stream = outputs.appender(folder, runs_file) if folder is not None else None
    source = engines.run_local(todo, workers, pool) if engine == "local" else \
        engines.run_ray(todo, workers, address)
    rows = []
    bar = tqdm(total=total, initial=total - len(todo), unit="run", file=sys.stderr,
               disable=not progress, dynamic_ncols=True)
    try:
        for row in source:
            rows.append(row)
            if stream is not None:
                outputs.append(stream, row)
            bar.update(1)
    finally:
        source.close()
        bar.close()
        if stream is not None:
            stream.close()
    return rows
