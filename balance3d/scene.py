"""Scene files (TOML) -> validated, immutable :class:`Scene` data.

A scene file describes one game's table: physics settings, materials, parts (built
with :mod:`balance3d.meshes`), the bodies placed at the start, and a ``[rules]`` table
that the game reads.  Every quantity is SI (metres, kilograms, seconds, radians).

A file may start from another with ``extends = "other.toml"`` in its ``[scene]``
table (a path relative to the file): tables merge key by key, the extending file
wins, and ``[[bodies]]`` arrays concatenate (the base file's bodies first).  Any error
names the file the offending key came from, the key and the reason (:class:`SceneError`).
Reading the files and merging ``extends`` is :mod:`balance3d.scene_files`; this
module validates the merged content.

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

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from balance3d import numerics
from balance3d.meshes import builders
from balance3d.meshes.part import Material, Part, make_part
from balance3d.physics.caches import caches_on
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import World
from balance3d.resources import models_dir, scenes_dir
from balance3d.scene_files import SceneError, message, read_merged, read_toml
from balance3d.scene_paths import PathError, set_value


class OverrideError(SceneError):
    """An override's path names no value of the scene, or its value has the wrong
    type: ``key`` is the path, ``reason`` why."""

    def __init__(self, scene: Path, key: str, reason: str) -> None:
        super().__init__(f"{scene}: override {key!r}: {reason}")
        self.key, self.reason = key, reason


POSITIVE = "positive number"
#: kg/m^3, the lowest density of a material or part: about that of air, below
#: every solid (the lightest aerogels hold a few kg/m^3).
MIN_DENSITY = 1.0
#: kg/m^3, the highest density of a material or part: above every element
#: (osmium, 22,590 kg/m^3).
MAX_DENSITY = 25_000.0
VEC3 = "list of 3 positive numbers"
#: m, the shortest dimension of a part: a fifth of the default collision margin
#: (0.5 mm), far below the thinnest bundled part.
MIN_LENGTH = 1e-4
#: m, the longest dimension of a part: five times the default table extent (2 m),
#: beyond which a body has left the table (and a part of 1e300 m overflows its mass
#: properties).
MAX_LENGTH = 10.0

#: Part kinds, their builder and the dimensions each needs (metres unless named).
PART_KINDS: dict[str, dict[str, str]] = {
    "box": {"size": VEC3},
    "cylinder": {"radius": POSITIVE, "height": POSITIVE},
    "sphere": {"radius": POSITIVE},
    "prism": {"width": POSITIVE, "height": POSITIVE, "length": POSITIVE},
    "triangle_plate": {"side": POSITIVE, "thickness": POSITIVE},
    "triangle_frame": {"side": POSITIVE, "bar_width": POSITIVE, "bar_height": POSITIVE},
    "letter": {"glyph": "string", "width": POSITIVE, "height": POSITIVE, "thickness": POSITIVE},
    "stadium": {"length": POSITIVE, "width": POSITIVE, "thickness": POSITIVE},
    "rounded_box": {"size": VEC3, "radius": POSITIVE},
}
_COMMON_PART_KEYS = {"kind", "material", "static", "mass", "density"}
_MATERIAL_KEYS = {"density": True, "friction": True, "restitution": False,
                  "rolling_friction": False, "spinning_friction": False}


@dataclass(frozen=True)
class BodySpec:
    """A body placed at the start: ``part`` with its design origin at ``position``
    ((3,) m) and orientation ``rpy`` ((3,) rad, roll-pitch-yaw about fixed x, y, z)."""

    name: str
    part: str
    position: tuple[float, float, float]
    rpy: tuple[float, float, float]


@dataclass(frozen=True, eq=False)
class Scene:
    """A validated scene.  ``data`` is the resolved (merged) file content."""

    name: str
    game: str
    variant: str
    description: str
    path: Path
    physics: PhysicsSettings
    materials: dict[str, Material]
    parts: dict[str, Part]
    bodies: tuple[BodySpec, ...]
    rules: dict[str, Any]
    data: dict[str, Any] = field(repr=False)
    origins: dict[str, Path] = field(default_factory=dict, repr=False)

    @property
    def digest(self) -> str:
        """SHA-256 of the resolved content (canonical JSON): identifies the physics
        and rules a record was played with."""
        blob = json.dumps(self.data, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def error(self, key: str, reason: str) -> SceneError:
        """A :class:`SceneError` about ``key`` (dotted, e.g. ``"rules.coins"``) of this
        scene, naming the file that set it."""
        return SceneError(message(self.path, self.origins, key, reason))

    def build_world(self, **world_kwargs) -> World:
        """A World holding this scene's bodies at their start poses."""
        world = World(self.physics, **world_kwargs)
        for body in self.bodies:
            part = self.parts[body.part]
            pos, quat = body_pose(part, body.position, rpy_to_quat(body.rpy))
            world.add(body.name, part, pos, quat)
        return world

    def summary(self) -> dict[str, Any]:
        """Every body with its part's kind, dimensions, mass and pose, the parts, and
        the physics settings: what ``balance3d scene show`` prints."""
        parts = {}
        for name, part in self.parts.items():
            spec = self.data["parts"][name]
            parts[name] = {
                "kind": spec["kind"],
                "dimensions": {k: spec[k] for k in PART_KINDS[spec["kind"]]},
                "material": part.material.name,
                "static": part.static,
                "mass_kg": part.mass,
                "extents_m": [float(v) for v in part.extents],
            }
        return {
            "name": self.name, "game": self.game, "variant": self.variant,
            "description": self.description, "path": str(self.path), "digest": self.digest,
            "physics": _settings_dict(self.physics),
            "materials": self.data["materials"],
            "parts": parts,
            "bodies": [{"name": b.name, "part": b.part, "position_m": list(b.position),
                        "rpy_rad": list(b.rpy), "mass_kg": self.parts[b.part].mass,
                        "static": self.parts[b.part].static} for b in self.bodies],
            "rules": self.rules,
        }


