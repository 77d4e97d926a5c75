"""``balance3d tune fit``: one real fit of Tilted's drops on a tiny budget, end to end
from the command line, and the fit's refusals (one line, exit status 2)."""
from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from balance3d.cli import main
from balance3d.tune.curves import FitError
from balance3d.tune.fit import FitRequest, fit_sweep
from balance3d.tune.summary import wilson
from balance3d.tune.sweep import load_sweep

# A 2u block dropped on section 2 of a beam holding a 2u block 13 cm out on its low
# side: the drop's moment (15 cm out) only just beats the load's, and the beam's own
# weight holds it down, so light blocks tip it less often than heavy ones.
SWEEP = """\
[sweep]
scene = "tilted"
experiment = "drops"
seed = 5

[parameters]
"materials.block_wood.density" = [650.0]

[experiment]
blocks = [1, 2]
sections = [2]
load = [{block = 2, x = -0.13}]
"""
DENSITY = "materials.block_wood.density"
FIT = ["--param", DENSITY, "--within", "200", "650", "--outcome", "tipped",
       "--target", "0.5", "--points", "4", "--repetitions", "8", "--check", "8",
       "--max-runs", "32"]


@pytest.fixture
def sweep_file(tmp_path):
    path = tmp_path / "drops.toml"
    path.write_text(SWEEP)
    return path


def test_a_real_fit_finds_checks_and_writes_its_answer(sweep_file, tmp_path, capsys):
    out = tmp_path / "fit"
    assert main(["tune", "fit", str(sweep_file), *FIT, "--case", "block=2",
                 "--out", str(out), "--workers", "2", "--quiet"]) == 0
    printed = capsys.readouterr().out
    report = json.loads((out / "fit.json").read_text())
    fit, check = report["fit"], report["check"]
    assert report["case"] == {"block": 2}
    # mechanics: a heavier drop against the same fixed beam tips more often
    assert fit["model"] == "logistic" and fit["coefficients"][1] > 0
    assert fit["low"] < fit["value"] < fit["high"] and 200.0 <= fit["value"] <= 650.0
    runs = pd.read_parquet(out / "fit_runs.parquet")
    assert len(runs) == 4 * 8 and set(runs["case.block"]) == {2}
    assert sorted(set(runs[f"param.{DENSITY}"])) == [200.0, 350.0, 500.0, 650.0]
    checked = pd.read_parquet(out / "check_runs.parquet")
    assert len(checked) == 8 and set(checked[f"param.{DENSITY}"]) == {check["value"]}
    assert check["value"] == pytest.approx(fit["value"], rel=1e-3)
    tipped = int(checked["out.tipped"].sum())
    assert check["mean"] == tipped / 8
    assert (check["low"], check["high"]) == pytest.approx(wilson(tipped, 8))
    assert check["target_inside"] == (check["low"] <= 0.5 <= check["high"])
    assert f"found: {DENSITY} (kg/m^3) = " in printed
    assert ("inside" if check["target_inside"] else "OUTSIDE") in printed
    assert (out / "fit.png").read_bytes()[:4] == b"\x89PNG"
    # the same fit with one worker, asked through the notebook API: the same runs,
    # so the same answer
    from balance3d.tune import fit_target

    again = fit_target(sweep_file, DENSITY, 200.0, 650.0, "tipped", 0.5, case={"block": 2},
                       points=4, repetitions=8, check=8, max_runs=32, workers=1)
    assert again["fit"]["value"] == fit["value"] and again["check"] == check


@pytest.mark.parametrize("extra, words", [
    (["--outcome", "tilted"], "--outcome: drops has no outcome 'tilted' (outcomes: tipped"),
    (["--target", "1.5"], "--target: a rate strictly between 0 and 1, got 1.5"),
    (["--within", "500", "200"], "--within: LO must be below HI"),
    (["--points", "2"], "--points: at least 3 for a logistic fit, got 2"),
    (["--model", "linear"], "--model: a probability outcome is fitted with logistic"),
    ([], "--case: 2 cases of drops match no --case; choose one with --case for block"),
    (["--case", "size=2"], "--case size: drops has no case key 'size' (keys: block, section)"),
    (["--case", "block=4"], "--case: no case of drops has block=4 (block: 1, 2)"),
    (["--case", "block"], "--case block: must be KEY=VALUE"),
    (["--address", "head:6379"], "--address: only with --engine ray"),
])
def test_bad_requests_are_one_line_before_any_run(sweep_file, capsys, extra, words):
    args = ["tune", "fit", str(sweep_file), *FIT, *extra, "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_other_parameters_must_hold_one_value(sweep_file, tmp_path):
    path = tmp_path / "two.toml"
    path.write_text(SWEEP.replace('[650.0]', '[650.0]\n"materials.beam_wood.density" = '
                                             '[500.0, 650.0]'))
    request = FitRequest(DENSITY, 200.0, 500.0, "tipped", 0.5, {"block": 2})
    with pytest.raises(FitError, match=r'parameters\."materials.beam_wood.density": has 2 '
                                       r'values; a fit varies --param alone'):
        fit_sweep(load_sweep(path), request, progress=False)


def test_a_target_out_of_reach_is_one_line_naming_the_range(sweep_file, capsys):
    """Heavy blocks tip this beam in every drop: no density in [900, 1200] halves it."""
    args = ["tune", "fit", str(sweep_file), "--param", DENSITY, "--within", "900", "1200",
            "--outcome", "tipped", "--target", "0.5", "--points", "3", "--repetitions", "4",
            "--case", "block=2", "--workers", "2", "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "every run gave true across [900, 1200]" in err and err.count("\n") == 1


@pytest.mark.parametrize("extra, words", [
    (["--within", "100", "inf"], "--within: LO and HI must be finite numbers, got 100 inf"),
    (["--within", "nan", "650"], "--within: LO and HI must be finite numbers, got nan 650"),
    (["--target", "inf"], "--target: must be a finite number, got inf"),
])
def test_a_non_finite_request_is_one_line_and_no_numpy_warning(sweep_file, capsys, extra,
                                                               words):
    args = ["tune", "fit", str(sweep_file), *FIT, *extra, "--quiet"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(args) == 2
    assert [str(w.message) for w in caught] == []
    assert capsys.readouterr().err == f"balance3d tune: error: {words}\n"
