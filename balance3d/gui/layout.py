"""The window's screen regions, computed from its size: pure maths, no Panda3D.

Every widget of the window lives in one region, and no two regions overlap; the
table is framed in the rectangle they leave free (:attr:`Layout.free`).  Pixels
run x right, y down from the window's top-left corner.

::

    +---------------------------------------------------+---------+
    | banner: title, whose turn and what to do           | confirm |
    +-----------+---------------------------------------+---------+
    | seats     |                                                 |
    | verdict   |                 free (the table)                |
    | log       |                                                 |
    | designer  +-------------------------------------------------+
    | hint      | bar: the decision buttons, in rows              |
    |           | message: status and refusals    | readout       |
    +-----------+---------------------------------+---------------+

Text is fitted to its region by :func:`fit_text` from a font metric (the width
of a text in em): words wrap, and a text that still has too many lines ends in
:data:`ELLIPSIS` on its last line.  :func:`bar_buttons` lays the decision buttons
out in the bar's rows.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Text height (em), as a share of the window's height, and its least value, px.
EM_SHARE, EM_MIN = 0.0225, 10.0
#: em: padding inside a region; gap between neighbouring regions and buttons.
PAD_EM, GAP_EM = 0.4, 0.3
#: Left column's width: share of the window's width, kept within these em.
SIDE_SHARE, SIDE_MIN_EM, SIDE_MAX_EM = 0.22, 15.0, 26.0
#: em, width of the confirmation buttons' region and of the held piece's readout.
CONFIRM_EM, READOUT_EM = 20.0, 13.0
#: Text lines of the banner (title, then the prompt), the message line, the
#: verdict, the designer's line and the hint; lines per seat.
BANNER_LINES, MESSAGE_LINES, VERDICT_LINES = 3, 2, 6
DESIGNER_LINES, HINT_LINES, SEAT_LINES = 2, 3, 4
#: Rows of buttons the bar holds; a button's height, em.
BAR_ROWS, BUTTON_EM = 3, 1.7
#: Button text size, as a share of em; a button's inner padding each side, em.
BUTTON_TEXT, BUTTON_PAD_EM = 0.85, 0.6
#: Line height of text, em (the window's font: Panda3D's default font is 0.9875).
LINE_EM = 1.0
#: What ends a text shortened to fit.
ELLIPSIS = "\u2026"
#: em, rounding allowed when a measured text is compared with the room for it.
ROUNDING_EM = 1e-6

#: Width of a text in em (the font's advance widths summed).
Measure = Callable[[str], float]


@dataclass(frozen=True)
class Rect:
    """A rectangle of pixels: top-left corner (x, y), width w and height h."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Rect) -> bool:
        """True when the two share an area of positive size (touching edges do not)."""
        return (min(self.right, other.right) > max(self.x, other.x)
                and min(self.bottom, other.bottom) > max(self.y, other.y))

    def contains(self, px: float, py: float) -> bool:
        """True when pixel (px, py) lies inside (edges included)."""
        return self.x <= px <= self.right and self.y <= py <= self.bottom

    def inside(self, other: Rect, slack: float = 0.0) -> bool:
        """True when this rectangle lies within ``other`` grown by ``slack`` px."""
        return (self.x >= other.x - slack and self.y >= other.y - slack
                and self.right <= other.right + slack and self.bottom <= other.bottom + slack)

    def inset(self, d: float) -> Rect:
        """The rectangle shrunk by ``d`` px on every side."""
        return Rect(self.x + d, self.y + d, max(0.0, self.w - 2 * d), max(0.0, self.h - 2 * d))