def _settings_dict(settings: PhysicsSettings) -> dict[str, Any]:
    return {k: getattr(settings, k) for k in PhysicsSettings.field_types()}


def rpy_to_quat(rpy) -> tuple[float, float, float, float]:
    """Roll-pitch-yaw (rad, fixed axes x then y then z) -> unit quaternion (x, y, z,
    w), by :func:`balance3d.numerics.quat_from_rpy` (the same bits everywhere)."""
    return tuple(float(v) for v in numerics.quat_normalized(numerics.quat_from_rpy(rpy)))


def body_pose(part: Part, position, orientation) -> tuple[tuple, tuple]:
    """Pose of ``part``'s body frame when its design origin is at ``position`` (m)
    with ``orientation`` (quaternion xyzw), computed in a fixed order
    (:mod:`balance3d.numerics`)."""
    offset = part.design_from_body
    body_rot = numerics.quat_multiply(orientation, numerics.quat_from_matrix(offset[:3, :3]))
    body_pos = np.asarray(position, float) + numerics.rotate(orientation, offset[:3, 3])
    return (tuple(float(v) for v in body_pos),
            tuple(float(v) for v in numerics.quat_normalized(body_rot)))


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
    return _validate(_Source(Path(where), {}), json.loads(json.dumps(data)))


def _optional_keys(keys: tuple[str, ...], table: dict) -> dict[str, Any]:
    """Keys a scene table takes although the file may leave them out, with the value
    an absent one stands for (None: set only as a whole)."""
    if keys == ("physics",):
        return dict.fromkeys(PhysicsSettings.field_types())
    if len(keys) == 2 and keys[0] == "materials":
        return dict.fromkeys(_MATERIAL_KEYS)
    if len(keys) == 2 and keys[0] == "parts" and table.get("kind") in PART_KINDS:
        return dict.fromkeys(_COMMON_PART_KEYS | set(PART_KINDS[table["kind"]]))
    if keys == ("bodies",):
        return {"rpy": [0.0, 0.0, 0.0]}
    return {}


