"""``tune fit``'s sequential design on a physics-free coin whose chance of heads is a
known curve of the felt's friction (tests/tune/coin_experiment.py): it finds the
known value within the precision asked, gives the same answer with 1 and 2 workers,
keeps its runs and resumes, narrows a sharp step, and its messages."""
from __future__ import annotations

import json

import pytest

from balance3d.cli import main
from balance3d.games import get_game
from balance3d.tune import fit as fit_module
from balance3d.tune.curves import FitError
from balance3d.tune.engines import RunsLostError
from balance3d.tune.fit import FitRequest, fit_sweep, report_lines
from balance3d.tune.sweep import load_sweep
from coin_experiment import MIDDLE, STEP

PARAM = "materials.felt.friction"
SWEEP = '[sweep]\nscene = "tilted"\nexperiment = "coin"\nseed = 2\n'
#: the request: the coin's middle searched in [0.2, 0.8] to a half-width of 0.04
REQUEST = FitRequest(PARAM, 0.2, 0.8, "heads", 0.5, points=5, repetitions=4, check=8,
                     precision=0.04, max_runs=200)


@pytest.fixture
def coin_sweep(tmp_path, coin):
    path = tmp_path / "coin.toml"
    path.write_text(SWEEP)
    return load_sweep(path)


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    """REQUEST's report with one worker (its wall time left out)."""
    path = tmp_path_factory.mktemp("coin") / "coin.toml"
    path.write_text(SWEEP)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(get_game("tilted").experiments, "coin", "coin_experiment:Coin")
        report = fit_sweep(load_sweep(path), REQUEST, workers=1, progress=False)
    report.pop("wall_s")
    return report


def test_the_design_finds_the_known_middle_within_the_precision(one_worker):
    report = one_worker
    fit, design = report["fit"], report["design"]
    assert design["stopped"] == "precision"
    assert (fit["high"] - fit["low"]) / 2 <= REQUEST.precision
    assert fit["low"] <= MIDDLE <= fit["high"]
    # the opening, then batches of the same size, none beyond the budget
    assert [b["runs"] for b in design["batches"]] == [4] * len(design["batches"])
    assert design["runs"] == 4 * len(design["batches"]) <= REQUEST.max_runs
    assert len(design["batches"]) > REQUEST.points
    # later batches go where the answer is, not to the range's ends
    later = [b["value"] for b in design["batches"][REQUEST.points:]]
    assert all(0.35 < v < 0.65 for v in later), later


def test_one_and_two_workers_give_the_same_design_and_answer(coin_sweep, one_worker):
    two = fit_sweep(coin_sweep, REQUEST, workers=2, progress=False)
    two.pop("wall_s")
    assert two == one_worker


def test_an_interrupted_fit_resumes_to_the_uninterrupted_answer(coin_sweep, tmp_path,
                                                               monkeypatch, one_worker):
    whole = one_worker
    real = fit_module.runner.execute
    calls = []

    class Stopped(Exception):
        """Stands for Ctrl-C, SIGTERM or a lost machine between two batches."""

    def stop_at_the_third_batch(todo, *args, **kwargs):
        calls.append(len(todo))
        if calls == [5 * 4, 4, 4]:
            raise Stopped
        return real(todo, *args, **kwargs)

    monkeypatch.setattr(fit_module.runner, "execute", stop_at_the_third_batch)
    out = tmp_path / "stopped"
    with pytest.raises(Stopped):
        fit_sweep(coin_sweep, REQUEST, out=out, workers=1, progress=False)
    kept = (out / "fit_runs.jsonl").read_text().splitlines()
    assert len(kept) == calls[0] + calls[1] == 5 * 4 + 4
    calls.clear()
    calls.append("resumed")
    resumed = fit_sweep(coin_sweep, REQUEST, out=out, workers=1, progress=False)
    # the kept runs were not run again: the first call ran the third batch
    assert calls[1] == 4
    assert sum(calls[1:]) == whole["design"]["runs"] - len(kept) + REQUEST.check
    resumed.pop("wall_s")
    assert resumed == whole
    assert json.loads((out / "fit.json").read_text())["fit"] == whole["fit"]


