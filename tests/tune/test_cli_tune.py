"""``balance3d tune``: a sweep run from the command line writes its tables; bad input
is one line and exit status 2; ``tune list`` names the experiments, the bundled sweeps
and the bundled studies."""
from __future__ import annotations

import errno
import os
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from balance3d.cli import main
from balance3d.resources import scenes_dir

SWEEP = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 2
seed = 3

[parameters]
"materials.felt.friction" = [0.6, 0.9]
"""


@pytest.fixture
def sweep_file(tmp_path, box_drop):
    path = tmp_path / "s.toml"
    path.write_text(SWEEP)
    return path


def test_a_sweep_writes_its_tables(sweep_file, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["tune", str(sweep_file), "--out", str(out), "--workers", "2", "--csv",
                 "--quiet"]) == 0
    printed = capsys.readouterr()
    assert "4 runs of tilted box_drop" in printed.out and printed.err == ""
    runs = pd.read_csv(out / "runs.csv")
    summary = pd.read_csv(out / "summary.csv")
    assert len(runs) == 4 and list(summary["n"]) == [2, 2]
    # mechanics: a 25 mm cube at rest on the table has its centre 12.5 mm up (less
    # the collision margin's rounding, 0.5 mm at most)
    assert summary["rest_height.mean"].between(0.0125 - 0.0005, 0.0125).all()
    pd.testing.assert_frame_equal(pd.read_parquet(out / "runs.parquet"), runs)


def test_the_explicit_run_verb_is_the_same_command(sweep_file, tmp_path):
    assert main(["tune", "run", str(sweep_file), "--out", str(tmp_path / "o"),
                 "--workers", "1", "--quiet"]) == 0
    assert (tmp_path / "o" / "runs.parquet").is_file()


@pytest.mark.parametrize("extra, words", [
    (["--workers", "0"], "--workers: must be at least 1"),
    (["--address", "ray://x:1"], "--address: only with --engine ray"),
])
def test_bad_options_are_one_line(sweep_file, tmp_path, capsys, extra, words):
    assert main(["tune", str(sweep_file), "--out", str(tmp_path / "o"), *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_sweep_is_one_line_naming_the_key(tmp_path, capsys, box_drop):
    path = tmp_path / "bad.toml"
    path.write_text(SWEEP.replace("materials.felt", "materials.fel"))
    assert main(["tune", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f'{path}: parameters."materials.fel.friction": no material \'fel\'' in err
    assert not (tmp_path / "o").exists()


def test_a_folder_of_another_sweep_is_refused(sweep_file, tmp_path, capsys):
    out = tmp_path / "o"
    assert main(["tune", str(sweep_file), "--out", str(out), "--workers", "1",
                 "--quiet"]) == 0
    sweep_file.write_text(SWEEP.replace("seed = 3", "seed = 4"))
    assert main(["tune", str(sweep_file), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"{out}: holds runs of another sweep (its seed differ" in err


def test_ray_missing_says_which_extra_to_install(sweep_file, tmp_path, capsys,
                                                 monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)   # import ray raises ImportError
    assert main(["tune", str(sweep_file), "--out", str(tmp_path / "o"), "--engine", "ray",
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "install balance3d[ray]" in err and err.count("\n") == 1


def test_list_names_each_experiment_with_outcomes_and_options(capsys, box_drop):
    assert main(["tune", "list", "tilted"]) == 0
    out = capsys.readouterr().out
    assert "tilted box_drop: drop one box onto the bare table" in out
    assert "outcomes: rest_height (mean, m), right_of_aim (probability, share of runs)" \
        in " ".join(out.split())
    assert "parts: the box parts dropped" in out


def test_list_of_an_unknown_game_is_one_line(capsys):
    assert main(["tune", "list", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def _entries(block: str) -> dict[str, str]:
    """``NAME: description`` entries of a ``tune list`` block, their wrapped lines
    joined."""
    entries: dict[str, str] = {}
    for line in block.splitlines()[1:]:
        if line.startswith("    "):
            last = next(reversed(entries))
            entries[last] += " " + line.strip()
        else:
            name, _, text = line.strip().partition(": ")
            entries[name] = text
    return entries


def test_list_names_the_bundled_sweeps_and_studies_with_their_descriptions(capsys):
    assert main(["tune", "list", "tower"]) == 0
    listed = capsys.readouterr().out
    sweeps = listed[listed.index("example sweeps"):].split("\n\n")[0]
    studies = listed[listed.index("studies ("):].split("\n\n")[0]
    expected_sweeps, expected_studies = {}, {}
    for path in (scenes_dir() / "sweeps").glob("*.toml"):
        expected_sweeps[path.stem] = tomllib.loads(path.read_text())["sweep"]["description"]
    for path in (scenes_dir() / "studies").glob("*.toml"):
        data = tomllib.loads(path.read_text())
        verb = "sensitivity" if "sensitivity" in data else "search"
        assert verb in data
        expected_studies[f"{path.stem} ({verb})"] = data["sweep"]["description"]
    assert len(expected_sweeps) >= 6 and len(expected_studies) >= 2
    assert _entries(sweeps) == expected_sweeps
    assert _entries(studies) == expected_studies
    assert studies.splitlines()[0] == \
        "studies (balance3d tune sensitivity|search NAME --out DIR):"


def _one_line(capsys) -> str:
    printed = capsys.readouterr()
    assert printed.err.count("\n") == 1 and "Traceback" not in printed.err
    return printed.err


def test_an_out_folder_below_a_regular_file_is_one_line(sweep_file, tmp_path, capsys):
    plain = tmp_path / "f"
    plain.write_text("a file\n")
    out = plain / "sub"
    assert main(["tune", str(sweep_file), "--out", str(out), "--quiet"]) == 2
    assert _one_line(capsys) == (f"balance3d tune: error: {out}: {plain} is a file, "
                                 f"not a folder\n")
    assert plain.read_text() == "a file\n"


@pytest.mark.parametrize("name, resumed", [("sweep.json", False), ("runs.jsonl", True),
                                           ("runs.parquet", False), ("summary.csv", False)])
def test_a_full_disk_is_one_line_naming_the_file(sweep_file, tmp_path, capsys, name, resumed):
    """A real full disk: the file is a link to /dev/full, where every write fails
    with ENOSPC (the folder's other files are written normally).  Each link stands
    for one step: the sweep's identity, the rows as they finish (in a folder of this
    sweep whose rows are lost, so that every run is run again), the tables."""
    out = tmp_path / "o"
    out.mkdir()
    if resumed:
        assert main(["tune", str(sweep_file), "--out", str(out), "--workers", "1",
                     "--quiet"]) == 0
        (out / name).unlink()
        capsys.readouterr()
    (out / name).symlink_to("/dev/full")
    assert main(["tune", str(sweep_file), "--out", str(out), "--workers", "1",
                 "--quiet"]) == 2
    err = _one_line(capsys)
    assert err.startswith(f"balance3d tune: error: {out / name}: cannot write: ")
    assert os.strerror(errno.ENOSPC) in err


def test_a_read_only_file_system_is_one_line(sweep_file, tmp_path, capsys, monkeypatch):
    """The tests run as root, whom a read-only folder (chmod) does not stop, so the
    file system's refusal is made by the write itself raising EROFS."""
    def refuse(self, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    out = tmp_path / "o"
    assert main(["tune", str(sweep_file), "--out", str(out), "--quiet"]) == 2
    assert _one_line(capsys) == (f"balance3d tune: error: {out}: cannot write: "
                                 f"{os.strerror(errno.EROFS)}\n")


@pytest.mark.parametrize("verb", [
    ["fit", "SWEEP", "--param", "materials.felt.friction", "--within", "0.2", "0.9",
     "--outcome", "tipped", "--target", "0.5"],
    ["plot", "DIR"],
])
def test_fit_and_plot_refuse_an_out_folder_below_a_file_before_any_work(
        sweep_file, tmp_path, capsys, verb):
    plain = tmp_path / "f"
    plain.write_text("a file\n")
    out = plain / "sub"
    argv = ["tune", *[str(sweep_file) if w == "SWEEP" else str(tmp_path) if w == "DIR" else w
                      for w in verb], "--out", str(out)]
    assert main(argv) == 2
    assert _one_line(capsys) == (f"balance3d tune: error: --out {out}: {plain} is a file, "
                                 f"not a folder\n")


def test_an_extra_verb_module_is_registered_and_run(monkeypatch, capsys):
    import types

    from balance3d.commands import tune as tune_command

    module = types.ModuleType("balance3d.commands.tune_extra_probe")

    def add_parser(subparsers):
        parser = subparsers.add_parser("probe", help="a verb added through the hook")
        parser.add_argument("word")

    def run(args):
        print(f"probe ran with {args.word}")
        return 0

    module.add_parser, module.run = add_parser, run
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(tune_command, "EXTRA_VERBS", ("tune_extra_probe",))
    assert main(["tune", "probe", "hello"]) == 0
    assert capsys.readouterr().out == "probe ran with hello\n"
