"""Scene files (TOML) -> validated, immutable :class:`Scene` data.

A scene file describes one game's table: physics settings, materials, parts (built
with :mod:`balance3d.meshes`), the bodies placed at the start, and a ``[rules]`` table
that the game reads.  Every quantity is SI (metres, kilograms, seconds, radians).

A file may start from another with ``extends = "other.toml"`` in its ``[scene]``
table (a path relative to the file): tables merge key by key, the extending file
wins, and ``[[bodies]]`` arrays concatenate (the base file's bodies first).  Any error
names the file the offending key came from, the key and the reason (:class:`SceneError`).
Reading the files and merging ``extends`` is :mod:`balance3d.scene_files`;
checking the merged content is :mod:`balance3d.scene_checks`, and the model it
builds is :mod:`balance3d.scene_model`.  This module finds scenes by name or path,
applies overrides and caches loaded scenes.

Layout::

    [scene]      name, game, variant, description, extends (optional)
    [physics]    any field of PhysicsSettings
    [materials.NAME]   density (kg/m^3), friction, restitution, rolling_friction,
                       spinning_friction
    [parts.NAME]       kind, material, static (bool), mass (kg, optional) or
                       density (kg/m^3, optional: overrides the material's), and
                       the kind's dimensions (see PART_KINDS)
    [[bodies]]   name, part, position (m, of the part's design origin), rpy (rad)
    [rules]      the game's own settings
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from balance3d.physics.caches import caches_on
from balance3d.physics.settings import PhysicsSettings
from balance3d.resources import scenes_dir
from balance3d.scene_checks import COMMON_PART_KEYS, MATERIAL_KEYS, Source, validate
from balance3d.scene_files import SceneError, read_merged
from balance3d.scene_model import PART_KINDS, BodySpec, Scene, body_pose, rpy_to_quat
from balance3d.scene_paths import PathError, set_value


class OverrideError(SceneError):
    """An override's path names no value of the scene, or its value has the wrong
    type: ``key`` is the path, ``reason`` why."""

    def __init__(self, scene: Path, key: str, reason: str) -> None:
        super().__init__(f"{scene}: override {key!r}: {reason}")
        self.key, self.reason = key, reason


# ---------------------------------------------------------------------- loading
def list_scenes() -> list[str]:
    """Names of the bundled scenes (file stems), sorted."""
    return sorted(p.stem for p in scenes_dir().glob("*.toml"))


def resolve_scene_path(name_or_path: str | Path) -> Path:
    """The path of a scene file given as a path, or of the bundled scene ``name``.

    An existing file wins; a text ending in ``.toml`` or holding a folder separator is
    a path; anything else is a bundled scene's name."""
    text = str(name_or_path)
    path = Path(text)
    if path.is_file():
        return path.resolve()
    if path.suffix == ".toml" or "/" in text or "\\" in text:
        raise SceneError(f"{path}: no such scene file")
    bundled = scenes_dir() / f"{text}.toml"
    if not bundled.is_file():
        raise SceneError(f"no scene named {text!r}; bundled scenes: {', '.join(list_scenes())}")
    return bundled


def load_scene(name_or_path: str | Path, overrides: dict[str, Any] | None = None) -> Scene:
    """Load and validate a scene by bundled name (``"tilted"``) or file path.

    ``overrides`` maps paths of values of the resolved scene (see
    :mod:`balance3d.scene_paths`: ``"materials.wood.density"``, ``"parts.beam.size[2]"``,
    ``"bodies[name=beam].position[2]"``) to the values they take instead, applied
    before validation (:class:`OverrideError` naming the path when it names nothing
    or the value has the wrong type).

    Loaded scenes are cached by their resolved content, so loading one again is cheap
    and an edited file (or an edited file it extends) is read afresh; while the caches
    are switched off (:func:`balance3d.physics.caches_enabled`) every load validates
    the file anew."""
    path = resolve_scene_path(name_or_path)
    data, origins = read_merged(path, ())
    for key, value in (overrides or {}).items():
        try:
            set_value(data, key, value, _optional_keys)
        except PathError as exc:
            raise OverrideError(path, key, exc.reason) from None
    blob = json.dumps(data, default=str)  # keeps the file order of keys
    key = (path, blob, tuple(sorted((k, str(v)) for k, v in origins.items())))
    return _load_cached(*key) if caches_on() else _load(*key)


def scene_from_data(data: dict[str, Any], where: str | Path) -> Scene:
    """The scene whose resolved (merged) content is ``data``, as :attr:`Scene.data`
    holds it (a record keeps it for a scene that is not bundled), validated as a
    file is; ``where`` names its origin in errors and is the scene's ``path``.
    :class:`SceneError` naming the key when ``data`` is not a valid scene."""
    if not isinstance(data, dict):
        raise SceneError(f"{where}: a scene's content must be a table")
    return validate(Source(Path(where), {}), json.loads(json.dumps(data)))


def _optional_keys(keys: tuple[str, ...], table: dict) -> dict[str, Any]:
    """Keys a scene table takes although the file may leave them out, with the value
    an absent one stands for (None: set only as a whole)."""
    if keys == ("physics",):
        return dict.fromkeys(PhysicsSettings.field_types())
    if len(keys) == 2 and keys[0] == "materials":
        return dict.fromkeys(MATERIAL_KEYS)
    if len(keys) == 2 and keys[0] == "parts" and table.get("kind") in PART_KINDS:
        return dict.fromkeys(COMMON_PART_KEYS | set(PART_KINDS[table["kind"]]))
    if keys == ("bodies",):
        return {"rpy": [0.0, 0.0, 0.0]}
    return {}


def _load(path: Path, blob: str, origins: tuple[tuple[str, str], ...]) -> Scene:
    return validate(Source(path, {k: Path(v) for k, v in origins}), json.loads(blob))


#: Loaded scenes kept (least recently used dropped first), by file, content and
#: overrides: a game's clones and a sweep's runs load the same few again and again.
#: A scene holds 0.2 to 0.4 MB (its parts' meshes), so at most about 6 MB.
SCENE_CACHE_SIZE = 16
_load_cached = lru_cache(maxsize=SCENE_CACHE_SIZE)(_load)



__all__ = ["PART_KINDS", "SCENE_CACHE_SIZE", "BodySpec", "OverrideError", "Scene", "SceneError",
           "body_pose", "list_scenes", "load_scene", "resolve_scene_path", "rpy_to_quat",
           "scene_from_data"]
