"""A local sweep's processes (the fork server and its workers) end with the command
when only the command's process is killed, by SIGKILL or SIGTERM, mid-sweep."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: A bundled sweep of 60 drops: far more than run before the first one is seen.
SWEEP = "tilted-light-blocks"
#: s, pause between two looks at the output folder or the process table.
POLL_S = 0.1
#: Looks before giving up (generous: 3,000 x 0.1 s, 5 minutes of an idle machine).
POLLS = 3000

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="reads the process table from /proc (Linux)")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state letter, start time in clock ticks) of ``pid``, None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19])


def _descendants(root: int) -> set[tuple[int, int]]:
    """(pid, start time) of every live process below ``root``."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            table[int(entry.name)] = stat
    found, frontier = set(), [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, state, start) in table.items():
            if ppid == parent and state != "Z":
                found.add((pid, start))
                frontier.append(pid)
    return found


def _alive(process: tuple[int, int]) -> bool:
    """The same process (pid and start time) still runs (a zombie has ended)."""
    stat = _stat(process[0])
    return stat is not None and stat[2] == process[1] and stat[1] != "Z"


def _poll(condition) -> bool:
    for _ in range(POLLS):
        if condition():
            return True
        time.sleep(POLL_S)
    return condition()


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill", "term"])
def test_killing_the_command_leaves_no_pool_process(tmp_path, how):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    command = subprocess.Popen(
        [sys.executable, "-m", "balance3d.cli", "tune", "run", SWEEP, "--out", str(out),
         "--workers", "2", "--quiet"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        runs = out / "runs.jsonl"
        assert _poll(lambda: runs.exists() and runs.read_text().count("\n") >= 1 or
                     command.poll() is not None), "no run finished"
        assert command.poll() is None, command.stderr.read().decode()
        pool = _descendants(command.pid)
        # the fork server and the two workers at least
        assert len(pool) >= 3, pool
        command.send_signal(how)
        command.wait()
        assert _poll(lambda: not any(map(_alive, pool)))
        assert [p for p in pool if _alive(p)] == []
        finished = runs.read_text().count("\n")
        assert 1 <= finished < 60
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
