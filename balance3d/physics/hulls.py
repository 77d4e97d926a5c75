"""Convex hull pieces handed to pybullet as OBJ files.

pybullet's compound shapes (``createCollisionShapeArray``) take convex meshes only by
file name, so each hull piece is written once to a content-addressed OBJ file in the
user's cache folder (``platformdirs.user_cache_dir("balance3d")``, subfolder
``hulls``) and reused by every World in every process.  Each file ends with the
SHA-1 of the lines above it: an entry that is truncated, edited or unreadable is
written again, never loaded.  When the cache folder cannot be written, the system's
temporary folder is used instead.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import platformdirs
import trimesh

#: Start of the last line of every cached OBJ file, followed by the SHA-1 (hex) of
#: the text before that line.
CHECK_PREFIX = "# sha1 "


def hull_cache_dir() -> Path:
    """The folder of the cached hull files: ``hulls`` in the user's cache folder, or
    ``balance3d-hulls`` in the temporary folder when that one cannot be written."""
    user = Path(platformdirs.user_cache_dir("balance3d")) / "hulls"
    for folder in (user, Path(tempfile.gettempdir()) / "balance3d-hulls"):
        if _writable(folder):
            return folder
    raise OSError(f"no writable folder for balance3d's hull files (tried {user} and "
                  f"{Path(tempfile.gettempdir()) / 'balance3d-hulls'})")


@lru_cache(maxsize=8)
def _writable(folder: Path) -> bool:
    """True when ``folder`` exists (made here if need be) and can be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _intact(path: Path) -> bool:
    """True when ``path`` is a whole cached OBJ file (its check line matches)."""
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return False
    body, _, last = text.rstrip("\n").rpartition("\n")
    return (last.startswith(CHECK_PREFIX) and text.endswith("\n")
            and last[len(CHECK_PREFIX):] == hashlib.sha1((body + "\n").encode()).hexdigest())


def hull_obj_path(vertices: np.ndarray) -> str:
    """Path of an OBJ file holding the convex hull of ``vertices`` ((n, 3) float,
    engine units); written (again) when missing or damaged."""
    vertices = np.ascontiguousarray(vertices, dtype=np.float64)
    digest = hashlib.sha1(vertices.tobytes()).hexdigest()
    folder = hull_cache_dir()
    path = folder / f"{digest}.obj"
    if not _intact(path):
        hull = trimesh.convex.convex_hull(vertices)
        lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in hull.vertices.tolist()]
        lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in hull.faces.tolist()]
        body = "\n".join(lines) + "\n"
        folder.mkdir(parents=True, exist_ok=True)   # emptied since it was first checked
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".obj")
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(body + CHECK_PREFIX + hashlib.sha1(body.encode()).hexdigest() + "\n")
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
