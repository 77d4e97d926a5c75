"""Checked reading of an experiment's ``[experiment]`` options.

Every reader raises :class:`~balance3d.games.experiment.ExperimentError` whose
message starts with ``experiment.KEY:`` and says what was expected.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Mapping

from balance3d.games.experiment import ExperimentError


def fail(key: str, reason: str) -> ExperimentError:
    """The error about option ``key``."""
    return ExperimentError(f"experiment.{key}: {reason}")


def check_keys(options: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse an option that is not one of ``known``."""
    allowed = sorted(known)
    for key in options:
        if key not in allowed:
            raise fail(key, f"unknown option (known: {', '.join(allowed) or 'none'})")


def is_int(value: Any) -> bool:
    """True for a whole number that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """True for a finite int or float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value)


def int_list(options: Mapping[str, Any], key: str, low: int, high: int | None = None,
             ) -> tuple[int, ...] | None:
    """Option ``key``: a whole number or a non-empty list of distinct whole numbers,
    each in ``low..high`` (``high`` None: no upper bound); None when absent."""
    if key not in options:
        return None
    value = options[key]
    values = [value] if is_int(value) else value
    span = f"{low}..{high}" if high is not None else f">= {low}"
    if not (isinstance(values, list) and values and all(is_int(v) for v in values)):
        raise fail(key, f"must be a whole number or a list of whole numbers ({span}), "
                        f"got {value!r}")
    for v in values:
        if v < low or (high is not None and v > high):
            raise fail(key, f"{v} is out of range ({span})")
    if len(set(values)) != len(values):
        raise fail(key, f"lists a value twice: {value!r}")
    return tuple(values)


def whole(options: Mapping[str, Any], key: str, default: int, low: int) -> int:
    """Option ``key``: a whole number >= ``low`` (``default`` when absent)."""
    value = options.get(key, default)
    if not is_int(value) or value < low:
        raise fail(key, f"must be a whole number >= {low}, got {value!r}")
    return int(value)


def number(options: Mapping[str, Any], key: str, default: float, *, low: float = 0.0,
           high: float = math.inf, unit: str = "") -> float:
    """Option ``key``: a finite number in ``[low, high]`` (``default`` when absent)."""
    value = options.get(key, default)
    if not is_number(value) or not low <= value <= high:
        span = f">= {low}" if high == math.inf else f"within {low}..{high}"
        raise fail(key, f"must be a number {span}{' ' + unit if unit else ''}, got {value!r}")
    return float(value)


def choice(options: Mapping[str, Any], key: str, default: str, allowed: Iterable[str]) -> str:
    """Option ``key``: one of the words ``allowed`` (``default`` when absent)."""
    words = tuple(allowed)
    value = options.get(key, default)
    if value not in words:
        raise fail(key, f"must be one of {', '.join(repr(w) for w in words)}, got {value!r}")
    return value


def table_list(options: Mapping[str, Any], key: str, fields: Mapping[str, str]
               ) -> tuple[dict[str, Any], ...]:
    """Option ``key``: a list of tables (``[{block = 3, x = -0.15}, ...]``), each with
    exactly ``fields`` (name -> "int" or "number"); empty when absent."""
    value = options.get(key, [])
    shape = "{" + ", ".join(f"{k} = {t}" for k, t in fields.items()) + "}"
    if not isinstance(value, list):
        raise fail(key, f"must be a list of tables {shape}, got {value!r}")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, Mapping) or set(item) != set(fields):
            raise fail(f"{key}[{i}]", f"must be a table {shape}, got {item!r}")
        for name, kind in fields.items():
            ok = is_int(item[name]) if kind == "int" else is_number(item[name])
            if not ok:
                raise fail(f"{key}[{i}].{name}", f"must be a {'whole ' if kind == 'int' else ''}"
                                                 f"number, got {item[name]!r}")
        out.append(dict(item))
    return tuple(out)
