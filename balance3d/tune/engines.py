"""Where a sweep's runs execute: a local process pool or a Ray cluster.

Each engine takes the tasks still to run and yields their rows as they finish, in
whatever order; stopping the iteration cancels the runs not started.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing.connection import Connection
from typing import Any, Iterator

ENGINES = ("local", "ray")
#: Modules the local workers' fork server imports once, before it forks them (no
#: pybullet client is connected at import).
PRELOAD = ("balance3d.tune.worker",)
#: s, longest wait for a Ray cluster named by ``--address`` to answer: the TCP connect
#: of the first check, and each of Ray's own GCS connect timeouts.
JOIN_TIMEOUT_S = 10.0
#: Attempts Ray makes to reach the cluster's GCS when joining it (Ray's default: 20,
#: each up to its connect timeouts, which made a wrong address wait for minutes).
JOIN_ATTEMPTS = 1
#: Times Ray runs a task again when its worker process or its node is lost (Ray's
#: ``max_retries``: system failures only; a run that raises is not retried, it
#: would raise again).
RAY_RETRIES = 3
#: Attempts at starting a local Ray instance (each bounded by Ray's own 30 s wait
#: for its node, which a loaded machine can miss).
LOCAL_START_ATTEMPTS = 2
#: How to start Ray by hand, named when a local instance does not start.
BY_HAND = "start one by hand with 'ray start --head' and pass --address auto"


class EngineError(RuntimeError):
    """An engine cannot start (Ray missing or unreachable)."""


class RunsLostError(EngineError):
    """Ray lost a run beyond its retries (its worker or node died each time); the
    runs finished before it are kept."""


def default_workers() -> int:
    """Worker processes of a local run by default: every core."""
    return os.cpu_count() or 1


#: Exit status of a local worker that ends because the command that started it ended.
ORPHAN_EXIT = 70


def _start_worker(lifeline: Connection) -> None:
    """A local worker's start: it leaves Ctrl-C to the parent, which stops handing
    out runs and waits for the runs under way, and it watches ``lifeline``, the
    reading end of a pipe whose only writer is the command's process (see
    :func:`_exit_when_closed`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_when_closed, args=(lifeline,), name="lifeline",
                     daemon=True).start()


def _exit_when_closed(lifeline: Connection) -> None:
    """Block until ``lifeline`` reads end of file, then end this worker at once
    (status :data:`ORPHAN_EXIT`).  The kernel closes the writer whenever the command
    ends, by any signal (SIGKILL included), a crash or a normal exit, so a worker
    never outlives it; the fork server ends the same way, on its own pipe."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(ORPHAN_EXIT)


def pool_context() -> multiprocessing.context.BaseContext:
    """How the local workers start: ``forkserver`` where the system has it, with
    :data:`PRELOAD` imported once in the server (each worker is a fork of it that
    connects its own pybullet client), else ``spawn`` (each worker imports afresh).
    Never a fork of this process: pybullet clients do not survive a fork."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


class LocalPool:
    """A pool of ``count`` local worker processes started by :func:`pool_context`,
    kept across several :func:`run_local` calls; the workers end with this process
    however it ends (:func:`_exit_when_closed`).  Processes start with the first
    task handed out, or at :meth:`warm`."""

    def __init__(self, count: int) -> None:
        self.lifeline, self.writer = multiprocessing.Pipe(duplex=False)
        self.executor = ProcessPoolExecutor(count, mp_context=pool_context(),
                                            initializer=_start_worker,
                                            initargs=(self.lifeline,))
        self.starter: threading.Thread | None = None

    def warm(self, count: int) -> None:
        """Start ``count`` worker processes on a thread of their own and return at
        once: starting the first waits for the fork server's imports, which run in
        that server's process while the caller goes on (reading and checking the
        sweep, its own imports)."""
        self.starter = threading.Thread(target=self._start, args=(count,),
                                        name="pool start", daemon=True)
        self.starter.start()

    def _start(self, count: int) -> None:
        for _ in range(count):
            self.executor.submit(int)

    def close(self) -> None:
        """Cancel the runs not started, wait for those under way, end the workers."""
        if self.starter is not None:
            self.starter.join()
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.writer.close()
        self.lifeline.close()


