"""What a Tower game reads from the World about its towers, with no rules in it.

A *tower* here is a base (a static body) and the names of the pieces that belong to
it.  These helpers measure towers and move them back; which pieces belong where, and
what a reading means for the game, is the rules' business.

* :func:`release_position` -- where to release a piece so that, lowered straight
  down, it would touch what lies under it after a gap (a drop "just above the top").
* :func:`tower_height` -- the highest point of a tower's pieces above its base's
  top face.
* :func:`centre_of_mass`, :func:`support_polygon`, :func:`support_margin` -- the
  centre of mass of the pieces above a level against the polygon of their contacts
  with the pieces below it (the statics of a rigid upper part: it stands when its
  centre of mass lies over that polygon).
* :func:`poses`, :func:`displacement`, :func:`moved_pieces` -- which pieces of which
  tower moved during a turn, by more than a tolerance.
* :func:`restore_pieces` -- put some pieces back where a snapshot had them, leaving
  every other body as it is now (a harmed tower restored after a knock).
* :func:`body_below` -- the body whose top is highest under a set of points.
* :func:`settling_on_table` -- settle, taking out what falls off the table.

Units: metres, kilograms; orientations are unit quaternions (x, y, z, w).
"""
from __future__ import annotations

import math
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from balance3d import numerics, planar
from balance3d.games.tower import rays
from balance3d.meshes.part import Part
from balance3d.physics.bodies import Snapshot
from balance3d.physics.errors import WorldError
from balance3d.physics.world import World

Pose = tuple[np.ndarray, np.ndarray]


def _world_points(part: Part, position, orientation) -> np.ndarray:
    """(n, 3) m: ``part``'s mesh vertices and face centroids (body frame) placed at
    ``position`` (3,) m, ``orientation`` (4,)."""
    local = np.vstack([part.mesh.vertices, part.mesh.triangles_center])
    return numerics.rotate(orientation, local) + np.asarray(position, dtype=float)


def release_position(world: World, part: Part, xy: Sequence[float],
                     orientation: Sequence[float], gap: float) -> np.ndarray:
    """(3,) m: the body-frame position at which ``part``, turned by ``orientation``
    with its centre of mass above ``xy`` (2,) m, is released ``gap`` m above what lies
    under it: lowered straight down, it would first touch after ``gap``.  What lies
    under it is found by a vertical ray through each of the part's vertices and face
    centroids (:meth:`World.height_below`), so a body thinner than the gaps between
    those points can be missed."""
    if not gap >= 0.0:
        raise ValueError(f"release gap must be zero or positive metres, got {gap!r}")
    points = _world_points(part, (xy[0], xy[1], 0.0), orientation)
    clearance = max(world.height_below(point[:2]) - point[2] for point in points)
    return np.array([xy[0], xy[1], clearance + gap])


def tower_height(world: World, base: str, pieces: Iterable[str]) -> float:
    """m: the highest point of any of ``pieces`` above the top face of ``base`` (its
    highest vertex); 0 for no pieces."""
    top = float(world.vertices(base)[:, 2].max())
    heights = [float(world.vertices(name)[:, 2].max()) - top for name in pieces]
    return max(heights, default=0.0)


def centre_of_mass(world: World, names: Iterable[str]) -> np.ndarray:
    """(3,) m: the centre of mass of the bodies ``names`` (at least one)."""
    names = list(names)
    if not names:
        raise ValueError("the centre of mass of no bodies is undefined")
    masses = np.array([world.part(name).mass for name in names])
    positions = np.array([world.pose(name)[0] for name in names])
    return numerics.matmul(masses, positions) / math.fsum(masses.tolist())


def support_polygon(world: World, upper: Iterable[str], lower: Iterable[str]) -> np.ndarray:
    """The corners (k, 2) of the convex hull (:func:`balance3d.planar.convex_hull`),
    in the horizontal plane (x, y metres), of the contact points
    (within ``contact_distance``) between any of ``upper`` and any of ``lower``.  For
    welded pairs these are the corners the World keeps of their contact patches:
    exact for flat-sided patches (letters), cut across a curved outline (a logo
    centred on a logo: 13.8 mm from its centre to the polygon's side, 15 mm to the
    plaque's).  Empty, (0, 2), when fewer than three points span an area."""
    lower = set(lower)
    points = []
    for name in upper:
        for ct in world.contacts(name):
            if ct.body_b in lower:
                points.append(ct.position_b[:2])
            elif ct.body_a in lower:
                points.append(ct.position_a[:2])
    hull = planar.convex_hull(np.array(points, dtype=float).reshape(-1, 2))
    return hull if len(hull) >= 3 else np.zeros((0, 2))


def support_margin(world: World, upper: Iterable[str], lower: Iterable[str]) -> float:
    """m: how far inside :func:`support_polygon` the centre of mass of ``upper``
    lies, horizontally (negative: outside it by that much; ``-inf`` with no area of
    support).  A rigid upper part resting on ``lower`` with a positive margin can
    stand; with a negative one it tips over the polygon's nearest edge."""
    upper = list(upper)
    polygon = support_polygon(world, upper, lower)
    if len(polygon) == 0:
        return -np.inf
    x, y = centre_of_mass(world, upper)[:2].tolist()
    distance = planar.boundary_distance(polygon, x, y)
    return distance if bool(planar.contains(polygon, x, y)) else -distance


def poses(world: World, names: Iterable[str]) -> dict[str, Pose]:
    """name -> (position (3,) m, orientation (4,)) of each body ``names``."""
    return {name: world.pose(name) for name in names}


