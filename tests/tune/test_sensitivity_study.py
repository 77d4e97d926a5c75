"""``tune sensitivity`` over a game's runs: the budget stated before any run, the
runs kept and resumed in the output folder, the outputs written, and bad study files
refused in one line naming the key."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from balance3d.cli import main
from balance3d.tune.sensitivity_study import (bundled_studies, load_sensitivity,
                                              run_sensitivity)
from balance3d.tune.sweep import SweepError

STUDY = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
seed = 3

[experiment]
parts = ["block_1"]

[sensitivity]
outcome = "right_of_aim"
method = "sobol"
n = 2
repetitions = 2

[sensitivity.parameters]
"materials.wood.density" = {low = 400.0, high = 900.0}
"materials.wood.friction" = {low = 0.3, high = 0.7}
"""


@pytest.fixture
def study_file(tmp_path, box_drop):
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    return path


def test_the_budget_is_printed_before_the_runs_and_the_outputs_written(study_file,
                                                                       tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["tune", "sensitivity", str(study_file), "--out", str(out), "--quiet",
                 "--workers", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # N(2D+2) with N = 2 and D = 2 parameters: 12 points, 2 runs each
    assert lines[0] == ("sobol: D = 2 parameters, N(2D+2) = 2 x 6 = 12 points x 2 "
                        "repetitions = 24 runs")
    # with D = 2 Saltelli's A-with-B's-column-1 point is B-with-A's-column-2: each
    # block of 6 points holds 2 such pairs, each pair's runs made once
    assert len((out / "runs.jsonl").read_text().splitlines()) == 2 * (6 - 2) * 2
    report = json.loads((out / "sensitivity.json").read_text())
    assert report["runs"] == 24 and report["points"] == 12
    table = pd.read_csv(out / "indices.csv")
    assert list(table["parameter"]) == ["materials.wood.density", "materials.wood.friction"]
    assert (out / "sensitivity.png").stat().st_size > 0


def test_a_stopped_study_resumes_from_its_runs(study_file, tmp_path):
    study = load_sensitivity(study_file)
    whole = run_sensitivity(study, workers=1)
    out = tmp_path / "o"
    run_sensitivity(study, out=out, workers=1)
    runs = out / "runs.jsonl"
    lines = runs.read_text().splitlines()
    kept = [json.loads(line) for line in lines[:10]]
    # a kept run marked: were it run again, its outcome would come back unmarked
    kept[0]["out.right_of_aim"] = not kept[0]["out.right_of_aim"]
    runs.write_text("".join(json.dumps(row) + "\n" for row in kept))
    again = run_sensitivity(study, out=out, workers=1)
    assert len(runs.read_text().splitlines()) == 16
    assert json.loads(runs.read_text().splitlines()[0]) == kept[0]
    assert again["noise"] != whole["noise"]  # the marked run was used, not rerun
    kept[0]["out.right_of_aim"] = not kept[0]["out.right_of_aim"]
    runs.write_text("".join(json.dumps(row) + "\n" for row in kept))
    restored = run_sensitivity(study, out=out, workers=1)
    assert json.dumps(restored["indices"]) == json.dumps(whole["indices"])  # NaN alike
    assert restored["noise"] == whole["noise"]


@pytest.mark.parametrize("change, message", [
    (('outcome = "right_of_aim"', 'outcome = "tipped"'),
     "sensitivity.outcome: box_drop has no outcome 'tipped' (outcomes: rest_height, "
     "right_of_aim)"),
    (('outcome = "right_of_aim"', 'outcome = ["right_of_aim"]'),
     "sensitivity.outcome: box_drop has no outcome ['right_of_aim']"),
    (("n = 2", "n = 6"), "sensitivity.n: Sobol sampling takes a power of 2 (>= 2), got 6"),
    (('method = "sobol"', 'method = "fast"'),
     "sensitivity.method: 'fast' is not one of sobol, morris"),
    (("repetitions = 2", "repetitions = 0"),
     "sensitivity.repetitions: must be a whole number >= 1, got 0"),
    (("[sensitivity]\n", "[sensitivity]\nsamples = 3\n"),
     "sensitivity.samples: unknown key (expected one of: outcome, case"),
    (('"materials.wood.friction" = {low = 0.3, high = 0.7}',
      '"materials.wood.friction" = [0.3, 0.7]'),
     'sensitivity.parameters."materials.wood.friction": must be {low = NUMBER, high = '
     'NUMBER}'),
    (("[sensitivity]", "[sensitivityy]"), "sensitivityy: unknown section"),
    (('scene = "tilted"', 'scene = "tilted"\nrepetitions = -1'),
     "sweep.repetitions: must be a whole number >= 1, got -1"),
])
def test_a_bad_study_file_is_one_line_naming_the_key(study_file, tmp_path, capsys, change,
                                                     message):
    study_file.write_text(STUDY.replace(*change))
    with pytest.raises(SweepError) as caught:
        load_sensitivity(study_file)
    assert str(caught.value).startswith(f"{study_file}: {message}")
    assert main(["tune", "sensitivity", str(study_file), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "o").exists()


def test_a_study_file_without_its_table_says_so(tmp_path, box_drop):
    path = tmp_path / "plain.toml"
    path.write_text(STUDY.split("[sensitivity]")[0])
    with pytest.raises(SweepError, match=r"plain.toml: sensitivity: missing \(a sensitivity "
                                         r"study is stated in a \[sensitivity\] table"):
        load_sensitivity(path)


def test_the_bundled_studies_load():
    names = bundled_studies()
    assert "tribalance-plate-sensitivity" in names
    study = load_sensitivity("tribalance-plate-sensitivity")
    assert study.points() == 16 * (2 * 3 + 2)