@dataclass(frozen=True)
class Layout:
    """The regions of a window of ``size`` (width, height) px.

    em : px, text height.  pad, gap : px (see :data:`PAD_EM`, :data:`GAP_EM`).
    regions : name -> :class:`Rect` (see the module's picture).  free : where the
    table is framed.
    """

    size: tuple[int, int]
    em: float
    pad: float
    gap: float
    regions: dict[str, Rect]
    free: Rect

    @property
    def line(self) -> float:
        """px, height of one text line."""
        return LINE_EM * self.em

    def lines(self, name: str, scale: float = 1.0) -> int:
        """Text lines (of ``scale`` em) region ``name`` holds inside its padding."""
        rect = self.regions[name]
        return max(1, math.floor((rect.h - 2 * self.pad) / (self.line * scale) + 1e-9))

    def region_at(self, px: float, py: float) -> str | None:
        """The region that pixel (px, py) lies in, or None (the free area)."""
        for name, rect in self.regions.items():
            if rect.contains(px, py):
                return name
        return None


def text_height(lines: int, em: float, pad: float) -> float:
    """px, height of a region holding ``lines`` lines of ``em`` px text."""
    return lines * LINE_EM * em + 2 * pad


def layout(width: int, height: int, seats: int) -> Layout:
    """The regions of a ``width`` x ``height`` px window for a game of ``seats``
    seats (see the module's picture)."""
    em = max(EM_MIN, EM_SHARE * height)
    pad, gap = PAD_EM * em, GAP_EM * em
    side = min(max(SIDE_SHARE * width, SIDE_MIN_EM * em), SIDE_MAX_EM * em)
    banner_h = text_height(BANNER_LINES, em, pad)
    confirm_w = CONFIRM_EM * em
    message_h = text_height(MESSAGE_LINES, em, pad)
    bar_h = BAR_ROWS * BUTTON_EM * em + (BAR_ROWS + 1) * gap
    readout_w = READOUT_EM * em
    column = side - gap
    regions = {
        "banner": Rect(0.0, 0.0, width - confirm_w - gap, banner_h),
        "confirm": Rect(width - confirm_w, 0.0, confirm_w, banner_h),
        "message": Rect(side, height - message_h, width - side - readout_w - gap, message_h),
        "readout": Rect(width - readout_w, height - message_h, readout_w, message_h),
        "bar": Rect(side, height - message_h - gap - bar_h, width - side, bar_h),
    }
    top = banner_h + gap
    seats_h = text_height(SEAT_LINES * max(1, seats), em, pad)
    verdict_h = text_height(VERDICT_LINES, em, pad)
    hint_h = text_height(HINT_LINES, em, pad)
    designer_h = text_height(DESIGNER_LINES, em, pad)
    regions["seats"] = Rect(0.0, top, column, seats_h)
    regions["verdict"] = Rect(0.0, top + seats_h + gap, column, verdict_h)
    regions["hint"] = Rect(0.0, height - hint_h, column, hint_h)
    regions["designer"] = Rect(0.0, height - hint_h - gap - designer_h, column, designer_h)
    log_top = top + seats_h + gap + verdict_h + gap
    regions["log"] = Rect(0.0, log_top, column, max(0.0, regions["designer"].y - gap - log_top))
    free_bottom = regions["bar"].y - gap
    free = Rect(side, top, width - side, max(0.0, free_bottom - top))
    return Layout((int(width), int(height)), em, pad, gap, regions, free)


def _cut(word: str, width: float, measure: Measure, tail: str = "") -> str:
    """The longest start of ``word`` that, followed by ``tail``, measures at most
    ``width`` em (at least its first character)."""
    for end in range(len(word), 0, -1):
        if measure(word[:end] + tail) <= width:
            return word[:end] + tail
    return word[:1] + tail


def _cut_start(line: str, width: float, measure: Measure) -> str:
    """:data:`ELLIPSIS` and the longest end of ``line`` that fits ``width`` em with it."""
    for start in range(len(line)):
        if measure(ELLIPSIS + line[start:]) <= width:
            return ELLIPSIS + line[start:]
    return ELLIPSIS


