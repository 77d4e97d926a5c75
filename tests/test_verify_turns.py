"""``replay --verify`` re-judges each turn from the state the record kept before it.

Each turn is identical, within tolerance (the verdict's declared lengths, angles
and times differ by at most :mod:`balance3d.verify`'s tolerances) or different
(anything else: a coin, a yes/no, a number beyond its tolerance, a number without a
declared unit).  A difference stays at its turn; ``--strict`` demands identical
bits and ``--from-start`` plays the whole game again.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from balance3d import cli, verify
from balance3d import play as playing
from balance3d import record as rec
from balance3d.games.tribalance.verdicts import TribalanceVerdict
from balance3d.games.tower.verdicts import TowerDropVerdict

#: A short solo game of the random bot (drops, returns, purchases).
GAME = ["simulate", "tilted", "--variant", "solo", "--bots", "random", "--seed", "3"]


@pytest.fixture(scope="module")
def solo(tmp_path_factory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("turns") / "solo.json"
    assert cli.main(GAME + ["--record", str(path), "--quiet"]) == 0
    return path, json.loads(path.read_text())


def drops(data: dict) -> list[int]:
    return [i for i, t in enumerate(data["turns"]) if t["action"]["type"] == "drop"]


def verify_cli(data: dict, tmp_path: Path, capsys, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "edited.json"
    path.write_text(rec.dumps(data))
    code = cli.main(["replay", str(path), "--verify", "--quiet", *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_fresh_record_is_identical_turn_by_turn(solo, tmp_path, capsys):
    path, data = solo
    n = len(data["turns"])
    code, out, err = verify_cli(data, tmp_path, capsys, "--strict")
    assert code == 0 and err == ""
    assert out.endswith(f"verify: {n} turns: {n} identical, 0 within tolerance, 0 different\n")


def test_a_time_nudged_within_its_tolerance_is_within_tolerance_and_fails_strict(
        solo, tmp_path, capsys):
    _, data = solo
    data = json.loads(json.dumps(data))
    i = drops(data)[0]
    nudge = 0.5 * verify.TIME_TOLERANCE_S
    data["turns"][i]["verdict"]["settle_time"] += nudge
    n = len(data["turns"])
    code, out, err = verify_cli(data, tmp_path, capsys)
    assert code == 0
    assert f"within tolerance: turns[{i}].verdict.settle_time: recorded " in out
    assert out.endswith(f"verify: {n} turns: {n - 1} identical, 1 within tolerance (largest: "
                        f"turns[{i}].verdict.settle_time {nudge:.3g} s), 0 different\n")
    code, out, err = verify_cli(data, tmp_path, capsys, "--strict")
    assert code == 1 and "1 within tolerance" in err


@pytest.mark.parametrize("field, change", [
    ("settle_time", lambda v: v + 2 * verify.TIME_TOLERANCE_S),   # beyond the tolerance
    ("coins_won", lambda v: v + 1),                               # coins: exact
    ("tilted", lambda v: not v),                                  # a yes/no
])
def test_a_change_beyond_tolerance_or_of_a_count_or_a_yes_no_is_different(
        solo, tmp_path, capsys, field, change):
    _, data = solo
    data = json.loads(json.dumps(data))
    i = drops(data)[0]
    data["turns"][i]["verdict"][field] = change(data["turns"][i]["verdict"][field])
    n = len(data["turns"])
    code, out, err = verify_cli(data, tmp_path, capsys)
    assert code == 1
    assert f"different: turns[{i}].verdict.{field}: recorded " in err
    assert err.endswith(f"verify: {n} turns: {n - 1} identical, 0 within tolerance, "
                        f"1 different\n")


def test_a_difference_stays_at_its_turn_and_from_start_sees_it_spread(solo, tmp_path, capsys):
    _, data = solo
    data = json.loads(json.dumps(data))
    k = drops(data)[0]
    assert k + 1 < len(data["turns"])
    data["turns"][k]["action"]["height"] += 0.005       # released 5 mm higher: another fall
    record = rec.parse_record(json.loads(rec.dumps(data)))
    report = verify.verify_turns(record, playing.record_scene(record))
    results = [t.result for t in report.turns]
    assert results[k] == verify.DIFFERENT
    assert results[:k] + results[k + 1:] == [verify.IDENTICAL] * (len(results) - 1)
    # played from the start, the game after the altered turn goes another way
    code, _, err = verify_cli(data, tmp_path, capsys, "--from-start")
    assert code == 1 and err.startswith("verify: FAILED: ")


def test_an_altered_kept_state_shows_in_the_turn_before_it_and_the_one_after_it(
        solo, tmp_path, capsys):
    _, data = solo
    data = json.loads(json.dumps(data))
    k = drops(data)[0]
    data["turns"][k]["state"]["game_state"]["bank"] = -999     # not what turn k left
    record = rec.parse_record(json.loads(rec.dumps(data)))
    report = verify.verify_turns(record, playing.record_scene(record))
    assert report.turns[k].result == verify.DIFFERENT
    assert report.turns[k].findings[0].where == f"turns[{k}].state.game_state.bank"


def test_numbers_compare_by_their_declared_unit_and_exactly_without_one():
    out: list[verify.Finding] = []
    verify.compare(0.029990518, 0.029990989, "h", "m", out)       # 0.00047 mm
    assert len(out) == 1 and out[0].within and out[0].text.endswith("(0.000471 mm)")
    out.clear()
    verify.compare(0.0, 0.001, "a", "rad", out)                   # 0.057 degrees
    assert len(out) == 1 and not out[0].within
    out.clear()
    verify.compare(1.0, 1.0 + 1e-12, "x", None, out)              # no unit: exact
    assert len(out) == 1 and not out[0].within
    out.clear()
    verify.compare([2, 0.5], [2.0, 0.5], "v", "m", out)           # an integer is no float
    assert [f.where for f in out] == ["v[0]"] and not out[0].within
    out.clear()
    verify.compare(-0.0, 0.0, "z", None, out)                     # bits, not ==
    assert len(out) == 1


def test_games_declare_the_units_of_their_verdicts():
    assert verify.verdict_units(TowerDropVerdict) == {
        "release": "m", "heights": "m", "settle_time": "s"}
    assert verify.verdict_units(TribalanceVerdict) == {
        "tilt_deg": "deg", "tilt_direction_deg": "deg", "tilt_after_deg": "deg",
        "settle_time": "s"}


def test_strict_and_from_start_need_verify(solo, capsys):
    path, _ = solo
    for option in ("--strict", "--from-start"):
        assert cli.main(["replay", str(path), option]) == 2
        assert capsys.readouterr().err.strip().endswith(f"{option}: only with --verify")


def test_measured_scores_compare_within_their_unit_and_counted_ones_exactly():
    from types import SimpleNamespace

    from balance3d.games.base import Outcome
    recorded = Outcome("all_played", (0.05, 0.03), (1, 2)).to_dict()
    close = SimpleNamespace(outcome=Outcome("all_played", (0.05 + 5e-5, 0.03), (1, 2)))
    tower = rec.Record({"game": "tower", "outcome": recorded}, (), ())      # heights, m
    found = verify.check_outcome(tower, close)
    assert [(f.where, f.within) for f in found] == [("outcome.scores[0]", True)]
    tilted = rec.Record({"game": "tilted", "outcome": recorded}, (), ())    # coins
    assert [f.within for f in verify.check_outcome(tilted, close)] == [False]
    swapped = SimpleNamespace(outcome=Outcome("all_played", (0.05, 0.03), (2, 1)))
    assert {f.where for f in verify.check_outcome(tower, swapped)} == {
        "outcome.ranks[0]", "outcome.ranks[1]", "outcome.winners[0]"}


def test_a_setup_the_seed_no_longer_gives_is_different(solo, tmp_path, capsys):
    _, data = solo
    data = json.loads(json.dumps(data))
    data["setup"][0]["text"] += "!"
    code, _, err = verify_cli(data, tmp_path, capsys)
    assert code == 1 and "different: setup[0].text: recorded " in err
    assert err.endswith("0 different; the setup differs\n")
