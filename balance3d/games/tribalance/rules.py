"""Tri-Ba-Lance's rule values: the scene's ``[rules]`` table parsed into
:class:`TribalanceRules`, the thresholds' defaults, the phases and the piece names."""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from balance3d import numerics
from balance3d.games.placement import design_vertices
from balance3d.games.rule_values import rule_value
from balance3d.meshes.builders import triangle_outline
from balance3d.scene import Scene

#: Body names every Tri-Ba-Lance scene must use.
PLATE, BALL, FRAME = "plate", "ball", "frame"
#: Piece weights, lightest first (the rules' five sizes).
WEIGHTS = (1, 2, 3, 4, 5)
#: Allowed player counts per variant.
VARIANT_PLAYER_COUNTS = {"basic": (2, 3)}

# Defaults of the scene's [rules] thresholds (each overridable there by name).
#: s, the plate's tilt must stay within ``still_angle_deg`` for this long (and nothing
#: slide) before a placement is judged.  The loaded plate rocks on the ball with a
#: period of about 0.8 s, so a window of more than half of it holds a turning point:
#: a plate still rocking by more than ``still_angle_deg`` cannot pass for still.
HOLD_TIME = 0.5
#: degrees, the most the plate's tilt may change over ``hold_time`` for it to be still.
STILL_ANGLE_DEG = 0.02
#: m, clearance between a released piece's underside and the plate's top face.
RELEASE_GAP = 0.0005
#: m, a plate-frame contact within this distance of a plate corner (seen from above,
#: in the plate's frame) is at that corner; further away it is on a side.
CORNER_ZONE = 0.02
#: N, a plate-frame contact point bearing at least this normal force in the still
#: World rests on the frame.  A weight-1 piece weighs 49 mN; the plate's rim merely
#: near the frame bears none.
FRAME_MIN_FORCE = 0.001
#: m, a plate-frame contact point whose signed distance is at most this rests on the
#: frame whatever force it reads (Bullet lets a resting contact sink about 10 um into
#: the frame, and reports some points of a resting pair with 0 N).  A rim 0.3 mm
#: above the frame, within the engine's contact distance, is clear of it.
FRAME_REST_GAP = 5e-6
#: m, a piece still rests on the plate when it touches it within this distance, or
#: rests on a piece that does.
ON_PLATE_DISTANCE = 0.001


class Phase(StrEnum):
    """What the current player is asked for; the values are the words records and
    saved states use."""

    PLACE = "place"
    OVER = "over"


def piece_name(weight: int, seat: int, copy: int) -> str:
    """Name of copy ``copy`` (1-based) of the weight-``weight`` piece of ``seat``
    (0-based): ``"3w-p1.2"`` is player 1's second weight-3 piece."""
    return f"{weight}w-p{seat + 1}.{copy}"


def piece_weight(name: str) -> int:
    """Weight of the piece ``name``."""
    return int(name.split("w-", 1)[0])


def piece_owner(name: str) -> int:
    """Seat (0-based) owning the piece ``name``."""
    return int(name.split("-p", 1)[1].split(".", 1)[0]) - 1


def piece_key(name: str) -> tuple[int, int, int]:
    """Sort key: weight, owner, copy."""
    return piece_weight(name), piece_owner(name), int(name.rsplit(".", 1)[1])


@dataclass(frozen=True)
class Field:
    """A placement field: its centre ``(x, y)`` in the plate's design frame (m; the
    plate's centroid at the origin, a corner on +y) and its ``number``."""

    x: float
    y: float
    number: int


