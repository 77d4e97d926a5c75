"""The runner: the same rows whatever the workers; runs appended as they finish and
resumed; a folder holding another sweep refused; each run seeded by itself alone."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from balance3d.tune.outputs import OutputError
from balance3d.tune.runner import run_sweep
from balance3d.tune.sweep import load_sweep

SWEEP = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 2
seed = 11

[parameters]
"materials.wood.density" = [500.0, 800.0]

[experiment]
parts = ["block_1", "block_2"]
"""


@pytest.fixture
def sweep(tmp_path, box_drop):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    return load_sweep(path)


@pytest.fixture
def first(sweep, tmp_path):
    """The sweep run once with two workers into tmp_path/a."""
    return run_sweep(sweep, out=tmp_path / "a", workers=2, progress=False)


def test_rows_cover_every_run_sorted(first):
    assert len(first) == 2 * 2 * 2
    assert list(first.columns) == ["combination", "case", "repetition", "run_seed",
                                   "param.materials.wood.density", "case.part",
                                   "out.rest_height", "out.right_of_aim"]
    keys = list(zip(first["combination"], first["case"], first["repetition"]))
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert first["run_seed"].nunique() == len(first)
    # mechanics: a 25 mm block at rest on the table has its centre 12.5 mm up (less
    # the collision margin's rounding, 0.5 mm at most)
    assert first["out.rest_height"].between(0.012, 0.0125).all()


def test_one_worker_gives_the_same_rows_as_two(sweep, first):
    one = run_sweep(sweep, workers=1, progress=False)
    pd.testing.assert_frame_equal(one, first)


def test_outputs_written(first, tmp_path):
    folder = tmp_path / "a"
    pd.testing.assert_frame_equal(pd.read_parquet(folder / "runs.parquet"), first)
    lines = (folder / "runs.jsonl").read_text().splitlines()
    assert len(lines) == len(first)
    assert (folder / "sweep.toml").read_text() == SWEEP
    timing = json.loads((folder / "timing.json").read_text())
    assert timing["runs"] == len(first) and timing["workers"] == 2
    summary = pd.read_csv(folder / "summary.csv")
    assert list(summary["n"]) == [2, 2, 2, 2]


def test_resume_runs_only_the_missing_runs(sweep, first, tmp_path):
    done, folder = tmp_path / "a", tmp_path / "b"
    folder.mkdir()
    for name in ("sweep.json", "sweep.toml"):
        (folder / name).write_bytes((done / name).read_bytes())
    lines = (done / "runs.jsonl").read_text().splitlines()
    kept = [json.loads(line) for line in lines[:3]]
    # a kept run marked so that a second run of it would show: resume must keep it
    kept[0]["out.rest_height"] = 1.0
    cut = lines[3][: len(lines[3]) // 2]          # a stop in the middle of a line
    (folder / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept) + cut)
    resumed = run_sweep(sweep, out=folder, workers=2, progress=False)
    timing = json.loads((folder / "timing.json").read_text())
    assert timing["runs"] == len(first) - 3
    marked = (resumed["combination"] == kept[0]["combination"]) & \
        (resumed["case"] == kept[0]["case"]) & (resumed["repetition"] == kept[0]["repetition"])
    assert resumed.loc[marked, "out.rest_height"].tolist() == [1.0]
    resumed.loc[marked, "out.rest_height"] = first.loc[marked, "out.rest_height"]
    pd.testing.assert_frame_equal(resumed, first)
    assert len((folder / "runs.jsonl").read_text().splitlines()) == len(first)


def test_a_folder_of_another_sweep_is_refused(sweep, first, tmp_path):
    with pytest.raises(OutputError) as err:
        run_sweep(sweep.replace(seed=12), out=tmp_path / "a", progress=False)
    assert str(tmp_path / "a") in str(err.value) and "seed" in str(err.value)


def test_a_runs_seed_depends_on_its_own_values_only(sweep, first):
    alone = run_sweep(sweep.replace(parameters={"materials.wood.density": (800.0,)}),
                      workers=1, progress=False)
    same = first[first["param.materials.wood.density"] == 800.0].reset_index(drop=True)
    same["combination"] = 0
    pd.testing.assert_frame_equal(alone, same)