def displacement(part: Part, before: Pose, after: Pose) -> float:
    """m: the furthest any vertex of ``part`` moved between the poses ``before`` and
    ``after`` (a turn in place counts by how far it carried the corners)."""
    a = numerics.rotate(before[1], part.mesh.vertices) + before[0]
    b = numerics.rotate(after[1], part.mesh.vertices) + after[0]
    return float(numerics.norm(b - a).max())


def moved_pieces(world: World, before: Mapping[str, Pose],
                 towers: Mapping[str, Sequence[str]], tolerance: float) -> dict[str, list[str]]:
    """tower -> the names of its pieces that moved (:func:`displacement`) more than
    ``tolerance`` m since ``before`` (name -> pose), or that are no longer in the
    world; towers with none are left out.  ``towers`` maps each tower to its piece
    names; a piece missing from ``before`` is a :class:`KeyError`."""
    present = set(world.names)
    found = {}
    for tower, names in towers.items():
        moved = [name for name in names if name not in present
                 or displacement(world.part(name), before[name], world.pose(name)) > tolerance]
        if moved:
            found[tower] = moved
    return found


def restore_pieces(world: World, before: Snapshot, names: Iterable[str],
                   bring_back: bool = False) -> None:
    """Put the bodies ``names`` back in the pose and velocity ``before`` had them,
    every other body staying as it is now (bodies not in the world now are brought
    back only with ``bring_back``).  The world is rebuilt from that mixed state
    (:meth:`World.restore` of a snapshot without welds: whatever rests where its
    statics hold is welded again at the first step), its clock unchanged.  Raises :class:`WorldError`
    naming the body in the way when a restored piece would overlap a body that stays
    and has moved since ``before`` (or was not in it): a body still where it was
    touched the piece there already.
    """
    names = set(names)
    old = {b.name: b for b in before.bodies}
    missing = sorted(names - set(old))
    if missing:
        raise WorldError(f"cannot restore {', '.join(missing)}: not in the snapshot")
    now = world.snapshot()
    moved = {b.name for b in now.bodies if b.name not in names and (
        b.name not in old or (b.position, b.orientation)
        != (old[b.name].position, old[b.name].orientation))}
    present = {b.name for b in now.bodies}
    back = sorted(names - present) if bring_back else []
    for name in sorted(names & present) + back:
        b = old[name]
        blocking = [other for other in world.overlaps(b.part, b.position, b.orientation)
                    if other in moved]
        if blocking:
            raise WorldError(f"cannot restore {name!r}: {', '.join(blocking)} lies where "
                             "it stood")
    bodies = tuple(old[b.name] if b.name in names else b for b in now.bodies)
    world.restore(Snapshot(bodies + tuple(old[name] for name in back), now.time))


def body_below(world: World, points_xy,
               placed: Snapshot | None = None) -> tuple[str | None, float]:
    """``(name, height m)`` of the body whose surface is highest under any of
    ``points_xy`` ((n, 2) m): the top hit of vertical rays cast down through the
    points.  ``(None, -table_extent)`` when no ray hits anything.  With ``placed``,
    the snapshot ``world`` was restored from, and while the World is still as it
    left it (:func:`~balance3d.games.tower.rays.placed_as`), the same rays are cast
    among the bodies that can hold the top hit alone
    (:func:`~balance3d.games.tower.rays.highest_hit`: the same answer, for a
    fraction of the cost under a tall tower)."""
    c, top = world.settings.length_scale, world.settings.table_extent
    points = np.asarray(points_xy, dtype=float).reshape(-1, 2) * c
    starts = np.column_stack([points, np.full(len(points), top * c)]).tolist()
    ends = np.column_stack([points, np.full(len(points), -top * c)]).tolist()
    if placed is not None and rays.placed_as(world, placed):
        return rays.highest_hit(world, placed, starts, ends, -top)
    best, height = None, -top
    for hit in world.client.rayTestBatch(starts, ends):
        body = world.body_by_uid(hit[0]) if hit[0] >= 0 else None
        if body is not None and hit[3][2] / c > height:
            best, height = body.name, hit[3][2] / c
    return best, height


@dataclass(frozen=True)
class Settled:
    """How :func:`settling_on_table` ended: ``time`` (s simulated), ``timed_out``
    (the scene's ``settle_max_time`` was reached first) and ``off_table`` (bodies
    taken out of the world because they fell off the table, in order)."""

    time: float
    timed_out: bool
    off_table: tuple[str, ...]


def settling_on_table(world: World, floor: float) -> Generator[None, None, Settled]:
    """Step until every dynamic body has stayed at rest for the scene's
    ``rest_time`` (checked every ``rest_check_interval``, as :meth:`World.settling`),
    or until ``settle_max_time``; yields after every time step.  At every check a
    dynamic body whose centre lies below ``floor`` (m) has fallen off the table and
    is taken out of the world (where :meth:`World.settling` would raise), so a piece
    falling off the table ends as a fallen piece, not as an error."""
    s = world.settings
    chunk = max(1, round(s.rest_check_interval / s.time_step))
    needed = max(1, math.ceil(s.rest_time / (chunk * s.time_step)))
    max_steps = max(1, round(s.settle_max_time / s.time_step))
    steps = still = 0
    gone: list[str] = []
    while steps < max_steps:
        world.step()
        steps += 1
        if steps % chunk == 0 or steps == max_steps:
            for name in world.below(floor):
                world.remove(name)
                gone.append(name)
            still = still + 1 if world.at_rest(check=True) else 0
        yield
        if still >= needed:
            return Settled(steps * s.time_step, False, tuple(gone))
    return Settled(steps * s.time_step, True, tuple(gone))
