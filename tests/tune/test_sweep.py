"""Sweep files: values from lists, ranges and seeded draws; every error one line
naming the file and the key."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from balance3d.resources import scenes_dir
from balance3d.tune.sweep import SweepError, bundled_sweeps, load_sweep

HEAD = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 3
seed = 7
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_lists_ranges_and_their_product(tmp_path, box_drop):
    sweep = load_sweep(write(tmp_path, HEAD + """
[parameters]
"materials.wood.density" = [500.0, 800.0]
"parts.fulcrum.width" = {start = 0.03, stop = 0.07, num = 5}

[experiment]
parts = ["block_1", "block_2"]

[jitter]
position = 0.001
""", "design.toml"))
    assert sweep.name == "design" and sweep.game == "tilted" and sweep.scene == "tilted"
    assert sweep.repetitions == 3 and sweep.seed == 7
    assert sweep.options == {"parts": ["block_1", "block_2"]}
    assert sweep.jitter.position == 0.001 and sweep.jitter.yaw == math.radians(2.0)
    assert sweep.parameters["parts.fulcrum.width"] == pytest.approx((0.03, 0.04, 0.05,
                                                                     0.06, 0.07))
    combos = sweep.combinations()
    assert len(combos) == 2 * 5
    assert combos[0] == {"materials.wood.density": 500.0, "parts.fulcrum.width": 0.03}
    assert combos[5]["materials.wood.density"] == 800.0


def test_defaults_and_no_parameters(tmp_path, box_drop):
    sweep = load_sweep(write(tmp_path, '[sweep]\nscene = "tilted"\nexperiment = "box_drop"\n'))
    assert (sweep.repetitions, sweep.seed, sweep.combinations()) == (1, 0, [{}])


def test_draws_come_from_the_seed_and_the_path_alone(tmp_path, box_drop):
    spec = ('"materials.wood.friction" = '
            '{distribution = "uniform", low = 0.3, high = 0.7, samples = 8}\n')
    one = load_sweep(write(tmp_path, HEAD + "[parameters]\n" + spec, "a.toml"))
    two = load_sweep(write(tmp_path, HEAD + "[parameters]\n"
                           + '"materials.wood.density" = [600.0]\n' + spec, "b.toml"))
    other = load_sweep(write(tmp_path, HEAD.replace("seed = 7", "seed = 8")
                             + "[parameters]\n" + spec, "c.toml"))
    values = one.parameters["materials.wood.friction"]
    assert len(values) == 8 and all(0.3 <= v < 0.7 for v in values)
    assert two.parameters["materials.wood.friction"] == values
    assert other.parameters["materials.wood.friction"] != values


def test_distributions(tmp_path, box_drop):
    sweep = load_sweep(write(tmp_path, HEAD + """[parameters]
