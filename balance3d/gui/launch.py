"""Opening the window for ``balance3d play``: the one entry point the command
imports, once every argument has been checked (importing this module imports no
Panda3D; :func:`launch` does)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from balance3d.commands.play import PlayOptions


def launch(options: PlayOptions) -> int:
    """Run the window (or, with ``options.screenshot``, render one frame offscreen)
    until the player quits; the exit status (0 quit normally)."""
    from balance3d.gui import app
    if options.screenshot is not None:
        return app.screenshot(options)
    return app.run(options)
