"""Tower's judge: what the World says about the towers, with no players in it.

Pure reading of a :class:`~balance3d.physics.World` (poses, contacts, the support
graph, vertical rays); nothing here changes the world.  Lengths are metres.

* :func:`landing` -- what a piece released by a Drop lies over, and its pose.
* :func:`read_tower` -- the levels of a tower's pieces from the support graph, and
  which of them fell (touch a static body other than their base, or lost the chain
  of supports down to it).
* :func:`is_vertical`, :func:`top_piece`, :func:`base_outline`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from balance3d import numerics, planar
from balance3d.games.base import Drop
from balance3d.games.placement import (design_extents, design_vertices, footprint_points,
                                       pose_rotation, release_pose)
from balance3d.games.tower.physics import body_below
from balance3d.meshes.part import Part
from balance3d.physics.bodies import Snapshot
from balance3d.physics.world import World

#: A piece is vertical when its thinnest axis is within this angle of horizontal.
VERTICAL_ANGLE_DEG = 45.0


@dataclass(frozen=True)
class Landing:
    """Where a Drop releases its piece: ``position`` (3,) m and ``orientation``
    (4,) of its body frame, and ``below``, the body whose top is highest under the
    piece's footprint (None over nothing): the body it lands on when lowered
    straight down."""

    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    below: str | None


def landing(world: World, part: Part, drop: Drop, placed: Snapshot | None = None) -> Landing:
    """The release pose of ``drop`` (:func:`balance3d.games.placement.release_pose`)
    and the body under its footprint, from one cast of the footprint's rays (the
    highest hit is the surface the release height is measured from); ``placed``: the
    snapshot ``world`` was restored from, if known (see
    :func:`~balance3d.games.tower.physics.body_below`)."""
    rot = pose_rotation(part, drop.pose, drop.yaw)
    verts = numerics.rotate(rot, design_vertices(part))
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    shift = np.array([drop.x, drop.y]) - (lo[:2] + hi[:2]) / 2.0
    below, surface = body_below(world, footprint_points(verts[:, :2] + shift),
                                placed)
    position, orientation = release_pose(world, part, drop, surface=surface)
    return Landing(tuple(float(v) for v in position), tuple(float(v) for v in orientation),
                   below)


@dataclass(frozen=True)
class TowerReading:
    """A tower read from the settled World: ``levels`` (piece -> level, the base
    being level 0) of the pieces standing on it, and ``fallen``, its pieces that fell
    (in the order given)."""

    levels: dict[str, int]
    fallen: list[str]


def read_tower(world: World, base: str, pieces: list[str]) -> TowerReading:
    """Levels and falls of the tower on ``base`` made of ``pieces`` (names; those
    not in the world count as fallen).  A piece's level is 1 + the highest level
    among the pieces of this tower (or the base, level 0) supporting it in the
    World's support graph; a piece that touches any body not of this tower (the
    table, another base, another tower's piece), or that no chain of supports
    through this tower's pieces joins to ``base``, fell."""
    present = set(world.names)
    standing = [p for p in pieces if p in present]
    graph = world.support_graph()
    levels: dict[str, int] = {base: 0}
    for _ in range(len(standing) + 1):
        changed = False
        for piece in standing:
            under = [levels[s] for s in graph[piece] if s in levels]
            if under and levels.get(piece, -1) < 1 + max(under):
                levels[piece] = 1 + max(under)
                changed = True
        if not changed:
            break
    own = {base, *standing}
    touching = {p for p in standing if world.touching(p) - own}
    del levels[base]
    fallen = [p for p in pieces if p not in levels or p in touching]
    return TowerReading({p: levels[p] for p in standing if p not in fallen}, fallen)


def is_vertical(world: World, name: str) -> bool:
    """Whether body ``name`` stands vertically (on edge): its thinnest design axis
    lies within :data:`VERTICAL_ANGLE_DEG` of horizontal."""
    part = world.part(name)
    axis = int(np.argmin(design_extents(part)))
    in_body = part.design_from_body[:3, :3].T[:, axis]
    _, quat = world.pose(name)
    rot = np.asarray(world.client.getMatrixFromQuaternion(quat)).reshape(3, 3)
    up = abs(numerics.dot3(rot[2], in_body))
    return up < math.sin(math.radians(VERTICAL_ANGLE_DEG))


def top_piece(world: World, pieces: list[str]) -> str | None:
    """The piece of ``pieces`` with the highest point among those no other of them
    rests on (support graph); the last given wins a tie; None for no pieces."""
    graph = world.support_graph()
    carrying = {s for p in pieces for s in graph.get(p, ())}
    free = [p for p in pieces if p not in carrying] or list(pieces)
    best, height = None, -math.inf
    for piece in free:
        top = float(world.vertices(piece)[:, 2].max())
        if top >= height:
            best, height = piece, top
    return best


def base_outline(world: World, base: str) -> shapely.Polygon:
    """The top face of ``base`` seen from above (x, y m): the convex hull of its
    vertices (:func:`balance3d.planar.convex_hull`: its corners are vertices' exact
    coordinates, anticlockwise from the lowest)."""
    return shapely.Polygon(planar.convex_hull(world.vertices(base)[:, :2]))


def piece_centre(world: World, name: str) -> tuple[float, float]:
    """(x, y) m: the centre of body ``name``'s axis-aligned bounding box."""
    verts = world.vertices(name)
    lo, hi = verts.min(axis=0), verts.max(axis=0)
    return float(lo[0] + hi[0]) / 2.0, float(lo[1] + hi[1]) / 2.0


__all__ = ["Landing", "TowerReading", "VERTICAL_ANGLE_DEG", "base_outline", "is_vertical",
           "landing", "piece_centre", "read_tower", "top_piece"]
