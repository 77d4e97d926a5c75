"""Convex collision pieces a physics engine understands.

Each piece lives in its part's frame with a pose (``position`` (3,) metres and
``orientation`` (4,) unit quaternion x, y, z, w).  A part whose mesh is not convex is
a tuple of such pieces (a compound).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from balance3d import numerics
from balance3d.meshes.mass import volume as mesh_volume
from balance3d.meshes.solids import triangles

IDENTITY_QUAT = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Box:
    """Box with ``half_extents`` (3,) metres."""

    half_extents: tuple[float, float, float]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        hx, hy, hz = self.half_extents
        return 8.0 * hx * hy * hz


@dataclass(frozen=True)
class Cylinder:
    """Cylinder of ``radius`` and ``height`` (metres) along its local z axis."""

    radius: float
    height: float
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return math.pi * self.radius**2 * self.height


@dataclass(frozen=True)
class Sphere:
    """Sphere of ``radius`` metres."""

    radius: float
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return 4.0 / 3.0 * math.pi * self.radius**3


@dataclass(frozen=True)
class Hull:
    """Convex polyhedron: ``vertices`` ((n, 3) metres, in the hull's own frame) and
    ``faces``, its convex planar faces, each a tuple of vertex indices
    counter-clockwise seen from outside.  The engine's hull file lists exactly
    these (see :mod:`balance3d.physics.hulls`)."""

    vertices: tuple[tuple[float, float, float], ...]
    faces: tuple[tuple[int, ...], ...]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    def __post_init__(self) -> None:
        n = len(self.vertices)
        if not self.faces or any(len(f) < 3 or not all(0 <= k < n for k in f)
                                 for f in self.faces):
            raise ValueError("a hull needs faces of at least 3 indices into its vertices")

    @property
    def volume(self) -> float:
        return mesh_volume(np.asarray(self.vertices, dtype=float), triangles(self.faces))


Shape = Box | Cylinder | Sphere | Hull


def hull_of(vertices: np.ndarray, faces) -> Hull:
    """A :class:`Hull` of ``vertices`` (n, 3) and ``faces`` (polygons), as plain
    tuples."""
    return Hull(tuple(tuple(float(x) for x in v) for v in np.asarray(vertices).tolist()),
                tuple(tuple(int(k) for k in f) for f in faces))


def transform_shape(shape: Shape, rotation: np.ndarray, translation) -> Shape:
    """The same piece seen from another frame, whose coordinates are
    ``rotation @ (x + translation)`` of the old ones (``rotation`` (3, 3), proper;
    ``translation`` (3,) metres), computed in a fixed order (:mod:`numerics`).  A
    hull's pose is baked into its vertices, so hulls always sit at the identity."""
    rotation = np.asarray(rotation, dtype=float)
    translation = np.asarray(translation, dtype=float)
    turn = numerics.quat_matrix(shape.orientation)
    if isinstance(shape, Hull):
        own = numerics.matmul(np.asarray(shape.vertices, dtype=float), turn.T)
        moved = numerics.matmul((own + np.asarray(shape.position, float)) + translation,
                                rotation.T)
        return hull_of(moved, shape.faces)
    position = numerics.matmul(rotation, np.asarray(shape.position, float) + translation)
    quat = numerics.quat_from_matrix(numerics.matmul(rotation, turn))
    return replace(shape, position=tuple(float(v) for v in position),
                   orientation=tuple(float(v) for v in quat))