def _load(path: Path, blob: str, origins: tuple[tuple[str, str], ...]) -> Scene:
    return _validate(_Source(path, {k: Path(v) for k, v in origins}), json.loads(blob))


#: Loaded scenes kept (least recently used dropped first), by file, content and
#: overrides: a game's clones and a sweep's runs load the same few again and again.
#: A scene holds 0.2 to 0.4 MB (its parts' meshes), so at most about 6 MB.
SCENE_CACHE_SIZE = 16
_load_cached = lru_cache(maxsize=SCENE_CACHE_SIZE)(_load)


@dataclass(frozen=True)
class _Source:
    """The scene file being loaded and where each of its keys came from."""

    path: Path
    origins: dict[str, Path]

    def error(self, key: str, reason: str) -> SceneError:
        return SceneError(message(self.path, self.origins, key, reason))


class _Checker:
    """Typed look-ups into one table of a scene file, with errors naming the key."""

    def __init__(self, source: _Source, table: Any, prefix: str) -> None:
        self.source, self.prefix = source, prefix
        if not isinstance(table, dict):
            self.fail("", f"must be a table, got {type(table).__name__} {table!r}")
        self.table = table

    def fail(self, key: str, reason: str):
        where = f"{self.prefix}.{key}" if key and self.prefix else (key or self.prefix)
        raise self.source.error(where, reason)

    def get(self, key: str, kind: str, default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                self.fail(key, "missing")
            return default
        return check_value(self, key, self.table[key], kind)

    def unknown(self, allowed) -> None:
        extra = sorted(set(self.table) - set(allowed))
        if extra:
            self.fail(extra[0], f"unknown key (expected one of: {', '.join(sorted(allowed))})")


def check_value(checker: _Checker, key: str, value: Any, kind: str) -> Any:
    """Check ``value`` against ``kind`` (see PART_KINDS; also "number", "bool",
    "string", "int", "nonnegative number", "list of 3 numbers")."""
    def number(v) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)

    if kind == "string":
        if not isinstance(value, str) or not value:
            checker.fail(key, f"must be a non-empty string, got {value!r}")
    elif kind == "bool":
        if not isinstance(value, bool):
            checker.fail(key, f"must be true or false, got {value!r}")
    elif kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            checker.fail(key, f"must be a whole number, got {value!r}")
    elif kind == "positive int":
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            checker.fail(key, f"must be a positive whole number, got {value!r}")
    elif kind == "number":
        if not number(value):
            checker.fail(key, f"must be a finite number, got {value!r}")
        value = float(value)
    elif kind == POSITIVE:
        if not number(value) or value <= 0:
            checker.fail(key, f"must be a positive number, got {value!r}")
        value = float(value)
    elif kind == "nonnegative number":
        if not number(value) or value < 0:
            checker.fail(key, f"must be zero or a positive number, got {value!r}")
        value = float(value)
    elif kind in (VEC3, "list of 3 numbers"):
        if not (isinstance(value, list) and len(value) == 3 and all(number(v) for v in value)):
            checker.fail(key, f"must be a {kind}, got {value!r}")
        if kind == VEC3 and any(v <= 0 for v in value):
            checker.fail(key, f"must be a {kind}, got {value!r}")
        value = tuple(float(v) for v in value)
    else:
        raise AssertionError(f"unknown check {kind!r}")
    return value


