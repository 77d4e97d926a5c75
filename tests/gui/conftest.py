"""Fixtures of the window tests: an Xvfb display for the test session (started on a
free display number, stopped at the end) and xdotool to drive it with real X events.

A missing Xvfb, xdotool or Mesa GL driver FAILS the tests that need them, naming
what is missing (``.ci/run`` installs them); nothing is skipped.
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess

import pytest

#: Pixels and depth of the virtual screen (the window is 1280x720 inside it).
SCREEN = "1600x900x24"
#: Mesa's software GL driver files, one of which must exist.
MESA_DRIVERS = ("/usr/lib/*/dri/swrast_dri.so", "/usr/lib/dri/swrast_dri.so",
                "/usr/lib64/dri/swrast_dri.so")


def missing_tools() -> list[str]:
    """What the real-window tests need and this machine lacks (Debian package names)."""
    missing = []
    if shutil.which("Xvfb") is None:
        missing.append("Xvfb (Debian package xvfb)")
    if shutil.which("xdotool") is None:
        missing.append("xdotool (Debian package xdotool)")
    if not any(glob.glob(pattern) for pattern in MESA_DRIVERS):
        missing.append("Mesa's software GL driver swrast_dri.so (Debian package "
                       "libgl1-mesa-dri)")
    return missing


def _read_line(fd: int) -> str:
    """Read ``fd`` up to its first newline or its end (blocking), as text."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 64)
        if not chunk:
            break
        data += chunk
    return data.decode(errors="replace").strip()


@pytest.fixture(scope="session")
def xvfb():
    """The DISPLAY name (":N") of an Xvfb server running for the test session.  Xvfb
    picks a free display number itself and writes it to a pipe once it accepts
    connections (``-displayfd``), so several test processes can each start one, and
    the wait is on that event, not on a clock."""
    missing = missing_tools()
    if missing:
        pytest.fail("the window tests need " + ", ".join(missing) + "; .ci/run installs them")
    ready, told = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(told), "-screen", "0", SCREEN,
                               "-nolisten", "tcp"], pass_fds=(told,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(told)
    try:
        number = _read_line(ready)
    finally:
        os.close(ready)
    if not number.isdigit():
        server.kill()
        err = server.stderr.read().decode(errors="replace").strip().splitlines()
        pytest.fail(f"Xvfb did not start: {err[-1] if err else 'no output'}")
    yield f":{number}"
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture
def xdotool(xvfb):
    """``xdotool(*args)``: run xdotool on the test display; its stdout."""
    env = dict(os.environ, DISPLAY=xvfb)

    def run(*args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                              timeout=30)
        if done.returncode != 0:
            pytest.fail(f"xdotool {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    return run
