"""The scene model: validated, immutable :class:`Scene` data, the placed bodies
(:class:`BodySpec`), the part kinds a scene file may use (:data:`PART_KINDS`) and the
poses of parts' body frames (:func:`body_pose`, :func:`rpy_to_quat`).

Reading scene files and merging ``extends`` is :mod:`balance3d.scene_files`;
checking the merged content and building this model from it is
:mod:`balance3d.scene_checks`; :mod:`balance3d.scene` loads scenes by name or path.
Every quantity is SI (metres, kilograms, seconds, radians).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from balance3d import numerics
from balance3d.meshes.part import Material, Part
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import World
from balance3d.scene_files import SceneError, message

#: Kinds of dimension value: a positive number, or three of them (a size).
POSITIVE = "positive number"
VEC3 = "list of 3 positive numbers"

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



__all__ = ["PART_KINDS", "POSITIVE", "VEC3", "BodySpec", "Scene", "body_pose", "rpy_to_quat"]
