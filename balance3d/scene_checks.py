"""Checks of a scene's merged content (key by key, each error naming the file the
key came from, the key and the reason) and the building of its
:class:`~balance3d.scene_model.Scene`: physics settings, materials, parts (built with
:mod:`balance3d.meshes`), bodies and the ``[rules]`` table the game reads."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance3d.meshes import builders
from balance3d.meshes.part import Material, Part, make_part
from balance3d.physics.settings import PhysicsSettings
from balance3d.resources import models_dir
from balance3d.scene_files import SceneError, message, read_toml
from balance3d.scene_model import PART_KINDS, POSITIVE, VEC3, BodySpec, Scene

#: kg/m^3, the lowest density of a material or part: about that of air, below
#: every solid (the lightest aerogels hold a few kg/m^3).
MIN_DENSITY = 1.0
#: kg/m^3, the highest density of a material or part: above every element
#: (osmium, 22,590 kg/m^3).
MAX_DENSITY = 25_000.0
#: m, the shortest dimension of a part: a fifth of the default collision margin
#: (0.5 mm), far below the thinnest bundled part.
MIN_LENGTH = 1e-4
#: m, the longest dimension of a part: five times the default table extent (2 m),
#: beyond which a body has left the table (and a part of 1e300 m overflows its mass
#: properties).
MAX_LENGTH = 10.0

COMMON_PART_KEYS = {"kind", "material", "static", "mass", "density"}
MATERIAL_KEYS = {"density": True, "friction": True, "restitution": False,
                  "rolling_friction": False, "spinning_friction": False}


@dataclass(frozen=True)
class Source:
    """The scene file being loaded and where each of its keys came from."""

    path: Path
    origins: dict[str, Path]

    def error(self, key: str, reason: str) -> SceneError:
        return SceneError(message(self.path, self.origins, key, reason))


class Checker:
    """Typed look-ups into one table of a scene file, with errors naming the key."""

    def __init__(self, source: Source, table: Any, prefix: str) -> None:
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


def check_value(checker: Checker, key: str, value: Any, kind: str) -> Any:
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


def letter_glyphs() -> dict[str, Any]:
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


def _build_part(source: Source, name: str, spec: dict, materials: dict[str, Material]) -> Part:
    c = Checker(source, spec, f"parts.{name}")
    kind = c.get("kind", "string")
    if kind not in PART_KINDS:
        c.fail("kind", f"unknown part kind {kind!r} (known: {', '.join(PART_KINDS)})")
    c.unknown(COMMON_PART_KEYS | set(PART_KINDS[kind]))
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
        glyphs = letter_glyphs()
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


def _check_density(checker: Checker, density: float) -> None:
    """Refuse, naming the key, a density outside MIN_DENSITY..MAX_DENSITY."""
    if not MIN_DENSITY <= density <= MAX_DENSITY:
        checker.fail("density", f"must be within {MIN_DENSITY:g}..{MAX_DENSITY:g} kg/m^3, "
                                f"got {density!r}")


def _check_game(head: Checker, game: str, variant: str) -> None:
    """Refuse, naming the key, a game that is not registered or a variant it does
    not have."""
    from balance3d.games import REGISTRY, get_game

    if game not in REGISTRY:
        head.fail("game", f"unknown game {game!r} (known: {', '.join(sorted(REGISTRY))})")
    variants = get_game(game).variants
    if variant not in variants:
        head.fail("variant", f"{game} has no variant {variant!r} (variants: "
                             f"{', '.join(variants)})")


def validate(source: Source, data: dict) -> Scene:
    """The :class:`Scene` whose merged content is ``data``, every key checked
    (:class:`SceneError` naming the file, key and reason of the first wrong one)."""
    top = Checker(source, data, "")
    top.unknown({"scene", "physics", "materials", "parts", "bodies", "rules"})
    if "scene" not in data:
        top.fail("scene", "missing")
    head = Checker(source, data["scene"], "scene")
    head.unknown({"name", "game", "variant", "description"})
    name = head.get("name", "string")
    game = head.get("game", "string")
    variant = head.get("variant", "string", "basic")
    _check_game(head, game, variant)
    description = head.get("description", "string", "")

    phys = Checker(source, data.get("physics", {}), "physics")
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

    mats_table = Checker(source, data.get("materials", {}), "materials")
    if not mats_table.table:
        mats_table.fail("", "at least one material is needed")
    materials = {}
    for mname, spec in mats_table.table.items():
        m = Checker(source, spec, f"materials.{mname}")
        m.unknown(MATERIAL_KEYS)
        vals = {k: m.get(k, POSITIVE if k == "density" else "nonnegative number",
                         ... if required else 0.0) for k, required in MATERIAL_KEYS.items()}
        _check_density(m, vals["density"])
        if vals["restitution"] > 1.0:
            m.fail("restitution", f"must be within 0..1, got {vals['restitution']}")
        materials[mname] = Material(mname, **vals)

    parts_table = Checker(source, data.get("parts", {}), "parts")
    parts = {pname: _build_part(source, pname, spec, materials)
             for pname, spec in parts_table.table.items()}

    bodies_raw = data.get("bodies", [])
    if not isinstance(bodies_raw, list):
        top.fail("bodies", "must be an array of tables ([[bodies]])")
    bodies, seen = [], set()
    for i, spec in enumerate(bodies_raw):
        b = Checker(source, spec, f"bodies[{i}]")
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


__all__ = ["COMMON_PART_KEYS", "MATERIAL_KEYS", "MAX_DENSITY", "MAX_LENGTH", "MIN_DENSITY",
           "MIN_LENGTH", "Checker", "Source", "check_value", "letter_glyphs", "validate"]
