"""Tilted's rule values: the scene's ``[rules]`` table parsed into
:class:`TiltedRules`, the thresholds' defaults, the phases and the block names."""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from balance3d.games.rule_values import rule_value
from balance3d.games.tilted.judge import BEAM, FULCRUM, TABLE, Section
from balance3d.scene import Scene

DIE_FACES = 6

# Defaults of the scene's [rules] thresholds (each overridable there by name).
#: rad/s, the push that tips the level beam onto its low side at setup.
START_TIP_SPEED = 0.2
#: m, a beam end rests on the table when its lowest point is this close to it.
END_REST_GAP = 0.002
#: m, a block-beam contact within this distance of the top face's plane is on it.
TOP_FACE_TOLERANCE = 0.001
#: m, width of a painted section line (and of the fulcrum centre line).
LINE_WIDTH = 0.002
#: m, highest allowed release height (clearance above the surface beneath).
MAX_DROP_HEIGHT = 0.15
#: coins, lowest opening bid of an auction (advanced).
AUCTION_MIN_BID = 1
#: rad, a beam on neither end that turns less than this during one more settle has
#: stopped (propped up or balanced) rather than tipping too slowly to look moving.
BEAM_STILL_ANGLE = 1e-4
#: m^2, footprints overlapping by less than this do not count as "above".
FOOTPRINT_OVERLAP_AREA = 1e-8
#: Spacing of the spots tried when looking for a legal drop, in block widths.
FIND_DROP_GRID = 0.25
#: m, release height of the drops tried when looking for a legal drop.
FIND_DROP_HEIGHT = 0.01

#: Allowed player counts per variant.
VARIANT_PLAYER_COUNTS = {"basic": (2, 3, 4), "solo": (1,), "advanced": (2, 3, 4)}


class Phase(StrEnum):
    """What the current player is asked for; the values are the words records and
    saved states use (see the package docstring)."""

    DROP = "drop"
    BUY = "buy"
    SIZE = "size"
    BID = "bid"
    AUCTION_ORDER = "auction_order"
    OVER = "over"


def roll_d6(rng: np.random.Generator) -> int:
    """One roll of the die, 1..6, from ``rng``."""
    return int(rng.integers(1, DIE_FACES + 1))


def piece_name(length: int, set_number: int) -> str:
    """Name of the ``length``-unit block of set ``set_number`` (1-based)."""
    return f"{length}u-{set_number}"


def piece_length(name: str) -> int:
    """Length in units of the block ``name``."""
    return int(name.split("u-", 1)[0])


def piece_key(name: str) -> tuple[int, int]:
    """Sort key: by length, then set."""
    length, _, set_number = name.partition("u-")
    return int(length), int(set_number)


