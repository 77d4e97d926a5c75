"""The C heap under the physics: freed memory handed back to the system.

Every World connects a pybullet client and disconnects it when it is dropped, and
the planners make and drop hundreds of Worlds a turn (clones of the state).  What
Bullet, numpy and HiGHS free then is mostly small and medium blocks that glibc's
``malloc`` keeps for reuse, scattered through its heap, so a process's resident
memory stays at the high-water mark of the games it played.
:func:`release_freed_memory` returns it (glibc's ``malloc_trim``, which also gives
back the free pages inside the heap): after a game of the memory benchmark
(``python -m benchmarks.memory``) it takes a process from about 160 MB to about
135 MB, the libraries' own share (pybullet, trimesh, scipy, shapely, HiGHS) and the
bounded caches.  :func:`balance3d.games.new_game` calls it, so a process that plays
game after game starts each one from that floor.

Fixing glibc's trim and mmap thresholds instead (``mallopt``) keeps the heap as low
but cost a third more CPU time in the same games; trimming once a game takes about 9
ms (after a Tower game).  Only glibc has ``malloc_trim``; elsewhere nothing is done.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import lru_cache
from typing import Callable


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Return the C heap's free memory to the system; True when glibc did so (it
    found memory to give back), False elsewhere or when it found none."""
    trim = _malloc_trim()
    return trim is not None and trim(0) == 1
