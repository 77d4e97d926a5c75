"""The local Ray instance the Ray tests share, started as the tune engine starts
one: Ray gives its node a fixed 30 s to come up and raises a bare ``Exception``
when it misses it (as it can on a loaded machine), so a failed start is shut down
and tried again."""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

import pytest
import ray

#: Starts tried before the tests' own Ray counts as not starting.
ATTEMPTS = 3
#: Ray CPUs of the tests' local instance.
CPUS = 2


def start_local_ray(**options: Any) -> None:
    """``ray.init(**options)``, in up to :data:`ATTEMPTS` attempts; the last
    attempt's error is raised."""
    for attempt in range(1, ATTEMPTS + 1):
        try:
            ray.init(**options)
            return
        except Exception:  # noqa: BLE001 (Ray's start-up timeout is a bare Exception)
            ray.shutdown()
            if attempt == ATTEMPTS:
                raise


@contextlib.contextmanager
def local_ray(paths: list[str]) -> Iterator[None]:
    """A local Ray instance of :data:`CPUS` CPUs, started by this process (its
    workers are this process's descendants) with ``paths`` ahead of ``PYTHONPATH``
    (its workers import this checkout and the tests' modules), shut down at the end."""
    with pytest.MonkeyPatch.context() as patch:
        joined = [*paths, os.environ.get("PYTHONPATH", "")]
        patch.setenv("PYTHONPATH", os.pathsep.join(p for p in joined if p))
        # "local": never the cluster another test started on this machine
        start_local_ray(address="local", num_cpus=CPUS, include_dashboard=False,
                        log_to_driver=False)
        try:
            yield
        finally:
            ray.shutdown()
