"""What the window draws for Tri-Ba-Lance: the trays, colours, the plate's numbered
fields, where the plate rests on the frame, and the designer's tilt
(:data:`TABLE`, a :class:`~balance3d.gui.games.GameTable`).

Seats sit round the plate clockwise seen from above, seat 0 in front (towards the
camera's preset), the others evenly spaced.  Each seat's tray is a mat on the table
top: its pieces stand upright in rows along it, lightest first, in the order the
state lists them.  Tray slots are *body-frame* poses (position (3,) m, quaternion
xyzw), the frame World.pose reports, so a piece keeps its node from tray to plate.

The field circles and numbers hang under the plate's node in the plate's design
frame (the frame the scene gives the fields in), so they rock with the plate.
"""
from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.rules import BALL, FRAME, PLATE, piece_owner, piece_weight
from balance3d.games.tribalance.state import TribalanceState
from balance3d.gui.games import CameraPreset, Colour, Tray
from balance3d.gui.games.tribalance.places import seat_angle
from balance3d.gui.view.marks import (flat_rect, flat_text, ink_on, place, segments, solid,
                                      unlit)
from balance3d.meshes.part import Part

if TYPE_CHECKING:
    from panda3d.core import NodePath

    from balance3d.gui.view.table import TableView

#: Names of the table body every scene has and of the ball's stand.
TABLE_BODY, STAND = "table", "stand"
#: RGBA: the felt, the plate's light wood, the ball, the stand and the frame.
FELT: Colour = (0.16, 0.36, 0.24, 1.0)
PLATE_WOOD: Colour = (0.86, 0.72, 0.50, 1.0)
BALL_WOOD: Colour = (0.55, 0.35, 0.20, 1.0)
FRAME_WOOD: Colour = (0.40, 0.24, 0.14, 1.0)
#: RGBA seat colours (seat 0..2), of the pieces, the mats and the names.
SEAT_COLOURS: tuple[Colour, ...] = (
    (0.80, 0.16, 0.14, 1.0), (0.16, 0.34, 0.80, 1.0), (0.90, 0.70, 0.10, 1.0))
#: Share of black mixed into a seat's colour per weight unit above 1 (weight 5 is
#: the darkest); the weight is also written on each piece's top.
WEIGHT_SHADE = 0.12
#: RGBA: ink of the field numbers and circles, the fields' paint (the weights on
#: the pieces and the names on the mats take the ink that reads best on them,
#: :func:`~balance3d.gui.view.marks.ink_on`).
INK: Colour = (0.08, 0.05, 0.03, 1.0)
FIELD_PAINT: Colour = (0.98, 0.94, 0.84, 1.0)
#: Share of the felt mixed into a seat's colour for its mat.
MAT_FELT_SHARE = 0.55
#: RGBA of the markers where the plate rested on the frame when an invalid
#: placement was judged, where it touches the frame now (a touch while it moves does
#: not count), and of the designer's tilt arrow.
CONTACT_COLOUR: Colour = (1.0, 0.10, 0.05, 1.0)
TOUCH_COLOUR: Colour = (1.0, 0.60, 0.05, 1.0)
TILT_COLOUR: Colour = (1.0, 0.25, 0.85, 1.0)

#: m: a field circle's radius beyond the piece's, the ring's width, the height of
#: its number (as tall as fits inside the ring).
FIELD_MARGIN, FIELD_RING, FIELD_DIGIT = 0.012, 0.0015, 0.042
#: m: height of the weight digit on a piece's disc (as tall as fits on it: 14 px at
#: 1280x720 on the furthest tray), of a name on a mat.
PIECE_DIGIT, NAME_HEIGHT = 0.044, 0.03
#: A piece's weight is written in ink on a disc of the fields' paint laid on its top
#: (read on any seat's colour), this multiple of the piece's radius: wider than the
#: 24 mm top, so that the digit reads at the window's sizes.
LABEL_DISC = 1.9
#: m, width of the ring in the piece's colour round that disc (it tells a piece on
#: the plate from a field).
LABEL_RING = 0.003
#: m: clearance between a mat's inner edge and the frame's outline in the seat's
#: direction (the raised plate's rim hides less of a mat further out); gap between
#: pieces (their weight discs); most pieces in a tray row; margin of a mat round its
#: rows; band for the name.
TRAY_CLEARANCE, SLOT_GAP, ROW_PIECES = 0.07, 0.024, 9
MAT_MARGIN, NAME_BAND = 0.015, 0.04
#: m, radius of a judged plate-frame contact's marker, of a touch's; length of the
#: mark along a side.
CONTACT_RADIUS, TOUCH_RADIUS, SIDE_MARK = 0.008, 0.004, 0.08
#: Name of the view's overlays: the plate-frame contacts, the designer's tilt.
CONTACT_LAYER, TILT_LAYER = "tribalance:frame-contacts", "tribalance:tilt"
#: m, length of the designer's tilt arrow per degree of tilt.
TILT_ARROW = 0.02


