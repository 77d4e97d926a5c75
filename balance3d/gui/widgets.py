"""What the window writes over the table (Panda3D DirectGUI): the HUD (title, one
line per seat, the prompt, the last verdict), the event log, a status line, the
decision buttons, the designer's line and the help overlay (F1).

The texts come from :func:`balance3d.gui.hud.hud_text`; nothing here reads the
game itself.  Sizes are in Panda3D's aspect2d units (the window's height is 2).
"""
from __future__ import annotations

from typing import Any, Callable

from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import Point3, TextNode

#: The controls, as the help overlay and the README list them: (keys, what they do).
CONTROLS: tuple[tuple[str, str], ...] = (
    ("left-click a tray piece", "pick it up (only your own pieces, on your turn)"),
    ("move the mouse", "carry its ghost over the release area: for a drop the ring marks "
                       "the landing; for a placement the field under it is outlined"),
    ("wheel, Q / E", "turn the held piece (drops)"),
    ("Tab", "stand it flat, on edge, upright (drops)"),
    ("W / S, PgUp / PgDn", "raise / lower the release height (drops)"),
    ("left-click", "release it (only where the ghost or the outline is not red)"),
    ("Pass button", "pass, where the game allows it (shown with its consequence)"),
    ("Esc, right-click", "put it back"),
    ("right-drag", "orbit the camera"),
    ("middle-drag, Shift+right-drag", "pan"),
    ("wheel (not holding)", "zoom"),
    ("Home", "reset the camera"),
    ("Ctrl+S / Ctrl+Z / Ctrl+R", "save / undo your last action / restart"),
    ("1 / 2 / 3", "speed of bots and physics: real time / fast / instant"),
    ("D", "designer tools: P pause, N single step, [ ] slow motion, V what-if, "
          "forces and centre of mass shown"),
    ("Space / Right / N", "replay: show the next recorded turn"),
    ("F1", "show or hide the help (these controls)"),
    ("Ctrl+Q", "quit"),
)

#: aspect2d units, height of HUD and log text.
TEXT_SCALE = 0.045
#: aspect2d units, margin from the window's edges.
MARGIN = 0.04
#: Lines the event log shows.
LOG_LINES = 6
#: RGBA, text colours.
INK = (1.0, 1.0, 1.0, 1.0)
ALERT = (1.0, 0.45, 0.4, 1.0)
DIM = (0.85, 0.85, 0.8, 1.0)
#: RGBA, the panels' background.
PANEL = (0.05, 0.05, 0.08, 0.6)
#: aspect2d units, width and height of a decision button; buttons per row.
BUTTON_SIZE = (0.36, 0.08)
BUTTONS_PER_ROW = 6


def widget_pixel(base: Any, widget: Any) -> tuple[float, float]:
    """Pixel (x right, y down) of the centre of a DirectGUI ``widget``'s frame."""
    left, right, bottom, top = widget.getBounds()
    pos = base.render2d.getRelativePoint(widget, Point3((left + right) / 2.0, 0.0,
                                                        (bottom + top) / 2.0))
    width, height = base.win.getXSize(), base.win.getYSize()
    return (pos[0] + 1.0) / 2.0 * width, (1.0 - pos[2]) / 2.0 * height


def _text(parent: Any, pos: tuple[float, float], align: int = TextNode.ALeft,
          fg: tuple = INK, scale: float = TEXT_SCALE, panel: bool = False) -> OnscreenText:
    """Text that may change; ``panel`` puts a translucent card behind it."""
    return OnscreenText(text="", parent=parent, pos=pos, align=align, fg=fg, scale=scale,
                        shadow=(0, 0, 0, 0.8), mayChange=True, bg=PANEL if panel else None)