def wrap(text: str, width: float, measure: Measure) -> list[str]:
    """``text`` broken into lines of at most ``width`` em: at spaces, a word longer
    than a line split where it must; its own line breaks kept."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if measure(trial) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            while measure(word) > width:
                piece = _cut(word, width, measure)
                lines.append(piece)
                word = word[len(piece):]
            line = word
        lines.append(line)
    return lines


def fit_text(text: str, width: float, lines: int, measure: Measure) -> tuple[list[str], bool]:
    """``text`` wrapped to ``width`` em in at most ``lines`` lines: ``(lines,
    shortened)``; a text that needs more lines keeps the first ones and ends its
    last in :data:`ELLIPSIS` (``shortened`` True)."""
    wrapped = wrap(text, width, measure)
    if len(wrapped) <= lines:
        return wrapped, False
    kept = wrapped[:lines]
    last = kept[-1]
    while last and measure(last + ELLIPSIS) > width:
        last = last[:-1]
    kept[-1] = last.rstrip() + ELLIPSIS
    return kept, True


def fit_lines(entries: Sequence[str], width: float, lines: int,
              measure: Measure) -> list[str]:
    """The last ``lines`` lines of ``entries`` (each wrapped to ``width`` em): the
    most recent entries, whole where they fit; the oldest one shown may lose its
    start, then its first line starts with :data:`ELLIPSIS`."""
    out: list[str] = []
    for entry in reversed(entries):
        wrapped = wrap(entry, width, measure)
        room = lines - len(out)
        if room <= 0:
            break
        if len(wrapped) > room:
            wrapped = wrapped[-room:]
            wrapped[0] = _cut_start(wrapped[0], width, measure)
        out[:0] = wrapped
    return out


@dataclass(frozen=True)
class Button:
    """One laid-out button: its rectangle and the label it shows (shortened with
    :data:`ELLIPSIS` when the full label does not fit)."""

    rect: Rect
    label: str


def bar_buttons(bar: Rect, labels: Sequence[str], em: float, measure: Measure) -> list[Button]:
    """Buttons for ``labels`` in ``bar``'s rows (:data:`BAR_ROWS`), each as wide as
    its label, flowing left to right and centred in their row; when they need more
    rows, every button takes an equal share of a row, its label shortened to fit.
    No two buttons overlap and each lies within ``bar``."""
    gap = GAP_EM * em
    height = BUTTON_EM * em
    rows = max(1, min(BAR_ROWS, int((bar.h - gap) // (height + gap))))
    text_em = BUTTON_TEXT * em
    pad = BUTTON_PAD_EM * em
    usable = bar.w - 2 * gap
    widths = [min(measure(label) * text_em + 2 * pad, usable) for label in labels]
    flow = _flow(widths, usable, gap)
    if len(flow) > rows:
        columns = math.ceil(len(labels) / rows)
        share = (usable - (columns - 1) * gap) / columns
        widths = [share] * len(labels)
        flow = [list(range(i, min(i + columns, len(labels))))
                for i in range(0, len(labels), columns)]
    buttons: list[Button | None] = [None] * len(labels)
    for r, row in enumerate(flow):
        total = sum(widths[i] for i in row) + gap * (len(row) - 1)
        x = bar.x + (bar.w - total) / 2.0
        y = bar.y + gap + r * (height + gap)
        for i in row:
            room = (widths[i] - 2 * pad) / text_em
            label = labels[i] if measure(labels[i]) <= room + ROUNDING_EM \
                else _cut(labels[i], room, measure, ELLIPSIS)
            buttons[i] = Button(Rect(x, y, widths[i], height), label)
            x += widths[i] + gap
    return [b for b in buttons if b is not None]


def _flow(widths: Sequence[float], usable: float, gap: float) -> list[list[int]]:
    """Indices of ``widths`` in rows of at most ``usable`` px (``gap`` between)."""
    rows: list[list[int]] = []
    used = 0.0
    for i, w in enumerate(widths):
        if rows and used + gap + w <= usable:
            rows[-1].append(i)
            used += gap + w
        else:
            rows.append([i])
            used = w
    return rows


__all__ = ["BAR_ROWS", "Button", "ELLIPSIS", "Layout", "Measure", "Rect", "bar_buttons",
           "fit_lines", "fit_text", "layout", "text_height", "wrap"]
