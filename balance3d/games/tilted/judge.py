"""Tilted's judge: what the World says about the beam and the blocks on it.

Pure reading of a settled :class:`~balance3d.physics.World` (poses, vertices,
contacts, the support graph); nothing here changes the world or knows the game's
players.  :mod:`balance3d.games.tilted` decides what the facts mean for coins.

Frames and units
    Lengths are metres.  The *beam frame* is the beam body's frame: origin at its
    centre, x along its length, z out of its top face.  ``s`` is the beam-frame x of
    a point (signed distance along the beam from the centre line), ``t`` its
    beam-frame y.  An *end* is named by the sign of its ``s``: +1 or -1.
"""
from __future__ import annotations

from dataclasses import dataclass

import math

import numpy as np

from balance3d import numerics, planar
from balance3d.games import support
from balance3d.physics.world import World

#: Body names every Tilted scene must use.
BEAM, FULCRUM, TABLE = "beam", "fulcrum", "table"

#: Value of a block that touches no section and rests on no block (see
#: :func:`block_values`).
NO_VALUE = 0


@dataclass(frozen=True)
class Section:
    """A marked section of the beam: ``start`` <= \\|s\\| <= ``stop`` (m) is worth
    ``value`` coins.  Sections are identical on both sides of the centre line."""

    start: float
    stop: float
    value: int


@dataclass(frozen=True)
class BeamFrame:
    """The beam's pose and size.

    position : (3,) m, world position of the beam's centre.
    rotation : (3, 3) world-from-beam rotation matrix.
    half : (3,) m, half length, half width, half thickness.
    """

    position: np.ndarray
    rotation: np.ndarray
    half: np.ndarray

    @classmethod
    def of(cls, world: World) -> "BeamFrame":
        """The beam frame of ``world`` now."""
        pos, quat = world.pose(BEAM)
        rot = numerics.quat_matrix(quat)
        return cls(pos, rot, np.asarray(world.part(BEAM).extents, float) / 2.0)

    def to_beam(self, points) -> np.ndarray:
        """(n, 3) world points (m) -> (n, 3) beam-frame points (m)."""
        return numerics.matmul(np.asarray(points, float).reshape(-1, 3) - self.position,
                               self.rotation)

    def to_world(self, points) -> np.ndarray:
        """(n, 3) beam-frame points (m) -> (n, 3) world points (m)."""
        return (numerics.matmul(np.asarray(points, float).reshape(-1, 3), self.rotation.T)
                + self.position)

    def top_point_below(self, x: float, y: float) -> tuple[float, float]:
        """Beam-frame ``(s, t)`` (m) where the vertical line through world ``(x, y)``
        meets the plane of the beam's top face (Cramer's rule)."""
        (a0, b0), (a1, b1) = self.rotation[:2, :2].tolist()
        centre = (self.position + self.rotation[:, 2] * self.half[2]).tolist()
        r0, r1 = x - centre[0], y - centre[1]
        det = a0 * b1 - b0 * a1
        return (r0 * b1 - b0 * r1) / det, (a0 * r1 - r0 * a1) / det


def table_top(world: World) -> float:
    """World height (m) of the table's top face."""
    return float(world.vertices(TABLE)[:, 2].max())


def end_gaps(world: World, frame: BeamFrame | None = None) -> dict[int, float]:
    """Clearance (m) between each beam end's lowest point and the table top:
    ``{+1: gap, -1: gap}`` (negative when the end sinks into the table)."""
    frame = frame or BeamFrame.of(world)
    top = table_top(world)
    L, W, T = frame.half
    gaps = {}
    for end in (+1, -1):
        corners = [(end * L, t, z) for t in (-W, W) for z in (-T, T)]
        gaps[end] = float(frame.to_world(corners)[:, 2].min() - top)
    return gaps


def resting_end(world: World, rest_gap: float, frame: BeamFrame | None = None) -> int:
    """The end (+1 or -1) resting on the table: its lowest point within
    ``rest_gap`` m of the table top (the lower end if both are).  0 when neither
    end rests on the table (the beam is balanced or still tipping)."""
    gaps = end_gaps(world, frame)
    low = +1 if gaps[+1] <= gaps[-1] else -1
    return low if gaps[low] <= rest_gap else 0


def lower_end(world: World, frame: BeamFrame | None = None) -> int:
    """The end (+1 or -1) that is lower now, resting or not."""
    gaps = end_gaps(world, frame)
    return +1 if gaps[+1] <= gaps[-1] else -1


def beam_tilt(world: World, frame: BeamFrame | None = None) -> float:
    """Angle (rad) of the beam's length axis above the horizontal, positive when its
    +x end is up."""
    frame = frame or BeamFrame.of(world)
    return math.asin(min(1.0, max(-1.0, float(frame.rotation[2, 0]))))


def footprint(points) -> np.ndarray:
    """Horizontal footprint: the corners (k, 2) m of the convex hull of ``points``
    ((n, 3) m) projected on the table plane (:func:`balance3d.planar.convex_hull`)."""
    return planar.convex_hull(np.asarray(points, float).reshape(-1, 3)[:, :2])


