"""The example sweeps (``scenes/sweeps/*.toml``): two per game, each naming a bundled
scene, one of its game's experiments with options it accepts, and parameter paths
that name values of the resolved scene; each runs one case with its parameters at
their first values.

Every parameter value is applied with the public ``load_scene(..., overrides=...)``,
as the sweep runner does, and read back from the loaded scene's data."""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balance3d.games import get_game
from balance3d.resources import scenes_dir
from balance3d.scene import load_scene
from balance3d.scene_paths import parse_path
from balance3d.tune.experiment import Jitter, make_experiment

SWEEPS = sorted((scenes_dir() / "sweeps").glob("*.toml"))
#: Tower sweeps run towers of this many pieces here, to keep the test short.
SHORT_TOWER = 3


def read(path: Path) -> dict[str, Any]:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def value_at(data: dict, path: str) -> Any:
    """The value ``path`` names in resolved scene data (an AssertionError naming the
    path when it names nothing)."""
    node: Any = data
    for step in parse_path(path):
        if isinstance(step, tuple):
            key, wanted = step
            matches = [item for item in node
                       if isinstance(item, dict) and str(item.get(key)) == wanted]
            assert len(matches) == 1, f"{path}: no single element with {key}={wanted}"
            node = matches[0]
        elif isinstance(step, int):
            assert isinstance(node, list) and step < len(node), f"{path}: no [{step}]"
            node = node[step]
        else:
            assert isinstance(node, dict) and step in node, f"{path}: no {step!r}"
            node = node[step]
    return node


def values_of(spec: Any) -> list[Any]:
    """A parameter's values: a list, or a range {start, stop, num} (both ends in)."""
    if isinstance(spec, list):
        return spec
    assert set(spec) == {"start", "stop", "num"}, f"unexpected parameter spec {spec!r}"
    return [float(v) for v in np.linspace(spec["start"], spec["stop"], spec["num"])]


def test_two_example_sweeps_per_game():
    games = [read(path)["sweep"]["scene"] for path in SWEEPS]
    for game in ("tilted", "tribalance", "tower"):
        assert sum(load_scene(g).game == game for g in games) >= 2, game


@pytest.mark.parametrize("path", SWEEPS, ids=[p.stem for p in SWEEPS])
def test_example_sweep_names_real_paths_and_options_and_runs_one_case(path):
    sweep = read(path)
    assert set(sweep) <= {"sweep", "parameters", "experiment", "jitter"}
    head = sweep["sweep"]
    assert head["name"] == path.stem and head["description"]
    assert head["repetitions"] >= 1 and isinstance(head["seed"], int)
    base = load_scene(head["scene"])
    assert head["experiment"] in get_game(base.game).experiments
    for key, spec in sweep["parameters"].items():
        old = value_at(base.data, key)
        for value in values_of(spec):
            assert type(value) is type(old), f"{key}: {value!r} is not like {old!r}"
            changed = load_scene(head["scene"], overrides={key: value})  # a valid scene
            assert value_at(changed.data, key) == value, key
    options = dict(sweep.get("experiment", {}))
    experiment = make_experiment(base.game, head["experiment"], options,
                                 Jitter(**sweep.get("jitter", {})))
    first = {key: values_of(spec)[0] for key, spec in sweep["parameters"].items()}
    scene = load_scene(head["scene"], overrides=first)
    cases = experiment.cases(scene)
    assert cases
    if base.game == "tower":
        experiment = make_experiment(base.game, head["experiment"],
                                     dict(options, pieces=SHORT_TOWER),
                                     Jitter(**sweep.get("jitter", {})))
        cases = experiment.cases(scene)
    out = experiment.run(scene, cases[0], np.random.default_rng(head["seed"]))
    assert set(out) == set(experiment.outcomes)
    for name, kind in experiment.outcomes.items():  # the runner's check: bools, finite numbers
        assert isinstance(out[name], bool) if kind == "probability" else \
            not isinstance(out[name], bool) and math.isfinite(out[name]), name
