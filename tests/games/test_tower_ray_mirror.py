"""A landing's rays cast in the mirror give the World's answer, bit for bit.

:func:`balance3d.games.tower.physics.body_below` given the snapshot the World was
restored from casts its rays among the bodies that can hold the top hit alone
(:mod:`balance3d.games.tower.rays`).  Over the between-turns states of a seeded
planner game and footprints of every part spread over each base (edges included,
where rays graze the pieces' sides), its answer is the full cast's exactly: the
same body and the same height bits.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from balance3d import numerics
from balance3d.bots import make_bot
from balance3d.games import Drop, new_game
from balance3d.games.placement import design_vertices, footprint_points, pose_rotation
from balance3d.games.tower import TowerState, rays
from balance3d.games.tower.physics import body_below

#: Drops played between the states probed.
DROPS_BETWEEN = 5
#: States probed (the first after DROPS_BETWEEN drops).
STATES = 3
#: Points per side of the grid of footprint centres over each base.
GRID = 4
#: rad, the headings of the probed footprints.
YAWS = (0.0, 0.7)


def states() -> list[TowerState]:
    """Between-turns clones of a seeded 2-player planner game, DROPS_BETWEEN drops
    apart (towers growing)."""
    state = new_game("tower", players=2, seed=3, bots=["planner"] * 2)
    bots = [make_bot("planner", 3, seat, game="tower") for seat in range(2)]
    found, drops = [], 0
    while len(found) < STATES and not state.is_over:
        action = bots[state.current_player].choose(state)
        drops += isinstance(action, Drop)
        state.apply(action)
        if drops == DROPS_BETWEEN * (len(found) + 1):
            found.append(state.clone())
    return found


def footprints(state: TowerState, seat: int):
    """(n, 2) m point sets of every part's footprint (flat and on edge, each yaw)
    centred on a GRID x GRID grid spanning ``seat``'s base to its edges."""
    world = state.world
    xy = world.vertices(state.base(seat))[:, :2]
    (x0, y0), (x1, y1) = xy.min(axis=0), xy.max(axis=0)
    parts = {state.piece_part(p).name: state.piece_part(p) for p in state.hand(seat)}
    for part in parts.values():
        for pose in ("flat", "edge"):
            for yaw in YAWS:
                verts = numerics.rotate(pose_rotation(part, pose, yaw), design_vertices(part))
                outline = verts[:, :2] - (verts[:, :2].min(axis=0) + verts[:, :2].max(axis=0)) / 2
                for x in np.linspace(x0, x1, GRID):
                    for y in np.linspace(y0, y1, GRID):
                        yield footprint_points(outline + (x, y))


@pytest.fixture(scope="module")
def probed() -> list[TowerState]:
    return states()


def test_the_mirror_gives_the_full_casts_answer(probed):
    assert len(probed) == STATES
    compared = pieces_hit = 0
    for state in probed:
        world, snapshot = state.world, state._snapshot
        assert rays.placed_as(world, snapshot)
        for seat in range(2):
            for points in footprints(state, seat):
                full = body_below(world, points)
                assert body_below(world, points, snapshot) == full
                compared += 1
                pieces_hit += full[0] is not None and not world.is_static(full[0])
    assert pieces_hit > compared // 4, "the probes should land on pieces, not only bases"


def test_the_mirror_holds_only_the_top_of_a_tower(probed):
    state = probed[-1]
    seat = max(range(2), key=lambda s: len(state.tower(s)))
    assert len(state.tower(seat)) >= 4
    world = state.world
    centre = np.mean(world.vertices(state.base(seat))[:, :2], axis=0)
    points = footprint_points(np.array([[-0.01, -0.01], [0.01, -0.01], [0.01, 0.01],
                                        [-0.01, 0.01]]) + centre)
    body_below(world, points, state._snapshot)
    held = rays.mirror(world.settings).held
    assert 1 <= len(held) < len(state.tower(seat)), held


def test_a_world_moved_since_its_snapshot_is_cast_in_full(probed):
    state = probed[0].clone()
    world, snapshot = state.world, state._snapshot
    piece = state.tower(0)[-1]
    position, orientation = world.pose(piece)
    world.set_pose(piece, position + np.array([0.0, 0.0, 0.003]), orientation)
    assert not rays.placed_as(world, snapshot)
    x, y = position[:2]
    points = footprint_points(np.array([[x - 0.01, y - 0.01], [x + 0.01, y - 0.01],
                                        [x + 0.01, y + 0.01], [x - 0.01, y + 0.01]]))
    name, height = body_below(world, points, snapshot)
    assert (name, height) == body_below(world, points)
    assert name == piece and height > float(world.vertices(piece)[:, 2].max()) - 0.001
    assert math.isfinite(height)
