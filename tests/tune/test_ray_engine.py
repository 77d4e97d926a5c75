"""The Ray engine on a local Ray instance with 2 CPUs gives the local engine's rows."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import ray

from balance3d.tune.runner import run_sweep
from balance3d.tune.sweep import load_sweep

SWEEP = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 2
seed = 5

[parameters]
"materials.felt.friction" = [0.6, 0.9]

[experiment]
parts = ["block_1", "block_2"]
"""
ROOT = Path(__file__).resolve().parents[2]


def test_ray_rows_equal_the_local_rows(tmp_path, box_drop, monkeypatch):
    path = tmp_path / "s.toml"
    path.write_text(SWEEP)
    sweep = load_sweep(path)
    local = run_sweep(sweep, workers=2, progress=False)
    # Ray's workers inherit the environment: they import this checkout and the test
    # experiment's module
    paths = [str(Path(__file__).parent), str(ROOT), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_sweep(sweep, out=tmp_path / "ray", engine="ray", progress=False)
    finally:
        ray.shutdown()
    pd.testing.assert_frame_equal(remote, local)
    assert len(remote) == 2 * 2 * 2
    assert pd.read_parquet(tmp_path / "ray" / "runs.parquet").equals(remote)
