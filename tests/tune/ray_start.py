"""Starting the local Ray instance the Ray tests share, as the tune engine starts
one: Ray gives its node a fixed 30 s to come up and raises a bare ``Exception``
when it misses it (as it can on a loaded machine), so a failed start is shut down
and tried again."""
from __future__ import annotations

from typing import Any

#: Starts tried before the tests' own Ray counts as not starting.
ATTEMPTS = 3


def start_local_ray(ray: Any, **options: Any) -> None:
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