# ---------------------------------------------------------------------- rules
@dataclass(frozen=True)
class TiltedRules:
    """The scene's ``[rules]`` table, validated.

    block_parts : part names of the 1u..6u blocks.  sets : sets of blocks.
    coins : coins in the game.  start_coins : coins per player at setup.
    sections : the beam's sections (m from the centre line, value).
    buy_cost, penalty : coins.  start_low_side : "random", "+x" or "-x" (the beam
    end, in its own frame, resting on the table at the start).
    start_tip_speed : rad/s.  end_rest_gap, top_face_tolerance, line_width,
    max_drop_height : m (see the module constants).  auction_min_bid : coins.
    """

    block_parts: tuple[str, ...]
    sets: int
    coins: int
    start_coins: int
    sections: tuple[Section, ...]
    buy_cost: int
    penalty: int
    start_low_side: str = "random"
    start_tip_speed: float = START_TIP_SPEED
    end_rest_gap: float = END_REST_GAP
    top_face_tolerance: float = TOP_FACE_TOLERANCE
    line_width: float = LINE_WIDTH
    max_drop_height: float = MAX_DROP_HEIGHT
    auction_min_bid: int = AUCTION_MIN_BID

    @classmethod
    def from_scene(cls, scene: Scene) -> "TiltedRules":
        """Read and check ``scene.rules``; errors name the file and key."""
        rules = scene.rules
        known = {"unit", "block_parts", "sets", "coins", "start_coins", "sections", "buy_cost",
                 "penalty", "start_low_side", "start_tip_speed", "end_rest_gap",
                 "top_face_tolerance", "line_width", "max_drop_height", "auction_min_bid"}
        for key in rules:
            if key not in known:
                raise scene.error(f"rules.{key}",
                                  f"unknown key (known: {', '.join(sorted(known))})")
        for name in (TABLE, FULCRUM, BEAM):
            if name not in {b.name for b in scene.bodies}:
                raise scene.error("bodies", f"a Tilted scene needs a body named {name!r}")

        def get(key: str, kind: type, default: Any = ..., positive: bool = False) -> Any:
            return rule_value(scene, key, kind, default, exclusive=positive)

        unit = get("unit", float, positive=True)
        parts = rules.get("block_parts")
        if not (isinstance(parts, list) and len(parts) == DIE_FACES
                and all(isinstance(p, str) for p in parts)):
            raise scene.error("rules.block_parts", f"must list {DIE_FACES} part names (1u..6u)")
        for k, name in enumerate(parts, start=1):
            if name not in scene.parts:
                raise scene.error("rules.block_parts", f"unknown part {name!r}")
            dims = sorted(float(v) for v in scene.parts[name].extents)
            want = sorted([unit, unit, k * unit])
            if not np.allclose(dims, want, rtol=1e-6, atol=1e-9):
                raise scene.error("rules.block_parts",
                                  f"part {name!r} measures {dims} m, not {want} m ({k}u blocks)")
        beam = scene.parts[_body_part(scene, BEAM)].extents
        if not beam[0] > max(beam[1], beam[2]):
            raise scene.error("parts", "the beam's part must be longest along its x axis")
        half_length = float(beam[0]) / 2.0
        raw = rules.get("sections")
        if not (isinstance(raw, list) and raw):
            raise scene.error("rules.sections", "must be a list of [from, to, value]")
        sections = []
        for i, row in enumerate(raw):
            if not (isinstance(row, list) and len(row) == 3
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
                    and isinstance(row[2], int) and row[2] >= 0 and row[1] > row[0]):
                raise scene.error(f"rules.sections[{i}]",
                                  f"must be [from m, to m, whole value >= 0], got {row!r}")
            start = 0.0 if i == 0 else sections[-1].stop
            if not math.isclose(row[0], start, abs_tol=1e-9):
                raise scene.error(f"rules.sections[{i}]", f"must start at {start} m, where the "
                                                          f"previous section ends")
            sections.append(Section(float(row[0]), float(row[1]), int(row[2])))
        if sections[-1].stop < half_length - 1e-9:
            raise scene.error("rules.sections", f"must reach the beam's end ({half_length} m)")
        side = rules.get("start_low_side", "random")
        if side not in ("random", "+x", "-x"):
            raise scene.error("rules.start_low_side",
                              f"must be 'random', '+x' or '-x', got {side!r}")
        return cls(
            block_parts=tuple(parts), sets=get("sets", int, positive=True),
            coins=get("coins", int), start_coins=get("start_coins", int),
            sections=tuple(sections), buy_cost=get("buy_cost", int), penalty=get("penalty", int),
            start_low_side=side,
            start_tip_speed=get("start_tip_speed", float, START_TIP_SPEED, positive=True),
            end_rest_gap=get("end_rest_gap", float, END_REST_GAP, positive=True),
            top_face_tolerance=get("top_face_tolerance", float, TOP_FACE_TOLERANCE, positive=True),
            line_width=get("line_width", float, LINE_WIDTH, positive=True),
            max_drop_height=get("max_drop_height", float, MAX_DROP_HEIGHT, positive=True),
            auction_min_bid=get("auction_min_bid", int, AUCTION_MIN_BID, positive=True),
        )


def _body_part(scene: Scene, body: str) -> str:
    return next(b.part for b in scene.bodies if b.name == body)
