"""The small sweep the Ray fault tests run (a worker or a node killed mid-sweep), the
title by which they find a worker running one of its tasks, and the thread that
strikes such a worker."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from proc_table import descendants, poll, title

from balance3d.tune.sweep import Sweep, load_sweep

# 2 densities x 8 repetitions of one drop: 16 runs, several rounds of tasks on 2 CPUs
SWEEP = """\
[sweep]
scene = "tilted"
experiment = "drops"
repetitions = 8
seed = {seed}

[parameters]
"materials.block_wood.density" = [400.0, 650.0]

[experiment]
blocks = [2]
sections = [2]
load = [{{block = 2, x = -0.13}}]
"""
RUNS = 16
#: The title a Ray worker process has while it runs one of the sweep's tasks.
TASK_TITLE = "ray::run_task"


def write_sweep(folder: Path, seed: int) -> tuple[Path, Sweep]:
    """The sweep with ``seed``, written to ``folder/s.toml``: (its path, it loaded)."""
    path = folder / "s.toml"
    path.write_text(SWEEP.format(seed=seed))
    return path, load_sweep(path)


class TaskStriker(threading.Thread):
    """Once ``ready()`` holds and a descendant of ``root()`` (a process id) runs a
    task of the sweep, call ``strike(pid)`` on that worker once; ``struck`` is its
    pid (None if none was seen before ``stop`` was set)."""

    def __init__(self, root: Callable[[], int], strike: Callable[[int], None],
                 ready: Callable[[], bool] = lambda: True) -> None:
        super().__init__(daemon=True)
        self.root, self.strike, self.ready = root, strike, ready
        self.struck: int | None = None
        self.stop = threading.Event()

    def _running_task(self) -> int | None:
        if self.stop.is_set() or not self.ready():
            return None
        return next((pid for pid, _ in descendants(self.root())
                     if title(pid).startswith(TASK_TITLE)), None)

    def run(self) -> None:
        found: list[int] = []

        def seen() -> bool:
            if self.stop.is_set():
                return True
            pid = self._running_task()
            if pid is not None:
                found.append(pid)
            return bool(found)

        if poll(seen) and found:
            self.strike(found[0])
            self.struck = found[0]
