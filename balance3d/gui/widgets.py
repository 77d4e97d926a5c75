"""What the window writes over the table (Panda3D DirectGUI), each in its region of
the :mod:`~balance3d.gui.layout`: the turn banner, the seat panel, the last verdict,
the event log, the designer's line, the hint, the decision buttons (laid out by
the bar), the message line, the held piece's readout, the confirmation buttons
and the help overlay (F1).

Everything is placed in pixels on Panda3D's ``pixel2d`` (x right, y down from the
top-left corner).  Text is fitted to its region with the font's own advance widths:
it wraps, and what still does not fit ends in an ellipsis while the whole text goes
to the log.  The texts come from :func:`balance3d.gui.hud.hud_text` and the app;
nothing here reads the game itself.
"""
from __future__ import annotations

from typing import Any, Callable

from direct.gui.DirectGui import DGG, DirectButton, DirectFrame
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import Point3, TextNode

from balance3d.gui.layout import (BUTTON_TEXT, SEAT_LINES, Layout, Rect, bar_buttons,
                                  fit_lines, fit_text, layout)

#: The controls, as the help overlay and the README list them: (keys, what they do).
CONTROLS: tuple[tuple[str, str], ...] = (
    ("left-click a tray piece", "pick it up (only your own pieces, on your turn)"),
    ("move the mouse", "carry its ghost over the release area: for a drop the ring marks "
                       "the landing; for a placement the field under it is outlined"),
    ("wheel, Q / E", "turn the held piece (drops)"),
    ("Tab", "stand it flat, on edge, upright (drops)"),
    ("W / S, PgUp / PgDn", "raise / lower the release height (drops)"),
    ("left-click", "release it (only where the ghost is not greyed out and the outline not red)"),
    ("decision buttons", "the choices of the moment, in the bar under the table; one that "
                         "ends your game (a pass that puts you out) asks first, at the top"),
    ("Esc, right-click", "put it back; Esc also answers No to a question"),
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

#: Text regions and their text size (share of the layout's em).
TEXT_REGIONS: dict[str, float] = {"banner": 1.0, "seats": 1.0, "verdict": 0.9, "log": 0.85,
                                  "designer": 0.85, "hint": 0.8, "message": 1.0,
                                  "readout": 0.9}
#: em, from a region's padded top to its first baseline (the font's ascent).
ASCENT_EM = 0.8
#: Notes (texts shortened to fit, in full) the log keeps.
NOTES = 4
#: RGBA, text colours.
INK = (1.0, 1.0, 1.0, 1.0)
ALERT = (1.0, 0.55, 0.5, 1.0)
DIM = (0.85, 0.85, 0.8, 1.0)
#: RGBA, the panels' background; the buttons'; the confirmation's Yes button.
PANEL = (0.05, 0.05, 0.08, 0.72)
BUTTON = (0.2, 0.3, 0.45, 0.95)
YES = (0.55, 0.18, 0.12, 0.95)
#: Share of white mixed into a seat's colour for the banner's text (readable on
#: the dark panel).
LIGHTEN = 0.45
#: Labels of the confirmation's buttons.
YES_LABEL, NO_LABEL = "Yes", "No, go back"


def widget_pixel(base: Any, widget: Any) -> tuple[float, float]:
    """Pixel (x right, y down) of the centre of a DirectGUI ``widget``'s frame."""
    left, right, bottom, top = widget.getBounds()
    pos = base.render2d.getRelativePoint(widget, Point3((left + right) / 2.0, 0.0,
                                                        (bottom + top) / 2.0))
    width, height = base.win.getXSize(), base.win.getYSize()
    return (pos[0] + 1.0) / 2.0 * width, (1.0 - pos[2]) / 2.0 * height


def lighten(colour: tuple[float, ...]) -> tuple[float, float, float, float]:
    """``colour`` (RGBA 0..1) mixed with :data:`LIGHTEN` white, opaque."""
    return tuple(c + (1.0 - c) * LIGHTEN for c in colour[:3]) + (1.0,)


def _frame(rect: Rect) -> tuple[float, float, float, float]:
    """DirectGUI frameSize (left, right, bottom, top) on pixel2d of a pixel Rect."""
    return (rect.x, rect.right, -rect.bottom, -rect.y)


class Widgets:
    """The regions' widgets of one window (see the module docstring).

    base : the ShowBase.  on_decision : called with the action of a clicked button.
    """

    def __init__(self, base: Any, on_decision: Callable[[Any], None]) -> None:
        self.base = base
        self.on_decision = on_decision
        self.lay: Layout = layout(base.win.getXSize(), base.win.getYSize(), 1)
        self._texts: dict[str, str] = {name: "" for name in TEXT_REGIONS}
        self._colours: dict[str, tuple] = {name: DIM if name in ("log", "hint", "designer")
                                           else INK for name in TEXT_REGIONS}
        self._events: list[str] = []
        self.notes: list[str] = []
        self.panels: dict[str, DirectFrame] = {}
        self.labels: dict[str, OnscreenText] = {}
        for name in TEXT_REGIONS:
            self.panels[name] = DirectFrame(parent=base.pixel2d, frameColor=PANEL,
                                            state=DGG.NORMAL)
            self.labels[name] = OnscreenText(text="", parent=base.pixel2d, align=TextNode.ALeft,
                                             fg=INK, shadow=(0, 0, 0, 0.8), mayChange=True)
        self._font = self.labels["banner"].textNode.getFont()
        self._metric = TextNode("measure")
        self._metric.setFont(self._font)
        self.buttons: list[DirectButton] = []
        self._decisions: list[tuple[str, Any]] = []
        self.confirm_buttons: list[DirectButton] = []
        self.question: str | None = None
        self._answers: tuple[Callable[[], None], Callable[[], None]] | None = None
        self.help = DirectFrame(parent=base.aspect2d, frameColor=(0.03, 0.03, 0.05, 0.92),
                                frameSize=(-1.2, 1.2, -0.9, 0.9), state=DGG.NORMAL)
        lines = ["Controls (F1 closes)", ""] + [f"{keys}:  {what}" for keys, what in CONTROLS]
        OnscreenText(text="\n".join(lines), parent=self.help, pos=(-1.12, 0.8),
                     align=TextNode.ALeft, fg=INK, scale=0.04, wordwrap=56)
        self.help.setBin("gui-popup", 50)
        self.help.hide()
        self.arrange(1)

    # -- layout -----------------------------------------------------------------
    def measure(self, text: str) -> float:
        """Width of ``text`` in em, in the widgets' font."""
        return self._metric.calcWidth(text)

    def arrange(self, seats: int) -> Layout:
        """Lay the regions out again for the window's size now and ``seats`` seats;
        every text is fitted again and the buttons placed again."""
        self.lay = layout(self.base.win.getXSize(), self.base.win.getYSize(), seats)
        for name in TEXT_REGIONS:
            self.panels[name]["frameSize"] = _frame(self.lay.regions[name])
            self._draw(name)
        decisions, self._decisions = self._decisions, []
        self.set_decisions(decisions)
        if self.question is not None:
            self._place_confirm()
        return self.lay

    def covers(self, px: float, py: float) -> bool:
        """True when pixel (px, py) lies in a widget's region (a click there is the
        widget's, never the table's), or the help is shown."""
        return not self.help.isHidden() or self.lay.region_at(px, py) is not None

    def _draw(self, name: str) -> None:
        """Fit region ``name``'s text to it and show it (its panel hidden when empty)."""
        rect, scale = self.lay.regions[name], TEXT_REGIONS[name]
        em = self.lay.em * scale
        width = (rect.w - 2 * self.lay.pad) / em
        lines = self.lay.lines(name, scale)
        if name == "log":
            shown = fit_lines(self._events + self.notes[-NOTES:], width, lines, self.measure)
        elif name == "seats":
            shown = []
            for seat in self._texts[name].split("\n"):
                part, short = fit_text(seat, width, SEAT_LINES, self.measure)
                shown += part
                if short:
                    self._note(seat)
        else:
            shown, short = fit_text(self._texts[name], width, lines, self.measure)
            if short:
                self._note(self._texts[name])
        label = self.labels[name]
        label.setText("\n".join(shown))
        label.setScale(em)
        label.setPos(rect.x + self.lay.pad, -(rect.y + self.lay.pad + ASCENT_EM * em))
        label.setFg(self._colours[name])
        if any(shown):
            self.panels[name].show()
        else:
            self.panels[name].hide()

    def _note(self, text: str) -> None:
        """Keep a shortened text whole for the log."""
        flat = " ".join(text.split())
        if flat not in self.notes:
            self.notes = (self.notes + [flat])[-NOTES:]
            self._draw("log")

    def _set(self, name: str, text: str, colour: tuple | None = None) -> None:
        colour = colour or self._colours[name]
        if text != self._texts[name] or colour != self._colours[name]:
            self._texts[name], self._colours[name] = text, colour
            self._draw(name)

    # -- texts --------------------------------------------------------------------
    def clear_log(self) -> None:
        """Forget the log's events and notes (a new game is shown)."""
        self._events, self.notes = [], []
        self._draw("log")

    def show_hud(self, title: str, seats: list[str], prompt: str, verdict: list[str],
                 log: list[str], colour: tuple | None = None,
                 result: list[str] | None = None) -> None:
        """The banner (``title``, then ``prompt`` in the acting seat's ``colour``
        lightened), the seat lines, the last verdict's lines (the ``result``'s
        instead, once there is one) and the log's events.  Once there is a result
        the banner shows only its first line (who won, or the solo score), which
        the prompt ends with: the verdict panel shows it whole.  While a question is
        asked the banner shows it instead of the prompt."""
        ask = self.question
        whole = "\n".join(result or [])
        if result and prompt.endswith(whole):
            prompt = prompt[:len(prompt) - len(whole)] + result[0]   # the rest: the panel
        self._set("banner", f"{title}\n{ask if ask is not None else prompt}",
                  lighten(colour) if colour is not None and ask is None else INK)
        self._set("seats", "\n".join(seats))
        self._set("verdict", "\n".join(result) if result
                  else "\n".join(["Last:", *verdict]) if verdict else "")
        if list(log) != self._events:
            self._events = list(log)
            self._draw("log")

    def set_status(self, text: str, alert: bool = False) -> None:
        """The message line under the table (a refusal's reason in :data:`ALERT`)."""
        self._set("message", text, ALERT if alert else INK)

    def set_hint(self, text: str) -> None:
        """The hint at the bottom left (where Ctrl+S saves, F1 for help)."""
        self._set("hint", text)

    def set_designer(self, text: str) -> None:
        """The designer's line (above the hint); empty hides it."""
        self._set("designer", text)

    def set_readout(self, text: str) -> None:
        """The held piece's readout (bottom right); empty hides it."""
        self._set("readout", text)

    def text(self, name: str) -> str:
        """The whole text last given to region ``name`` (before fitting)."""
        return self._texts[name]

    # -- buttons ------------------------------------------------------------------
    def _button(self, rect: Rect, label: str, colour: tuple, command: Callable,
                args: list) -> DirectButton:
        text_em = BUTTON_TEXT * self.lay.em
        return DirectButton(
            parent=self.base.pixel2d, text=label, text_scale=text_em, text_fg=INK,
            text_pos=(rect.x + rect.w / 2.0, -(rect.y + rect.h / 2.0) - 0.3 * text_em),
            relief=DGG.FLAT, frameSize=_frame(rect), frameColor=colour, command=command,
            extraArgs=args)

    def set_decisions(self, decisions: list[tuple[str, Any]]) -> None:
        """One button per ``(label, action)``, laid out by the bar; the same list
        again changes nothing.  Hidden while a question is asked."""
        if decisions == self._decisions:
            return
        for button in self.buttons:
            button.destroy()
        self._decisions = list(decisions)
        placed = bar_buttons(self.lay.regions["bar"], [label for label, _ in decisions],
                             self.lay.em, self.measure)
        self.buttons = [self._button(b.rect, b.label, BUTTON, self.on_decision, [action])
                        for b, (_, action) in zip(placed, decisions)]
        for (label, _), b in zip(decisions, placed):
            if b.label != label:
                self._note(label)
        for button in self.buttons:
            if self.question is not None:
                button.hide()

    def button_pixels(self) -> dict[str, list[float]]:
        """Decision button label -> pixel of its centre."""
        return {label: self._centre(button)
                for (label, _), button in zip(self._decisions, self.buttons)}

    def _centre(self, button: DirectButton) -> list[float]:
        left, right, bottom, top = button["frameSize"]
        return [(left + right) / 2.0, -(bottom + top) / 2.0]

    # -- a question ---------------------------------------------------------------
    def ask(self, question: str, on_yes: Callable[[], None], on_no: Callable[[], None]) -> None:
        """Ask ``question`` in the banner, with Yes and No buttons in the confirm
        region (at the top, away from the table and from the bar); the decision
        buttons hide until it is answered."""
        self.question = question
        self._answers = (on_yes, on_no)
        for button in self.buttons:
            button.hide()
        self._place_confirm()
        self._texts["banner"] = ""          # show_hud writes the question next

    def _place_confirm(self) -> None:
        for button in self.confirm_buttons:
            button.destroy()
        placed = bar_buttons(self.lay.regions["confirm"], [YES_LABEL, NO_LABEL], self.lay.em,
                             self.measure)
        on_yes, on_no = self._answers
        self.confirm_buttons = [self._button(placed[0].rect, placed[0].label, YES, on_yes, []),
                                self._button(placed[1].rect, placed[1].label, BUTTON, on_no, [])]

    def end_question(self) -> None:
        """Take the question and its buttons away; the decision buttons return."""
        self.question = None
        for button in self.confirm_buttons:
            button.destroy()
        self.confirm_buttons = []
        for button in self.buttons:
            button.show()
        self._texts["banner"] = ""

    def confirm_pixels(self) -> dict[str, list[float]]:
        """Confirmation button label -> pixel of its centre (empty when none is asked)."""
        return {label: self._centre(button) for label, button
                in zip((YES_LABEL, NO_LABEL), self.confirm_buttons)}

    # -- for tests and the trace --------------------------------------------------
    def widget_rects(self) -> dict[str, Rect]:
        """Pixel rectangle of every widget shown: the panels with text, the
        buttons ("button:<label>", "confirm:<label>")."""
        rects = {name: self.lay.regions[name] for name, panel in self.panels.items()
                 if not panel.isHidden()}
        decided = [label for label, _ in self._decisions]
        for prefix, labels, buttons in (("button", decided, self.buttons),
                                        ("confirm", [YES_LABEL, NO_LABEL], self.confirm_buttons)):
            for label, button in zip(labels, buttons):
                if not button.isHidden():
                    left, right, bottom, top = button["frameSize"]
                    rects[f"{prefix}:{label}"] = Rect(left, -top, right - left, top - bottom)
        return rects

    def text_rects(self) -> dict[str, Rect]:
        """Pixel rectangle of every text shown (its lines' extents as the font sets
        them), by widget name as in :meth:`widget_rects`."""
        items = [(name, self.labels[name]) for name in self.panels
                 if not self.panels[name].isHidden()]
        items += [(f"button:{label}", b.component("text0"))
                  for (label, _), b in zip(self._decisions, self.buttons) if not b.isHidden()]
        items += [(f"confirm:{label}", b.component("text0"))
                  for label, b in zip((YES_LABEL, NO_LABEL), self.confirm_buttons)]
        rects = {}
        for name, text in items:
            node = text.textNode
            if not node.getText():
                continue
            (x, z), (sx, sz) = text.getPos(), text.getScale()
            left, right = x + sx * node.getLeft(), x + sx * node.getRight()
            bottom, top = z + sz * node.getBottom(), z + sz * node.getTop()
            rects[name] = Rect(left, -top, right - left, top - bottom)
        return rects

    def toggle_help(self) -> None:
        """Show or hide the help overlay."""
        if self.help.isHidden():
            self.help.show()
        else:
            self.help.hide()

    def destroy(self) -> None:
        for item in (*self.labels.values(), *self.panels.values(), self.help, *self.buttons,
                     *self.confirm_buttons):
            item.destroy()
        self.buttons = []
        self.confirm_buttons = []
