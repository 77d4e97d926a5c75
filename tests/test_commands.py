"""The ``balance3d scene`` and ``balance3d models`` commands, through :func:`cli.main`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import trimesh

import balance3d
from balance3d import cli
from balance3d.scene import list_scenes, load_scene

BAD_SCENE = """\
[scene]
name = "bad"
game = "tilted"

[materials.wood]
density = 650.0
friction = 0.5

[parts.block]
kind = "box"
size = [0.05, 0.05, 0.05]
material = "wood"
mass = nan
"""


def test_scene_list(capsys):
    assert cli.main(["scene", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["scene", "game", "variant", "bodies", "description"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert set(rows) == set(list_scenes())
    for name, line in rows.items():
        scene = load_scene(name)
        assert line.split()[1:4] == [scene.game, scene.variant, str(len(scene.bodies))]
        assert line.endswith(scene.description)


def test_scene_show_text_report(capsys):
    assert cli.main(["scene", "show", "tribalance"]) == 0
    out = capsys.readouterr().out
    scene = load_scene("tribalance")
    assert out.startswith("Scene tribalance: game tribalance, variant basic")
    assert f"digest  {scene.digest}" in out
    physics = out.split("\nPhysics\n")[1].split("\n\n")[0].splitlines()
    assert any(line.split() == ["time_step", f"{scene.physics.time_step:.6g}", "s"]
               for line in physics)
    bodies = out.split("\nBodies")[1].split("\n\n")[0].splitlines()[1:]
    assert [line.split()[0] for line in bodies[2:]] == [b.name for b in scene.bodies]
    plate = next(line.split() for line in bodies if line.split()[0] == "plate")
    assert plate[1:8] == ["plate", "no", f"{scene.parts['plate'].mass:.6g}",
                          "0.0000", "0.0000", "0.1750", "0.0000"]
    # aligned: every row of the right-aligned body table ends in the same column
    assert len({len(line) for line in bodies}) == 1
    assert "\nRules\n" in out and "unit_mass" in out


def test_scene_show_json_is_the_summary(capsys):
    assert cli.main(["scene", "show", "tower", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    expected = json.loads(json.dumps(load_scene("tower").summary()))
    assert shown == expected
    assert {b["name"] for b in shown["bodies"]} == {"table", "base_0", "base_1", "base_2",
                                                   "base_3"}


def test_scene_show_path(tmp_path, capsys):
    path = tmp_path / "mine.toml"
    scene = (BAD_SCENE.replace("mass = nan\n", "")
             + '[[bodies]]\nname = "b"\npart = "block"\nposition = [0, 0, 0.025]\n')
    # A Tilted scene without the beam and rules is refused, as simulate refuses it.
    path.write_text(scene)
    assert cli.main(["scene", "show", str(path), "--json"]) == 2
    assert "a Tilted scene needs a body named" in capsys.readouterr().err
    # A scene of a game that is not registered is refused when it is loaded.
    path.write_text(scene.replace('game = "tilted"', 'game = "jenga"'))
    assert cli.main(["scene", "show", str(path), "--json"]) == 2
    assert capsys.readouterr().err == (f"balance3d scene: error: {path}: scene.game: unknown "
                                       f"game 'jenga' (known: tilted, tower, tribalance)\n")


def test_bad_scene_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_SCENE)
    assert cli.main(["scene", "show", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"balance3d scene: error: {path}: parts.block.mass: "
                            "must be a positive number, got nan\n")


def test_unknown_scene_exit_2(capsys):
    assert cli.main(["scene", "show", "chess"]) == 2
    assert "no scene named 'chess'" in capsys.readouterr().err


def test_bad_scene_from_the_shell_has_no_traceback(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(BAD_SCENE.replace("mass = nan", 'kind2 = "x"'))
    env = dict(os.environ, PYTHONPATH=str(Path(balance3d.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "scene", "show", str(path)],
                          capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"balance3d scene: error: {path}: parts.block.kind2: unknown key "
        "(expected one of: density, kind, mass, material, size, static)"]


def test_closed_pipe_ends_quietly(tmp_path):
    """``balance3d scene show tower | head -1``: the reader is gone, no traceback."""
    read, write = os.pipe()
    os.close(read)
    env = dict(os.environ, PYTHONPATH=str(Path(balance3d.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-m", "balance3d.cli", "scene", "show", "tower"],
                          stdout=write, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                          env=env)
    os.close(write)
    assert done.returncode == 141
    assert done.stderr == ""


def test_models_export(tmp_path, capsys):
    out = tmp_path / "meshes"
    assert cli.main(["models", "export", "--format", "stl", "--out", str(out),
                     "--scene", "tilted", "--scene", "tower"]) == 0
    printed = capsys.readouterr().out.splitlines()
    expected = [out / name / f"{part}.stl" for name in ("tilted", "tower")
                for part in load_scene(name).parts]
    assert sorted(out.rglob("*.stl")) == sorted(expected)
    assert [line.split()[1] for line in printed[:-1]] == [str(p) for p in expected]
    assert printed[-1] == f"{len(expected)} meshes in {out}"
    beam = trimesh.load(out / "tilted" / "beam.stl", force="mesh")
    assert beam.is_watertight
    assert beam.extents == pytest.approx([0.60, 0.06, 0.012])


def test_models_export_every_bundled_scene_by_default(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["models", "export"]) == 0
    folders = sorted(p.name for p in (tmp_path / "models-export").iterdir())
    assert folders == list_scenes()
    assert capsys.readouterr().out.splitlines()[-1].endswith("meshes in models-export")


def test_models_export_unwritable_exit_2(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert cli.main(["models", "export", "--out", str(blocker), "--scene", "tilted"]) == 2
    assert capsys.readouterr().err.startswith("balance3d models: error: cannot write to ")


def test_missing_command_module_is_skipped(monkeypatch):
    monkeypatch.setitem(cli.COMMANDS, "ghost", "ghost_not_written_yet")
    parser = cli.build_parser()
    choices = parser._subparsers._group_actions[0].choices
    assert "ghost" not in choices and "scene" in choices


def test_broken_import_inside_a_command_module_propagates(monkeypatch):
    real = cli.importlib.import_module

    def broken(name):
        if name == "balance3d.commands.models":
            raise ModuleNotFoundError("No module named 'meshlib'", name="meshlib")
        return real(name)

    monkeypatch.setattr(cli.importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="meshlib"):
        cli.build_parser()


@pytest.mark.parametrize("rules, message", [
    ("penalty = -1", "rules.penalty: must be >= 0, got -1"),
    ("line_width = 0.0", "rules.line_width: must be > 0, got 0.0"),
    ('start_low_side = "left"', "rules.start_low_side: must be 'random', '+x' or '-x', "
                                "got 'left'"),
])
def test_scene_show_checks_rule_values_as_simulate_does(tmp_path, capsys, rules, message):
    bundled = load_scene("tilted").path
    path = tmp_path / "bad-rules.toml"
    path.write_text(f'[scene]\nextends = "{bundled.as_posix()}"\nname = "bad-rules"\n'
                    f'\n[rules]\n{rules}\n')
    assert cli.main(["scene", "show", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"balance3d scene: error: {path}: {message}\n"
    assert cli.main(["simulate", "tilted", "--scene", str(path), "--bots", "random"]) == 2
    assert capsys.readouterr().err == f"balance3d simulate: error: {path}: {message}\n"


def test_scene_show_of_a_game_not_yet_playable_shows_its_rules_unchecked(capsys):
    assert cli.main(["scene", "show", "tower"]) == 0
    assert "penalty_deck" in capsys.readouterr().out


def _parsers(parser):
    """``parser`` and every sub-command parser under it."""
    yield parser
    for action in parser._actions:
        for sub in getattr(action, "choices", None) or {}:
            if isinstance(action.choices, dict):
                yield from _parsers(action.choices[sub])


def test_help_texts_show_no_rest_markup():
    shown = [p.format_help() for p in _parsers(cli.build_parser())]
    assert len(shown) >= 8  # balance3d, scene, scene list/show, models, export, simulate, replay
    for text in shown:
        assert "``" not in text
        for role in (":class:", ":mod:", ":meth:", ":func:", ":data:", ":attr:"):
            assert role not in text, text


def test_plain_turns_rest_into_help_text():
    from balance3d.commands import plain
    assert plain("``a b`` and :meth:`~x.Y.summary` or :class:`Scene`") == \
        "'a b' and summary or Scene"


def _help(*words: str) -> str:
    """The help text of the sub-command ``words`` ("simulate", ...)."""
    parser = cli.build_parser()
    for word in words:
        sub = next(a for a in parser._actions if isinstance(a.choices, dict))
        parser = sub.choices[word]
    return parser.format_help()


def test_simulate_and_replay_help_show_their_examples_and_wrap_whole_words():
    from balance3d.commands import replay, simulate
    for command, module in (("simulate", simulate), ("replay", replay)):
        text = _help(command)
        doc = module.__doc__
        block = doc[doc.index("Examples::") + len("Examples::"):].split("\n\n")[1]
        shown = text[text.index("examples:\n") + len("examples:\n"):].splitlines()
        lines = [line.strip() for line in block.splitlines()]
        assert [line.strip() for line in shown[:len(lines)]] == lines
        assert all(line.startswith(f"balance3d {command} ") for line in lines
                   if not line.startswith("--"))
        description = text[text.index("\n\n") + 2:text.index("positional arguments:")]
        assert max(len(line) for line in description.splitlines()) <= 79
    assert "'--ignore-scene-change'" in _help("replay")       # not broken at a hyphen


def test_simulate_help_names_each_game_with_its_variants_scenes_and_bots():
    text = " ".join(_help("simulate").split("games:\n")[1].split())
    assert text == ("tilted: variants basic (scene tilted), solo (scene tilted-solo), "
                    "advanced (scene tilted-advanced); bots planner, random (default planner) "
                    "tower: variants basic (scene tower); bots planner, random "
                    "(default planner) "
                    "tribalance: variants basic (scene tribalance); bots planner, random "
                    "(default planner)")
    for name in ("tilted", "tilted-solo", "tilted-advanced"):
        assert load_scene(name).game == "tilted"


def test_the_action_dict_simulate_help_shows_is_a_legal_first_drop_of_its_example_seed(
        tmp_path, capsys):
    text = " ".join(_help("simulate").split())
    start = text.index("'{\"type\": \"drop\"")
    action = json.loads(text[start + 1:text.index("}'", start) + 1])
    script = tmp_path / "actions.json"
    script.write_text(json.dumps([action]))
    assert cli.main(["simulate", "tilted", "--script", str(script), "--seed", "7",
                     "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("game not finished after 1 actions: it waits for")


def test_simulate_refuses_a_scene_of_another_game_in_one_line(capsys):
    assert cli.main(["simulate", "tilted", "--scene", "tower"]) == 2
    assert capsys.readouterr().err == (
        "balance3d simulate: error: --scene tower: is a scene of tower, not of tilted "
        "(bundled tilted scenes: tilted, tilted-solo, tilted-advanced)\n")


@pytest.mark.parametrize("words", [("scene", "list"), ("scene", "show"), ("models", "export"),
                                   ("simulate",), ("replay",)])
def test_every_command_a_user_runs_says_what_it_does_in_its_help(words):
    assert "'balance3d COMMAND --help'" in cli.build_parser().format_help()
    text = _help(*words)
    usage, description = text.split("\n\n")[:2]
    assert usage.startswith(f"usage: balance3d {' '.join(words)} ")
    assert not description.startswith(("positional arguments:", "options:"))
    assert len(description.split()) >= 8


@pytest.mark.parametrize("argv, prog, what", [
    (["simulate", "tilted", "--seed", "x"], "balance3d simulate",
     "--seed: invalid int value: 'x'"),
    (["simulate"], "balance3d simulate", "the following arguments are required: game"),
    (["replay"], "balance3d replay", "the following arguments are required: FILE"),
    (["play", "tilted", "--players", "two"], "balance3d play",
     "--players: invalid int value: 'two'"),
    (["tune", "list", "--frob"], "balance3d tune list", "unrecognized arguments: --frob"),
    (["scene", "show", "tilted", "extra"], "balance3d scene show",
     "unrecognized arguments: extra"),
    (["models", "bogus"], "balance3d models", "ACTION: invalid choice: 'bogus'"),
    (["frobnicate"], "balance3d", "COMMAND: invalid choice: 'frobnicate'"),
])
def test_an_argument_error_is_one_line_naming_the_command_exit_2(argv, prog, what, capsys):
    """No usage block before the message: one line, the sub-command, what is wrong
    and where to read the options."""
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and out.err.endswith(f" (see '{prog} --help')\n")
    assert out.err.startswith(f"{prog}: error: {what}")


def _deep_toml(tmp_path: Path, brackets: int) -> Path:
    """A TOML file whose key ``a`` holds ``brackets`` nested arrays: with the
    document's own table, ``brackets + 1`` levels."""
    path = tmp_path / "deep.toml"
    path.write_text("a = " + "[" * brackets + "]" * brackets + "\n")
    return path


