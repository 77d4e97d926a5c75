"""The C heap under the physics: glibc's allocator told to give freed memory back.

Every World connects a pybullet client and disconnects it when it is dropped, and
the planners make and drop hundreds of Worlds a turn (clones of the state).  What
Bullet, numpy and HiGHS free then is mostly small and medium blocks that glibc's
``malloc`` keeps for reuse: with its default, self-raising thresholds a process
that has played a dozen games holds about 320 MB (Linux, x86-64), of which Python
objects are under 10 MB and the caches of :mod:`balance3d.physics.caches` about
5 MB; the rest is freed memory the allocator has not returned.
:func:`bound_heap` fixes both thresholds at :data:`THRESHOLD_BYTES` (glibc's
``mallopt``), so blocks that large are mapped and unmapped on their own and the top
of the heap is returned as soon as that much of it is free: the same games leave
about 130 MB, the libraries' own share (pybullet, trimesh, scipy, shapely, HiGHS).

Only glibc has ``mallopt``; elsewhere, or when the ``MALLOC_TRIM_THRESHOLD_`` or
``MALLOC_MMAP_THRESHOLD_`` environment variables choose the thresholds, nothing is
changed.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

#: bytes: glibc's trim and mmap thresholds here (its initial values, which glibc
#: otherwise raises up to 32 MiB as blocks are freed).
THRESHOLD_BYTES = 128 * 1024
#: glibc's ``mallopt`` parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: Environment variables with which a user sets the thresholds instead.
USER_SETTINGS = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_")


def bound_heap() -> bool:
    """Fix glibc's trim and mmap thresholds at :data:`THRESHOLD_BYTES`; True when
    they were set (glibc, and no threshold set by the environment)."""
    if not sys.platform.startswith("linux") or any(v in os.environ for v in USER_SETTINGS):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return all(mallopt(parameter, THRESHOLD_BYTES) == 1
               for parameter in (M_TRIM_THRESHOLD, M_MMAP_THRESHOLD))
