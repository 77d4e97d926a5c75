"""The example sweeps (``scenes/sweeps/*.toml``): two per game, each naming a bundled
scene, one of its game's experiments with options it accepts, and parameter paths
that name values of the resolved scene; each runs one case with its parameters at
their first values.

The sweep runner sets the parameters with ``load_scene(..., overrides=...)``; here
the resolved scene data is edited by path and validated directly, the same checks
a scene file gets."""
from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from balance3d.games import get_game
from balance3d.resources import scenes_dir
from balance3d.scene import Scene, _Source, _validate, load_scene
from balance3d.tune.experiment import Jitter, make_experiment

SWEEPS = sorted((scenes_dir() / "sweeps").glob("*.toml"))
#: Tower sweeps run towers of this many pieces here, to keep the test short.
SHORT_TOWER = 3


def read(path: Path) -> dict[str, Any]:
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def steps(path: str) -> list[str]:
    """``a.b[2].c[name=x]`` -> ["a", "b", "2", "c", "name=x"]."""
    out = []
    for segment in path.split("."):
        found = re.fullmatch(r"([^\[\]]+)((?:\[[^\[\]]+\])*)", segment)
        assert found, f"cannot read {segment!r} of {path!r}"
        out.append(found.group(1))
        out += re.findall(r"\[([^\[\]]+)\]", found.group(2))
    return out


def locate(data: dict, path: str) -> tuple[Any, str | int]:
    """The container holding the value ``path`` names, and its key or index there
    (an AssertionError naming the path when it names nothing)."""
    node: Any = data
    parts = steps(path)
    for i, step in enumerate(parts):
        if "=" in step:
            key, _, value = step.partition("=")
            matches = [item for item in node if isinstance(item, dict) and item.get(key) == value]
            assert len(matches) == 1, f"{path}: no single element with {step}"
            key_or_index: Any = node.index(matches[0])
        elif step.isdigit():
            key_or_index = int(step)
            assert isinstance(node, list) and key_or_index < len(node), f"{path}: no [{step}]"
        else:
            key_or_index = step
            assert isinstance(node, dict) and step in node, f"{path}: no {step!r}"
        if i == len(parts) - 1:
            return node, key_or_index
        node = node[key_or_index]
    raise AssertionError(f"{path}: empty path")


def values_of(spec: Any) -> list[Any]:
    """A parameter's values: a list, or a range {start, stop, num} (both ends in)."""
    if isinstance(spec, list):
        return spec
    assert set(spec) == {"start", "stop", "num"}, f"unexpected parameter spec {spec!r}"
    return [float(v) for v in np.linspace(spec["start"], spec["stop"], spec["num"])]


def scene_with(name: str, values: dict[str, Any]) -> Scene:
    """The bundled scene ``name`` with the values at their paths, validated."""
    base = load_scene(name)
    data = copy.deepcopy(base.data)
    for path, value in values.items():
        container, key = locate(data, path)
        container[key] = value
    return _validate(_Source(base.path, {}), data)


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
        container, index = locate(copy.deepcopy(base.data), key)
        old = container[index]
        for value in values_of(spec):
            assert type(value) is type(old), f"{key}: {value!r} is not like {old!r}"
            scene_with(head["scene"], {key: value})        # every value makes a valid scene
    options = dict(sweep.get("experiment", {}))
    experiment = make_experiment(base.game, head["experiment"], options,
                                 Jitter(**sweep.get("jitter", {})))
    first = {key: values_of(spec)[0] for key, spec in sweep["parameters"].items()}
    scene = scene_with(head["scene"], first)
    cases = experiment.cases(scene)
    assert cases
    if base.game == "tower":
        experiment = make_experiment(base.game, head["experiment"],
                                     dict(options, pieces=SHORT_TOWER),
                                     Jitter(**sweep.get("jitter", {})))
        cases = experiment.cases(scene)
    out = experiment.run(scene, cases[0], np.random.default_rng(head["seed"]))
    assert set(out) == set(experiment.outcomes)
