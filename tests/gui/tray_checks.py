"""Checks shared by the games' table tests: the trays' pieces lie on the table top,
inside its edge, apart from each other and off every body in the World."""
from __future__ import annotations

import pytest
import shapely
from scipy.spatial.transform import Rotation

#: m, how close a resting piece's lowest point comes to the table top (z = 0).
REST_TOLERANCE = 1e-9


def footprint(points):
    """The convex outline, seen from above, of ``points`` ((n, 3) m)."""
    return shapely.MultiPoint([tuple(p[:2]) for p in points]).convex_hull


def assert_trays_lie_apart(table, state, trays) -> None:
    """Every tray piece of ``table`` rests on the table top inside its edge, off
    every body of ``state``'s World but the table, and apart from each other."""
    world = state.world
    keep_off = [footprint(world.vertices(n)) for n in world.names if n != "table"]
    edge = footprint(world.vertices("table"))
    shapes = []
    for tray in trays:
        for piece, (pos, quat) in zip(tray.pieces, tray.slots):
            verts = Rotation.from_quat(quat).apply(
                table.piece_part(state, piece).mesh.vertices) + pos
            assert verts[:, 2].min() == pytest.approx(0.0, abs=REST_TOLERANCE)
            shape = footprint(verts)
            assert edge.contains(shape)
            assert all(shape.disjoint(other) for other in keep_off), f"{piece} on a body"
            shapes.append(shape)
    assert all(a.disjoint(b) for i, a in enumerate(shapes) for b in shapes[i + 1:])
