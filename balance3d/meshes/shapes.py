"""Convex collision pieces a physics engine understands.

Each piece lives in its part's frame with a pose (``position`` (3,) metres and
``orientation`` (4,) unit quaternion x, y, z, w).  A part whose mesh is not convex is
a tuple of such pieces (a compound).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

IDENTITY_QUAT = (0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Box:
    """Box with ``half_extents`` (3,) metres."""

    half_extents: tuple[float, float, float]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return float(8.0 * np.prod(self.half_extents))


@dataclass(frozen=True)
class Cylinder:
    """Cylinder of ``radius`` and ``height`` (metres) along its local z axis."""

    radius: float
    height: float
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return float(np.pi * self.radius**2 * self.height)


@dataclass(frozen=True)
class Sphere:
    """Sphere of ``radius`` metres."""

    radius: float
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return float(4.0 / 3.0 * np.pi * self.radius**3)


@dataclass(frozen=True)
class Hull:
    """Convex hull of ``vertices`` ((n, 3) metres, in the hull's own frame)."""

    vertices: tuple[tuple[float, float, float], ...]
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    orientation: tuple[float, float, float, float] = IDENTITY_QUAT

    @property
    def volume(self) -> float:
        return float(trimesh.convex.convex_hull(np.asarray(self.vertices)).volume)


Shape = Box | Cylinder | Sphere | Hull


def _pose_matrix(position, orientation) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat(orientation).as_matrix()
    m[:3, 3] = position
    return m


def transform_shape(shape: Shape, transform: np.ndarray) -> Shape:
    """The same piece seen from another frame: ``transform`` (4, 4) maps old to new.
    A hull's pose is baked into its vertices, so hulls always sit at the identity."""
    m = transform @ _pose_matrix(shape.position, shape.orientation)
    if isinstance(shape, Hull):
        vertices = np.asarray(shape.vertices) @ m[:3, :3].T + m[:3, 3]
        return Hull(tuple(map(tuple, vertices.tolist())))
    quat = Rotation.from_matrix(m[:3, :3]).as_quat()
    return replace(shape, position=tuple(float(v) for v in m[:3, 3]),
                   orientation=tuple(float(v) for v in quat))
