"""The Ray engine when processes die: a worker killed mid-sweep is retried and the
sweep gives the rows of a 1-worker local run; without retries left, one line says
the run was lost, the finished runs stay and the same command resumes; a local Ray
that does not start says in one line how to start it by hand."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pandas as pd
import pytest
import ray
from proc_table import HAS_PROC
import ray_start
from ray_sweep import RUNS, TaskStriker, write_sweep

from balance3d.cli import main
from balance3d.tune import engines
from balance3d.tune.runner import run_sweep

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="finds Ray's workers in /proc")


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray instance with 2 CPUs, started by this process (its workers are
    this process's descendants)."""
    with ray_start.local_ray([str(ROOT)]):
        yield


def worker_killer(ready=lambda: True) -> TaskStriker:
    """A thread that SIGKILLs one of this process's Ray workers while it runs a task
    (once ``ready()`` holds); its ``struck`` is the pid."""
    return TaskStriker(os.getpid, lambda pid: os.kill(pid, signal.SIGKILL), ready)


def _sweep(tmp_path: Path):
    return write_sweep(tmp_path, seed=3)


def test_a_killed_worker_is_retried_and_the_sweep_completes(tmp_path, local_ray):
    _, sweep = _sweep(tmp_path)
    alone = run_sweep(sweep, workers=1, progress=False)
    killer = worker_killer()
    killer.start()
    try:
        remote = run_sweep(sweep, engine="ray", progress=False)
    finally:
        killer.stop.set()
        killer.join()
    assert killer.struck is not None, "no Ray worker was seen running a task"
    assert len(remote) == RUNS
    pd.testing.assert_frame_equal(remote, alone)


def test_a_run_lost_beyond_the_retries_is_one_line_and_a_rerun_resumes(
        tmp_path, local_ray, monkeypatch, capsys):
    path, sweep = _sweep(tmp_path)
    out = tmp_path / "out"
    runs = out / "runs.jsonl"
    monkeypatch.setattr(engines, "RAY_RETRIES", 0)
    killer = worker_killer(ready=lambda: runs.exists() and runs.read_text().count("\n") >= 1)
    killer.start()
    try:
        status = main(["tune", "run", str(path), "--out", str(out), "--engine", "ray",
                       "--quiet"])
    finally:
        killer.stop.set()
        killer.join()
    assert killer.struck is not None
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "Ray lost the run of combination " in err and "after 0 retries (" in err
    assert f"the finished runs are in {out}/runs.jsonl: run the same command again" in err
    kept = runs.read_text().count("\n")
    assert 1 <= kept < RUNS
    monkeypatch.undo()
    assert main(["tune", "run", str(path), "--out", str(out), "--engine", "ray",
                 "--quiet"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "runs.parquet"),
                                  run_sweep(sweep, workers=1, progress=False))


def test_a_local_ray_that_does_not_start_says_how_to_start_it(tmp_path, monkeypatch,
                                                               capsys):
    """Ray's node start-up timing out (as on a loaded machine) is tried again, then
    one line names ``ray start --head`` and ``--address``."""
    path, _ = _sweep(tmp_path)
    attempts = []

    def timed_out(**kwargs):
        attempts.append(kwargs)
        raise Exception("The current node timed out during startup. This could happen")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", timed_out)
    monkeypatch.setattr(ray, "shutdown", lambda: None)
    assert main(["tune", "run", str(path), "--out", str(tmp_path / "o"), "--engine", "ray",
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert len(attempts) == engines.LOCAL_START_ATTEMPTS == 2
    # each a new instance: without --address Ray would join the last cluster started
    # on this machine (one of another user, or of another test running beside)
    assert all(kwargs.get("address") == "local" for kwargs in attempts)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "timed out during startup" in err
    assert "'ray start --head'" in err and "--address auto" in err