def _glyphs() -> dict[str, Any]:
    """Letter glyphs from ``models/letters.toml``, checked: each has positive whole
    ``columns`` and ``rows`` and ``rects`` rows of four cell coordinates."""
    path = models_dir() / "letters.toml"
    glyphs = read_toml(path).get("glyphs", {})
    for letter, glyph in glyphs.items():
        where = f"{path}: glyphs.{letter}"
        if not isinstance(glyph, dict):
            raise SceneError(f"{where}: must be a table")
        for key in ("columns", "rows"):
            value = glyph.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise SceneError(f"{where}.{key}: must be a positive whole number, got {value!r}")
        rects = glyph.get("rects")
        if not (isinstance(rects, list) and rects and all(
                isinstance(r, list) and len(r) == 4
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in r)
                for r in rects)):
            raise SceneError(f"{where}.rects: must be a list of [col0, row0, col1, row1] rows")
    return glyphs


def _build_part(source: _Source, name: str, spec: dict, materials: dict[str, Material]) -> Part:
    c = _Checker(source, spec, f"parts.{name}")
    kind = c.get("kind", "string")
    if kind not in PART_KINDS:
        c.fail("kind", f"unknown part kind {kind!r} (known: {', '.join(PART_KINDS)})")
    c.unknown(_COMMON_PART_KEYS | set(PART_KINDS[kind]))
    material = c.get("material", "string")
    if material not in materials:
        c.fail("material", f"unknown material {material!r} (defined: {', '.join(materials)})")
    static = c.get("static", "bool", False)
    mass = c.get("mass", POSITIVE, None)
    density = c.get("density", POSITIVE, None)
    if density is not None:
        _check_density(c, density)
    if density is not None and mass is not None:
        c.fail("density", "give the part a mass or a density, not both")
    own_material = materials[material] if density is None \
        else dataclasses.replace(materials[material], density=density)
    dims = {k: c.get(k, t) for k, t in PART_KINDS[kind].items()}
    for key, kind_of_value in PART_KINDS[kind].items():
        if kind_of_value in (POSITIVE, VEC3):
            lengths = dims[key] if kind_of_value == VEC3 else (dims[key],)
            if not all(MIN_LENGTH <= v <= MAX_LENGTH for v in lengths):
                c.fail(key, f"must be within {MIN_LENGTH:g}..{MAX_LENGTH:g} m, "
                            f"got {c.table[key]!r}")
    if kind == "letter":
        glyphs = _glyphs()
        if dims["glyph"] not in glyphs:
            c.fail("glyph", f"unknown glyph {dims['glyph']!r} (models/letters.toml has: "
                            f"{', '.join(glyphs)})")
    try:
        if kind == "box":
            built = builders.box(dims["size"])
        elif kind == "cylinder":
            built = builders.cylinder(dims["radius"], dims["height"])
        elif kind == "sphere":
            built = builders.sphere(dims["radius"])
        elif kind == "prism":
            built = builders.triangular_prism(dims["width"], dims["height"], dims["length"])
        elif kind == "triangle_plate":
            built = builders.triangle_plate(dims["side"], dims["thickness"])
        elif kind == "triangle_frame":
            built = builders.triangle_frame(dims["side"], dims["bar_width"], dims["bar_height"])
        elif kind == "stadium":
            built = builders.stadium(dims["length"], dims["width"], dims["thickness"])
        elif kind == "rounded_box":
            built = builders.rounded_box(dims["size"], dims["radius"])
        else:
            g = glyphs[dims["glyph"]]
            cells = np.asarray(g["rects"], float)
            # centred in cells (exact), then scaled: a mirror-symmetric glyph gives
            # coordinates that are exact negatives of each other
            middle = [(cells[:, k].min() + cells[:, k + 2].max()) / 2.0 for k in (0, 1)]
            scale = np.array([dims["width"] / g["columns"], dims["height"] / g["rows"]] * 2)
            built = builders.letter((cells - middle * 2) * scale, dims["thickness"])
        return make_part(name, *built, own_material, mass=mass, static=static,
                         params=dict(kind=kind, **dims))
    except ValueError as exc:
        c.fail("", str(exc))


