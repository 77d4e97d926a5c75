"""Property tests of the arguments of every sub-command: a command line with any
options and values of that sub-command, and one argument no sub-command takes (an
unknown option or a control character), ends with exit status 2 and one line on
stderr naming the sub-command, nothing on stdout and no traceback; the commands
that only read (``scene list``, ``scene show``, ``replay``, ``tune list``) given any
arguments either succeed or end that way.

The commands run in this process through :func:`balance3d.cli.main`.  Hypothesis
runs derandomized (``derandomize=True``), so every run tries the same examples."""
from __future__ import annotations

import argparse

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_properties_files import run

from balance3d.cli import build_parser

#: Examples per property.
EXAMPLES = 60
PROPERTY = settings(derandomize=True, database=None, deadline=None, max_examples=EXAMPLES,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
#: Options that print and exit 0 by design.
EXITS = {"-h", "--help", "--version"}


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    """(words, parser) of every sub-command and verb (``("tune", "fit")``)."""
    found = [(words, parser)] if words else []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action._name_parser_map.items():
                found += _commands(sub, words + (name,))
    return found


COMMANDS = _commands(build_parser())


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return sorted({o for a in parser._actions for o in a.option_strings} - EXITS)


def values(tmp: str) -> st.SearchStrategy:
    """Argument values of every kind: names the commands know, numbers of any size
    and sign, non-finite ones, paths that exist or not, lists, empty text."""
    return st.one_of(
        st.sampled_from(["tilted", "tower", "tribalance", "chess", "planner", "random",
                         "planner,random", "-,planner", "basic", "advanced", "solo",
                         "obj", "glb", "stl", "tipped", "0.5", "nan", "inf", "-inf", "1e999",
                         "-1", "0", "2", "4", "99999999999999999999", "", " ", "x",
                         "tilted-light-blocks", f"{tmp}/missing.json", f"{tmp}/file",
                         f"{tmp}/file/below", tmp, "a=b", "block=2"]),
        st.integers().map(str), st.floats().map(repr),
        st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
                max_size=8))


@st.composite
def command_lines(draw, tmp: str, commands, poisoned: bool) -> tuple[str, list[str]]:
    words, parser = draw(st.sampled_from(commands))
    tokens: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        options = _options(parser)
        if options and draw(st.booleans()):
            tokens.append(draw(st.sampled_from(options)))
        tokens.append(draw(values(tmp)))
    if poisoned:
        poison = draw(st.one_of(
            st.text("abcdefgh", min_size=1, max_size=6).map(lambda t: f"--zz-{t}"),
            st.tuples(st.text("abc", max_size=3), st.sampled_from("\n\r\t\x00\x07\x1b"))
            .map("".join)))
        tokens.insert(draw(st.integers(0, len(tokens))), poison)
    return words[0], [*words, *tokens]


def _one_line(err: str, command: str) -> None:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith(f"balance3d {command}") and ": error: " in err, err
    assert "Traceback" not in err


@PROPERTY
@given(data=st.data())
def test_a_bad_argument_of_any_sub_command_is_one_line(tmp_path, capsys, data):
    (tmp_path / "file").write_text("")
    command, argv = data.draw(command_lines(str(tmp_path), COMMANDS, poisoned=True))
    status, out, err = run(capsys, argv)
    assert status == 2, (argv, out, err)
    _one_line(err, command)
    assert out == ""


READING = [(w, p) for w, p in COMMANDS
           if w in {("scene", "list"), ("scene", "show"), ("replay",), ("tune", "list")}]


@PROPERTY
@given(data=st.data())
def test_the_reading_commands_take_any_arguments_or_refuse_them_in_one_line(
        tmp_path, capsys, data):
    (tmp_path / "file").write_text("")
    command, argv = data.draw(command_lines(str(tmp_path), READING, poisoned=False))
    status, _, err = run(capsys, argv)
    if status == 2:
        _one_line(err, command)
    else:
        assert status == 0, (argv, err)


def test_every_sub_command_is_tried():
    """The sub-commands the properties draw from: every one the README lists."""
    names = {" ".join(w) for w, _ in COMMANDS}
    assert {"scene", "scene list", "scene show", "models", "models export",
            "models digest", "simulate", "replay", "play", "tune", "tune list",
            "tune plot", "tune fit"} <= names
    assert len(READING) == 4
