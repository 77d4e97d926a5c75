"""Where a sweep's runs execute: a local process pool or a Ray cluster.

Each engine takes the tasks still to run and yields their rows as they finish, in
whatever order; stopping the iteration cancels the runs not started.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Iterator

from balance3d.tune.worker import RunError, run_task

ENGINES = ("local", "ray")


class EngineError(RuntimeError):
    """An engine cannot start (Ray missing or unreachable)."""


def default_workers() -> int:
    """Worker processes of a local run by default: every core."""
    return os.cpu_count() or 1


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the parent, which stops handing out runs and waits
    for the runs under way."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(tasks: list[dict[str, Any]], workers: int | None) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` on a pool of ``workers`` processes (default every core), started
    with ``spawn``: pybullet clients do not survive a fork."""
    count = max(1, min(workers or default_workers(), len(tasks)))
    pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_interrupts)
    try:
        pending = {pool.submit(run_task, task) for task in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_ray(tasks: list[dict[str, Any]], workers: int | None,
            address: str | None) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` as Ray tasks of one CPU each, on the cluster at ``address`` or,
    without one, on a Ray instance started here (or the one this process already
    joined).  At most ``workers`` tasks are in flight (default twice the cluster's
    CPUs)."""
    try:
        import ray
    except ImportError:
        raise EngineError("--engine ray needs Ray: install balance3d[ray]") from None
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EngineError(f"cannot join Ray at {address or 'a local instance'}: "
                              f"{str(exc).splitlines()[0] if str(exc) else exc}") from None
    remote = ray.remote(num_cpus=1, max_retries=0)(run_task)
    limit = workers or 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    queue = iter(tasks)
    pending: list[Any] = []
    try:
        while True:
            for task in queue:
                pending.append(remote.remote(task))
                if len(pending) >= limit:
                    break
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                raise cause if isinstance(cause, RunError) else RunError(
                    str(exc).splitlines()[0]) from None
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
