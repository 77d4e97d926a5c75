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