def _check_density(checker: _Checker, density: float) -> None:
    """Refuse, naming the key, a density outside MIN_DENSITY..MAX_DENSITY."""
    if not MIN_DENSITY <= density <= MAX_DENSITY:
        checker.fail("density", f"must be within {MIN_DENSITY:g}..{MAX_DENSITY:g} kg/m^3, "
                                f"got {density!r}")


def _check_game(head: _Checker, game: str, variant: str) -> None:
    """Refuse, naming the key, a game that is not registered or a variant it does
    not have."""
    from balance3d.games import REGISTRY, get_game

    if game not in REGISTRY:
        head.fail("game", f"unknown game {game!r} (known: {', '.join(sorted(REGISTRY))})")
    variants = get_game(game).variants
    if variant not in variants:
        head.fail("variant", f"{game} has no variant {variant!r} (variants: "
                             f"{', '.join(variants)})")


def _validate(source: _Source, data: dict) -> Scene:
    top = _Checker(source, data, "")
    top.unknown({"scene", "physics", "materials", "parts", "bodies", "rules"})
    if "scene" not in data:
        top.fail("scene", "missing")
    head = _Checker(source, data["scene"], "scene")
    head.unknown({"name", "game", "variant", "description"})
    name = head.get("name", "string")
    game = head.get("game", "string")
    variant = head.get("variant", "string", "basic")
    _check_game(head, game, variant)
    description = head.get("description", "string", "")

    phys = _Checker(source, data.get("physics", {}), "physics")
    types = PhysicsSettings.field_types()
    phys.unknown(types)
    values = {}
    for key, typ in types.items():
        if key in phys.table:
            kind = {bool: "bool", int: "int", float: "number"}[typ]
            values[key] = phys.get(key, kind)
    try:
        physics = PhysicsSettings(**values)
    except ValueError as exc:
        key, _, reason = str(exc).partition(" ")
        raise source.error(key, reason) from None

    mats_table = _Checker(source, data.get("materials", {}), "materials")
    if not mats_table.table:
        mats_table.fail("", "at least one material is needed")
    materials = {}
    for mname, spec in mats_table.table.items():
        m = _Checker(source, spec, f"materials.{mname}")
        m.unknown(_MATERIAL_KEYS)
        vals = {k: m.get(k, POSITIVE if k == "density" else "nonnegative number",
                         ... if required else 0.0) for k, required in _MATERIAL_KEYS.items()}
        _check_density(m, vals["density"])
        if vals["restitution"] > 1.0:
            m.fail("restitution", f"must be within 0..1, got {vals['restitution']}")
        materials[mname] = Material(mname, **vals)

    parts_table = _Checker(source, data.get("parts", {}), "parts")
    parts = {pname: _build_part(source, pname, spec, materials)
             for pname, spec in parts_table.table.items()}

    bodies_raw = data.get("bodies", [])
    if not isinstance(bodies_raw, list):
        top.fail("bodies", "must be an array of tables ([[bodies]])")
    bodies, seen = [], set()
    for i, spec in enumerate(bodies_raw):
        b = _Checker(source, spec, f"bodies[{i}]")
        b.unknown({"name", "part", "position", "rpy"})
        bname = b.get("name", "string")
        if bname in seen:
            b.fail("name", f"duplicate body name {bname!r}")
        seen.add(bname)
        part = b.get("part", "string")
        if part not in parts:
            b.fail("part", f"unknown part {part!r} (defined: {', '.join(parts)})")
        bodies.append(BodySpec(bname, part, b.get("position", "list of 3 numbers"),
                               b.get("rpy", "list of 3 numbers", (0.0, 0.0, 0.0))))
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        top.fail("rules", "must be a table")
    return Scene(name, game, variant, description, source.path, physics, materials, parts,
                 tuple(bodies), rules, data, source.origins)