def tray_frame(state: TribalanceState, seat: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """``(middle (2,) m, along (2,), outward (2,), heading degrees)`` of ``seat``'s
    mat: rows run ``along``, further rows step ``outward``; text reads turned
    ``heading`` degrees (facing the seat).  The mat's inner edge lies
    :data:`TRAY_CLEARANCE` beyond the frame's outline in the seat's direction
    (further out towards a corner than towards a side)."""
    phi = seat_angle(seat, len(state.players))
    outward = np.array([math.cos(phi), math.sin(phi)])
    along = np.array([-outward[1], outward[0]])
    reach = float((state.world.vertices(FRAME)[:, :2] @ outward).max())
    inner = 2.0 * piece_radius(state) + SLOT_GAP
    distance = reach + TRAY_CLEARANCE + inner / 2.0 + MAT_MARGIN
    return distance * outward, along, outward, math.degrees(phi) + 90.0


def piece_colour(piece: str) -> Colour:
    """RGBA of ``piece``: its owner's colour, darker for heavier weights."""
    seat = np.asarray(SEAT_COLOURS[piece_owner(piece) % len(SEAT_COLOURS)])
    shade = 1.0 - WEIGHT_SHADE * (piece_weight(piece) - 1)
    return tuple(float(v) for v in (*(seat[:3] * shade), 1.0))


def mat_colour(seat: int) -> Colour:
    """RGBA of ``seat``'s mat: its colour toned down with the felt."""
    colour = np.asarray(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    return tuple(float(v) for v in (1 - MAT_FELT_SHARE) * colour + MAT_FELT_SHARE
                 * np.asarray(FELT))


def slot_positions(state: TribalanceState, seat: int, count: int,
                   radius: float) -> list[np.ndarray]:
    """(2,) m, where each of ``count`` pieces of ``seat``'s tray stands (its axis):
    rows of at most :data:`ROW_PIECES` centred on the mat's middle, the first row
    nearest the plate; pieces ``radius`` m."""
    middle, along, outward, _ = tray_frame(state, seat)
    pitch = 2.0 * radius + SLOT_GAP
    points = []
    for i in range(count):
        row, col = divmod(i, ROW_PIECES)
        in_row = min(ROW_PIECES, count - row * ROW_PIECES)
        points.append(middle + (col - (in_row - 1) / 2.0) * pitch * along
                      + row * pitch * outward)
    return points


def mat_extent(pieces: int, radius: float) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` m of a mat holding ``pieces`` pieces of ``radius`` m (at
    least one row), in the mat's own frame: origin at its middle, x along the rows,
    y towards the plate (outward is -y); the name band included, on the outer edge
    (where the raised plate hides nothing of it)."""
    pitch = 2.0 * radius + SLOT_GAP
    rows = max(1, -(-pieces // ROW_PIECES))
    half = ROW_PIECES * pitch / 2.0 + MAT_MARGIN
    return (-half, -((rows - 0.5) * pitch + MAT_MARGIN + NAME_BAND), half,
            pitch / 2.0 + MAT_MARGIN)


def piece_radius(state: TribalanceState) -> float:
    """m, the widest piece's radius seen from above (the tray pitch, the fields'
    circles), from the scene's piece parts."""
    return max(float(np.linalg.norm(state.scene.parts[name].mesh.vertices[:, :2], axis=1).max())
               for name in state.rules.piece_parts)


def design_node(view: TableView, state: TribalanceState) -> NodePath:
    """A node under the plate's node in the plate's design frame (the scene's field
    frame: origin at the centroid at mid-thickness, z out of the top face)."""
    part = state.world.part(PLATE)
    offset = part.design_from_body
    body_from_design = Rotation.from_matrix(offset[:3, :3]).inv()
    node = view.node(PLATE).attachNewNode("fields")
    place(node, -body_from_design.apply(offset[:3, 3]), body_from_design.as_quat())
    return node


def field_marks(state: TribalanceState) -> list[tuple[float, float, int]]:
    """Plate-frame ``(x m, y m, number)`` of every field, as the scene gives them."""
    return [(f.x, f.y, f.number) for f in state.rules.fields]


@cache
def ring_mesh(inner: float, outer: float) -> trimesh.Trimesh:
    """A flat ring (inner, outer radius m), 0.2 mm thick, its underside at z = 0."""
    ring = trimesh.creation.annulus(inner, outer, height=0.0002)
    ring.apply_translation((0.0, 0.0, 0.0001))
    return ring


@cache
def disc_mesh(radius: float) -> trimesh.Trimesh:
    """A flat disc (radius m), 0.1 mm thick, its underside at z = 0."""
    disc = trimesh.creation.cylinder(radius, height=0.0001, sections=32)
    disc.apply_translation((0.0, 0.0, 0.00005))
    return disc


def last_invalid_contacts(state: TribalanceState) -> list[dict]:
    """The frame contacts of the last placement when it was invalid (from its
    "invalid" event), else none."""
    for event in reversed(state.events):
        if event.kind == "invalid":
            return list(event.data["frame_contacts"])
        if event.kind in ("valid", "out", "arranged"):
            return []
    return []


def contact_marks(state: TribalanceState, contacts: list[dict]) -> tuple[list, list]:
    """World points of corners and segments of sides named by ``contacts``, on the
    frame's top (m): ``(points, segment pairs)``."""
    frame = PlateFrame.of(state.world, state.side)
    top = float(state.world.vertices(FRAME)[:, 2].max())
    corners = frame.to_world(np.c_[frame.corners, np.zeros(3)])
    points, pairs = [], []
    for contact in contacts:
        i = contact["index"]
        if contact["kind"] == "corner":
            points.append((corners[i][0], corners[i][1], top))
            continue
        a, b = corners[i][:2], corners[(i + 1) % 3][:2]
        middle, unit = (a + b) / 2.0, (b - a) / np.linalg.norm(b - a)
        pairs.append(((*(middle - unit * SIDE_MARK / 2.0), top),
                      (*(middle + unit * SIDE_MARK / 2.0), top)))
    return points, pairs


@cache
def marker_mesh(radius: float) -> trimesh.Trimesh:
    """A contact marker: a sphere of ``radius`` m."""
    return trimesh.creation.icosphere(2, radius)


class TribalanceTable:
    """Tri-Ba-Lance's :class:`~balance3d.gui.games.GameTable` (see the module
    docstring)."""

    def camera_preset(self, state: TribalanceState) -> CameraPreset:
        """Steep (68 degrees down), so that the raised plate hides little of the
        mats behind it and the painted digits are little foreshortened."""
        return CameraPreset(target=(0.0, -0.04, 0.08), distance=1.05, heading=0.0, pitch=68.0)

    def trays(self, state: TribalanceState) -> list[Tray]:
        players = len(state.players)
        in_world = set(state.world.names)
        radius = piece_radius(state)
        trays = []
        for seat in range(players):
            pieces = [p for p in state.hand(seat) if p not in in_world]
            slots = []
            for piece, (x, y) in zip(pieces, slot_positions(state, seat, len(pieces), radius)):
                lo, hi = self.piece_part(state, piece).mesh.bounds
                slots.append(((float(x), float(y), float(-lo[2])), (0.0, 0.0, 0.0, 1.0)))
            trays.append(Tray(seat, state.players[seat].name, tuple(pieces), tuple(slots)))
        return trays

    def piece_part(self, state: TribalanceState, piece: str) -> Part:
        return state.piece_part(piece)

    def colour(self, state: TribalanceState, name: str) -> Colour:
        fixed = {TABLE_BODY: FELT, PLATE: PLATE_WOOD, BALL: BALL_WOOD, FRAME: FRAME_WOOD,
                 STAND: FRAME_WOOD}
        return fixed[name] if name in fixed else piece_colour(name)

    def seat_colour(self, state: TribalanceState, seat: int) -> Colour:
        """RGBA of ``seat``: its mat's and name's colour."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def decorate(self, view: TableView, state: TribalanceState) -> None:
        fields = unlit(design_node(view, state))
        top = PlateFrame.of(state.world, state.side).thickness / 2.0
        radius = piece_radius(state) + FIELD_MARGIN
        for x, y, number in field_marks(state):
            solid(fields, f"field:{x:+.4f},{y:+.4f}", disc_mesh(radius), FIELD_PAINT) \
                .setPos(x, y, top)
            solid(fields, "ring", ring_mesh(radius - FIELD_RING, radius), INK) \
                .setPos(x, y, top + 0.0001)
            flat_text(fields, str(number), (x, y, top + 0.0002), FIELD_DIGIT, INK)
        for name in view.names:
            if name in state.world.names and state.world.is_static(name) or name == PLATE:
                continue
            lo, hi = self.piece_part(state, name).mesh.bounds
            mark = unlit(view.node(name).attachNewNode("weight"))
            cap = LABEL_DISC * float(hi[0])
            solid(mark, "label-disc", disc_mesh(cap), FIELD_PAINT) \
                .setPos(0.0, 0.0, float(hi[2]))
            solid(mark, "label-ring", ring_mesh(cap - LABEL_RING, cap), piece_colour(name)) \
                .setPos(0.0, 0.0, float(hi[2]) + 0.0001)
            flat_text(mark, str(piece_weight(name)), (0.0, 0.0, float(hi[2]) + 0.0002),
                      PIECE_DIGIT, INK)
        radius = piece_radius(state)
        for tray in self.trays(state):
            middle, _, _, heading = tray_frame(state, tray.seat)
            mat = view.decor.attachNewNode(f"mat:{tray.label}")
            mat.setPos(middle[0], middle[1], 0.0)
            mat.setH(heading)
            extent = mat_extent(len(tray.pieces), radius)
            flat_rect(mat, "mat", extent, 0.0, mat_colour(tray.seat))
            band = SEAT_COLOURS[tray.seat % len(SEAT_COLOURS)]
            unlit(flat_rect(mat, "name-band", (extent[0], extent[1], extent[2],
                                               extent[1] + NAME_BAND), 0.0002, band))
            flat_text(mat, tray.label, (0.0, extent[1] + NAME_BAND / 2.0, 0.0005), NAME_HEIGHT,
                      ink_on(band))

    def update(self, view: TableView, state: TribalanceState, designer: bool) -> None:
        """Mark where the plate touches the frame now (live, while a placement runs)
        and, once an invalid placement is judged, the corners and sides it rested
        on; the designer's tilt arrow (downhill, :data:`TILT_ARROW` m per degree)."""
        world = state.world
        live = [ct.position_a if ct.body_a == PLATE else ct.position_b
                for ct in world.contacts(PLATE, FRAME)]
        points, pairs = contact_marks(state, last_invalid_contacts(state)) \
            if state.running is None else ([], [])
        if live or points or pairs:
            layer = view.overlay(CONTACT_LAYER)
            for i, point in enumerate(live):
                solid(layer, f"touch:{i}", marker_mesh(TOUCH_RADIUS), TOUCH_COLOUR) \
                    .setPos(*point)
            for i, point in enumerate(points):
                solid(layer, f"contact:{i}", marker_mesh(CONTACT_RADIUS), CONTACT_COLOUR) \
                    .setPos(*point)
            if pairs:
                segments(layer, "sides", pairs, CONTACT_COLOUR, thickness=6.0)
        else:
            view.clear_overlay(CONTACT_LAYER)
        if not designer:
            view.clear_overlay(TILT_LAYER)
            return
        frame = PlateFrame.of(world, state.side)
        centre = frame.top_point(0.0, 0.0)
        downhill = frame.normal * np.array([1.0, 1.0, 0.0])
        layer = view.overlay(TILT_LAYER)
        tilt = math.degrees(math.acos(min(1.0, float(frame.normal[2]))))
        if np.linalg.norm(downhill) > 0.0:
            tip = centre + downhill / np.linalg.norm(downhill) * TILT_ARROW * tilt
            segments(layer, "tilt", [(centre, tip)], TILT_COLOUR, thickness=4.0)


#: Tri-Ba-Lance's table, found by :func:`balance3d.gui.games.game_table`.
TABLE = TribalanceTable()
