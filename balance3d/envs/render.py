"""Drawing an environment's game: offscreen into an image ("rgb_array") or in a
window ("human"), with the window's own table view.  Panda3D is imported here
only, when the first frame is drawn."""
from __future__ import annotations

import builtins

import numpy as np

from balance3d.games.base import State

#: pixels, (width, height) of the offscreen image and of the window.
FRAME_SIZE = (640, 360)
#: Panda3D settings of the window ("human").
WINDOW_CONFIG = ("window-title balance3d\n"
                 "audio-library-name null\n"
                 "sync-video false\n")


class Renderer:
    """Draws states in ``mode`` ("rgb_array" or "human"); :meth:`close` destroys
    the view and the Panda3D base it made (Panda3D allows one base per process)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        if mode == "rgb_array":
            from balance3d.gui.view.offscreen import offscreen_base
            self.base = offscreen_base(FRAME_SIZE)
        else:
            self.base = _window_base()
        self.view = None

    def draw(self, state: State) -> np.ndarray | None:
        """The frame of ``state``: (H, W, 3) uint8 RGB for "rgb_array", None (the
        window drawn) for "human"."""
        if self.view is None:
            from balance3d.gui.view.table import TableView
            self.view = TableView(self.base, state)
        else:
            self.view.rebuild(state)
        if self.mode == "rgb_array":
            return self.view.image()
        self.view.render()
        return None

    def close(self) -> None:
        """Destroy the view and the base."""
        if self.view is not None:
            self.view.destroy()
            self.view = None
        if getattr(builtins, "base", None) is self.base:
            self.base.destroy()


def _window_base():
    """An on-screen ShowBase of :data:`FRAME_SIZE` (the display is ``$DISPLAY``)."""
    from panda3d.core import loadPrcFileData

    width, height = FRAME_SIZE
    loadPrcFileData("balance3d-env-window", WINDOW_CONFIG + f"win-size {width} {height}\n")
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase(windowType="onscreen")
    base.disableMouse()
    return base