class Widgets:
    """The HUD, log, status line, decision buttons and help of one window.

    base : the ShowBase.  on_decision : called with the action of a clicked button.
    """

    def __init__(self, base: Any, on_decision: Callable[[Any], None]) -> None:
        self.base = base
        self.on_decision = on_decision
        self.hud = _text(base.a2dTopLeft, (MARGIN, -MARGIN - TEXT_SCALE), panel=True)
        self.log = _text(base.a2dBottomLeft, (MARGIN, MARGIN + LOG_LINES * TEXT_SCALE * 1.1),
                         fg=DIM, scale=TEXT_SCALE * 0.8, panel=True)
        self.status = _text(base.a2dBottomCenter, (0.0, MARGIN + 0.02), TextNode.ACenter)
        self.designer = _text(base.a2dTopRight, (-MARGIN, -MARGIN - TEXT_SCALE),
                              TextNode.ARight, fg=DIM, scale=TEXT_SCALE * 0.8)
        self.hint = _text(base.a2dBottomRight, (-MARGIN, MARGIN), TextNode.ARight, fg=DIM,
                          scale=TEXT_SCALE * 0.7)
        self.buttons: list[DirectButton] = []
        self._decisions: list[tuple[str, Any]] = []
        self.help = DirectFrame(parent=base.aspect2d, frameColor=(0.03, 0.03, 0.05, 0.88),
                                frameSize=(-1.2, 1.2, -0.9, 0.9))
        lines = ["Controls (F1 closes)", ""] + [f"{keys}:  {what}" for keys, what in CONTROLS]
        OnscreenText(text="\n".join(lines), parent=self.help, pos=(-1.12, 0.8),
                     align=TextNode.ALeft, fg=INK, scale=0.042, wordwrap=52)
        self.help.setBin("gui-popup", 50)
        self.help.hide()

    def show_hud(self, title: str, seats: list[str], prompt: str, verdict: list[str],
                 log: list[str]) -> None:
        """Write the HUD: title, a line per seat, the prompt, the last verdict; and
        the last :data:`LOG_LINES` events."""
        lines = [title, *seats, "", prompt]
        if verdict:
            lines += ["", "Last:", *verdict]
        self.hud.setText("\n".join(lines))
        self.log.setText("\n".join(log[-LOG_LINES:]))

    def set_status(self, text: str, alert: bool = False) -> None:
        """The status line under the table (a refusal's reason in :data:`ALERT`)."""
        self.status.setText(text)
        self.status.setFg(ALERT if alert else INK)

    def set_hint(self, text: str) -> None:
        """The small line at the bottom right (where Ctrl+S saves, F1 for help)."""
        self.hint.setText(text)

    def set_designer(self, text: str) -> None:
        """The designer's line (top right); empty hides it."""
        self.designer.setText(text)

    def set_decisions(self, decisions: list[tuple[str, Any]]) -> None:
        """One button per ``(label, action)``, in rows above the status line; the
        same list again changes nothing."""
        if decisions == self._decisions:
            return
        for button in self.buttons:
            button.destroy()
        self.buttons = []
        self._decisions = list(decisions)
        w, h = BUTTON_SIZE
        rows = [decisions[i:i + BUTTONS_PER_ROW] for i in range(0, len(decisions),
                                                                  BUTTONS_PER_ROW)]
        for r, row in enumerate(rows):
            y = MARGIN + 0.14 + (len(rows) - 1 - r) * (h + 0.02)
            for c, (label, action) in enumerate(row):
                x = (c - (len(row) - 1) / 2.0) * (w + 0.02)
                self.buttons.append(DirectButton(
                    parent=self.base.a2dBottomCenter, text=label, text_scale=0.036,
                    text_pos=(0, -0.012), pos=(x, 0, y), relief=DGG.FLAT,
                    frameSize=(-w / 2, w / 2, -h / 2, h / 2), frameColor=(0.2, 0.3, 0.45, 0.9),
                    text_fg=INK, command=self.on_decision, extraArgs=[action]))

    def button_pixels(self) -> dict[str, list[float]]:
        """Decision button label -> pixel of its centre."""
        return {label: list(widget_pixel(self.base, button))
                for (label, _), button in zip(self._decisions, self.buttons)}

    def toggle_help(self) -> None:
        """Show or hide the help overlay."""
        if self.help.isHidden():
            self.help.show()
        else:
            self.help.hide()

    def destroy(self) -> None:
        for item in (self.hud, self.log, self.status, self.designer, self.hint, self.help,
                     *self.buttons):
            item.destroy()
        self.buttons = []
