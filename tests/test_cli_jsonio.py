"""Reading user-supplied JSON (records, scripts) within the documented limits of
:mod:`balance3d.jsonio`, and the one-line errors the command line gives for files
that break them."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from balance3d import cli, jsonio
from balance3d.jsonio import JsonFileError, read_json


def _write(tmp_path: Path, text: str, name: str = "f.json") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_value_within_the_limits_is_read_as_is(tmp_path):
    value = {"a": [1, 2.5, None, True, "x" * jsonio.MAX_STRING], "b": {"c": []}}
    assert read_json(_write(tmp_path, json.dumps(value))) == value


def test_nesting_exactly_at_the_limit_is_read_and_one_deeper_is_refused(tmp_path):
    at_limit = "[" * jsonio.MAX_DEPTH + "]" * jsonio.MAX_DEPTH
    assert read_json(_write(tmp_path, at_limit)) is not None
    deeper = "[" * (jsonio.MAX_DEPTH + 1) + "]" * (jsonio.MAX_DEPTH + 1)
    with pytest.raises(JsonFileError, match=f"nested deeper than {jsonio.MAX_DEPTH} levels"):
        read_json(_write(tmp_path, deeper))


def test_nesting_past_the_interpreters_recursion_limit_is_one_clear_error(tmp_path):
    depth = sys.getrecursionlimit() * 20
    path = _write(tmp_path, "[" * depth + "]" * depth)
    with pytest.raises(JsonFileError) as caught:
        read_json(path)
    assert str(caught.value) == (f"{path}: lists or objects nested deeper than "
                                 f"{jsonio.MAX_DEPTH} levels")


def test_long_strings_and_keys_are_refused_with_where_they_are(tmp_path):
    long = "n" * (jsonio.MAX_STRING + 1)
    path = _write(tmp_path, json.dumps({"players": [{"name": long}]}))
    with pytest.raises(JsonFileError, match=r"players\[0\]\.name: a string of "
                                            f"{jsonio.MAX_STRING + 1} characters"):
        read_json(path)
    path = _write(tmp_path, json.dumps({long: 1}))
    with pytest.raises(JsonFileError, match="a key of"):
        read_json(path)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = _write(tmp_path, json.dumps(["x" * 100]))  # 100 characters and [""]: 104 bytes
    monkeypatch.setattr(jsonio, "MAX_BYTES", 50)
    opened = []
    monkeypatch.setattr(jsonio, "open", lambda *a, **k: opened.append(a), raising=False)
    with pytest.raises(JsonFileError, match=r"f\.json: 104 bytes, over the limit of 50 bytes"):
        read_json(path)
    assert opened == []


def test_too_many_values_are_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_VALUES", 10)
    # [{}, {}, {}, {}, 0]: 1 + 4 brackets and 4 commas; ten numbers: 1 bracket and
    # 9 commas, at the limit; eleven: 1 and 10, over it.
    assert read_json(_write(tmp_path, json.dumps([{}] * 4 + [0] * 1))) == [{}] * 4 + [0]
    assert read_json(_write(tmp_path, json.dumps(list(range(10))))) == list(range(10))
    parsed = []
    monkeypatch.setattr(jsonio.json, "loads", lambda *a, **k: parsed.append(a))
    with pytest.raises(JsonFileError, match="11 brackets and commas, over the limit of 10"):
        read_json(_write(tmp_path, json.dumps(list(range(11)))))
    assert parsed == []


@pytest.mark.parametrize("text, message", [
    ("[NaN]", "NaN is not a number JSON allows"),
    ("[-Infinity]", "-Infinity is not a number JSON allows"),
    ("[1e999]", "number 1e999 is too large"),
    ("[" + "9" * 5000 + "]", "not JSON: Exceeds the limit"),
    ("{'a': 1}", "not JSON: Expecting property name enclosed in double quotes at line 1"),
])
def test_numbers_json_cannot_hold_and_bad_syntax_are_refused(tmp_path, text, message):
    with pytest.raises(JsonFileError, match=message):
        read_json(_write(tmp_path, text))


def test_missing_folder_and_non_utf8_files(tmp_path):
    with pytest.raises(JsonFileError, match="no such file"):
        read_json(tmp_path / "absent.json")
    with pytest.raises(JsonFileError, match="is a folder"):
        read_json(tmp_path)
    path = tmp_path / "latin.json"
    path.write_bytes(b'["\xe9"]')
    with pytest.raises(JsonFileError, match=r"not UTF-8 text \(byte 2\)"):
        read_json(path)


@pytest.mark.parametrize("command", [["replay"], ["simulate", "tilted", "--script"]])
def test_deeply_nested_or_oversized_files_are_one_line_exit_2_on_the_command_line(
        tmp_path, capsys, command):
    depth = sys.getrecursionlimit() * 20
    nested = _write(tmp_path, "[" * depth + "]" * depth, "nested.json")
    assert cli.main(command + [str(nested)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested deeper than" in err and str(nested) in err

    name = "P" * (jsonio.MAX_STRING * 10)
    record = {"players": [{"seat": 0, "name": name, "bot": None}], "turns": []}
    big = _write(tmp_path, json.dumps(record), "big.json")
    assert cli.main(command + [str(big)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "players[0].name: a string of" in err
