"""A ShowBase rendering into an offscreen buffer through Mesa (``p3headlessgl``):
shaders and shadows work without a display (tests, ``--screenshot``)."""
from __future__ import annotations

import builtins

#: Panda3D settings of the offscreen base (the size is added per call).
OFFSCREEN_CONFIG = (
    "load-display p3headlessgl\n"
    "window-type offscreen\n"
    "audio-library-name null\n"
    "sync-video false\n"
    "notify-level-device fatal\n"
    "notify-level-egldisplay fatal\n"
)


class OffscreenError(RuntimeError):
    """The offscreen buffer could not be made (the reason is in the message)."""


def offscreen_base(size: tuple[int, int] = (1280, 720)):
    """A ``ShowBase`` drawing into an offscreen buffer of ``size`` (width, height)
    pixels.  Panda3D allows one ShowBase per process: an offscreen one made before
    is returned (resized to ``size``); an on-screen one raises
    :class:`OffscreenError`."""
    width, height = (int(v) for v in size)
    existing = getattr(builtins, "base", None)
    if existing is not None:
        if existing.windowType != "offscreen" or existing.win is None:
            raise OffscreenError(f"a Panda3D ShowBase with a {existing.windowType!r} window "
                                 f"exists already; cannot make an offscreen one beside it")
        if (existing.win.getXSize(), existing.win.getYSize()) != (width, height):
            existing.win.setSize(width, height)
            existing.camLens.setAspectRatio(width / height)
        return existing
    from panda3d.core import loadPrcFileData

    loadPrcFileData("balance3d-offscreen", OFFSCREEN_CONFIG + f"win-size {width} {height}\n")
    from direct.showbase.ShowBase import ShowBase

    try:
        base = ShowBase(windowType="offscreen")
    except Exception as exc:   # Panda3D raises a bare Exception when no pipe opens
        raise OffscreenError(f"no offscreen buffer through p3headlessgl: {exc}") from exc
    if base.win is None or not base.win.getGsg().getSupportsBasicShaders():
        raise OffscreenError("the offscreen buffer has no shader support (p3headlessgl "
                             "needs Mesa's OpenGL, e.g. libgl1-mesa-dri)")
    base.disableMouse()
    return base
