"""Convex hull pieces handed to pybullet as OBJ files.

pybullet's compound shapes (``createCollisionShapeArray``) take convex meshes only by
file name, so each hull piece is written once to a content-addressed OBJ file in the
user's cache folder (``platformdirs.user_cache_dir("balance3d")``, subfolder
``hulls``) and reused by every World in every process.  A file holds the piece's
own vertices and faces in their order (no hull library computes anything), is
named by the SHA-1 of its text and ends with that SHA-1: an entry that is
truncated, edited or unreadable is written again, never loaded.  When the cache
folder cannot be written, the system's temporary folder is used instead.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import platformdirs

from balance3d import numerics
from balance3d.meshes.solids import triangles

#: Start of the last line of every cached OBJ file, followed by the SHA-1 (hex) of
#: the text before that line.
CHECK_PREFIX = "# sha1 "
#: Largest distance, relative to a convex piece's size, between a shrunk vertex and
#: the moved plane of any of its faces (round-off of planes that meet in one point).
PLANE_MEET_TOLERANCE = 1e-9


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


def hull_obj_text(vertices: np.ndarray, faces) -> str:
    """The OBJ text of a convex piece: one ``v`` line per row of ``vertices`` ((n, 3)
    float, ``repr`` of each coordinate), then one ``f`` line per triangle of
    ``faces`` (convex polygons split into fans from their first corner), in the
    order given.  Bullet builds its hull from the points in the order the ``f``
    lines list them, so this text fixes what the engine gets."""
    lines = [f"v {x!r} {y!r} {z!r}" for x, y, z in np.asarray(vertices, dtype=float).tolist()]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in triangles(faces).tolist()]
    return "\n".join(lines) + "\n"


def hull_obj_path(vertices: np.ndarray, faces) -> str:
    """Path of an OBJ file holding the convex piece ``vertices`` ((n, 3) float,
    engine units) with ``faces`` (:func:`hull_obj_text`), named by the SHA-1 of that
    text; written (again) when missing or damaged."""
    body = hull_obj_text(vertices, faces)
    digest = hashlib.sha1(body.encode()).hexdigest()
    folder = hull_cache_dir()
    path = folder / f"{digest}.obj"
    if not _intact(path):
        folder.mkdir(parents=True, exist_ok=True)   # emptied since it was first checked
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".obj")
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(body + CHECK_PREFIX + digest + "\n")
        os.replace(tmp, path)
    return str(path)


def face_planes(vertices: np.ndarray, faces) -> tuple[np.ndarray, np.ndarray]:
    """Unit outward normals (f, 3) and offsets (f,) (``normal . x = offset`` on the
    face) of the convex polygons ``faces`` of ``vertices`` (n, 3).  Each normal is
    Newell's (the sum of the cross products of the corners taken from the first,
    exactly summed); each offset the exactly summed mean of its corners'."""
    v = np.asarray(vertices, dtype=float)
    normals, offsets = [], []
    for face in faces:
        corners = v[list(face)]
        rel = corners[1:] - corners[0]
        n = numerics.fsum_rows(numerics.cross(rel[:-1], rel[1:]))
        n = n / math.sqrt(math.fsum((n * n).tolist()))
        normals.append(n)
        offsets.append(math.fsum(numerics.dot(corners, n).tolist()) / len(face))
    return np.array(normals), np.array(offsets)


def shrink_hull(vertices: np.ndarray, faces, margin: float) -> np.ndarray:
    """Vertices ((n, 3) float, same order, so ``faces`` still describe it) of the
    convex piece ``vertices`` with ``faces`` (convex polygons) after every face is
    moved inwards by ``margin`` (same unit).

    Each vertex becomes the meet of three of its faces' planes moved in (the three
    with the largest determinant, ties to the first listed), by Cramer's rule in a
    fixed order.  That is exact when the moved planes of each vertex still meet in
    one point: a vertex of three faces always does, and the builders' pieces with
    more are made so (see :func:`balance3d.meshes.solids.rounded_box`).

    Bullet adds a convex hull's collision margin outside its vertices, so a hull
    built from the shrunk vertices collides at the original surface (with edges
    rounded to the margin's radius).  Raises ValueError when the piece is thinner
    than twice the margin or a vertex's moved planes do not meet in one point."""
    vertices = np.asarray(vertices, dtype=np.float64)
    if margin <= 0.0:
        return vertices
    normals, offsets = face_planes(vertices, faces)
    moved = offsets - margin
    centre = numerics.fsum_rows(vertices) / len(vertices)
    if np.any(numerics.dot(normals, centre) - moved >= 0.0):
        raise ValueError(f"convex piece is too thin for a collision margin of {margin}")
    incident: list[list[int]] = [[] for _ in range(len(vertices))]
    for k, face in enumerate(faces):
        for v in face:
            incident[v].append(k)
    size = float(np.abs(vertices - centre).max())
    shrunk = np.array([_meet(normals, moved, planes) for planes in incident])
    for k, face in enumerate(faces):
        residual = np.abs(numerics.dot(shrunk[list(face)], normals[k]) - moved[k])
        if float(residual.max()) > PLANE_MEET_TOLERANCE * size:
            raise ValueError("the faces of a convex piece do not meet in one point each "
                             f"when moved in by a collision margin of {margin}")
    after, _ = face_planes(shrunk, faces)
    if np.any(numerics.dot(after, normals) <= 0.0):
        raise ValueError(f"convex piece is too thin for a collision margin of {margin}")
    return shrunk


def _meet(normals: np.ndarray, offsets: np.ndarray, planes: list[int]) -> np.ndarray:
    """(3,): the point on the three of ``planes`` (indices into ``normals`` (f, 3)
    and ``offsets`` (f,)) whose normals span the largest volume."""
    best, triple = 0.0, None
    for a, b, c in itertools.combinations(planes, 3):
        det = abs(float(numerics.dot(normals[a], numerics.cross(normals[b], normals[c]))))
        if det > best:
            best, triple = det, (a, b, c)
    if triple is None:
        raise ValueError("a vertex of a convex piece lies on fewer than three independent "
                         "faces")
    a, b, c = triple
    na, nb, nc = normals[a], normals[b], normals[c]
    det = float(numerics.dot(na, numerics.cross(nb, nc)))
    return ((offsets[a] * numerics.cross(nb, nc) + offsets[b] * numerics.cross(nc, na))
            + offsets[c] * numerics.cross(na, nb)) / det
