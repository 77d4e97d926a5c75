"""Picking maths (NumPy only): the ray from the camera through a pixel, and where it
meets a plane or an oriented box.  Panda3D's convention: the camera looks along its
local +y with +z up and +x to the right; a pixel is given in normalised device
coordinates, x and y in [-1, 1], y up (the window's centre is (0, 0))."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from scipy.spatial.transform import Rotation

#: Below this |cos| between a ray and a plane's normal the ray is taken as parallel
#: to the plane (no hit); a slab of a box is likewise parallel below it.
PARALLEL_COSINE = 1e-12

#: A box to pick: (centre (3,) m, quaternion xyzw (4,), half extents (3,) m).
Box = tuple[Sequence[float], Sequence[float], Sequence[float]]


def camera_ray(cam_pos: Sequence[float], cam_quat_xyzw: Sequence[float],
               fov_deg: tuple[float, float], pixel_ndc: tuple[float, float]
               ) -> tuple[np.ndarray, np.ndarray]:
    """The ray of a pinhole camera through a pixel: ``(origin (3,) m, unit direction
    (3,))`` in the world frame.

    cam_pos : (3,) m.  cam_quat_xyzw : the camera's orientation.  fov_deg : the full
    horizontal and vertical fields of view, degrees.  pixel_ndc : (x, y) in [-1, 1],
    y up; (0, 0) is the centre, (1, 1) the top-right corner.
    """
    hfov, vfov = fov_deg
    if not (0.0 < hfov < 180.0 and 0.0 < vfov < 180.0):
        raise ValueError(f"fields of view must be in (0, 180) degrees, got {fov_deg}")
    x, y = pixel_ndc
    local = np.array([x * math.tan(math.radians(hfov) / 2.0), 1.0,
                      y * math.tan(math.radians(vfov) / 2.0)])
    direction = Rotation.from_quat(cam_quat_xyzw).apply(local)
    return np.asarray(cam_pos, dtype=float).copy(), direction / np.linalg.norm(direction)


def ray_plane(origin: Sequence[float], direction: Sequence[float], point: Sequence[float],
              normal: Sequence[float]) -> np.ndarray | None:
    """Where the ray ``origin + t * direction`` (t >= 0) meets the plane through
    ``point`` (m) with ``normal``: the hit point (3,) m, or None when the ray is
    parallel to the plane or points away from it."""
    o, d = np.asarray(origin, dtype=float), np.asarray(direction, dtype=float)
    n = np.asarray(normal, dtype=float)
    denom = float(d @ n)
    if abs(denom) <= PARALLEL_COSINE * np.linalg.norm(d) * np.linalg.norm(n):
        return None
    t = float((np.asarray(point, dtype=float) - o) @ n) / denom
    if t < 0.0:
        return None
    return o + t * d


def ray_box(origin: Sequence[float], direction: Sequence[float], centre: Sequence[float],
            quat_xyzw: Sequence[float], half_extents: Sequence[float]) -> float | None:
    """Distance parameter t >= 0 at which the ray ``origin + t * direction`` first
    meets the box (``centre`` m, orientation ``quat_xyzw``, ``half_extents`` m along
    its own axes), or None when it misses (slab method in the box's frame).  With a
    unit direction t is in metres; a ray starting inside the box gives 0."""
    to_box = Rotation.from_quat(quat_xyzw).inv()
    o = to_box.apply(np.asarray(origin, dtype=float) - np.asarray(centre, dtype=float))
    d = to_box.apply(np.asarray(direction, dtype=float))
    h = np.asarray(half_extents, dtype=float)
    near, far = 0.0, math.inf
    scale = float(np.linalg.norm(d))
    for axis in range(3):
        if abs(d[axis]) <= PARALLEL_COSINE * scale:
            if abs(o[axis]) > h[axis]:
                return None
            continue
        t1 = (-h[axis] - o[axis]) / d[axis]
        t2 = (h[axis] - o[axis]) / d[axis]
        near, far = max(near, min(t1, t2)), min(far, max(t1, t2))
        if near > far:
            return None
    return float(near)


def pick(origin: Sequence[float], direction: Sequence[float],
         boxes: Mapping[str, Box]) -> str | None:
    """Name of the box the ray meets first (the smallest t), or None; ``boxes`` maps
    names to (centre, quaternion xyzw, half extents)."""
    best, best_t = None, math.inf
    for name, (centre, quat, half) in boxes.items():
        t = ray_box(origin, direction, centre, quat, half)
        if t is not None and t < best_t:
            best, best_t = name, t
    return best


__all__ = ["Box", "PARALLEL_COSINE", "camera_ray", "pick", "ray_box", "ray_plane"]
