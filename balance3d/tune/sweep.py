"""Sweep files (TOML): which scene values to vary, which experiment to run, how often.

Layout::

    [sweep]        name (default the file stem), description, scene (a bundled
                   scene's name or a path relative to the file), experiment (one of
                   the scene's game's experiments), repetitions (>= 1, default 1),
                   seed (a whole number >= 0, default 0)
    [parameters]   "PATH" = values, for any value of the resolved scene (see
                   balance3d.scene_paths); the combinations are their product, in
                   file order.  Values are a list [a, b, ...], a range
                   {start, stop, num} (num evenly spaced, both ends included) or
                   draws {distribution, ..., samples} made once from the seed:
                   uniform (low, high), normal (mean, sd), lognormal (mean, sigma of
                   the log), integers (low, high, both included; distinct values),
                   or space-filling: sobol, latin_hypercube (low, high; see
                   balance3d.tune.designs)
    [experiment]   the experiment's own options (it checks them)
    [jitter]       position (m), yaw (rad), height (m): the hand's miss (see Jitter)

:func:`load_sweep` checks everything before any run: the file's tables against the
schema of :mod:`balance3d.tune.sweep_schema` (pydantic), then every value of every parameter
is loaded into the scene (the other parameters at their first value) and its rules
read, so a bad path or value fails at once.  Every error is one line naming the
file and the key (:class:`SweepError`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.games import get_game
from balance3d.games.base import GameError
from balance3d.resources import scenes_dir
from balance3d.scene import OverrideError, SceneError, load_scene
from balance3d.scene_files import TomlLimitError, load_toml
from balance3d.tune.designs import SPACE_FILLING, DesignError, space_filling
from balance3d.tune.experiment import Experiment, ExperimentError, Jitter, make_experiment

#: Distribution -> its parameters, in the order numpy's Generator method takes them.
DISTRIBUTIONS = {
    "uniform": ("low", "high"),
    "normal": ("mean", "sd"),
    "lognormal": ("mean", "sigma"),
    "integers": ("low", "high"),
    "sobol": ("low", "high"),
    "latin_hypercube": ("low", "high"),
}


class SweepError(ValueError):
    """A sweep file is missing or invalid: one line naming the file and the key."""


@dataclass(frozen=True, eq=False)
class Sweep:
    """A checked sweep.

    scene : a bundled scene's name, or the absolute path of a scene file.
    parameters : scene value path -> its values (drawn ones already drawn), in the
        file's order.
    source : the sweep file it was read from (None when built in code).
    """

    name: str
    scene: str
    game: str
    experiment: str
    options: dict[str, Any]
    jitter: Jitter
    repetitions: int
    seed: int
    parameters: dict[str, tuple[Any, ...]]
    description: str = ""
    source: Path | None = None

    def combinations(self) -> list[dict[str, Any]]:
        """Every combination of the parameters' values (path -> value), the first
        parameter varying slowest; one empty combination without parameters."""
        paths = list(self.parameters)
        return [dict(zip(paths, values))
                for values in itertools.product(*(self.parameters[p] for p in paths))]

    def replace(self, **changes: Any) -> Sweep:
        """A copy with ``changes`` (field -> value); not checked again."""
        return dataclasses.replace(self, **changes)

    def make_experiment(self) -> Experiment:
        """The sweep's experiment built from its options and jitter."""
        return make_experiment(self.game, self.experiment, self.options, self.jitter)

    def identity(self) -> dict[str, Any]:
        """What decides a sweep's rows (JSON): scene, its content digest, experiment,
        options, jitter, repetitions, seed and parameter values; two sweeps with the
        same identity give the same rows."""
        return {
            "scene": self.scene, "scene_digest": load_scene(self.scene).digest,
            "game": self.game, "experiment": self.experiment, "options": self.options,
            "jitter": dataclasses.asdict(self.jitter), "repetitions": self.repetitions,
            "seed": self.seed, "parameters": {k: list(v) for k, v in self.parameters.items()},
        }


def bundled_sweeps() -> list[str]:
    """Names of the example sweeps that come with balance3d (file stems), sorted."""
    return sorted(p.stem for p in (scenes_dir() / "sweeps").glob("*.toml"))


def resolve_sweep_path(name_or_path: str | Path) -> Path:
    """The sweep file given as a path, or the bundled example sweep ``name``.

    An existing file wins; a text ending in ``.toml`` or holding a folder separator is
    a path; anything else is a bundled sweep's name (:func:`bundled_sweeps`)."""
    text = str(name_or_path)
    path = Path(text)
    if path.is_file() or path.suffix == ".toml" or "/" in text or "\\" in text:
        return path
    bundled = scenes_dir() / "sweeps" / f"{text}.toml"
    if not bundled.is_file():
        raise SweepError(f"no sweep file {text!r} and no bundled sweep of that name; "
                         f"bundled sweeps: {', '.join(bundled_sweeps())}")
    return bundled


def load_sweep(path: str | Path) -> Sweep:
    """Read and check the sweep file at ``path``, or the bundled example sweep of that
    name (:class:`SweepError`)."""
    path = resolve_sweep_path(path)
    try:
        with open(path, "rb") as fh:
            data = load_toml(fh)
    except FileNotFoundError:
        raise SweepError(f"{path}: no such sweep file") from None
    except TomlLimitError as exc:
        raise SweepError(f"{path}: {exc}") from None
    except IsADirectoryError:
        raise SweepError(f"{path}: is a folder, not a sweep file") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SweepError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise SweepError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return _parse(path, data)


def _fail(path: Path, key: str, reason: str) -> SweepError:
    return SweepError(f"{path}: {key}: {reason}")


