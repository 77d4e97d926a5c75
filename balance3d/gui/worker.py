"""The window session's worker: one daemon thread that works out bots' moves and
the designer's previews, one job at a time, off the render thread.

Closing never waits for it.  :meth:`Worker.close` cancels every job: one not yet
begun never runs, and the one running stops at its bot's next progress report
(:mod:`balance3d.bots.progress`: between two trials); the thread is a daemon, so
the process may exit while a trial it is inside finishes nowhere.  A job that is
not cancelled runs exactly as it would on any other thread: the bot's choice does
not depend on the worker.
"""
from __future__ import annotations

import queue
import threading
from concurrent.futures import Future
from typing import Any, Callable

from balance3d.bots.progress import Cancelled, Progress


class Job:
    """One piece of work: its ``future`` (result or exception), the latest
    ``progress`` its bot reported (None before the first report), and
    :meth:`cancel`."""

    def __init__(self) -> None:
        self.future: Future = Future()
        self.progress: Progress | None = None
        self._cancelled = threading.Event()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled.is_set()

    def cancel(self) -> None:
        """Abandon the job: it never begins, or stops at its next progress report."""
        self._cancelled.set()
        self.future.cancel()

    def listen(self, progress: Progress) -> None:
        """The progress callback handed to the bot: keeps ``progress``; raises
        :class:`~balance3d.bots.progress.Cancelled` once the job is cancelled."""
        if self._cancelled.is_set():
            raise Cancelled("the move was abandoned")
        self.progress = progress


class Worker:
    """A daemon thread running submitted jobs in order (started on first use)."""

    def __init__(self, name: str = "balance3d-bot") -> None:
        self._name = name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._open: list[Job] = []
        self._closed = False

    def submit(self, work: Callable[..., Any], *args: Any) -> Job:
        """Run ``work(*args, job.listen)`` on the worker; the :class:`Job`."""
        if self._closed:
            raise RuntimeError("the worker is closed")
        job = Job()
        self._open = [j for j in self._open if not j.future.done()] + [job]
        self._jobs.put((job, work, args))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()
        return job

    def close(self) -> None:
        """Cancel every job and let the thread end, without waiting for it."""
        self._closed = True
        for job in self._open:
            job.cancel()
        self._open = []
        self._jobs.put(None)

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, work, args = item
            if not job.future.set_running_or_notify_cancel():
                continue
            try:
                job.future.set_result(work(*args, job.listen))
            except BaseException as exc:
                job.future.set_exception(exc)


__all__ = ["Job", "Worker"]
