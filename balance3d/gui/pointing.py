"""The mouse in the window (Panda3D): its pixel, the world ray through it, the point
of the table's surface it points at, and the camera moved by dragging.

:func:`surface_hit` itself needs no window: it follows a ray down onto what the
World's bodies show from above.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from panda3d.core import KeyboardButton

from balance3d.games.base import State
from balance3d.gui import picking

#: m, the mouse ray is followed down from this far above the release area's top.
MARCH_ABOVE = 0.15
#: m, length of the ray's steps while looking for the surface under the mouse
#: (thinner than any piece seen from above).
MARCH_STEP = 0.004
#: Halvings of the last step once the ray is below the surface (4 mm / 2**12 < 1 um).
BISECTIONS = 12
#: degrees the camera turns per unit of mouse travel (the window's half width or
#: height) when orbiting.
ORBIT_RATE = 90.0
#: factor on the camera's distance per wheel notch towards the table.
ZOOM_STEP = 0.9
#: mouse travel (window half widths) below which a right-button press is a click
#: (it puts a held piece back), not an orbit.
CLICK_SLOP = 0.01


def xyzw(quat: Any) -> list[float]:
    """A Panda3D quaternion (w, x, y, z) as [x, y, z, w]."""
    return [quat.getI(), quat.getJ(), quat.getK(), quat.getR()]


def camera_fields(base: Any) -> dict[str, Any]:
    """The camera's world pose (``pos`` m, ``quat`` xyzw), the lens's ``fov``
    (horizontal, vertical degrees) and the window's ``size`` (pixels)."""
    cam = base.camera
    return {"camera": {"pos": list(cam.getPos(base.render)),
                       "quat": xyzw(cam.getQuat(base.render))},
            "fov": list(base.camLens.getFov()),
            "size": [base.win.getXSize(), base.win.getYSize()]}


def pointer_pixel(base: Any) -> list[int]:
    """The mouse pixel (x right, y down) in the window."""
    p = base.win.getPointer(0)
    return [int(p.getX()), int(p.getY())]


def mouse_ray(base: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The world ray (origin m, unit direction) through the mouse, or None when the
    mouse is outside the window."""
    watcher = base.mouseWatcherNode
    if not watcher.hasMouse():
        return None
    mouse = watcher.getMouse()
    cam = base.camera
    return picking.camera_ray(tuple(cam.getPos(base.render)), xyzw(cam.getQuat(base.render)),
                              tuple(base.camLens.getFov()), (mouse[0], mouse[1]))


def surface_hit(state: State, origin: np.ndarray, direction: np.ndarray) -> np.ndarray | None:
    """The first point (m) where the ray goes below the surface seen from above
    (the highest body of ``state``'s World under each point, else the table top at
    z = 0): marched from :data:`MARCH_ABOVE` over the release area's top in steps of
    :data:`MARCH_STEP`, then bisected.  None for a ray that does not point down."""
    if direction[2] >= 0.0:
        return None
    world = state.world
    area = state.release_area()
    top = max((r["top_z"] for r in area["regions"]), default=0.0) if area else 0.0

    def below(t: float) -> bool:
        point = origin + t * direction
        return point[2] <= max(world.height_below([point[:2]]), 0.0)

    t = max(0.0, (origin[2] - top - MARCH_ABOVE) / -direction[2])
    end = origin[2] / -direction[2]
    while t < end:
        step = min(t + MARCH_STEP, end)
        if below(step):
            lo, hi = t, step
            for _ in range(BISECTIONS):
                mid = (lo + hi) / 2.0
                lo, hi = (lo, mid) if below(mid) else (mid, hi)
            return origin + hi * direction
        t = step
    return origin + end * direction


class CameraMouse:
    """The view's orbit camera moved by the mouse: right-drag orbits, middle-drag
    (or Shift+right-drag) pans, the wheel zooms."""

    def __init__(self, base: Any) -> None:
        self.base = base
        self._drag: tuple[str, float, float, float] | None = None

    def start(self, kind: str) -> None:
        """A button went down: start an "orbit" or "pan" drag (Shift makes any drag
        a pan)."""
        watcher = self.base.mouseWatcherNode
        if not watcher.hasMouse():
            return
        shift = watcher.isButtonDown(KeyboardButton.shift())
        mouse = watcher.getMouse()
        self._drag = ("pan" if shift else kind, mouse[0], mouse[1], 0.0)

    def end(self) -> bool:
        """The button came up; True when the press was a click, not a drag."""
        drag, self._drag = self._drag, None
        return drag is not None and drag[3] < CLICK_SLOP

    def follow(self, view: Any) -> bool:
        """Move ``view``'s camera with a drag in progress; True when it moved."""
        watcher = self.base.mouseWatcherNode
        if self._drag is None or not watcher.hasMouse():
            return False
        kind, x0, y0, travelled = self._drag
        mouse = watcher.getMouse()
        dx, dy = mouse[0] - x0, mouse[1] - y0
        if dx == 0 and dy == 0:
            return False
        self._drag = (kind, mouse[0], mouse[1], travelled + abs(dx) + abs(dy))
        camera = view.camera
        if kind == "orbit":
            camera.orbit(-dx * ORBIT_RATE, dy * ORBIT_RATE)
        else:
            # the table follows the mouse: half the window spans distance * tan(fov / 2)
            hfov, vfov = (math.radians(a) / 2.0 for a in self.base.camLens.getFov())
            camera.pan(-dx * camera.distance * math.tan(hfov),
                       -dy * camera.distance * math.tan(vfov))
        camera.apply(self.base.camera, self.base.camLens)
        return True

    def zoom(self, view: Any, steps: int) -> None:
        """``steps`` wheel notches (positive: closer)."""
        view.camera.zoom(ZOOM_STEP ** steps)
        view.camera.apply(self.base.camera, self.base.camLens)

    def reset(self, view: Any) -> None:
        """Back to the game's camera preset."""
        view.camera.reset()
        view.camera.apply(self.base.camera, self.base.camLens)
