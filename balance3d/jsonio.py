"""Reading JSON files a user hands over (records, scripts) within fixed limits.

A JSON file from outside can be made to cost far more to read than it is worth: a
huge file, a 100 MB string, or thousands of nested brackets (Python's parser then
raises RecursionError).  :func:`read_json` refuses each of these with one line
naming the file and the limit, before the value reaches any other code:

- :data:`MAX_BYTES`: the file's size, checked before it is read;
- :data:`MAX_VALUES`: how many lists, objects and list or object entries it may
  hold, counted on the raw text before it is parsed (every ``[``, ``{`` and ``,``,
  also inside strings, so the count is an upper bound);
- :data:`MAX_DEPTH`: how deeply lists and objects nest;
- :data:`MAX_STRING`: the length of every string and object key;
- numbers must be finite (no ``NaN``, ``Infinity``, ``1e999``) and integers short
  enough for Python to read.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

#: bytes, largest JSON file read: four times the largest record measured (a
#: 4-player Tower game of the random bot, 122 turns with the table's state kept after
#: each, is about 1.3 MB; the README lists the sizes).
MAX_BYTES = 16 * 1024 * 1024
#: count, most brackets and commas in a file (canonical records hold one per about
#: 30 bytes, so a record of MAX_BYTES stays under it); parsed, each costs up to
#: about a hundred bytes of memory.
MAX_VALUES = 1_000_000
#: levels, deepest nesting of lists and objects (a record nests 8 levels, a
#: non-bundled scene's content kept in it a few more).
MAX_DEPTH = 32
#: characters, longest string or object key: names and event texts, and in a
#: record's kept states a welded pair's contacts packed as base64 (107 characters
#: per contact; the most measured, 15 contacts, take 1600): room for 150 contacts.
MAX_STRING = 16384


class JsonFileError(ValueError):
    """A JSON file that cannot be read, is not JSON or breaks a limit; the message
    is one line that starts with the file's path."""


def read_json(path: str | Path) -> Any:
    """The JSON value in the file ``path``, within :data:`MAX_BYTES`,
    :data:`MAX_VALUES`, :data:`MAX_DEPTH` and :data:`MAX_STRING`.  Raises
    :class:`JsonFileError`."""
    path = Path(path)
    try:
        if path.is_dir():
            raise JsonFileError(f"{path}: is a folder, not a JSON file")
        size = os.stat(path).st_size
        if size > MAX_BYTES:
            raise JsonFileError(f"{path}: {size} bytes, over the limit of {MAX_BYTES} bytes")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise JsonFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise JsonFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise JsonFileError(f"{path}: over the limit of {MAX_BYTES} bytes")
    values = raw.count(b"[") + raw.count(b"{") + raw.count(b",")
    if values > MAX_VALUES:
        raise JsonFileError(f"{path}: {values} brackets and commas, over the limit of "
                            f"{MAX_VALUES}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        # "Unterminated string starting at" already ends in "at"
        raise JsonFileError(f"{path}: not JSON: {exc.msg.removesuffix(' at')} at line "
                            f"{exc.lineno} "
                            f"column {exc.colno}") from None
    except RecursionError:
        raise JsonFileError(f"{path}: lists or objects nested deeper than {MAX_DEPTH} "
                            f"levels") from None
    except ValueError as exc:
        raise JsonFileError(f"{path}: not JSON: {str(exc).splitlines()[0]}") from None
    problem = check_limits(value)
    if problem is not None:
        raise JsonFileError(f"{path}: {problem}")
    return value


def check_limits(value: Any) -> str | None:
    """What in the JSON ``value`` breaks :data:`MAX_DEPTH` or :data:`MAX_STRING`
    (with where it is, as ``turns[3].action.piece``), or None.  Walks the value
    without recursion, so any depth is safe to check."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, (dict, list)) and depth > MAX_DEPTH:
            return f"{where or 'the value'}: nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, dict):
            for key, sub in item.items():
                if len(key) > MAX_STRING:
                    return (f"{where or 'the value'}: a key of {len(key)} characters, "
                            f"over the limit of {MAX_STRING}")
                stack.append((sub, f"{where}.{key}" if where else key, depth + 1))
        elif isinstance(item, list):
            stack.extend((sub, f"{where}[{i}]", depth + 1) for i, sub in enumerate(item))
        elif isinstance(item, str) and len(item) > MAX_STRING:
            return (f"{where or 'the value'}: a string of {len(item)} characters, over the "
                    f"limit of {MAX_STRING}")
    return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is too large")
    return value
