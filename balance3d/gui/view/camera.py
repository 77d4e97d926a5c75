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


class OrbitCamera:
    """Orbit, pan and zoom around a target (see the module docstring)."""

    def __init__(self, preset: CameraPreset, fov: float = FOV) -> None:
        self.preset = preset
        self.fov = float(fov)
        self.reset()

    def reset(self) -> None:
        """Back to the preset's target, distance, heading and pitch."""
        p = self.preset
        self.target = np.asarray(p.target, dtype=float).copy()
        self.distance = float(np.clip(p.distance, DISTANCE_MIN, DISTANCE_MAX))
        self.heading = float(p.heading)
        self.pitch = float(np.clip(p.pitch, PITCH_MIN, PITCH_MAX))

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