def _scene_ref(path: Path, text: str) -> str:
    """A bundled scene's name as is; a path (ending in .toml or holding a folder
    separator) made absolute from the sweep file's folder."""
    if text.endswith(".toml") or "/" in text or "\\" in text:
        scene = (path.parent / text).resolve()
        if not scene.is_file():
            raise _fail(path, "sweep.scene", f"no such scene file {scene}")
        return str(scene)
    return text


def _parse(path: Path, data: dict) -> Sweep:
    from balance3d.tune import sweep_schema

    try:
        checked = sweep_schema.validate(data)
    except ValueError as exc:
        raise _fail(path, *exc.args) from None
    head = checked.sweep
    scene = _scene_ref(path, head.scene)
    try:
        base = load_scene(scene)
    except SceneError as exc:
        raise _fail(path, "sweep.scene", str(exc)) from None
    try:
        jitter = Jitter(**{k: v for k, v in checked.jitter.model_dump().items()
                           if v is not None})
    except ExperimentError as exc:
        raise SweepError(f"{path}: {exc}") from None
    sweep = Sweep(
        name=head.name if head.name is not None else path.stem,
        description=head.description or "",
        scene=scene, game=base.game, experiment=head.experiment,
        options=checked.experiment, jitter=jitter, repetitions=head.repetitions,
        seed=head.seed,
        parameters={key: _values(path, key, spec, head.seed)
                    for key, spec in checked.parameters.items()},
        source=path.resolve())
    try:
        experiment = sweep.make_experiment()
    except (ExperimentError, GameError) as exc:
        raise SweepError(f"{path}: {exc}") from None
    check_parameters(sweep, experiment)
    return sweep


def _values(path: Path, key: str, spec: Any, seed: int) -> tuple[Any, ...]:
    """A parameter's values from a list, a range or a distribution."""
    from balance3d.tune import sweep_schema

    where = f'parameters."{key}"'
    if isinstance(spec, list):
        values = list(spec)
    elif isinstance(spec, dict):
        try:
            checked = sweep_schema.validate_spec(key, spec)
        except ValueError as exc:
            raise _fail(path, *exc.args) from None
        if "distribution" in spec:
            values = _draw(path, where, checked, seed, key)
        else:
            if checked.num > 1 and checked.start == checked.stop:
                raise _fail(path, where, f"empty range: start and stop are both "
                                         f"{checked.start}")
            values = [float(v) for v in np.linspace(checked.start, checked.stop, checked.num)]
    else:
        raise _fail(path, where, f"must be a list, a range {{start, stop, num}} or a "
                                 f"distribution, got {spec!r}")
    if not values:
        raise _fail(path, where, "empty: give at least one value")
    seen = [json.dumps(v, sort_keys=True) for v in values]
    for i, text in enumerate(seen):
        if text in seen[:i]:
            raise _fail(path, where, f"value {values[i]!r} is given twice")
    return tuple(values)


def _draw(path: Path, where: str, spec: Any, seed: int, key: str) -> list[Any]:
    """``spec.samples`` draws from the distribution of ``spec`` (a checked
    :data:`~balance3d.tune.sweep_schema.DRAWS` model), from a generator seeded by the
    sweep's seed and the parameter's path (so adding a parameter changes no other)."""
    name = spec.distribution
    names = DISTRIBUTIONS[name]
    samples = spec.samples
    a, b = (getattr(spec, arg) for arg in names)
    words = np.frombuffer(hashlib.sha256(key.encode()).digest(), dtype=np.uint32)
    rng = np.random.default_rng(np.random.SeedSequence([seed, *map(int, words)]))
    if name == "integers":
        if not (isinstance(a, int) and isinstance(b, int)):
            raise _fail(path, where, f"integers take whole low and high, got {a!r}, {b!r}")
        if b - a + 1 < samples:
            raise _fail(path, where, f"{samples} distinct whole numbers do not fit in "
                                     f"{a}..{b}")
        return [int(v) + a for v in rng.choice(b - a + 1, size=samples, replace=False)]
    if name in SPACE_FILLING:
        try:
            return space_filling(name, a, b, samples, rng)
        except DesignError as exc:
            raise _fail(path, where, str(exc)) from None
    if name == "uniform" and not a < b:
        raise _fail(path, where, f"empty range: low {a} must be below high {b}")
    if name != "uniform" and b <= 0:
        raise _fail(path, f"{where}.{names[1]}", f"must be positive, got {b!r}")
    draw = {"uniform": rng.uniform, "normal": rng.normal, "lognormal": rng.lognormal}[name]
    return [float(v) for v in draw(a, b, samples)]


def check_parameters(sweep: Sweep, experiment: Experiment) -> None:
    """Load the scene with every value of every parameter (the others at their first
    value), read its rules and ask the experiment for its cases, so that a bad path
    or value fails before any run (:class:`SweepError` naming the parameter)."""
    where = sweep.source or sweep.name
    first = {key: values[0] for key, values in sweep.parameters.items()}
    checks = [(None, first)] + [(key, {**first, key: value})
                                for key, values in sweep.parameters.items()
                                for value in values[1:]]
    game = get_game(sweep.game)
    for key, overrides in checks:
        try:
            scene = load_scene(sweep.scene, overrides)
            game.rules(scene)
            if key is None and not experiment.cases(scene):
                raise ExperimentError(f"experiment {sweep.experiment}: no cases to run "
                                      f"with these options")
        except OverrideError as exc:
            raise SweepError(f'{where}: parameters."{exc.key}": {exc.reason}') from None
        except (SceneError, GameError, ExperimentError) as exc:
            named = f'parameters."{key}" = {overrides[key]!r}' if key else \
                "parameters (first values)" if overrides else "sweep.scene"
            raise SweepError(f"{where}: {named}: {exc}") from None
