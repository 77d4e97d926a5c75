"""``balance3d play --trace FILE``: what the window did, as JSON lines, for tests and
bug reports.

Each line is one object with an ``event`` and its fields:

``menu``
    the start menu is open: ``start`` the Start button's pixel.
``ready``
    a person is to act: ``camera`` {``pos`` (3,) m, ``quat`` xyzw}, ``fov``
    [horizontal, vertical] degrees, ``size`` [width, height] pixels, ``pieces``
    {piece: pixel} of every tray piece, ``legal`` the pieces that may be picked,
    ``buttons`` {label: pixel} of the decision buttons, ``turns`` the actions
    recorded so far, ``phase``, ``regions`` {name: [x, y, width, height]} of the
    layout's regions.
``pointer``
    the mouse moved: ``pointer`` its pixel, which the frame that wrote this line
    has already used (the held piece's ghost follows it).
``click``
    the left button was pressed over the table or a widget: ``pointer``; what the
    click did (``picked``, ``release``, ``refused``) comes after this line.
``picked``
    a tray piece was picked up: ``piece``, ``pointer``.
``put back``
    the held piece went back to its tray (Esc, or the turn moved on): ``piece``.
``asked``, ``answered``
    a decision that ends the player's game asks first: the ``question``, its
    ``action`` and the answers' ``buttons`` {label: pixel}; then ``yes`` (bool).
``buttons``
    the buttons shown changed and have been drawn (they take clicks from now):
    ``decisions`` and ``confirm``, each {label: pixel}.
``release``
    a held piece was released: ``pointer`` pixel, ``action`` (its dict).
``refused``
    a pick, release or decision was refused: ``reason`` (the game's), ``pointer``,
    ``action`` (when there was one).
``hud``
    the prompt changed: ``title``, ``prompt``.
``verdict``
    an action ended: ``verdict`` (its dict).
``preview``
    the designer's what-if: the held drop's ``action`` and the ``verdict`` a
    look-ahead copy gave it.
``frame``
    a screenshot was saved: ``camera``, ``fov`` and ``size`` as in ``ready``,
    ``turns`` the actions played before it.
``saved``, ``quit``
    the game was saved to ``path``; the window closed.

Pixels are (x right, y down) from the window's top-left corner.  Every line is
flushed at once, so a reader sees it while the window runs.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class Trace:
    """Writes trace lines to ``path``; with None it writes nothing."""

    def __init__(self, path: Path | None) -> None:
        self._file = open(path, "w", encoding="utf-8") if path is not None else None

    def write(self, event: str, **fields: Any) -> None:
        """One line: ``{"event": event, **fields}`` (JSON-ready values)."""
        if self._file is not None:
            self._file.write(json.dumps({"event": event, **fields}) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