"materials.wood.density" = {distribution = "lognormal", mean = 6.5, sigma = 0.1, samples = 200}
"rules.coins" = {distribution = "integers", low = 10, high = 14, samples = 5}
"physics.gravity" = {distribution = "normal", mean = 9.81, sd = 0.01, samples = 3}
"""))
    dens = np.log(sweep.parameters["materials.wood.density"])
    # 200 draws: the mean of the logs is within 4 standard errors of 6.5
    assert abs(dens.mean() - 6.5) < 4 * 0.1 / math.sqrt(200)
    assert sorted(sweep.parameters["rules.coins"]) == [10, 11, 12, 13, 14]
    assert all(isinstance(v, int) for v in sweep.parameters["rules.coins"])


@pytest.mark.parametrize("body, key, words", [
    ('[parameters]\n"materials.blok.density" = [1.0]\n',
     'parameters."materials.blok.density"', "no material 'blok' (materials: "),
    ('[parameters]\n"materials.wood.density" = []\n',
     'parameters."materials.wood.density"', "empty"),
    ('[parameters]\n"materials.wood.density" = {start = 1.0, stop = 1.0, num = 3}\n',
     'parameters."materials.wood.density"', "empty range"),
    ('[parameters]\n"materials.wood.density" = {start = 1.0, stop = 2.0, num = 0}\n',
     'parameters."materials.wood.density".num', "whole number >= 1"),
    ('[parameters]\n"materials.wood.friction" = '
     '{distribution = "uniform", low = 0.5, high = 0.5, samples = 2}\n',
     'parameters."materials.wood.friction"', "empty range"),
    ('[parameters]\n"materials.wood.friction" = {distribution = "beta", low = 0.5, samples = 2}\n',
     'parameters."materials.wood.friction".distribution', "unknown distribution 'beta'"),
    ('[parameters]\n"materials.wood.friction" = '
     '{distribution = "normal", mean = 0.5, samples = 2}\n',
     'parameters."materials.wood.friction".sd', "missing"),
    ('[parameters]\n"materials.wood.density" = ["heavy"]\n',
     'parameters."materials.wood.density"', "must be a number"),
    ('[parameters]\n"materials.wood.density" = [600.0, -1.0]\n',
     'parameters."materials.wood.density" = -1.0', "must be a positive number"),
    ('[parameters]\n"materials.wood.density" = [600.0, 600.0]\n',
     'parameters."materials.wood.density"', "given twice"),
    ('[parameters]\n"rules.coins" = [20, 1.5]\n', 'parameters."rules.coins"',
     "whole number"),
    ('[paramters]\n', "paramters", "unknown section"),
    ('[jitter]\nwobble = 1.0\n', "jitter.wobble", "unknown key"),
    ('[jitter]\nyaw = -1.0\n', "jitter.yaw", "must be a number >= 0"),
    ('[experiment]\ncolour = 1\n', "experiment.colour", "unknown option"),
])
def test_bad_sweeps_name_the_key(tmp_path, box_drop, body, key, words):
    path = write(tmp_path, HEAD + body)
    with pytest.raises(SweepError) as err:
        load_sweep(path)
    message = str(err.value)
    assert "\n" not in message and message.startswith(str(path))
    assert key in message and words in message


@pytest.mark.parametrize("head, key, words", [
    (HEAD.replace("repetitions = 3", "repetitions = 0"), "sweep.repetitions", ">= 1"),
    (HEAD.replace("seed = 7", "seed = -1"), "sweep.seed", ">= 0"),
    (HEAD.replace('"box_drop"', '"dropz"'), "sweep.experiment", "no experiment 'dropz'"),
    (HEAD.replace('"tilted"', '"tilt"'), "sweep.scene", "no scene named 'tilt'"),
    (HEAD.replace('"tilted"', '"missing.toml"'), "sweep.scene", "no such scene file"),
    (HEAD + "speed = 2\n", "sweep.speed", "unknown key"),
    ('[sweep]\nexperiment = "box_drop"\n', "sweep.scene", "missing"),
])
def test_bad_sweep_tables_name_the_key(tmp_path, box_drop, head, key, words):
    with pytest.raises(SweepError) as err:
        load_sweep(write(tmp_path, head))
    assert f": {key}" in str(err.value) and words in str(err.value)


def test_a_scene_path_is_relative_to_the_sweep_file(tmp_path, box_drop):
    (tmp_path / "my.toml").write_text(
        f'[scene]\nextends = "{scenes_dir() / "tilted.toml"}"\nname = "my"\n')
    sweep = load_sweep(write(tmp_path, HEAD.replace('"tilted"', '"my.toml"')))
    assert sweep.scene == str((tmp_path / "my.toml").resolve())


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(SweepError, match="no such sweep file"):
        load_sweep(tmp_path / "none.toml")
    with pytest.raises(SweepError, match="not valid TOML"):
        load_sweep(write(tmp_path, "[sweep\n"))


def test_options_giving_no_cases_are_refused(tmp_path, box_drop, monkeypatch):
    monkeypatch.setattr("box_drop_experiment.BoxDrop.cases", lambda self, scene: [])
    with pytest.raises(SweepError, match="experiment box_drop: no cases to run"):
        load_sweep(write(tmp_path, HEAD))


def test_a_bundled_sweep_is_found_by_its_name():
    by_name = load_sweep("tilted-loaded-beam")
    by_path = load_sweep(scenes_dir() / "sweeps" / "tilted-loaded-beam.toml")
    assert by_name.parameters == by_path.parameters and by_name.name == by_path.name
    assert "tilted-loaded-beam" in bundled_sweeps()


def test_an_unknown_sweep_name_lists_the_bundled_ones():
    with pytest.raises(SweepError, match="bundled sweeps: .*tower-friction"):
        load_sweep("no-such-sweep")


@pytest.mark.parametrize("text, line", [
    ('sweep = 3\n', "sweep: must be a table, got 3"),
    ('[sweep]\nscene = "tilted"\nexperiment = "box_drop"\nname = 3\n',
     "sweep.name: must be a non-empty line of text, got 3"),
    ('[sweep]\nscene = "tilted"\nexperiment = "box_drop"\nrepetitions = true\n',
     "sweep.repetitions: must be a whole number >= 1, got True"),
    (HEAD + '[parameters]\n"materials.wood.friction" = '
            '{distribution = "normal", mean = 0.5, sd = 0.1, samples = 2, skew = 1}\n',
     'parameters."materials.wood.friction".skew: unknown key (a normal distribution takes '
     'mean, sd, samples)'),
    (HEAD + '[parameters]\n"materials.wood.density" = {start = 1.0, stop = "2", num = 2}\n',
     'parameters."materials.wood.density".stop: must be a finite number, got \'2\''),
])
def test_the_schema_names_the_key_and_what_it_expects(tmp_path, box_drop, text, line):
    path = write(tmp_path, text)
    with pytest.raises(SweepError) as err:
        load_sweep(path)
    assert str(err.value) == f"{path}: {line}"
