"""Silence pybullet's C-level chatter on standard output.

pybullet prints "pybullet build time: ..." when imported and "argv[0]=" when a
client connects, straight to file descriptor 1.  That would corrupt the command
line's JSON output, so both happen inside :func:`quiet_stdout`.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import sys

_LIBC = ctypes.CDLL(None)


def _flush_c_stdio() -> None:
    """Flush C's stdio buffers (pybullet's printf output sits there when piped)."""
    _LIBC.fflush(None)


@contextlib.contextmanager
def quiet_stdout():
    """Redirect file descriptor 1 to /dev/null for the duration of the block."""
    sys.stdout.flush()
    _flush_c_stdio()
    try:
        saved = os.dup(1)
    except OSError:  # no usable stdout: nothing to protect
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        _flush_c_stdio()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