@pytest.mark.parametrize("command", [["scene", "show"], ["tune"]])
@pytest.mark.parametrize("brackets", [32, 500, 100_000])
def test_a_toml_file_nested_deeper_than_the_limit_is_one_line_exit_2(tmp_path, capsys,
                                                                     command, brackets):
    path = _deep_toml(tmp_path, brackets)
    out = tmp_path / "out"
    argv = command + [str(path)] + (["--out", str(out)] if command == ["tune"] else [])
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"balance3d {command[0]}: error: {path}: ")
    assert err.count("\n") == 1 and "nested deeper than 32 levels" in err
    assert not out.exists()


@pytest.mark.parametrize("command", [["scene", "show"], ["tune"]])
def test_a_toml_file_at_the_nesting_limit_is_read(tmp_path, capsys, command):
    """32 levels are allowed: the file is read and refused for its unknown key."""
    path = _deep_toml(tmp_path, 31)
    argv = command + [str(path)] + (["--out", str(tmp_path / "out")]
                                    if command == ["tune"] else [])
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert f"{path}: a: unknown" in err and "nested" not in err


def test_a_part_of_1e300_m_is_one_line_and_no_numpy_warning(tmp_path, capsys):
    """The size is refused by its bound before any mass property is computed, so no
    overflow warning is printed before the line."""
    path = tmp_path / "big.toml"
    path.write_text(BAD_SCENE.replace("mass = nan\n", "").replace("[0.05, 0.05, 0.05]",
                                                                  "[1e300, 0.05, 0.05]"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cli.main(["scene", "show", str(path)]) == 2
    assert [str(w.message) for w in caught] == []
    assert capsys.readouterr().err == (f"balance3d scene: error: {path}: parts.block.size: "
                                       f"must be within 0.0001..10 m, got [1e+300, 0.05, "
                                       f"0.05]\n")
