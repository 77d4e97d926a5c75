"""Overlays drawn over the table: the held piece's ghost, the landing marker, and
the designer's contact-force arrows.  None of them casts a shadow."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import trimesh
from panda3d.core import BitMask32, NodePath, TransparencyAttrib

from balance3d.gui.games import Colour
from balance3d.gui.view.marks import place, segments, solid, unlit
from balance3d.gui.view.meshes import part_node
from balance3d.meshes.part import Part

#: RGBA of the ghost when its drop is legal and no seat colour is given / when it is
#: refused (greyed out: a seat's colour may be red); alpha: its opacity.
GHOST_LEGAL: Colour = (0.92, 0.95, 1.0, 0.5)
GHOST_ILLEGAL: Colour = (0.30, 0.30, 0.30, 0.45)
#: Opacity of a ghost in its seat's colour.
GHOST_ALPHA = 0.6
#: RGBA of the landing marker.
MARKER_COLOUR: Colour = (1.0, 0.85, 0.1, 1.0)
#: m, the landing marker's outer and inner radius and its thickness.
MARKER_RADII, MARKER_THICKNESS = (0.008, 0.005), 0.001
#: m, how far the marker's underside floats above the point: the ring stays above
#: a surface tilted up to 10 degrees under it (outer radius x tan 10 deg).
MARKER_LIFT = 0.0015
#: RGBA of the contact-force arrows.
FORCE_COLOUR: Colour = (0.1, 0.9, 1.0, 1.0)
#: m per N: arrow length for a contact's normal force, and the longest arrow (m).
FORCE_LENGTH, FORCE_MAX_LENGTH = 0.05, 0.12
#: Draw order of the designer's layers in Panda3D's "fixed" bin (after the scene).
ON_TOP_SORT = 50
#: Arrow head length as a fraction of the arrow, and its half-angle spread.
HEAD_FRACTION, HEAD_SPREAD = 0.25, 0.35


def arrow_lines(start: Sequence[float], vector: Sequence[float]) -> list[tuple]:
    """Line segments of an arrow from ``start`` ((3,) m) along ``vector`` ((3,) m):
    the shaft and two head strokes."""
    start, vector = np.asarray(start, float), np.asarray(vector, float)
    tip = start + vector
    length = float(np.linalg.norm(vector))
    if length == 0.0:
        return []
    axis = vector / length
    side = np.cross(axis, (0.0, 0.0, 1.0))
    if np.linalg.norm(side) < 1e-6:
        side = np.cross(axis, (1.0, 0.0, 0.0))
    side /= np.linalg.norm(side)
    back = tip - HEAD_FRACTION * vector
    spread = HEAD_SPREAD * HEAD_FRACTION * length
    return [(start, tip), (tip, back + spread * side), (tip, back - spread * side)]


class Overlays:
    """The overlay nodes under ``root``; ``shadow_mask`` is the shadow camera's mask."""

    def __init__(self, root: NodePath, shadow_mask: BitMask32) -> None:
        self.root = root.attachNewNode("overlays")
        self.root.hide(shadow_mask)
        self._layers: dict[str, NodePath] = {}
        self._ghost: NodePath | None = None
        self._ghost_part: Part | None = None
        self._marker = solid(self.root, "marker", trimesh.creation.annulus(
            MARKER_RADII[1], MARKER_RADII[0], MARKER_THICKNESS), MARKER_COLOUR)
        unlit(self._marker)
        self._marker.hide()

    def layer(self, name: str) -> NodePath:
        """An empty, unlit node ``name`` (its previous contents removed), drawn over
        everything else (a designer's marks inside a pile stay visible)."""
        self.clear(name)
        path = self._layers[name] = self.root.attachNewNode(name)
        path.setBin("fixed", ON_TOP_SORT)
        path.setDepthTest(False)
        path.setDepthWrite(False)
        return unlit(path)

    def find(self, name: str) -> NodePath | None:
        """Layer ``name`` with its contents (None when there is none)."""
        return self._layers.get(name)

    def clear(self, name: str) -> None:
        """Remove layer ``name`` if there is one."""
        old = self._layers.pop(name, None)
        if old is not None:
            old.removeNode()

    def show_ghost(self, part: Part, pose: tuple | None, legal: bool,
                   colour: Colour | None = None) -> None:
        """The translucent ghost of ``part`` at body-frame ``pose`` (None hides it):
        in ``colour`` (its alpha replaced by :data:`GHOST_ALPHA`) when legal, grey
        when not."""
        if pose is None:
            self.hide_ghost()
            return
        if self._ghost is None or self._ghost_part is not part:
            if self._ghost is not None:
                self._ghost.removeNode()
            self._ghost = self.root.attachNewNode(part_node(part, "ghost"))
            self._ghost.setTransparency(TransparencyAttrib.MAlpha)
            self._ghost.setDepthWrite(False)
            self._ghost.setBin("transparent", 10)
            self._ghost_part = part
        shown = GHOST_ILLEGAL if not legal else (
            GHOST_LEGAL if colour is None else (*colour[:3], GHOST_ALPHA))
        self._ghost.setColor(*shown)
        place(self._ghost, *pose)
        self._ghost.show()
        self._drop_line()

    def hide_ghost(self) -> None:
        if self._ghost is not None:
            self._ghost.hide()
        self._drop_line()

    def show_marker(self, point: Sequence[float] | None) -> None:
        """The landing ring, lying flat at ``point`` ((3,) m; None hides it)."""
        if point is None:
            self.hide_marker()
            return
        self._marker.setPos(float(point[0]), float(point[1]),
                            float(point[2]) + MARKER_LIFT + MARKER_THICKNESS / 2.0)
        self._marker.show()
        self._drop_line()

    def hide_marker(self) -> None:
        self._marker.hide()
        self._drop_line()

    def _drop_line(self) -> None:
        """A plumb line from the ghost's centre down to the landing ring, while both
        show (it tells how high above the surface the piece is held)."""
        if self._ghost is None or self._ghost.isHidden() or self._marker.isHidden():
            self.clear("drop-line")
            return
        layer = self.layer("drop-line")
        top = self._ghost.getPos(self.root)
        bottom = self._marker.getPos(self.root)
        segments(layer, "drop-line", [((bottom[0], bottom[1], top[2]), bottom)], MARKER_COLOUR,
                 thickness=1.0)

    def show_forces(self, contacts: Iterable) -> None:
        """An arrow per contact for its normal force, ``FORCE_LENGTH`` m per N (at
        most ``FORCE_MAX_LENGTH``): the push on the body it holds up (the normal
        from ``body_b`` towards ``body_a``, or its opposite when that points down,
        drawn from the other body's contact point)."""
        pairs = []
        for ct in contacts:
            length = min(FORCE_LENGTH * float(ct.normal_force), FORCE_MAX_LENGTH)
            normal, start = np.asarray(ct.normal, float), ct.position_b
            if normal[2] < 0.0:
                normal, start = -normal, ct.position_a
            pairs += arrow_lines(start, normal * length)
        segments(self.layer("forces"), "forces", pairs, FORCE_COLOUR)

    def hide_forces(self) -> None:
        self.clear("forces")
