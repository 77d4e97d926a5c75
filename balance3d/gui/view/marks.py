"""Drawing helpers for marks on the table: flat text, flat rectangles, line
segments and small solids (flat marks cast no shadow).  Used by the table view and
by each game's table decorations; every length is in metres in the parent node's
frame."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import trimesh
from panda3d.core import (CardMaker, LineSegs, LQuaternionf, NodePath, Point2, Point3, TextNode,
                          TransparencyAttrib)

from balance3d.gui.games import Colour
from balance3d.gui.view.lights import SHADOW_MASK
from balance3d.gui.view.meshes import mesh_node
from balance3d.gui.view.shading import soft_edge_shader, text_shader, unlit_shader

#: m, how far marks float above the face they are drawn on (against depth fighting).
MARK_LIFT = 0.0004
#: RGBA of dark and of light ink; relative luminance of a ground above which dark
#: ink reads better (the two contrast ratios are equal there: sqrt(1.05 x 0.05) - 0.05).
DARK_INK: Colour = (0.05, 0.04, 0.03, 1.0)
LIGHT_INK: Colour = (1.0, 1.0, 1.0, 1.0)
INK_CROSSOVER = 0.179
#: widths: how far beyond each long edge :func:`soft_rect` draws, for the pixels
#: its edge half-covers (a 2 mm line: 1 mm, a pixel or more at every zoom).
SOFT_MARGIN = 0.5


def ink_on(ground: Colour) -> Colour:
    """The ink (:data:`DARK_INK` or :data:`LIGHT_INK`) that contrasts most with a
    ground of colour ``ground`` (RGBA 0..1, sRGB), by WCAG relative luminance."""
    c = [float(v) for v in ground[:3]]
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    lum = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return DARK_INK if lum > INK_CROSSOVER else LIGHT_INK


def place(path: NodePath, position: Sequence[float], quat_xyzw: Sequence[float]) -> None:
    """Put ``path`` at ``position`` ((3,) m) turned by ``quat_xyzw`` (x, y, z, w)."""
    x, y, z, w = (float(v) for v in quat_xyzw)
    path.setPosQuat(Point3(*(float(v) for v in position)), LQuaternionf(w, x, y, z))


def flat_text(parent: NodePath, text: str, centre: Sequence[float], height: float,
              colour: Colour, heading: float = 0.0) -> NodePath:
    """``text`` lying flat (facing +z) in ``parent``'s frame, the middle of its ink
    at ``centre`` ((3,) m), letters ``height`` m tall, reading along +x turned by
    ``heading`` degrees about +z."""
    node = TextNode(f"text:{text}")
    node.setText(text)
    node.setTextColor(*colour)
    node.setAlign(TextNode.ALeft)
    left, right, bottom, top = node.getFrameActual()
    scale = height / max(top - bottom, 1e-9)
    pivot = parent.attachNewNode(f"label:{text}")
    pivot.setPos(centre[0], centre[1], centre[2] + MARK_LIFT)
    pivot.setHpr(heading, -90.0, 0.0)
    pivot.hide(SHADOW_MASK)
    path = pivot.attachNewNode(node.generate())
    path.setScale(scale)
    path.setPos(-scale * (left + right) / 2.0, 0.0, -scale * (bottom + top) / 2.0)
    path.setShader(text_shader(), 2)
    return pivot


def flat_rect(parent: NodePath, name: str, corners: tuple[float, float, float, float],
              z: float, colour: Colour) -> NodePath:
    """A flat rectangle facing +z at height ``z`` m; ``corners`` is
    ``(x0, y0, x1, y1)`` m in ``parent``'s frame."""
    x0, y0, x1, y1 = corners
    card = CardMaker(name)
    card.setFrame(min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1))
    path = parent.attachNewNode(card.generate())
    path.setP(-90.0)
    path.setZ(z + MARK_LIFT)
    path.hide(SHADOW_MASK)
    path.setColor(*colour)
    return path


def soft_rect(parent: NodePath, name: str, corners: tuple[float, float, float, float],
              z: float, colour: Colour) -> NodePath:
    """:func:`flat_rect` whose two long edges are antialiased (each pixel covered
    by its distance to the edge, :func:`soft_edge_shader`), so that a thin line at
    a slant looks straight without multisampling; the geometry reaches
    :data:`SOFT_MARGIN` widths beyond each long edge for the pixels the edge
    half-covers."""
    x0, y0 = min(corners[0], corners[2]), min(corners[1], corners[3])
    x1, y1 = max(corners[0], corners[2]), max(corners[1], corners[3])
    across_x = x1 - x0 <= y1 - y0
    width = (x1 - x0) if across_x else (y1 - y0)
    grow = SOFT_MARGIN * width
    card = CardMaker(name)
    if across_x:
        card.setFrame(x0 - grow, x1 + grow, y0, y1)
        card.setUvRange(Point2(-SOFT_MARGIN, 0.0), Point2(1.0 + SOFT_MARGIN, 1.0))
    else:
        card.setFrame(x0, x1, y0 - grow, y1 + grow)
        low, high = -SOFT_MARGIN, 1.0 + SOFT_MARGIN   # u runs across y
        card.setUvRange(Point2(low, 0.0), Point2(low, 1.0), Point2(high, 1.0),
                        Point2(high, 0.0))
    path = parent.attachNewNode(card.generate())
    path.setP(-90.0)
    path.setZ(z + MARK_LIFT)
    path.hide(SHADOW_MASK)
    path.setColor(*colour)
    path.setShader(soft_edge_shader(), 2)
    path.setTransparency(TransparencyAttrib.MAlpha)
    return path


def segments(parent: NodePath, name: str,
             pairs: Iterable[tuple[Sequence[float], Sequence[float]]], colour: Colour,
             thickness: float = 2.0) -> NodePath:
    """Unlit line segments (``thickness`` pixels) between each pair of (3,) points."""
    lines = LineSegs(name)
    lines.setColor(*colour)
    lines.setThickness(thickness)
    for start, end in pairs:
        lines.moveTo(*(float(v) for v in start))
        lines.drawTo(*(float(v) for v in end))
    path = parent.attachNewNode(lines.create())
    path.setShader(unlit_shader(), 1)
    return path


def unlit(path: NodePath) -> NodePath:
    """Draw ``path`` (and below) in its own colours, without light or shadow."""
    path.setShader(unlit_shader(), 1)
    return path


def solid(parent: NodePath, name: str, mesh: trimesh.Trimesh, colour: Colour) -> NodePath:
    """A small solid (a marker, a sphere) from a trimesh, in ``colour``."""
    path = parent.attachNewNode(mesh_node(mesh, name))
    path.setColor(*colour)
    return path
