"""The orbit camera: pure maths on a target, a distance and two angles.

The camera looks at ``target`` from ``distance`` metres away; ``heading`` (degrees)
turns it about the vertical (0 = looking along +y, positive turns the view to the
left, Panda3D's heading), ``pitch`` (degrees) tilts it down from the horizontal.
Its orientation follows Panda3D's camera convention: it looks along its local +y
with +z up, so ``pose()`` can be handed straight to
:func:`balance3d.gui.picking.camera_ray`.  Only :meth:`OrbitCamera.apply` touches
Panda3D (through the NodePath and lens it is given).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.gui.games import CameraPreset

#: deg, lowest and highest pitch (just above the table, straight down).
PITCH_MIN, PITCH_MAX = 5.0, 89.0
#: m, nearest and farthest the camera may come to its target.
DISTANCE_MIN, DISTANCE_MAX = 0.15, 5.0
#: deg, field of view across the window's shorter side.
FOV = 40.0
#: m, near and far clipping distances of the lens.
NEAR, FAR = 0.01, 20.0
#: Share of the free rectangle's width and height the fitted points may span.
FIT_FILL = 0.94
#: Most steps :meth:`OrbitCamera.fit` takes towards the fit, and the change of
#: scale and of the centre (film units) below which it has converged.
FIT_STEPS, FIT_CONVERGED = 80, 1e-5
#: Factor on the distance per step backing off until every point is inside.
FIT_BACK_OFF = 1.005


class OrbitCamera:
    """Orbit, pan and zoom around a target (see the module docstring)."""

    def __init__(self, preset: CameraPreset, fov: float = FOV) -> None:
        self.preset = preset
        self.fov = float(fov)
        #: The fitted target ((3,) m) and distance (m) :meth:`reset` returns to.
        self.fitted: tuple[np.ndarray, float] | None = None
        self.reset()

    def reset(self) -> None:
        """Back to the preset's heading and pitch, and its target and distance (or
        those of the last :meth:`fit`)."""
        p = self.preset
        self.target = np.asarray(p.target, dtype=float).copy()
        self.distance = float(np.clip(p.distance, DISTANCE_MIN, DISTANCE_MAX))
        if self.fitted is not None:
            self.target, self.distance = self.fitted[0].copy(), self.fitted[1]
        self.heading = float(p.heading)
        self.pitch = float(np.clip(p.pitch, PITCH_MIN, PITCH_MAX))

    def at_reset(self) -> bool:
        """True when the camera is where :meth:`reset` puts it."""
        target, distance = self.target, self.distance
        self.reset()
        same = bool(np.allclose(target, self.target) and distance == self.distance)
        self.target, self.distance = target, distance
        return same

    # ------------------------------------------------------------------ lens
    def half_tangents(self, aspect: float) -> tuple[float, float]:
        """tan of the half fields of view (horizontal, vertical) of a window of
        ``aspect`` (width / height): :data:`FOV` spans the shorter side."""
        short = math.tan(math.radians(self.fov) / 2.0)
        return (short * aspect, short) if aspect >= 1.0 else (short, short / aspect)

    def film(self, points: np.ndarray, aspect: float) -> tuple[np.ndarray, np.ndarray]:
        """Film coordinates ((n, 2), x right, y up, -1..1 across the window) of world
        ``points`` ((n, 3) m) and their depths ((n,) m along the view axis)."""
        local = self.rotation().inv().apply(np.asarray(points, float) - self.eye())
        tan_h, tan_v = self.half_tangents(aspect)
        depth = local[:, 1]
        safe = np.where(depth > NEAR, depth, NEAR)
        return np.stack([local[:, 0] / safe / tan_h, local[:, 2] / safe / tan_v], axis=1), depth

    def fit(self, points: np.ndarray, free: tuple[float, float, float, float],
            aspect: float) -> None:
        """Move the target and the distance (heading and pitch kept) so that world
        ``points`` ((n, 3) m) project inside ``free`` (film x0, x1, y0, y1, y up)
        of a window of ``aspect`` (width / height), spanning :data:`FIT_FILL` of its
        width or height, centred in it; :meth:`reset` returns here from now on."""
        x0, x1, y0, y1 = free
        want = FIT_FILL * np.array([x1 - x0, y1 - y0])
        middle = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0])
        tan = np.array(self.half_tangents(aspect))
        rot = self.rotation()
        right, up = rot.apply([1.0, 0.0, 0.0]), rot.apply([0.0, 0.0, 1.0])
        for _ in range(FIT_STEPS):
            film, depth = self.film(points, aspect)
            if depth.min() <= NEAR:
                self.distance = min(DISTANCE_MAX, self.distance * 1.5)
                continue
            lo, hi = film.min(axis=0), film.max(axis=0)
            scale = float(np.min(want / np.maximum(hi - lo, 1e-9)))
            shift = (lo + hi) / 2.0 - middle
            self.target = self.target + (shift[0] * tan[0] * right
                                         + shift[1] * tan[1] * up) * float(depth.mean())
            self.distance = float(np.clip(self.distance + depth.mean() * (1.0 / scale - 1.0),
                                          DISTANCE_MIN, DISTANCE_MAX))
            if abs(scale - 1.0) < FIT_CONVERGED and np.abs(shift).max() < FIT_CONVERGED:
                break
        while self.distance < DISTANCE_MAX:
            film, depth = self.film(points, aspect)
            if depth.min() > NEAR and film[:, 0].min() >= x0 and film[:, 0].max() <= x1 \
                    and film[:, 1].min() >= y0 and film[:, 1].max() <= y1:
                break
            self.distance = min(DISTANCE_MAX, self.distance * FIT_BACK_OFF)
        self.fitted = (self.target.copy(), self.distance)

    # ------------------------------------------------------------------ frame
    def rotation(self) -> Rotation:
        """World-from-camera rotation (camera looks along its +y, +z up)."""
        return Rotation.from_euler("ZX", [self.heading, -self.pitch], degrees=True)

    def forward(self) -> np.ndarray:
        """(3,) unit vector the camera looks along."""
        return self.rotation().apply([0.0, 1.0, 0.0])

    def eye(self) -> np.ndarray:
        """(3,) m, the camera's position."""
        return self.target - self.distance * self.forward()

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """``(position (3,) m, quaternion (4,) xyzw)`` of the camera."""
        return self.eye(), self.rotation().as_quat()

    # ------------------------------------------------------------------ moves
    def orbit(self, dheading: float, dpitch: float) -> None:
        """Turn about the target by ``dheading`` and ``dpitch`` degrees (pitch kept
        within [PITCH_MIN, PITCH_MAX]); the distance to the target is unchanged."""
        self.heading = float((self.heading + dheading + 180.0) % 360.0 - 180.0)
        self.pitch = float(np.clip(self.pitch + dpitch, PITCH_MIN, PITCH_MAX))

    def pan(self, dx: float, dy: float) -> None:
        """Slide target and eye together by ``dx`` m along the view's right and
        ``dy`` m along the view's up (the screen plane)."""
        rot = self.rotation()
        self.target = self.target + dx * rot.apply([1.0, 0.0, 0.0]) \
            + dy * rot.apply([0.0, 0.0, 1.0])

    def zoom(self, factor: float) -> None:
        """Multiply the distance by ``factor`` (> 0; < 1 comes closer), kept within
        [DISTANCE_MIN, DISTANCE_MAX] m."""
        if not factor > 0.0:
            raise ValueError(f"zoom factor must be positive, got {factor}")
        self.distance = float(np.clip(self.distance * factor, DISTANCE_MIN, DISTANCE_MAX))

    # ------------------------------------------------------------------ Panda3D
    def apply(self, camera: Any, lens: Any = None) -> None:
        """Place the Panda3D ``camera`` NodePath at :meth:`pose`; with ``lens`` (a
        PerspectiveLens) also set its field of view and clipping distances."""
        from panda3d.core import LQuaternionf

        pos, (x, y, z, w) = self.pose()
        camera.setPos(*(float(v) for v in pos))
        camera.setQuat(LQuaternionf(w, x, y, z))
        if lens is not None:
            lens.setMinFov(self.fov)
            lens.setNearFar(NEAR, FAR)
