"""``replay --verify`` compares JSON values by type as well as by value.

A record is a JSON document: ``1``, ``1.0`` and ``true`` are three different values
there (an integer count, a measurement, a yes/no), even though Python's ``==`` calls
them equal.  A replay that writes one where the record holds another has not
reproduced the record, so ``--verify`` must report it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from balance3d import cli
from balance3d import record as rec

#: A short solo game of the random bot.
GAME = ["simulate", "tilted", "--variant", "solo", "--bots", "random", "--seed", "3"]


@pytest.fixture(scope="module")
def solo_record(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("verify") / "solo.json"
    assert cli.main(GAME + ["--record", str(path), "--quiet"]) == 0
    return path


@pytest.mark.parametrize("recorded, replayed", [
    (1, 1.0), (1.0, 1), (1, True), (True, 1), (0, False), (1.0, True), (0.0, False),
])
def test_values_equal_in_python_but_of_another_json_type_differ(recorded, replayed):
    lines = rec.diff_records({"turns": [{"n": recorded}]}, {"turns": [{"n": replayed}]})
    assert len(lines) == 1 and lines[0].startswith("turns[0].n: recorded ")


@pytest.mark.parametrize("value", [0, 1, 1.5, True, False, None, "1", [1], {"a": 1}])
def test_identical_values_do_not_differ(value):
    assert rec.diff_records({"v": value}, {"v": value}) == []


def first_drop(data: dict) -> tuple[int, dict]:
    return next((i, t["verdict"]) for i, t in enumerate(data["turns"])
                if t["action"]["type"] == "drop")


@pytest.mark.parametrize("field, change", [
    ("coins_won", float),          # a whole number of coins written as a float
    ("tilted", int),               # a yes/no written as 0 or 1
    ("player", bool),              # seat 0 (the only seat in solo) written as false
])
def test_verify_fails_when_a_verdict_field_changes_only_its_type(solo_record, tmp_path,
                                                                 capsys, field, change):
    assert cli.main(["replay", str(solo_record), "--verify", "--quiet"]) == 0
    capsys.readouterr()
    data = json.loads(solo_record.read_text())
    index, verdict = first_drop(data)
    before = verdict[field]
    verdict[field] = change(before)
    assert verdict[field] == before and type(verdict[field]) is not type(before)
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    assert cli.main(["replay", str(tampered), "--verify", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"turns[{index}].verdict.{field}: recorded" in err


def test_verify_from_start_fails_when_the_replay_is_longer_than_the_record(solo_record,
                                                                          tmp_path, capsys):
    """A record missing the last event of its last turn: the replay writes one entry
    more than the record holds, and every entry the two share is identical."""
    data = json.loads(solo_record.read_text())
    events = data["turns"][-1]["events"]
    assert len(events) >= 2
    events.pop()
    shorter = tmp_path / "shorter.json"
    shorter.write_text(json.dumps(data))
    assert cli.main(["replay", str(shorter), "--verify", "--from-start", "--quiet"]) == 1
    last = len(data["turns"]) - 1
    assert (f"turns[{last}].events: recorded {len(events)} entries, replayed "
            f"{len(events) + 1}") in capsys.readouterr().err
