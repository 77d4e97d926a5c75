"""Convex hull pieces handed to pybullet as OBJ files.

pybullet's compound shapes (``createCollisionShapeArray``) take convex meshes only by
file name, so each hull piece is written once to a content-addressed OBJ file in the
temporary directory and reused by every World in every process.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np
import trimesh

_CACHE = Path(tempfile.gettempdir()) / "balance3d-hulls"


def hull_obj_path(vertices: np.ndarray) -> str:
    """Path of an OBJ file holding the convex hull of ``vertices`` ((n, 3) float,
    engine units)."""
    vertices = np.ascontiguousarray(vertices, dtype=np.float64)
    digest = hashlib.sha1(vertices.tobytes()).hexdigest()
    path = _CACHE / f"{digest}.obj"
    if not path.exists():
        _CACHE.mkdir(parents=True, exist_ok=True)
        hull = trimesh.convex.convex_hull(vertices)
        lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in hull.vertices.tolist()]
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in hull.faces.tolist()]
        fd, tmp = tempfile.mkstemp(dir=_CACHE, suffix=".obj")
        with os.fdopen(fd, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        os.replace(tmp, path)
    return str(path)


def shrink_hull(vertices: np.ndarray, margin: float) -> np.ndarray:
    """Vertices ((k, 3) float) of the convex hull of ``vertices`` ((n, 3) float) with
    every face moved inwards by ``margin`` (same unit).

    Bullet adds a convex hull's collision margin outside its vertices, so a hull
    built from the shrunk vertices collides at the original surface (with edges
    rounded to the margin's radius).  Raises ValueError when the hull is thinner
    than twice the margin."""
    from scipy.spatial import ConvexHull, HalfspaceIntersection

    vertices = np.asarray(vertices, dtype=np.float64)
    if margin <= 0.0:
        return vertices
    hull = ConvexHull(vertices)
    equations = hull.equations.copy()          # normal . x + offset <= 0 inside
    equations[:, 3] += margin
    centre = vertices[hull.vertices].mean(axis=0)
    if np.any(equations[:, :3] @ centre + equations[:, 3] >= 0.0):
        raise ValueError(f"convex piece is too thin for a collision margin of {margin}")
    points = HalfspaceIntersection(equations, centre).intersections
    shrunk = ConvexHull(points)
    return points[shrunk.vertices]
