"""A local sweep's processes (the fork server and its workers) end with the command
when only the command's process is killed, by SIGKILL or SIGTERM, mid-sweep."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from proc_table import HAS_PROC, alive, descendants, poll

ROOT = Path(__file__).resolve().parents[2]
#: A bundled sweep of 60 drops: far more than run before the first one is seen.
SWEEP, RUNS = "tilted-light-blocks", 60

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads /proc (Linux)")


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
        assert poll(lambda: runs.exists() and runs.read_text().count("\n") >= 1 or
                    command.poll() is not None), "no run finished"
        assert command.poll() is None, command.stderr.read().decode()
        pool = descendants(command.pid)
        # the fork server and the two workers at least
        assert len(pool) >= 3, pool
        command.send_signal(how)
        command.wait()
        assert poll(lambda: not any(map(alive, pool)))
        assert [p for p in pool if alive(p)] == []
        assert 1 <= runs.read_text().count("\n") < RUNS
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()
