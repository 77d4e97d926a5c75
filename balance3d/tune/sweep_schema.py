"""The schema of a sweep file (pydantic models), and its errors as one line.

:func:`validate` checks a sweep file's tables against :class:`SweepFile`: the
sections, the ``[sweep]`` keys and their types, the ``[jitter]`` keys, and each
parameter's range or draw (:func:`validate_spec`).  The first error becomes a
:class:`~balance3d.tune.sweep.SweepError`-ready ``(key, reason)`` pair: the dotted
key (``parameters."materials.wood.density".num``) and what was expected, as the
rest of the sweep checks word them.  What needs the scene (paths, values, the
experiment's options) is checked after, by :mod:`balance3d.tune.sweep`.
"""
from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from balance3d.tune.sweep import DISTRIBUTIONS

#: The sections of a sweep file and the keys of its [sweep] table.
SECTIONS = ("sweep", "parameters", "experiment", "jitter")
SWEEP_KEYS = ("name", "description", "scene", "experiment", "repetitions", "seed")


def _fail(reason: str, value: Any) -> PydanticCustomError:
    return PydanticCustomError("sweep", "{reason}, got {got}",
                               {"reason": reason, "got": repr(value)})


def _whole(least: int):
    def check(value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise _fail(f"must be a whole number >= {least}", value)
        return value
    return BeforeValidator(check)


def _line(value: Any) -> str:
    if not isinstance(value, str) or not value or "\n" in value:
        raise _fail("must be a non-empty line of text", value)
    return value


def _finite(value: Any) -> float | int:
    if not isinstance(value, (int, float)) or isinstance(value, bool) \
            or not math.isfinite(value):
        raise _fail("must be a finite number", value)
    return value


def _table(value: Any) -> dict:
    if not isinstance(value, dict):
        raise _fail("must be a table", value)
    return value


Line = Annotated[Any, BeforeValidator(_line)]
Finite = Annotated[Any, BeforeValidator(_finite)]
Table = Annotated[Any, BeforeValidator(_table)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SweepHead(_Strict):
    """``[sweep]``: the scene and the experiment, how often, from which seed."""

    name: Line = None
    description: Line = None
    scene: Line
    experiment: Line
    repetitions: Annotated[Any, _whole(1)] = 1
    seed: Annotated[Any, _whole(0)] = 0


class JitterTable(_Strict):
    """``[jitter]``: standard deviations of the hand's miss (checked by Jitter)."""

    position: Any = None
    yaw: Any = None
    height: Any = None


class SweepFile(_Strict):
    """A sweep file's tables."""

    sweep: SweepHead
    parameters: Table = {}
    experiment: Table = {}
    jitter: JitterTable = JitterTable()


class Range(_Strict):
    """``{start, stop, num}``: num evenly spaced values, both ends included."""

    start: Finite
    stop: Finite
    num: Annotated[Any, _whole(1)]


def _draw_model(name: str, args: tuple[str, ...]) -> type[BaseModel]:
    fields = {"__annotations__": {"distribution": Any, **{a: Finite for a in args},
                                  "samples": Annotated[Any, _whole(1)]},
              "model_config": ConfigDict(extra="forbid"),
              "__doc__": f"``{{distribution = \"{name}\", {', '.join(args)}, samples}}``."}
    return type(f"{name.title()}Draw", (BaseModel,), fields)


#: Distribution -> the model of its draws.
DRAWS = {name: _draw_model(name, args) for name, args in DISTRIBUTIONS.items()}


def _where(loc: tuple) -> str:
    """A pydantic error location as the sweep file's dotted key."""
    parts = []
    for i, part in enumerate(loc):
        if i == 1 and loc[0] == "parameters":
            parts.append(f'"{part}"')
        else:
            parts.append(str(part))
    return ".".join(parts)


def _reason(error: dict, expected: str) -> str:
    kind = error["type"]
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return expected
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be a table, got {error['input']!r}"
    return error["msg"]


def _first(exc: ValidationError, expected: dict[tuple, str], prefix: tuple = ()
           ) -> tuple[str, str]:
    error = exc.errors()[0]
    loc = prefix + tuple(error["loc"])
    parent = loc[:-1]
    if error["type"] == "extra_forbidden" and parent == ():
        return str(loc[-1]), f"unknown section (expected: {', '.join(SECTIONS)})"
    return _where(loc), _reason(error, expected.get(parent, "unknown key"))


def validate(data: dict) -> SweepFile:
    """``data`` (a parsed sweep file) as a :class:`SweepFile`; ValueError
    ``(key, reason)`` for the first thing wrong."""
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise ValueError(unknown[0], f"unknown section (expected: {', '.join(SECTIONS)})")
    if "sweep" not in data:
        raise ValueError("sweep", "missing (the [sweep] table names the scene and experiment)")
    try:
        return SweepFile.model_validate(data)
    except ValidationError as exc:
        raise ValueError(*_first(exc, {
            ("sweep",): f"unknown key (expected one of: {', '.join(SWEEP_KEYS)})",
            ("jitter",): "unknown key (expected one of: position, yaw, height)"})) from None


def validate_spec(key: str, spec: dict) -> BaseModel:
    """A parameter's range (``{start, stop, num}``) or draw (``{distribution, ...,
    samples}``) as its model; ValueError ``(key, reason)`` for the first thing
    wrong."""
    where = ("parameters", key)
    if "distribution" not in spec:
        model, expected = Range, "a range is {start, stop, num}, a distribution " \
                                 "{distribution, ..., samples}"
        if set(spec) - {"start", "stop", "num"}:
            raise ValueError(_where(where), expected)
    else:
        name = spec["distribution"]
        if name not in DRAWS:
            raise ValueError(_where((*where, "distribution")),
                             f"unknown distribution {name!r} (known: {', '.join(DRAWS)})")
        model = DRAWS[name]
        expected = f"unknown key (a {name} distribution takes " \
                   f"{', '.join(DISTRIBUTIONS[name])}, samples)"
    try:
        return model.model_validate(spec)
    except ValidationError as exc:
        raise ValueError(*_first(exc, {where: expected}, where)) from None
