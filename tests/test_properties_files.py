"""Property tests of the files the commands read: records (``replay``), scripts
(``simulate --script``), scenes (``scene show``) and sweeps (``tune run``), made
from real ones truncated, retyped, nested deep or made huge.  Whatever the file,
the command either accepts it or ends with exit status 2 and one line on stderr,
``balance3d COMMAND: error: ...``, with no traceback and no numpy warning; a file
that cannot be read as its format (truncated, nested beyond the limits, over a
size limit) gets a line that names it.

The commands run in this process through :func:`balance3d.cli.main`.  Hypothesis
runs derandomized (``derandomize=True``), so every run tries the same examples."""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance3d.cli import main
from balance3d.jsonio import MAX_BYTES, MAX_DEPTH, MAX_STRING

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "golden" / "tribalance_random_seed3.json"
SCENES = sorted((ROOT / "scenes").glob("*.toml"))
SWEEPS = sorted((ROOT / "scenes" / "sweeps").glob("*.toml"))
#: Examples per property.
EXAMPLES = 30
PROPERTY = settings(derandomize=True, database=None, deadline=None, max_examples=EXAMPLES,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``balance3d ARGV`` run in this process; a
    numpy warning fails the test (it would print before the error line)."""
    capsys.readouterr()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code
    printed = capsys.readouterr()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught
    return status, printed.out, printed.err


def check_outcome(status: int, err: str, command: str, ok: tuple[int, ...],
                  must_fail: Path | None = None) -> None:
    """Accepted (a status in ``ok``), or status 2 with one error line; with
    ``must_fail``, the file that cannot be read, status 2 and a line naming it."""
    if status != 2:
        assert must_fail is None, f"status {status} for an unreadable file"
        assert status in ok, err
        return
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"balance3d {command}: error: "), err
    assert "Traceback" not in err
    if must_fail is not None:
        assert must_fail.name in err, err


# --- JSON: records and scripts --------------------------------------------------

JSON_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(),
                         st.integers(min_value=2 ** 63, max_value=10 ** 30),
                         st.floats(allow_nan=False, allow_infinity=False),
                         st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0]),
                         st.text(max_size=12))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6)


def _paths(value, prefix=()) -> list[tuple]:
    """Every path into ``value`` (keys and indices), the root's included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, prefix + (index,))
    return found


def _replace(value, path: tuple, new):
    if not path:
        return new
    head, *rest = path
    value[head] = _replace(value[head], tuple(rest), new)
    return value


def _deep(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@st.composite
def json_files(draw, document) -> tuple[str, bool]:
    """(text, unreadable) of ``document`` changed one way: truncated, a value
    retyped, a value nested deeper than the limit, or a string over the limit."""
    how = draw(st.sampled_from(["truncated", "retyped", "nested", "huge"]))
    if how == "truncated":
        text = json.dumps(document)
        return text[:draw(st.integers(1, len(text) - 1))], True
    data = json.loads(json.dumps(document))
    path = draw(st.sampled_from(_paths(data)[:400]))
    new = {"retyped": lambda: draw(JSON_VALUES), "nested": lambda: _deep(MAX_DEPTH + 1),
           "huge": lambda: "x" * (MAX_STRING + 1)}[how]()
    return json.dumps(_replace(data, path, new)), how != "retyped"


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(RECORD.read_text())


@PROPERTY
@given(data=st.data())
def test_a_changed_record_is_replayed_or_refused_in_one_line(tmp_path, capsys, record, data):
    text, unreadable = data.draw(json_files(record))
    path = tmp_path / "changed-record.json"
    path.write_text(text)
    status, _, err = run(capsys, ["replay", str(path)])
    check_outcome(status, err, "replay", (0,), path if unreadable else None)


@PROPERTY
@given(data=st.data())
def test_a_changed_script_plays_or_is_refused_in_one_line(tmp_path, capsys, record, data):
    """A script of the record's first action (one piece placed, then the game
    stops: the script has ended and no bot plays on)."""
    text, unreadable = data.draw(json_files([record["turns"][0]["action"]]))
    path = tmp_path / "changed-script.json"
    path.write_text(text)
    status, _, err = run(capsys, ["simulate", "tribalance", "--players", "3", "--seed", "3",
                                  "--script", str(path), "--quiet"])
    check_outcome(status, err, "simulate", (0,), path if unreadable else None)


# --- TOML: scenes and sweeps ----------------------------------------------------

TOML_VALUES = st.one_of(
    st.integers().map(str), st.integers(min_value=2 ** 63, max_value=10 ** 30).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["nan", "inf", "-inf", "1e308", "-1e308", "5e-324", "0.0", "1e9",
                     "true", "false", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
                     "[]", "{}", "[1, 'a', 2.5]", "{ a = 1 }", '"chess"', '""']),
    st.text(max_size=12).map(json.dumps))
#: A line that sets a key: ``key = value`` (the key may be quoted or dotted).
ASSIGNMENT = re.compile(r'^(\s*[A-Za-z0-9_."\-]+\s*=\s*)(\S.*)$')


@st.composite
def toml_files(draw, text: str) -> tuple[str, bool]:
    """(text, unreadable) of the TOML ``text`` changed one way: truncated, a value
    retyped, a value nested deeper than the limit, a string over the limit, or the
    whole file over the size limit."""
    how = draw(st.sampled_from(["truncated", "retyped", "nested", "huge", "oversized"]))
    if how == "truncated":
        # cut inside a line that sets a value, so that the rest cannot parse
        lines = text.splitlines(keepends=True)
        index = draw(st.sampled_from([i for i, line in enumerate(lines)
                                      if ASSIGNMENT.match(line)]))
        match = ASSIGNMENT.match(lines[index])
        cut = draw(st.integers(1, len(match.group(1)) - 1))
        return "".join(lines[:index]) + lines[index][:cut], True
    if how == "oversized":
        return text + "\n# " + "x" * MAX_BYTES + "\n", True
    lines = text.splitlines()
    index = draw(st.sampled_from([i for i, line in enumerate(lines) if ASSIGNMENT.match(line)]))
    new = {"retyped": lambda: draw(TOML_VALUES),
           "nested": lambda: "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
           "huge": lambda: json.dumps("x" * (MAX_STRING + 1))}[how]()
    lines[index] = ASSIGNMENT.match(lines[index]).group(1) + new
    return "\n".join(lines) + "\n", how != "retyped"


@PROPERTY
@given(data=st.data())
def test_a_changed_scene_is_shown_or_refused_in_one_line(tmp_path, capsys, data):
    original = data.draw(st.sampled_from(SCENES), label="scene")
    text, unreadable = data.draw(toml_files(original.read_text()))
    # beside copies of the bundled scenes, so that ``extends`` finds its base
    for scene in SCENES:
        (tmp_path / scene.name).write_text(scene.read_text())
    path = tmp_path / f"changed-{original.name}"
    path.write_text(text)
    status, _, err = run(capsys, ["scene", "show", str(path)])
    check_outcome(status, err, "scene", (0,), path if unreadable else None)


@PROPERTY
@given(data=st.data())
def test_a_changed_sweep_is_refused_in_one_line(tmp_path, capsys, data):
    """``--out`` lies below a regular file, so a sweep that reads well is refused
    too, for its output, before any run: every outcome is one line."""
    original = data.draw(st.sampled_from(SWEEPS), label="sweep")
    text, unreadable = data.draw(toml_files(original.read_text()))
    path = tmp_path / f"changed-{original.name}"
    path.write_text(text)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    status, _, err = run(capsys, ["tune", "run", str(path), "--out", str(blocker / "out"),
                                  "--quiet"])
    check_outcome(status, err, "tune", (), path if unreadable else None)


def test_an_unterminated_string_is_named_once(tmp_path, capsys):
    """json's own message ends in "starting at"; the line says "at" once."""
    path = tmp_path / "cut.json"
    path.write_text('[{"type": "pass", "piece": "abc')
    status, _, err = run(capsys, ["replay", str(path)])
    assert status == 2
    assert "Unterminated string starting at line 1 column 28" in err
    assert " at at " not in err


def test_a_toml_file_over_the_size_limit_is_not_parsed(tmp_path, capsys):
    """A scene of valid TOML but over the byte limit is refused by its size."""
    path = tmp_path / "big.toml"
    path.write_text("[scene]\n" + "# padding\n" * (MAX_BYTES // 10 + 1))
    status, _, err = run(capsys, ["scene", "show", str(path)])
    assert status == 2
    assert err == f"balance3d scene: error: {path}: over the limit of {MAX_BYTES} bytes\n"


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("argv", [["scene", "show"], ["tune", "run"]], ids=["scene", "sweep"])
def test_a_file_that_opens_but_cannot_be_read_is_one_line(tmp_path, capsys, argv):
    """/proc/self/mem opens, and reading it from its start fails (EIO)."""
    status, _, err = run(capsys, [*argv, "/proc/self/mem",
                                  *(["--out", str(tmp_path / "o")] if argv[0] == "tune" else [])])
    assert status == 2
    assert err.count("\n") == 1 and "/mem: cannot read: " in err, err