def test_a_refused_fit_keeps_its_runs_and_says_so(tmp_path, coin, capsys):
    path = tmp_path / "coin.toml"
    path.write_text(SWEEP)
    out = tmp_path / "fit"
    # the coin never shows heads below 0.3: no friction in [0.05, 0.15] halves it
    args = ["tune", "fit", str(path), "--param", PARAM, "--within", "0.05", "0.15",
            "--outcome", "heads", "--target", "0.5", "--points", "3", "--repetitions",
            "4", "--out", str(out), "--workers", "1", "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "every run gave false across [0.05, 0.15]" in err and err.count("\n") == 1
    assert f"the finished runs are in {out}: run the same command again" in err
    assert len((out / "fit_runs.jsonl").read_text().splitlines()) == 3 * 4


def test_a_sharp_step_is_bracketed_down_to_the_precision(tmp_path, coin):
    """The old fit refused a knife edge as "between 0.158 and 0.158"; the design
    bisects the gap until it is narrower than asked."""
    path = tmp_path / "step.toml"
    path.write_text(SWEEP + "\n[experiment]\nstep = true\n")
    request = FitRequest(PARAM, 0.157, 0.160, "heads", 0.5, points=4, repetitions=2,
                         check=4, precision=0.0001, max_runs=60)
    report = fit_sweep(load_sweep(path), request, workers=1, progress=False)
    fit = report["fit"]
    assert fit["method"] == "bracket" and report["design"]["stopped"] == "precision"
    # a friction of STEP itself gives tails: the change lies in [low, high)
    assert fit["low"] <= STEP < fit["high"] and fit["high"] - fit["low"] <= 2 * 0.0001


def test_the_shape_hint_shows_only_below_p_005(one_worker):
    report = json.loads(json.dumps(one_worker))
    hint = "(a small p: the rates stray from the logistic)"
    for p, shown in ((0.89, False), (0.051, False), (0.049, True), (0.009, True)):
        report["fit"]["deviance_p"] = p
        shape = [line for line in report_lines(report) if line.startswith("shape:")]
        assert (hint in shape[0]) == shown, p


def test_a_param_typo_is_named_as_a_typo(tmp_path, coin, capsys):
    path = tmp_path / "coin.toml"
    path.write_text(SWEEP + '\n[parameters]\n"materials.felt.friction" = [0.3, 0.5, 0.7]\n')
    args = ["tune", "fit", str(path), "--param", "materials.flet.friction", "--within",
            "0.2", "0.8", "--outcome", "heads", "--target", "0.5", "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("balance3d tune: error: --param materials.flet.friction: no "
                          "material 'flet'") and err.count("\n") == 1
    assert "has 3 values" not in err


def test_a_lost_run_says_how_to_resume(tmp_path, coin, capsys, monkeypatch):
    path = tmp_path / "coin.toml"
    path.write_text(SWEEP)

    def lose(*args, **kwargs):
        raise RunsLostError("Ray lost the run of combination 0, case 0, repetition 1")

    monkeypatch.setattr(fit_module.runner, "execute", lose)
    out = tmp_path / "fit"
    assert main(["tune", "fit", str(path), "--param", PARAM, "--within", "0.2", "0.8",
                 "--outcome", "heads", "--target", "0.5", "--out", str(out),
                 "--quiet"]) == 2
    assert capsys.readouterr().err == (
        f"balance3d tune: error: Ray lost the run of combination 0, case 0, repetition 1; "
        f"the finished runs are in {out}: run the same command again to resume\n")


def test_a_fit_folder_and_a_sweep_folder_refuse_each_other(tmp_path, coin, capsys):
    path = tmp_path / "coin.toml"
    path.write_text(SWEEP)
    fit_args = ["--param", PARAM, "--within", "0.2", "0.8", "--outcome", "heads",
                "--target", "0.5", "--check", "4", "--max-runs", "20", "--workers", "1",
                "--quiet"]
    fit_out, sweep_out = tmp_path / "fit", tmp_path / "sweep"
    assert main(["tune", "fit", str(path), *fit_args, "--out", str(fit_out)]) == 0
    assert main(["tune", str(path), "--out", str(sweep_out), "--workers", "1",
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["tune", str(path), "--out", str(fit_out), "--quiet"]) == 2
    assert capsys.readouterr().err == (f"balance3d tune: error: {fit_out}: holds a fit's "
                                       f"outputs (fit_request.json); give the sweep another "
                                       f"--out folder\n")
    assert main(["tune", "fit", str(path), *fit_args, "--out", str(sweep_out)]) == 2
    assert capsys.readouterr().err == (f"balance3d tune: error: {sweep_out}: holds a "
                                       f"sweep's outputs (sweep.json); give the fit another "
                                       f"--out folder\n")


def test_a_fit_of_another_case_or_seed_is_refused_in_the_folder(coin_sweep, tmp_path):
    small = FitRequest(PARAM, 0.2, 0.8, "heads", 0.5, points=3, repetitions=2, check=2,
                       max_runs=6)
    fit_sweep(coin_sweep, small, out=tmp_path / "f", workers=1, progress=False)
    with pytest.raises(fit_module.outputs.OutputError, match="holds runs of another fit "
                                                             r"\(its sweep differ\)"):
        fit_sweep(coin_sweep.replace(seed=3), small, out=tmp_path / "f", workers=1,
                  progress=False)


def test_max_runs_below_the_opening_is_refused(coin_sweep):
    with pytest.raises(FitError, match=r"^--max-runs: at least the opening's 5 x 4 = 20 "
                                       r"runs, got 12$"):
        fit_sweep(coin_sweep, FitRequest(PARAM, 0.2, 0.8, "heads", 0.5, max_runs=12),
                  progress=False)
