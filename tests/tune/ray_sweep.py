"""The small sweep the Ray fault tests run (a worker or a node killed mid-sweep), and
the title by which they find a worker running one of its tasks."""
from __future__ import annotations

from pathlib import Path

from balance3d.tune.sweep import Sweep, load_sweep

# 2 densities x 8 repetitions of one drop: 16 runs, several rounds of tasks on 2 CPUs
SWEEP = """\
[sweep]
scene = "tilted"
experiment = "drops"
repetitions = 8
seed = {seed}

[parameters]
"materials.block_wood.density" = [400.0, 650.0]

[experiment]
blocks = [2]
sections = [2]
load = [{{block = 2, x = -0.13}}]
"""
RUNS = 16
#: The title a Ray worker process has while it runs one of the sweep's tasks.
TASK_TITLE = "ray::run_task"


def write_sweep(folder: Path, seed: int) -> tuple[Path, Sweep]:
    """The sweep with ``seed``, written to ``folder/s.toml``: (its path, it loaded)."""
    path = folder / "s.toml"
    path.write_text(SWEEP.format(seed=seed))
    return path, load_sweep(path)