def sections_in(lo: float, hi: float, sections: tuple[Section, ...],
                line_width: float) -> list[int]:
    """Values of the sections touched by the range ``lo <= |s| <= hi`` (m), each
    section line being a painted band ``line_width`` m wide centred on the boundary
    (a range reaching into a line's band touches both sections).  Sorted, unique."""
    half = line_width / 2.0
    found = {sec.value for sec in sections
             if lo <= sec.stop + half and hi >= sec.start - half}
    return sorted(found)


@dataclass(frozen=True)
class BlockFacts:
    """What the judge reads about one block.

    sections : values of the beam sections its top-face contacts touch (sorted).
    top_face : it touches the beam's top face.
    supports : the blocks it rests on (World.support_graph), sorted.
    on_beam : it rests on the beam, directly or through a chain of blocks.
    touches_table : it touches the table.
    across : it lies across the fulcrum centre line (covers the line's band).
    s_range : (min, max) beam-frame s of its vertices, m.
    """

    name: str
    sections: tuple[int, ...]
    top_face: bool
    supports: tuple[str, ...]
    on_beam: bool
    touches_table: bool
    across: bool
    s_range: tuple[float, float]


def read_blocks(world: World, blocks: list[str], sections: tuple[Section, ...], *,
                line_width: float, top_face_tolerance: float) -> dict[str, BlockFacts]:
    """The facts of every block in ``blocks`` (names of bodies in ``world``).

    A contact between a block and the beam counts as on the beam's top face when its
    point on the beam lies within ``top_face_tolerance`` m of the top face's plane
    (this includes the face's edges).  The sections a block touches are those its
    top-face contact points span (Bullet reports the corners of a contact patch).
    """
    frame = BeamFrame.of(world)
    graph = world.support_graph()
    block_set = set(blocks)
    top = frame.half[2] - top_face_tolerance
    facts: dict[str, BlockFacts] = {}
    on_beam: set[str] = set()
    tops: dict[str, list[float]] = {}
    for name in blocks:
        s_values = []
        for ct in world.contacts(name, BEAM):
            point = ct.position_a if ct.body_a == BEAM else ct.position_b
            q = frame.to_beam(point)[0]
            if q[2] >= top:
                s_values.append(float(q[0]))
        tops[name] = s_values
        if s_values or BEAM in graph[name]:
            on_beam.add(name)
    on_beam = support.resting_on(on_beam, blocks, graph)
    half_line = 0.5 * line_width
    for name in blocks:
        s = frame.to_beam(world.vertices(name))[:, 0]
        s_values = tops[name]
        found: list[int] = []
        if s_values:
            lo, hi = min(s_values), max(s_values)
            nearest = 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))
            found = sections_in(nearest, max(abs(lo), abs(hi)), sections, line_width)
        facts[name] = BlockFacts(
            name=name,
            sections=tuple(found),
            top_face=bool(s_values),
            supports=tuple(sorted(graph[name] & block_set)),
            on_beam=name in on_beam,
            touches_table=bool(world.touching(name, TABLE)),
            across=bool(s.min() <= -half_line and s.max() >= half_line),
            s_range=(float(s.min()), float(s.max())),
        )
    return facts


def dependents(facts: dict[str, BlockFacts]) -> dict[str, set[str]]:
    """Block name -> names of the blocks resting directly on it."""
    out: dict[str, set[str]] = {name: set() for name in facts}
    for name, f in facts.items():
        for s in f.supports:
            out[s].add(name)
    return out


def resting_on(facts: dict[str, BlockFacts], roots: set[str]) -> set[str]:
    """``roots`` and every block resting on one of them, recursively."""
    deps = dependents(facts)
    found, todo = set(roots), list(roots)
    while todo:
        for d in deps[todo.pop()]:
            if d not in found:
                found.add(d)
                todo.append(d)
    return found


def block_values(facts: dict[str, BlockFacts]) -> dict[str, int]:
    """Coin value of every block: the lowest section value it touches on the beam's
    top face and, for a block resting on blocks, the lowest value among its
    supporters (recursively).  A block that touches no section and rests on no
    block with a value is worth :data:`NO_VALUE`."""
    inf = float("inf")
    value = {n: (min(f.sections) if f.sections else inf) for n, f in facts.items()}
    changed = True
    while changed:
        changed = False
        for n, f in facts.items():
            best = min([value[n]] + [value[s] for s in f.supports])
            if best < value[n]:
                value[n] = best
                changed = True
    return {n: (NO_VALUE if v == inf else int(v)) for n, v in value.items()}


def returns(facts: dict[str, BlockFacts]) -> dict[str, str]:
    """Blocks going back to the supply, with the reason: every block that touches
    the table or no longer rests on the beam, and every block lying across the
    fulcrum line that nothing left on the beam rests on (found top-down, so a pile
    of crossing blocks is lifted off from the top).  A crossing block that still
    carries a block stays (and is frozen)."""
    out: dict[str, str] = {}
    for n, f in facts.items():
        if f.touches_table:
            out[n] = "touches the table"
        elif not f.on_beam:
            out[n] = "fell off the beam"
    deps = dependents(facts)
    changed = True
    while changed:
        changed = False
        for n, f in facts.items():
            if n not in out and f.across and deps[n] <= set(out):
                out[n] = "lies across the fulcrum line"
                changed = True
    return out


def frozen_blocks(facts: dict[str, BlockFacts]) -> set[str]:
    """Blocks across the fulcrum line and everything resting on them."""
    return resting_on(facts, {n for n, f in facts.items() if f.across})
