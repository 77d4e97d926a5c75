"""One validator for the fields of JSON and TOML values: actions, records, saved
states and the rule values of scenes.

A :class:`Spec` names a field, the types it may hold, whether it is required, the
lowest value it may take and whether a string must be one line of printable text;
:func:`check` checks one value against a spec and
:func:`check_object` an object against a tuple of specs.  Both raise
:class:`FieldError`, whose message is one line naming where the value is and what is
wrong (``turns[3].action.x: must be a number, got "left"``); callers turn it into
their own error (a record error, a scene error naming the file).
"""
from __future__ import annotations

import json
import math
import numbers
import unicodedata
from dataclasses import dataclass
from typing import Any

#: Unicode categories a one-line text may not hold: controls (Cc: newline, tab,
#: escape ...), format characters (Cf: bidirectional overrides, zero-width marks),
#: surrogates and private use (Cs, Co), line and paragraph separators (Zl, Zp).
#: Any of them can break a name or a path over several lines or reorder the text
#: printed around it.
NOT_IN_LINE = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})

#: How each accepted type is named in messages.
TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
              dict: "an object", list: "a list", type(None): "null", object: "any value"}


class FieldError(ValueError):
    """A value that does not fit its spec: ``where`` it is and the ``reason``."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True)
class Spec:
    """A field: its ``name``, the type(s) it may hold (``float`` accepts whole
    numbers too and must be finite; ``bool`` is never an ``int``; ``object`` is any
    value), whether it is ``required``, the ``minimum`` a number may take
    (excluded itself when ``exclusive``: ``minimum=0, exclusive=True`` is
    "positive"), and whether a string must be one ``line`` of printable text (no
    character of the :data:`NOT_IN_LINE` categories: names, identifiers, paths)."""

    name: str
    kind: type | tuple[type, ...]
    required: bool = True
    minimum: float | None = None
    exclusive: bool = False
    line: bool = False

    @property
    def kinds(self) -> tuple[type, ...]:
        """The accepted types as a tuple."""
        return self.kind if isinstance(self.kind, tuple) else (self.kind,)

    def describe(self) -> str:
        """The accepted types in words: "a number or null"."""
        return " or ".join(TYPE_WORDS[k] for k in self.kinds)


def short(value: Any, limit: int = 60) -> str:
    """``value`` as JSON text (its repr when JSON cannot hold it), cut to ``limit``
    characters."""
    try:
        text = json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def line_break(text: str) -> str | None:
    """The first character of ``text`` that has no place in one line of printable
    text (one of the :data:`NOT_IN_LINE` categories), as ``U+000A``; None when there
    is none."""
    bad = next((c for c in text if unicodedata.category(c) in NOT_IN_LINE), None)
    return None if bad is None else f"U+{ord(bad):04X}"


def _finite(value: numbers.Real) -> bool:
    """True when ``value`` converts to a finite float (a whole number too large for
    a float, like 10**400, does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _fits(value: Any, kind: type) -> bool:
    """Whether ``value`` is of ``kind``; numpy's integer and floating scalars count as
    numbers (``numbers.Integral``, ``numbers.Real``), ``bool`` never does."""
    if kind is object:
        return True
    if isinstance(value, bool):
        return kind is bool
    if kind is float:
        return isinstance(value, numbers.Real) and _finite(value)
    if kind is int:
        return isinstance(value, numbers.Integral)
    return isinstance(value, kind)


def check(value: Any, spec: Spec, where: str) -> Any:
    """``value`` checked against ``spec`` (a ``float`` field's whole number comes back
    as a float, an ``int`` field's numpy integer as an int); :class:`FieldError` at
    ``where`` when it does not fit."""
    kind = next((k for k in spec.kinds if _fits(value, k)), None)
    if kind is None:
        words = spec.describe()
        if float in spec.kinds and isinstance(value, numbers.Real) \
                and not isinstance(value, bool):
            words = words.replace(TYPE_WORDS[float], "a finite number")
        raise FieldError(where, f"must be {words}, got {short(value)}")
    if spec.minimum is not None and kind in (int, float):
        low = spec.minimum
        if value < low or (spec.exclusive and value == low):
            bound = f"> {low:g}" if spec.exclusive else f">= {low:g}"
            raise FieldError(where, f"must be {bound}, got {short(value)}")
    if spec.line and kind is str and (bad := line_break(value)) is not None:
        raise FieldError(where, f"must be one line of printable text, got {short(value)} "
                                f"(character {bad})")
    if kind is float:
        return float(value)
    return int(value) if kind is int else value


def check_object(data: Any, specs: tuple[Spec, ...], where: str,
                 label: str | None = None) -> dict[str, Any]:
    """The fields of the object ``data`` checked against ``specs``: no unknown field,
    every required one present, each fitting its spec.  Returns the checked values of
    the fields present.  ``where`` is the object's path (its fields are
    ``where.name``; "" for a document's top level, whose fields are named alone);
    ``label`` names the object itself in messages (default ``where``)."""
    label = label or where
    if not isinstance(data, dict):
        raise FieldError(label, f"must be an object, got {short(data)}")
    names = {s.name for s in specs}
    for key in sorted(data, key=str):
        if key not in names:
            raise FieldError(label, f"unknown field {key!r}")
    out = {}
    for spec in specs:
        if spec.name in data:
            path = f"{where}.{spec.name}" if where else spec.name
            out[spec.name] = check(data[spec.name], spec, path)
        elif spec.required:
            raise FieldError(label, f"missing field {spec.name!r}")
    return out