@dataclass(frozen=True)
class TribalanceRules:
    """The scene's ``[rules]`` table, validated.

    unit_mass : kg per weight unit (each piece part's mass is its weight times it).
    piece_parts : part names of the weight 1..5 pieces.
    pieces : player count -> counts of weights 1..5 each player receives.
    fields : the placement fields.  first_player : a seat, or "random" (drawn from
    the game's generator).  hold_time : s.  still_angle_deg : degrees.
    release_gap, corner_zone, frame_rest_gap, on_plate_distance : m, and
    frame_min_force : N (see the module constants).
    """

    unit_mass: float
    piece_parts: tuple[str, ...]
    pieces: dict[int, tuple[int, ...]]
    fields: tuple[Field, ...]
    first_player: int | str = 0
    hold_time: float = HOLD_TIME
    still_angle_deg: float = STILL_ANGLE_DEG
    release_gap: float = RELEASE_GAP
    corner_zone: float = CORNER_ZONE
    frame_min_force: float = FRAME_MIN_FORCE
    frame_rest_gap: float = FRAME_REST_GAP
    on_plate_distance: float = ON_PLATE_DISTANCE

    @property
    def still_angle(self) -> float:
        """rad, :attr:`still_angle_deg`."""
        return math.radians(self.still_angle_deg)

    @classmethod
    def from_scene(cls, scene: Scene) -> "TribalanceRules":
        """Read and check ``scene.rules``; errors name the file and key."""
        rules = scene.rules
        known = {"unit_mass", "piece_parts", "pieces_2_players", "pieces_3_players", "fields",
                 "first_player", "hold_time", "still_angle_deg", "release_gap", "corner_zone",
                 "frame_min_force", "frame_rest_gap", "on_plate_distance"}
        for key in rules:
            if key not in known:
                raise scene.error(f"rules.{key}",
                                  f"unknown key (known: {', '.join(sorted(known))})")
        names = {b.name for b in scene.bodies}
        for name in (PLATE, BALL, FRAME):
            if name not in names:
                raise scene.error("bodies", f"a Tri-Ba-Lance scene needs a body named {name!r}")

        def get(key: str, kind: type, default: Any = ...) -> Any:
            return rule_value(scene, key, kind, default)

        unit = get("unit_mass", float)
        parts = rules.get("piece_parts")
        if not (isinstance(parts, list) and len(parts) == len(WEIGHTS)
                and all(isinstance(p, str) and p in scene.parts for p in parts)):
            raise scene.error("rules.piece_parts",
                              f"must list {len(WEIGHTS)} part names of the scene (weights 1..5)")
        for weight, name in zip(WEIGHTS, parts):
            mass = scene.parts[name].mass
            if not math.isclose(mass, weight * unit, rel_tol=1e-9):
                raise scene.error("rules.unit_mass", f"part {name!r} weighs {mass} kg, not "
                                                     f"{weight} x {unit} kg")
        pieces = {}
        for count in VARIANT_PLAYER_COUNTS["basic"]:
            key = f"pieces_{count}_players"
            row = rules.get(key)
            if not (isinstance(row, list) and len(row) == len(WEIGHTS)
                    and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                            for v in row) and sum(row) > 0):
                raise scene.error(f"rules.{key}", f"must give {len(WEIGHTS)} whole counts "
                                                  f"(weights 1..5), not all zero")
            pieces[count] = tuple(row)
        fields = _fields(scene, parts)
        first = rules.get("first_player", 0)
        if first != "random" and not (isinstance(first, int) and not isinstance(first, bool)
                                      and 0 <= first < min(VARIANT_PLAYER_COUNTS["basic"])):
            raise scene.error("rules.first_player", f"must be a seat (0-based) every player "
                                                    f"count has, or 'random', got {first!r}")
        return cls(
            unit_mass=unit, piece_parts=tuple(parts), pieces=pieces, fields=fields,
            first_player=first, hold_time=get("hold_time", float, HOLD_TIME),
            still_angle_deg=get("still_angle_deg", float, STILL_ANGLE_DEG),
            release_gap=get("release_gap", float, RELEASE_GAP),
            corner_zone=get("corner_zone", float, CORNER_ZONE),
            frame_min_force=get("frame_min_force", float, FRAME_MIN_FORCE),
            frame_rest_gap=get("frame_rest_gap", float, FRAME_REST_GAP),
            on_plate_distance=get("on_plate_distance", float, ON_PLATE_DISTANCE))


def _fields(scene: Scene, piece_parts: list[str]) -> tuple[Field, ...]:
    """The scene's fields, checked: each a whole number >= 1, a piece of the widest
    kind on it lies wholly on the plate, and no two pieces on fields overlap."""
    raw = scene.rules.get("fields")
    if not (isinstance(raw, list) and raw):
        raise scene.error("rules.fields", "must be a list of [x m, y m, number]")
    plate = scene.data["parts"][next(b.part for b in scene.bodies if b.name == PLATE)]
    corners = triangle_outline(float(plate["side"]))
    radius = max(float(numerics.norm(design_vertices(scene.parts[p])[:, :2]).max())
                 for p in piece_parts)
    fields: list[Field] = []
    for i, row in enumerate(raw):
        where = f"rules.fields[{i}]"
        if not (isinstance(row, list) and len(row) == 3
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
                and isinstance(row[2], int) and row[2] >= 1):
            raise scene.error(where, f"must be [x m, y m, whole number >= 1], got {row!r}")
        point = np.array(row[:2], float)
        for a, b in zip(corners, np.roll(corners, -1, axis=0)):
            edge = b - a
            inward = np.array([-edge[1], edge[0]]) / numerics.norm(edge)
            if float(numerics.dot(point - a, inward)) < radius:
                raise scene.error(where, f"a piece on it would overhang the plate's edge "
                                         f"(pieces reach {radius:.4f} m from the centre)")
        for j, other in enumerate(fields):
            if math.hypot(other.x - point[0], other.y - point[1]) < 2 * radius:
                raise scene.error(where, f"pieces on it and on field {j} would overlap")
        fields.append(Field(float(row[0]), float(row[1]), int(row[2])))
    return tuple(fields)
