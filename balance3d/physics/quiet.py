"""Silence pybullet's C-level chatter.

pybullet prints "pybullet build time: ..." when imported and "argv[0]=" when a
client connects, straight to file descriptors 2 and 1.  That would clutter the
command line's output and corrupt its JSON, so both happen inside
:func:`quiet_output`.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import sys

_LIBC = ctypes.CDLL(None)


def _flush() -> None:
    """Flush Python's and C's stdio buffers (C's hold pybullet's output when piped)."""
    sys.stdout.flush()
    sys.stderr.flush()
    _LIBC.fflush(None)


@contextlib.contextmanager
def quiet_output():
    """Send file descriptors 1 and 2 to /dev/null for the duration of the block."""
    _flush()
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:  # no usable descriptors: nothing to protect
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        _flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)
