"""Study files: a sweep file with one more table that states a study of it.

A sensitivity study (``[sensitivity]``) or a search (``[search]``) is written in the
sweep file it studies: the ``[sweep]``, ``[parameters]``, ``[experiment]`` and
``[jitter]`` tables mean what they mean for ``balance3d tune``, and the study's own
table says what is varied and what is wanted.  :func:`load_study` reads the study's
table and checks the rest exactly as a sweep file
(:func:`~balance3d.tune.sweep.load_sweep`, through a copy of the file without the
study's table), so every error is the sweep's own one line naming the file and the
key.
"""
from __future__ import annotations

import json
import math
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from balance3d.scene_files import TomlLimitError, load_toml
from balance3d.tune.sweep import Sweep, SweepError, load_sweep, resolve_sweep_path

#: The study tables a study file may hold, each named as the verb that runs it
#: (``balance3d tune sensitivity``, ``balance3d tune search``).
STUDY_TABLES = ("sensitivity", "search")


def _toml_value(value: Any) -> str:
    """``value`` (as :mod:`tomllib` reads it) written as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(f"no TOML form for {value!r}")


def toml_text(data: dict[str, dict[str, Any]]) -> str:
    """A TOML document of tables of values (``data``: table -> key -> value)."""
    lines = []
    for table, values in data.items():
        if not isinstance(values, dict):
            raise TypeError(f"{table}: not a table")
        lines.append(f"[{json.dumps(table)}]")
        lines += [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document at ``path`` (:class:`SweepError` naming the file)."""
    try:
        with open(path, "rb") as fh:
            return load_toml(fh)
    except FileNotFoundError:
        raise SweepError(f"{path}: no such sweep file") from None
    except IsADirectoryError:
        raise SweepError(f"{path}: is a folder, not a sweep file") from None
    except TomlLimitError as exc:
        raise SweepError(f"{path}: {exc}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SweepError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise SweepError(f"{path}: cannot read: {exc.strerror or exc}") from None


def describe(path: Path) -> tuple[str, str | None]:
    """A sweep or study file's ``[sweep] description`` on one line (its whitespace
    runs made single spaces; "" when it gives none), and the study table it holds
    (one of :data:`STUDY_TABLES`; None for a plain sweep).  The file is read, not
    checked (:class:`SweepError` naming it when it cannot be read)."""
    data = read_toml(path)
    head = data.get("sweep")
    text = head.get("description") if isinstance(head, dict) else None
    table = next((t for t in STUDY_TABLES if isinstance(data.get(t), dict)), None)
    return " ".join(text.split()) if isinstance(text, str) else "", table


def load_study(name_or_path: str | Path, table: str) -> tuple[Sweep, dict[str, Any]]:
    """The sweep of a study file and its study table ``table`` (``"sensitivity"``,
    ``"search"``); :class:`SweepError` in one line naming the file and key."""
    path = resolve_sweep_path(name_or_path)
    data = read_toml(path)
    if table not in data:
        raise SweepError(f"{path}: {table}: missing (a {table} study is stated in a "
                         f"[{table}] table of the sweep file)")
    study = data.pop(table)
    if not isinstance(study, dict):
        raise SweepError(f"{path}: {table}: must be a table, got {study!r}")
    head = data.get("sweep")
    if isinstance(head, dict):
        head.setdefault("name", path.stem)
        scene = head.get("scene")
        if isinstance(scene, str) and (scene.endswith(".toml") or "/" in scene
                                       or "\\" in scene):
            head["scene"] = str((path.parent / scene).resolve())
    try:
        text = toml_text(data)
    except TypeError as exc:
        raise SweepError(f"{path}: {exc}") from None
    with tempfile.TemporaryDirectory(prefix="balance3d-study-") as folder:
        copy = Path(folder) / path.name
        copy.write_text(text, encoding="utf-8")
        try:
            sweep = load_sweep(copy)
        except SweepError as exc:
            raise SweepError(str(exc).replace(str(copy.resolve()), str(path))
                             .replace(str(copy), str(path))) from None
    return sweep.replace(source=path.resolve()), study


def study_keys(path: Path | str, table: str, study: dict[str, Any],
               known: tuple[str, ...]) -> None:
    """:class:`SweepError` naming the first key of ``study`` not in ``known``."""
    extra = sorted(set(study) - set(known))
    if extra:
        raise SweepError(f"{path}: {table}.{extra[0]}: unknown key (expected one of: "
                         f"{', '.join(known)})")


def study_whole(path: Path | str, key: str, value: Any, least: int) -> int:
    """``value`` of the study key ``key`` (``"search.trials"``), a whole number >=
    ``least`` (:class:`SweepError` naming the file and key otherwise)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise SweepError(f"{path}: {key}: must be a whole number >= {least}, got {value!r}")
    return value
