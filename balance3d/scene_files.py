"""Reading scene files: TOML within the limits JSON files are read with, and
``extends`` merged key by key while noting the file every key came from, so that an
error names the file that set the offending key (:func:`message`).  Validating the
merged content into a :class:`~balance3d.scene.Scene` is :mod:`balance3d.scene`'s."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, BinaryIO

from balance3d.jsonio import MAX_BYTES, MAX_DEPTH, check_limits


class SceneError(ValueError):
    """A scene file is missing, unreadable or invalid: the message names file, key, reason."""


class TomlLimitError(ValueError):
    """A TOML file over :data:`balance3d.jsonio.MAX_BYTES` bytes, nested deeper than
    :data:`balance3d.jsonio.MAX_DEPTH` levels of arrays and tables, or with a string
    longer than
    :data:`balance3d.jsonio.MAX_STRING`; the message says which key."""


def load_toml(fh: BinaryIO) -> dict:
    """The TOML document read from the binary file ``fh``, within the limits JSON
    files are read with (:data:`~balance3d.jsonio.MAX_BYTES` bytes, read no
    further; :data:`~balance3d.jsonio.MAX_DEPTH` levels;
    :data:`~balance3d.jsonio.MAX_STRING` characters).  Raises
    :class:`tomllib.TOMLDecodeError`, :class:`UnicodeDecodeError` or
    :class:`TomlLimitError`."""
    raw = fh.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise TomlLimitError(f"over the limit of {MAX_BYTES} bytes")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except RecursionError:
        raise TomlLimitError(f"arrays or tables nested deeper than {MAX_DEPTH} "
                             f"levels") from None
    problem = check_limits(data)
    if problem is not None:
        raise TomlLimitError(problem)
    return data


def read_toml(path: Path) -> dict:
    """The TOML file ``path`` read within the limits; :class:`SceneError` names the
    file and what is wrong with it."""
    try:
        with open(path, "rb") as fh:
            return load_toml(fh)
    except FileNotFoundError:
        raise SceneError(f"{path}: no such scene file") from None
    except IsADirectoryError:
        raise SceneError(f"{path}: is a folder, not a scene file") from None
    except UnicodeDecodeError as exc:
        raise SceneError(f"{path}: not valid TOML: not UTF-8 text ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SceneError(f"{path}: not valid TOML: {exc}") from None
    except TomlLimitError as exc:
        raise SceneError(f"{path}: {exc}") from None
    except OSError as exc:
        raise SceneError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _merge(base: dict, top: dict) -> dict:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _note_origins(value: Any, key: str, path: Path, origins: dict[str, Path]) -> None:
    """Record ``path`` as the origin of ``key`` and of every key below it."""
    if key:
        origins[key] = path
    if isinstance(value, dict):
        for k, v in value.items():
            _note_origins(v, f"{key}.{k}" if key else str(k), path, origins)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _note_origins(v, f"{key}[{i}]", path, origins)


def read_merged(path: Path, seen: tuple[Path, ...]) -> tuple[dict, dict[str, Path]]:
    """The file's content merged over what it extends, and the file each key
    (dotted, ``bodies[i]`` for bodies) came from."""
    if path in seen:
        chain = " -> ".join(p.name for p in (*seen, path))
        raise SceneError(f"{seen[-1]}: scene.extends: files extend each other in a loop "
                         f"({chain})")
    data = read_toml(path)
    origins: dict[str, Path] = {}
    _note_origins(data, "", path, origins)
    head = data.get("scene")
    parent = head.get("extends") if isinstance(head, dict) else None
    if parent is None:
        return data, origins
    if not isinstance(parent, str) or not parent:
        raise SceneError(f"{path}: scene.extends: must be a file name, got {parent!r}")
    parent_path = (path.parent / parent).resolve()
    if not parent_path.is_file():
        raise SceneError(f"{path}: scene.extends: no such scene file {parent_path}")
    base, merged_origins = read_merged(parent_path, seen + (path,))
    merged = _merge(base, data)
    base_bodies, own_bodies = base.get("bodies"), data.get("bodies")
    if isinstance(base_bodies, list) and isinstance(own_bodies, list):
        merged["bodies"] = base_bodies + own_bodies
        shift = len(base_bodies)
        for key, origin in list(origins.items()):
            if key.startswith("bodies["):
                index, _, rest = key[len("bodies["):].partition("]")
                origins[f"bodies[{int(index) + shift}]{rest}"] = origin
                if int(index) < shift:
                    del origins[key]
    elif own_bodies is not None:
        for key in [k for k in merged_origins if k.startswith("bodies[")]:
            del merged_origins[key]
    merged_origins.update(origins)
    merged["scene"] = dict(merged["scene"])
    merged["scene"].pop("extends", None)
    return merged, merged_origins


def message(top: Path, origins: dict[str, Path], key: str, reason: str) -> str:
    """``file: key: reason``, naming the file ``key`` (or its nearest enclosing table)
    came from, and the scene being loaded when that is another file."""
    probe = key
    origin = None
    while probe:
        if probe in origins:
            origin = origins[probe]
            break
        cut = max(probe.rfind("."), probe.rfind("["))
        probe = probe[:cut] if cut > 0 else ""
    origin = origin or top
    where = f"{origin}: {key}" if key else f"{origin}"
    via = f" (loading {top})" if origin != top else ""
    return f"{where}: {reason}{via}"
