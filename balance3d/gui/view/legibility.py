"""How readable the text on the table is, measured in a render: each flat label's
glyph height in pixels and its contrast against the table around it (WCAG's
contrast ratio of relative luminances).

A label is a node made by :func:`balance3d.gui.view.marks.flat_text` (named
``label:<text>``).  The table is drawn twice, with its labels and without them;
the pixels that differ inside a label's projected box are its glyphs.  The glyph
height is their extent along the text's up direction on screen; the contrast is
that of the glyphs' core (the pixels that changed at least :data:`CORE_SHARE` of
the most any did) against the median luminance of the pixels within
:data:`SURROUND` pixels round the glyphs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.ndimage import binary_dilation

if TYPE_CHECKING:
    from balance3d.gui.view.table import TableView

#: 0..255: a pixel whose channels change by more than this with the labels is a
#: glyph's.
GLYPH_CHANGE = 12
#: Share of a label's largest luminance change that makes a glyph pixel its core.
CORE_SHARE = 0.5
#: pixels: margin round a label's projected box, and how far round its glyphs
#: their surround is read.
SURROUND = 4
#: m, the step along a label's axes whose projection gives its on-screen basis.
BASIS_STEP = 0.001
#: Fewest glyph pixels a label needs to be measured at all (fewer: not seen).
MIN_PIXELS = 4


@dataclass(frozen=True)
class LabelReading:
    """One label as the render shows it: its ``text``, ``height`` (pixels, the
    glyphs' extent along the text's up direction), ``contrast`` (WCAG ratio, 1..21),
    ``pixels`` (how many glyph pixels; 0 when hidden from the camera) and ``group``
    (the name of the node the label hangs from, which tells a kind of label from
    another with the same text)."""

    text: str
    height: float
    contrast: float
    pixels: int
    group: str = ""


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance (0..1) of sRGB pixels ((..., 3) uint8)."""
    c = np.asarray(rgb, float) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: float, b: float) -> float:
    """WCAG contrast ratio of two relative luminances (1..21)."""
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def label_nodes(view: TableView) -> list:
    """Every flat label drawn on the table (decorations, pieces' marks)."""
    return [n for n in view.root.findAllMatches("**/label:*") if not n.isHidden()]


def _box(view: TableView, node) -> tuple[int, int, int, int] | None:
    """The pixel box (x0, y0, x1, y1) of ``node``'s bounds, or None when off screen."""
    bounds = node.getTightBounds(view.root)
    if bounds is None:
        return None
    lo, hi = (np.array([p[0], p[1], p[2]]) for p in bounds)
    corners = [view.project((x, y, z)) for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
               for z in (lo[2], hi[2])]
    if any(c is None for c in corners):
        return None
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    width, height = view.frame_size()
    box = (max(0, int(min(xs)) - SURROUND), max(0, int(min(ys)) - SURROUND),
           min(width, int(max(xs)) + SURROUND + 1), min(height, int(max(ys)) + SURROUND + 1))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _basis(view: TableView, node) -> np.ndarray | None:
    """(2, 2) pixels per m of the label's reading direction (row 0, its +x) and up
    direction (row 1, its +z, which :func:`~balance3d.gui.view.marks.flat_text`
    lays along the text's up) on screen at the label's centre; None off screen."""
    centre = np.array(node.getPos(view.root))
    at = view.project(centre)
    rows = []
    for local in ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)):
        step = np.array(view.root.getRelativeVector(node, local))
        step = step / max(float(np.linalg.norm(step)), 1e-12) * BASIS_STEP
        to = view.project(centre + step)
        if at is None or to is None:
            return None
        rows.append((np.array(to) - np.array(at)) / BASIS_STEP)
    basis = np.array(rows)
    return basis if abs(float(np.linalg.det(basis))) > 0.0 else None


def read_labels(view: TableView) -> list[LabelReading]:
    """Every label of ``view`` as it renders now (two renders: with and without
    the labels)."""
    nodes = label_nodes(view)
    shown = view.image()
    for node in nodes:
        node.hide()
    try:
        bare = view.image()
    finally:
        for node in nodes:
            node.show()
    change = np.abs(shown.astype(int) - bare.astype(int)).max(axis=2)
    lum_shown, lum_bare = luminance(shown), luminance(bare)
    boxes = [_box(view, node) for node in nodes]
    # each pixel belongs to the smallest label box holding it (a piece's digit
    # inside a mat's name box is the digit's)
    owner = np.full(change.shape, -1)
    order = sorted((i for i, b in enumerate(boxes) if b is not None),
                   key=lambda i: -(boxes[i][2] - boxes[i][0]) * (boxes[i][3] - boxes[i][1]))
    for i in order:
        x0, y0, x1, y1 = boxes[i]
        owner[y0:y1, x0:x1] = i
    readings = []
    for i, node in enumerate(nodes):
        text, group = node.getName().split(":", 1)[1], node.getParent().getName()
        box = boxes[i]
        basis = _basis(view, node)
        if box is None or basis is None:
            readings.append(LabelReading(text, 0.0, 1.0, 0, group))
            continue
        x0, y0, x1, y1 = box
        mine = owner[y0:y1, x0:x1] == i
        glyph = (change[y0:y1, x0:x1] > GLYPH_CHANGE) & mine
        count = int(glyph.sum())
        if count < MIN_PIXELS or not (binary_dilation(glyph, iterations=SURROUND)
                                      & mine & ~glyph).any():
            readings.append(LabelReading(text, 0.0, 1.0, count, group))
            continue
        ys, xs = np.nonzero(glyph)
        # each glyph pixel in the label's own (reading, up) frame, m; its extent up
        # back in pixels along the up direction on screen
        local = np.linalg.solve(basis.T, np.vstack([xs, ys]).astype(float))
        height = float(np.ptp(local[1]) * np.linalg.norm(basis[1]) + 1.0)
        delta = np.abs(lum_shown[y0:y1, x0:x1] - lum_bare[y0:y1, x0:x1])
        core = glyph & (delta >= CORE_SHARE * delta[glyph].max())
        ink = float(np.median(lum_shown[y0:y1, x0:x1][core]))
        around = binary_dilation(glyph, iterations=SURROUND) & mine & ~glyph
        ground = float(np.median(lum_shown[y0:y1, x0:x1][around]))
        readings.append(LabelReading(text, height, contrast(ink, ground), count, group))
    return readings


__all__ = ["BASIS_STEP", "CORE_SHARE", "GLYPH_CHANGE", "LabelReading", "MIN_PIXELS", "SURROUND",
           "contrast", "label_nodes", "luminance", "read_labels"]
