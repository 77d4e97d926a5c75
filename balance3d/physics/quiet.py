"""Silence pybullet's C-level chatter on standard output.

pybullet prints "pybullet build time: ..." when imported and "argv[0]=" when a
client connects, straight to file descriptor 1.  That would corrupt the command
line's JSON output, so both happen inside :func:`quiet_stdout`.
"""
from __future__ import annotations

import contextlib
import os
import sys


@contextlib.contextmanager
def quiet_stdout():
    """Redirect file descriptor 1 to /dev/null for the duration of the block."""
    sys.stdout.flush()
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
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
