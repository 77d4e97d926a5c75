"""``tune search``: the target syntax and its loss, the same trials with 1 and 2
workers, a search resumed or continued in its folder giving the trials of one
uninterrupted search, and bad search files refused in one line."""
from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from balance3d.cli import main
from balance3d.tune.search_study import load_search, run_search
from balance3d.tune.sweep import SweepError
from balance3d.tune.targets import TargetError, loss, parse_target

OUTCOMES = {"tipped": "probability", "rest_x": "mean", "settle_s": "mean"}


def test_a_target_reads_terms_joined_by_and():
    terms = parse_target("tipped = 0.5 and settle_s < 1 and rest_x >= -0.2", OUTCOMES)
    assert [(t.outcome, t.op, t.value, t.scale) for t in terms] == [
        ("tipped", "=", 0.5, 1.0), ("settle_s", "<", 1.0, 1.0), ("rest_x", ">=", -0.2, 0.2)]
    # tipped misses by 0.1 (scale 1), settle 1.5 s misses "< 1" by 0.5 s (scale 1 s),
    # rest_x -0.1 meets ">= -0.2"
    assert loss(terms, {"tipped": 0.6, "settle_s": 1.5, "rest_x": -0.1}) == \
        pytest.approx(0.1 ** 2 + 0.5 ** 2)
    assert loss(terms, {"tipped": 0.5, "settle_s": 0.9, "rest_x": 0.0}) == 0.0
    # a mean's miss counts relative to its value: 0.1 m beyond -0.2 is half of it
    assert loss(terms[2:], {"rest_x": -0.3}) == pytest.approx(0.25)


@pytest.mark.parametrize("text, message", [
    ("tipped ~ 0.5", "'tipped ~ 0.5' is not OUTCOME OP VALUE"),
    ("tiped = 0.5", "'tiped = 0.5': no outcome 'tiped' (outcomes: tipped, rest_x, settle_s)"),
    ("tipped = 1.5", "'tipped = 1.5': a rate lies in 0..1"),
    ("tipped = half", "'tipped = half': 'half' is not a number"),
    ("", "must be a text such as"),
])
def test_a_bad_target_is_named(text, message):
    with pytest.raises(TargetError) as caught:
        parse_target(text, OUTCOMES)
    assert str(caught.value).startswith(message)


STUDY = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
seed = 7

[experiment]
parts = ["block_1"]

[search]
target = "right_of_aim = 0.5 and rest_height < 0.02"
trials = {trials}
batch = 2
startup = 2
repetitions = 2

[search.parameters]
"materials.wood.density" = {{low = 400.0, high = 900.0}}
"materials.wood.friction" = {{low = 0.3, high = 0.7}}
"""


def _file(tmp_path, trials: int, name: str = "search.toml"):
    path = tmp_path / name
    path.write_text(STUDY.format(trials=trials))
    return path


def _trials(report) -> pd.DataFrame:
    return pd.DataFrame.from_records(report["table"])


def test_one_and_two_workers_give_the_same_trials(tmp_path, box_drop):
    study = load_search(_file(tmp_path, 4))
    one = run_search(study, workers=1)
    two = run_search(study, out=tmp_path / "two", workers=2)
    pd.testing.assert_frame_equal(_trials(one), _trials(two))
    table = _trials(one)
    assert list(table["trial"]) == [0, 1, 2, 3] and list(table["batch"]) == [0, 0, 1, 1]
    assert table["param.materials.wood.density"].between(400.0, 900.0).all()
    assert table["param.materials.wood.density"].nunique() == 4
    # mechanics: the 25 mm box rests 12.5 mm up, under 0.02 m: only right_of_aim misses
    right = table["right_of_aim.mean"]
    assert list(table["loss"]) == pytest.approx(list((right - 0.5) ** 2))
    best = json.loads((tmp_path / "two" / "best.json").read_text())
    assert best["best"]["loss"] == min(table["loss"])
    assert sorted(p.name for p in (tmp_path / "two").iterdir()) == [
        "best.json", "runs.jsonl", "search.db", "search.png", "study.json", "trials.csv"]


def test_a_continued_search_gives_the_trials_of_one_search(tmp_path, box_drop):
    # 2 random trials, then TPE: the search is continued after a TPE batch, so the
    # next batch's sampler must not depend on what this process asked before
    whole = run_search(load_search(_file(tmp_path, 6, "whole.toml")), workers=1)
    folder = tmp_path / "parts"
    first = run_search(load_search(_file(tmp_path, 4)), out=folder, workers=1)
    assert len(first["table"]) == 4
    runs = len((folder / "runs.jsonl").read_text().splitlines())
    continued = run_search(load_search(_file(tmp_path, 6)), out=folder, workers=1)
    pd.testing.assert_frame_equal(_trials(continued), _trials(whole))
    # the first four trials' runs were kept, not run again
    assert len((folder / "runs.jsonl").read_text().splitlines()) == runs + 2 * 2


def test_a_folder_of_another_search_is_refused(tmp_path, box_drop):
    from balance3d.tune.points import StudyError, prepare_folder

    prepare_folder(tmp_path / "o", load_search(_file(tmp_path, 2)).identity())
    other = _file(tmp_path, 2, "other.toml")
    other.write_text(other.read_text().replace("seed = 7", "seed = 8"))
    with pytest.raises(StudyError, match=r"holds runs of another study \(its sweep differ\)"):
        run_search(load_search(other), out=tmp_path / "o", workers=1)
    assert not (tmp_path / "o" / "runs.jsonl").exists()
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "sweep.json").write_text("{}")
    with pytest.raises(StudyError, match=r"s: holds a sweep's outputs \(sweep.json\)"):
        run_search(load_search(other), out=tmp_path / "s", workers=1)


@pytest.mark.parametrize("change, message", [
    (("trials = 4", "trials = 0"), "search.trials: must be a whole number >= 1, got 0"),
    (("batch = 2", "batchs = 2"), "search.batchs: unknown key (expected one of: target"),
    (("= 0.5 and", "= 0.5 or"), "search.target: 'right_of_aim = 0.5 or rest_height < "
                                "0.02' is not OUTCOME OP VALUE"),
    (('"materials.wood.density" = {low = 400.0, high = 900.0}',
      '"materials.wod.density" = {low = 400.0, high = 900.0}'),
     'search.parameters."materials.wod.density": no material \'wod\''),
    (("high = 900.0", "high = 300.0"),
     'search.parameters."materials.wood.density": low must be below high'),
    (('parts = ["block_1"]', 'parts = ["block_1", "block_2"]'),
     "search.case: 2 cases of box_drop match no case given; choose one by part"),
])
def test_a_bad_search_file_is_one_line_naming_the_key(tmp_path, box_drop, capsys, change,
                                                      message):
    path = _file(tmp_path, 4)
    path.write_text(path.read_text().replace(*change))
    with pytest.raises(SweepError) as caught:
        load_search(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert main(["tune", "search", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "o").exists()


def test_met_needs_the_value_inside_the_interval(tmp_path, box_drop):
    report = run_search(load_search(_file(tmp_path, 2)), workers=1)
    best = report["best"]
    seen = best["observed"]["right_of_aim"]
    inside = bool(seen["low"] <= 0.5 <= seen["high"])
    assert best["met"]["right_of_aim = 0.5"] is inside
    assert best["met"]["rest_height < 0.02"] is True
    assert math.isfinite(best["loss"])