def run_local(tasks: list[dict[str, Any]], workers: int | None,
              pool: LocalPool | None = None) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` on ``pool``, or on a pool of ``workers`` processes (default
    every core) started for them and closed when the iteration ends; stopping the
    iteration cancels the runs not started."""
    from balance3d.tune.worker import run_task

    own = pool is None
    if own:
        pool = LocalPool(max(1, min(workers or default_workers(), len(tasks))))
    pending: set = set()
    try:
        pending = {pool.executor.submit(run_task, task) for task in tasks}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        if own:
            pool.close()
        else:
            for future in pending:
                future.cancel()
            wait(pending)


def _bound_join() -> None:
    """Bound the wait of Ray's GCS client for a cluster joined by address, through
    Ray's environment settings (a value the user set is kept).  The connect timeouts
    are read when Ray is imported, so they apply when this process has not imported
    it yet; the attempts are read at each join."""
    seconds = str(int(JOIN_TIMEOUT_S))
    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(JOIN_ATTEMPTS))
    if "ray" not in sys.modules:
        os.environ.setdefault("RAY_gcs_rpc_server_connect_timeout_s", seconds)
        os.environ.setdefault("RAY_py_gcs_connect_timeout_s", seconds)


def check_address(address: str) -> None:
    """:class:`EngineError` naming ``address`` unless something accepts a TCP
    connection there within :data:`JOIN_TIMEOUT_S` (``host:port`` or
    ``ray://host:port``; other forms, such as ``auto``, are left to Ray)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), JOIN_TIMEOUT_S).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise EngineError(f"cannot join Ray at {address}: no connection ({reason}; "
                          f"waited at most {JOIN_TIMEOUT_S:g} s)") from None


def run_ray(tasks: list[dict[str, Any]], workers: int | None,
            address: str | None) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` as Ray tasks of one CPU each, on the cluster at ``address`` or,
    without one, on a Ray instance started here (or the one this process already
    joined).  At most ``workers`` tasks are in flight (default twice the cluster's
    CPUs).  A run whose worker process or node is lost is run again, up to
    :data:`RAY_RETRIES` times, and the sweep goes on; beyond that,
    :class:`RunsLostError`.  Ray is checked, joined or started here, before the first row is asked
    for, so that an unreachable ``address`` is refused before anything is shown;
    the returned iterator shuts down an instance started here when it ends or is
    closed."""
    ray, started = _join_ray(address)
    return _ray_rows(ray, tasks, workers, started)


def _join_ray(address: str | None) -> tuple[Any, bool]:
    """Ray joined (at ``address``) or started here, unless this process has joined
    one already: (the ray module, whether it was joined or started here)."""
    if address:
        check_address(address)
        _bound_join()
    try:
        import ray
    except ImportError:
        raise EngineError("--engine ray needs Ray: install balance3d[ray]") from None
    started = not ray.is_initialized()
    if started:
        if address:
            try:
                ray.init(address=address)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise EngineError(f"cannot join Ray at {address}: {_first_line(exc)}") \
                    from None
        else:
            _start_local(ray)
    return ray, started


@contextlib.contextmanager
def session(engine: str, address: str | None, workers: int | None
            ) -> Iterator[LocalPool | None]:
    """Keep the engine up across several runs of tasks (a fit's batches): for
    "local", a :class:`LocalPool` of ``workers`` processes (default every core),
    yielded and closed on exit; for "ray", Ray joined or started on entry and, when
    joined or started here, shut down on exit (None is yielded)."""
    if engine != "ray":
        pool = LocalPool(workers or default_workers())
        try:
            yield pool
        finally:
            pool.close()
        return
    ray, started = _join_ray(address)
    try:
        yield None
    finally:
        if started:
            ray.shutdown()


def _first_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message, or its type's name without one."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _start_local(ray: Any) -> None:
    """Start a local Ray instance, without the dashboard and with the workers' output
    kept quiet (a cluster decides both for itself), in up to
    :data:`LOCAL_START_ATTEMPTS` attempts; :class:`EngineError` saying how to start
    Ray by hand when none succeeds.  Ray raises a bare ``Exception`` when its node
    misses its start-up wait, hence the broad catch."""
    for attempt in range(1, LOCAL_START_ATTEMPTS + 1):
        try:
            # "local": a new instance of this command's own, not the last cluster
            # started on this machine (Ray's default), which --address joins
            ray.init(address="local", include_dashboard=False, log_to_driver=False)
            return
        except Exception as exc:  # noqa: BLE001 (see the docstring)
            ray.shutdown()
            if attempt == LOCAL_START_ATTEMPTS:
                raise EngineError(
                    f"a local Ray instance did not start in {LOCAL_START_ATTEMPTS} "
                    f"attempts ({_first_line(exc)}); {BY_HAND}") from None


def _ray_rows(ray: Any, tasks: list[dict[str, Any]], workers: int | None,
              started: bool) -> Iterator[dict[str, Any]]:
    """The rows of ``tasks`` run on the joined Ray (see :func:`run_ray`);
    ``started``: this process started that Ray instance and shuts it down."""
    from balance3d.tune.worker import RunError, run_task

    remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES,
                        retry_exceptions=False)(run_task)
    limit = workers or 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    queue = iter(tasks)
    pending: list[Any] = []
    running: dict[Any, dict[str, Any]] = {}
    try:
        while True:
            for task in queue:
                ref = remote.remote(task)
                pending.append(ref)
                running[ref] = task
                if len(pending) >= limit:
                    break
            if not pending:
                return
            done, pending = ray.wait(pending, num_returns=1)
            task = running.pop(done[0])
            try:
                row = ray.get(done[0])
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                raise cause if isinstance(cause, RunError) else RunError(
                    _first_line(exc)) from None
            except ray.exceptions.RayError as exc:
                raise RunsLostError(
                    f"Ray lost the run of combination {task['combination']}, case "
                    f"{task['case']}, repetition {task['repetition']} after "
                    f"{RAY_RETRIES} retries ({type(exc).__name__}: "
                    f"{_first_line(exc)})") from None
            yield row
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()
