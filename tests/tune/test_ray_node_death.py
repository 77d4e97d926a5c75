"""The Ray engine when a whole node dies: a two-node Ray cluster on this machine
(:class:`ray.cluster_utils.Cluster`), whose second node's raylet and workers are
killed while one of its workers runs a task of the sweep.  Its runs are retried on
the head node and the sweep gives the rows of a 1-worker local run; without retries
left, one line says a run was lost (Ray's ``NodeDiedError`` or ``WorkerCrashedError``,
whichever Ray reports first), the finished runs stay, and the same command resumes."""
from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest
import ray
from proc_table import HAS_PROC
from ray.cluster_utils import Cluster
from ray_sweep import RUNS, TaskStriker, write_sweep

from balance3d.cli import main
from balance3d.tune import engines
from balance3d.tune.runner import run_sweep

ROOT = Path(__file__).resolve().parents[2]
#: CPUs of each of the two nodes.
NODE_CPUS = 1

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="finds the node's workers in /proc")


class Nodes:
    """A head node this process joins and a second node that can be killed."""

    def __init__(self) -> None:
        self.cluster = Cluster(initialize_head=True, head_node_args={
            "num_cpus": NODE_CPUS, "include_dashboard": False})
        self.second = None

    def add_second(self) -> None:
        """Start the second node and wait until the cluster sees both."""
        self.second = self.cluster.add_node(num_cpus=NODE_CPUS)
        self.cluster.wait_for_nodes()

    def raylet_pid(self) -> int:
        """pid of the second node's raylet (its workers are its descendants)."""
        return self.second.all_processes["raylet"][0].process.pid


@pytest.fixture(scope="module")
def nodes() -> Iterator[Nodes]:
    with pytest.MonkeyPatch.context() as patch:
        joined = [str(ROOT), str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]
        patch.setenv("PYTHONPATH", os.pathsep.join(p for p in joined if p))
        cluster = Nodes()
        ray.init(address=cluster.cluster.address, log_to_driver=False)
        try:
            yield cluster
        finally:
            ray.shutdown()
            cluster.cluster.shutdown()


def node_killer(cluster: Nodes, ready=lambda: True) -> TaskStriker:
    """A thread that, once ``ready()`` holds and a worker of the second node runs a
    task of the sweep, stops that worker (SIGSTOP) and kills the node's processes
    (``remove_node`` without a graceful stop); its ``struck`` is the worker's pid."""

    def strike(pid: int) -> None:
        # frozen first, so that its run cannot end while the node is being killed;
        # then killed, since a stopped process outlives the node's SIGTERM
        os.kill(pid, signal.SIGSTOP)
        cluster.cluster.remove_node(cluster.second, allow_graceful=False)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    return TaskStriker(cluster.raylet_pid, strike, ready)


def _run_with_killer(cluster: Nodes, run: Any, ready=lambda: True) -> tuple[Any, TaskStriker]:
    cluster.add_second()
    killer = node_killer(cluster, ready)
    killer.start()
    try:
        result = run()
    finally:
        killer.stop.set()
        killer.join()
    return result, killer


def _sweep(tmp_path: Path):
    return write_sweep(tmp_path, seed=5)


def test_runs_of_a_dead_node_are_retried_and_the_sweep_completes(tmp_path, nodes):
    _, sweep = _sweep(tmp_path)
    alone = run_sweep(sweep, workers=1, progress=False)
    remote, killer = _run_with_killer(
        nodes, lambda: run_sweep(sweep, engine="ray", progress=False))
    assert killer.struck is not None, "no task was seen running on the second node"
    assert len(remote) == RUNS
    pd.testing.assert_frame_equal(remote, alone)


def test_a_dead_node_without_retries_is_one_line_and_a_rerun_resumes(
        tmp_path, nodes, monkeypatch, capsys):
    path, sweep = _sweep(tmp_path)
    out = tmp_path / "out"
    runs = out / "runs.jsonl"
    monkeypatch.setattr(engines, "RAY_RETRIES", 0)
    command = ["tune", "run", str(path), "--out", str(out), "--engine", "ray", "--quiet"]
    status, killer = _run_with_killer(
        nodes, lambda: main(command),
        ready=lambda: runs.exists() and runs.read_text().count("\n") >= 1)
    assert killer.struck is not None, "no task was seen running on the second node"
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "Ray lost the run of combination " in err and "after 0 retries (" in err
    assert ("NodeDiedError" in err) or ("WorkerCrashedError" in err), err
    assert f"the finished runs are in {out}/runs.jsonl: run the same command again" in err
    kept = runs.read_text().count("\n")
    assert 1 <= kept < RUNS
    monkeypatch.undo()
    assert main(command) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "runs.parquet"),
                                  run_sweep(sweep, workers=1, progress=False))
