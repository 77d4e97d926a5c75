"""Dotted paths naming one value of a resolved scene, and setting values by them.

A path is dotted table keys, each optionally followed by list selectors: an index
``[i]`` (from 0) or ``[key=value]``, the element whose ``key`` reads ``value``::

    physics.time_step            materials.wood.density       parts.beam.size[2]
    rules.coins                  bodies[1].position[2]        bodies[name=beam].rpy[0]

:func:`set_value` replaces the value a path names, checking that the new value has
the old one's type (a number for a number, a list for a list, ...); a key that is
absent may be set when the caller's ``optional`` says the table takes it (a part's
``mass``, a physics setting left at its default).  Errors are :class:`PathError`
carrying the path and a one-line reason.
"""
from __future__ import annotations

import copy
import math
import re
from typing import Any, Callable, Mapping

#: One dotted segment: a key and its list selectors.
_SEGMENT = re.compile(r"([^.\[\]=]+)((?:\[[^\[\]]+\])*)")
_SELECTOR = re.compile(r"\[([^\[\]]+)\]")


class PathError(ValueError):
    """A path that names no value, or a value of the wrong type for it."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


#: ``optional(keys, table) -> {name: default}``: the keys the table at ``keys`` (the
#: dotted keys leading to it, list selectors left out) takes although it may not hold
#: them, each with the value it stands for when absent (None: no such value; the key
#: can only be set as a whole).
Optional = Callable[[tuple[str, ...], dict], Mapping[str, Any]]


def parse_path(path: str) -> list[str | int | tuple[str, str]]:
    """``path`` as steps: a key (str), an index (int) or a ``(key, value)`` match."""
    if not isinstance(path, str) or not path:
        raise PathError(str(path), "a path must be a non-empty string")
    steps: list[str | int | tuple[str, str]] = []
    for segment in path.split("."):
        found = _SEGMENT.fullmatch(segment)
        if found is None:
            raise PathError(path, f"cannot read {segment!r} (write key, key[i] or "
                                  f"key[name=value])")
        steps.append(found.group(1))
        for selector in _SELECTOR.findall(found.group(2)):
            key, eq, value = selector.partition("=")
            if eq:
                steps.append((key.strip(), value.strip()))
            elif selector.strip().isdigit():
                steps.append(int(selector))
            else:
                raise PathError(path, f"[{selector}] is neither an index from 0 nor "
                                      f"key=value")
    return steps


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _checked(path: str, old: Any, new: Any) -> Any:
    """``new`` for a value that was ``old``: the same kind, an integral number for a
    whole one (written as a whole number)."""
    want, got = _kind(old), _kind(new)
    if want == "table":
        raise PathError(path, f"names a table, not a value (its keys: {', '.join(old)})")
    if got != want:
        raise PathError(path, f"must be a {want} like the scene's {old!r}, got {new!r}")
    if want == "number":
        if not math.isfinite(new):
            raise PathError(path, f"must be a finite number, got {new!r}")
        if isinstance(old, int) and not isinstance(new, int):
            if not float(new).is_integer():
                raise PathError(path, f"must be a whole number like the scene's {old!r}, "
                                      f"got {new!r}")
            new = int(new)
    return copy.deepcopy(new)


def _label(keys: list[str]) -> str:
    return ".".join(keys) if keys else "the scene"


def set_value(data: dict, path: str, value: Any, optional: Optional | None = None) -> None:
    """Set the value ``path`` names in ``data`` (resolved scene content, changed in
    place) to ``value``; :class:`PathError` when nothing is there or ``value`` has
    the wrong type."""
    steps = parse_path(path)
    node: Any = data
    keys: list[str] = []
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(step, str):
            if not isinstance(node, dict):
                raise PathError(path, f"{_label(keys)} is a {_kind(node)}, it has no key "
                                      f"{step!r}")
            if step not in node:
                defaults = optional(tuple(keys), node) if optional else {}
                if step not in defaults or (not last and defaults[step] is None):
                    raise PathError(path, _missing(keys, step, node, set(defaults)))
                if last and defaults[step] is None:
                    node[step] = copy.deepcopy(value)
                    return
                node[step] = copy.deepcopy(defaults[step])
            holder, where = node, step
            keys.append(step)
        elif isinstance(step, int):
            if not isinstance(node, list):
                raise PathError(path, f"{_label(keys)} is a {_kind(node)}, not a list")
            if step >= len(node):
                raise PathError(path, f"index {step} out of range ({_label(keys)} has "
                                      f"{len(node)} elements)")
            holder, where = node, step
        else:
            key, wanted = step
            if not isinstance(node, list):
                raise PathError(path, f"{_label(keys)} is a {_kind(node)}, not a list")
            matches = [j for j, item in enumerate(node)
                       if isinstance(item, dict) and str(item.get(key)) == wanted]
            if not matches:
                seen = [str(item.get(key)) for item in node if isinstance(item, dict)
                        and key in item]
                raise PathError(path, f"no element of {_label(keys)} with {key} = "
                                      f"{wanted!r} ({key}s: {', '.join(seen) or 'none'})")
            holder, where = node, matches[0]
        node = holder[where]
    holder[where] = _checked(path, node, value)


def _missing(keys: list[str], step: str, node: dict, allowed: set[str]) -> str:
    """The reason a key is missing: no such section, material, part or key."""
    names = ", ".join(sorted(set(node) | allowed)) or "none"
    if not keys:
        return f"no section {step!r} (sections: {names})"
    if len(keys) == 1 and keys[0] in ("materials", "parts"):
        what = keys[0][:-1]
        return f"no {what} {step!r} ({keys[0]}: {names})"
    return f"{_label(keys)} has no key {step!r} (keys: {names})"
