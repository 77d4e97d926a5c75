"""What the window draws for Tilted: the trays, colours, the beam's marks and the
designer's centre of mass (:data:`TABLE`, a
:class:`~balance3d.gui.games.GameTable`).

Seats sit round the table clockwise seen from above (front, left, back, right:
seat 0 faces the camera's preset).  Each seat's tray is a mat on the table top in
front of it; the supply's mat takes the right side when no seat does, else the
front right corner.  Blocks in a tray lie in
rows along the mat, their length along the row, in the order the state lists them.
Tray slots are *body-frame* poses (position (3,) m, quaternion xyzw), the frame
World.pose reports, so a block's node keeps its pose convention from tray to beam.
"""
from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation

from balance3d.games.tilted import piece_length
from balance3d.games.tilted.judge import BEAM, FULCRUM, BeamFrame, table_top
from balance3d.games.tilted.judge import TABLE as TABLE_BODY
from balance3d.games.tilted.state import TiltedState
from balance3d.gui.games import CameraPreset, Colour, Pose, Tray
from balance3d.gui.games.tilted.mats import NAME_BAND, NAME_CLEAR, Mat, tray_mats
from balance3d.gui.view.marks import (flat_rect, flat_text, ink_on, segments, soft_rect, solid,
                                      unlit)
from balance3d.meshes.part import Part
from balance3d.physics.world import World

if TYPE_CHECKING:
    from balance3d.gui.view.table import TableView

#: RGBA colours: the felt table top, the beam's and the fulcrum's wood.
FELT: Colour = (0.16, 0.36, 0.24, 1.0)
BEAM_WOOD: Colour = (0.78, 0.60, 0.42, 1.0)
FULCRUM_WOOD: Colour = (0.45, 0.27, 0.15, 1.0)
#: RGBA wood tint of the 1u..6u blocks (pale birch to walnut).
BLOCK_TINTS: tuple[Colour, ...] = (
    (0.93, 0.85, 0.62, 1.0), (0.90, 0.70, 0.35, 1.0), (0.82, 0.45, 0.22, 1.0),
    (0.62, 0.27, 0.18, 1.0), (0.55, 0.50, 0.30, 1.0), (0.36, 0.25, 0.20, 1.0))
#: RGBA seat colours (seat 0..3), on the tray mats and the names.
SEAT_COLOURS: tuple[Colour, ...] = (
    (0.74, 0.17, 0.15, 1.0), (0.17, 0.33, 0.74, 1.0), (0.85, 0.64, 0.10, 1.0),
    (0.52, 0.24, 0.65, 1.0))
#: RGBA of the supply's mat and of ink on the beam (names take the ink that reads
#: best on their mat, :func:`~balance3d.gui.view.marks.ink_on`).
SUPPLY_MAT: Colour = (0.34, 0.30, 0.26, 1.0)
INK: Colour = (0.07, 0.05, 0.04, 1.0)
#: RGBA of the designer's centre-of-mass marker and plumb line.
COM_COLOUR: Colour = (1.0, 0.25, 0.85, 1.0)
#: m, radius of the centre-of-mass marker.
COM_RADIUS = 0.006
#: Name of the view's overlay holding the centre of mass.
COM_LAYER = "tilted:centre-of-mass"
#: RGBA of the arrow on the table pointing to the beam's high end, and of the
#: glow on the block up for auction in the supply (a colour scale).
HIGH_ARROW: Colour = (1.0, 0.85, 0.10, 1.0)
AUCTION_GLOW = (1.7, 1.6, 0.9, 1.0)
#: m: the arrow runs from this far out of the beam's centre to this far (along the
#: beam), this far in front (-y, towards the front seat) of the beam's front edge; its shaft's and head's widths, head length.
ARROW_FROM, ARROW_TO, ARROW_GAP = 0.06, 0.27, 0.014
ARROW_SHAFT, ARROW_HEAD, ARROW_HEAD_LENGTH = 0.008, 0.024, 0.035

#: The section values' digits on the beam stand along it (turned LABEL_HEADING
#: degrees, upright for the right-hand seat), where the preset camera sees them
#: unforeshortened: LABEL_HEIGHT m tall, at most LABEL_FRACTION of the section's
#: length; a digit's width (at most 0.6 of its height, 42 mm) lies across the 60 mm
#: beam.
LABEL_HEIGHT, LABEL_FRACTION, LABEL_HEADING = 0.07, 0.8, 90.0
#: Sections shorter than this (m) are too short for a readable digit: their value
#: is written once on the table in front of the fulcrum, under them,
#: :data:`FULCRUM_GAP` m clear of its foot, :data:`FULCRUM_DIGIT` m tall.
MIN_LABEL_SECTION, FULCRUM_GAP, FULCRUM_DIGIT = 0.03, 0.004, 0.062
#: m, height of the names on the mats.
NAME_HEIGHT = 0.046
#: m, gap between blocks in a tray, along a row and between rows.
SLOT_GAP = 0.012
#: m, depth of an empty tray's mat rows.
ROW_DEPTH = 0.025
#: Share of the felt's colour mixed into a seat's colour for its mat.
MAT_FELT_SHARE = 0.35


def lay_out(mat: Mat, parts: list[Part], top: float) -> tuple[list[Pose], float]:
    """Body-frame poses of ``parts`` lying in rows on ``mat``: each part's longest
    body axis along the row, resting on the table top at height ``top`` m; and the
    depth (m) of the rows used (one row of ``ROW_DEPTH`` when empty).  The same
    arguments give the same layout, remembered (the window asks every frame)."""
    poses, depth = _lay_out(mat, tuple(parts), float(top))
    return list(poses), depth


@lru_cache(maxsize=64)
def _lay_out(mat: Mat, parts: tuple[Part, ...], top: float) -> tuple[tuple[Pose, ...], float]:
    yaw = Rotation.from_euler("z", math.atan2(mat.along[1], mat.along[0]))
    poses: list[Pose] = []
    row, cursor = 0.0, 0.0
    row_width = 0.0
    for part in parts:
        lo, hi = part.mesh.bounds
        size = hi - lo
        axis = int(np.argmax(size))
        turn = yaw * _LONG_TO_X[axis]
        box = np.abs(_LONG_TO_X[axis].as_matrix()) @ size
        if cursor > 0.0 and cursor + box[0] > mat.length:
            row, cursor, row_width = row + row_width + SLOT_GAP, 0.0, 0.0
        centre_xy = mat.point(cursor + box[0] / 2.0, row + box[1] / 2.0)
        centre = np.array([centre_xy[0], centre_xy[1], top + box[2] / 2.0])
        position = centre - turn.apply((lo + hi) / 2.0)
        poses.append((tuple(float(v) for v in position), tuple(float(v) for v in turn.as_quat())))
        cursor += box[0] + SLOT_GAP
        row_width = max(row_width, box[1])
    return tuple(poses), row + max(row_width, ROW_DEPTH)


#: Rotation laying each body axis (0 = x, 1 = y, 2 = z) along x.
_LONG_TO_X = {0: Rotation.identity(), 1: Rotation.from_euler("z", -90, degrees=True),
              2: Rotation.from_euler("y", 90, degrees=True)}


def mat_colour(seat: int) -> Colour:
    """RGBA of ``seat``'s tray mat: its seat colour toned down with the felt."""
    seat_colour = np.asarray(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    return tuple(float(v) for v in (1 - MAT_FELT_SHARE) * seat_colour
                 + MAT_FELT_SHARE * np.asarray(FELT))


def section_labels(state: TiltedState) -> list[tuple[float, int, float]]:
    """Beam-frame ``(s, value, section length)`` (m, coins, m): where each section's
    value is written (the middle of the section, both sides of the centre line)."""
    return [(side * (sec.start + sec.stop) / 2.0, sec.value, sec.stop - sec.start)
            for sec in state.rules.sections for side in (-1, +1)]


def section_lines(state: TiltedState) -> list[float]:
    """Beam-frame ``s`` of the painted lines: the centre line and every boundary
    between two sections, both sides."""
    inner = [sec.stop for sec in state.rules.sections[:-1]]
    return [0.0] + [side * s for s in inner for side in (-1, +1)]


def centre_of_mass(world: World) -> np.ndarray:
    """(3,) m: centre of mass of the beam with everything resting on it (every
    moving body of the World)."""
    names = world.dynamic_names
    masses = np.array([world.part(n).mass for n in names])
    points = np.array([world.pose(n)[0] for n in names])
    return masses @ points / masses.sum()


@cache
def arrow_mesh(length: float) -> trimesh.Trimesh:
    """A flat arrow along +x from x = 0 to ``length`` m (its head at the end),
    0.2 mm thick, its underside at z = 0.  Its outline is triangulated here (the
    shaft's two triangles and the head's three, counter-clockwise), so that no
    triangulation library is needed."""
    shaft, head = ARROW_SHAFT / 2.0, ARROW_HEAD / 2.0
    neck = length - ARROW_HEAD_LENGTH
    outline = np.array([(0.0, -shaft), (neck, -shaft), (neck, -head), (length, 0.0),
                        (neck, head), (neck, shaft), (0.0, shaft)])
    triangles = np.array([(0, 1, 5), (0, 5, 6), (1, 2, 3), (1, 3, 5), (5, 3, 4)])
    return trimesh.creation.extrude_triangulation(outline, triangles, 0.0002)


def high_end_arrow(view: TableView, state: TiltedState) -> None:
    """An arrow on the table in front of the beam pointing to its high end (where
    blocks are dropped); none once the game is over."""
    if state.is_over:
        return
    frame = BeamFrame.of(state.world)
    end = -state.low_end
    top = table_top(state.world)
    start, tip = (frame.to_world([(end * d, -frame.half[1], 0.0)])[0]
                  for d in (ARROW_FROM, ARROW_TO))
    along = (tip - start)[:2]
    length = float(np.hypot(*along))
    base = start[:2] - np.array([0.0, ARROW_GAP])      # in front (-y) of the beam
    arrow = solid(unlit(view.decor.attachNewNode("high-end")), "high-arrow",
                  arrow_mesh(length), HIGH_ARROW)
    arrow.setPos(float(base[0]), float(base[1]), top + 0.0003)
    arrow.setH(float(np.degrees(np.arctan2(along[1], along[0]))))


@cache
def com_mesh() -> trimesh.Trimesh:
    """The centre-of-mass marker: a sphere of ``COM_RADIUS`` m."""
    return trimesh.creation.icosphere(2, COM_RADIUS)


class TiltedTable:
    """Tilted's :class:`~balance3d.gui.games.GameTable` (see the module docstring)."""

    def camera_preset(self, state: TiltedState) -> CameraPreset:
        return CameraPreset(target=(0.08, -0.1, 0.0), distance=1.2, heading=0.0, pitch=55.0)

    def trays(self, state: TiltedState) -> list[Tray]:
        top = table_top(state.world)
        trays = []
        for seat, mat, label, pieces in tray_mats(state):
            parts = [self.piece_part(state, p) for p in pieces]
            trays.append(Tray(seat, label, tuple(pieces), tuple(lay_out(mat, parts, top)[0])))
        return trays

    def piece_part(self, state: TiltedState, piece: str) -> Part:
        return state.scene.parts[state.rules.block_parts[piece_length(piece) - 1]]

    def colour(self, state: TiltedState, name: str) -> Colour:
        fixed = {TABLE_BODY: FELT, BEAM: BEAM_WOOD, FULCRUM: FULCRUM_WOOD}
        if name in fixed:
            return fixed[name]
        return BLOCK_TINTS[(piece_length(name) - 1) % len(BLOCK_TINTS)]

    def seat_colour(self, state: TiltedState, seat: int) -> Colour:
        """RGBA of ``seat``: its mat's and name's colour."""
        return SEAT_COLOURS[seat % len(SEAT_COLOURS)]

    def decorate(self, view: TableView, state: TiltedState) -> None:
        frame = BeamFrame.of(state.world)
        _, half_width, half_thick = frame.half
        beam = unlit(view.node(BEAM).attachNewNode("marks"))
        width = state.rules.line_width
        for s in section_lines(state):
            soft_rect(beam, f"line:{s:+.4f}", (s - width / 2, -half_width, s + width / 2,
                                               half_width), half_thick, INK)
        short = set()
        for s, value, length in section_labels(state):
            if length < MIN_LABEL_SECTION:
                short.add(value)
                continue
            height = min(LABEL_HEIGHT, LABEL_FRACTION * length)
            flat_text(beam, str(value), (s, 0.0, half_thick), height, INK,
                      heading=LABEL_HEADING)
        fulcrum = state.world.vertices(FULCRUM)
        front, table = float(fulcrum[:, 1].min()), table_top(state.world)
        for value in sorted(short):
            flat_text(view.decor, str(value), (float(fulcrum[:, 0].mean()),
                                               front - FULCRUM_GAP - FULCRUM_DIGIT / 2.0,
                                               table + 0.0005), FULCRUM_DIGIT, ink_on(FELT))
        top = table_top(state.world)
        for seat, mat, label, pieces in tray_mats(state):
            colour = SUPPLY_MAT if seat is None else mat_colour(seat)
            parts = [self.piece_part(state, p) for p in pieces]
            depth = lay_out(mat, parts, top)[1]
            flat_rect(view.decor, f"mat:{label}", mat.bounds(depth), top, colour)
            x, y = mat.point(mat.length / 2.0, -(NAME_BAND + NAME_CLEAR) / 2.0)
            flat_text(view.decor, label, (x, y, top + 0.0005), NAME_HEIGHT, ink_on(colour),
                      heading=mat.heading)
        high_end_arrow(view, state)
        auction = state.auction
        if auction is not None and auction.piece in view.names:
            view.node(auction.piece).setColorScale(*AUCTION_GLOW)

    def update(self, view: TableView, state: TiltedState, designer: bool) -> None:
        if not designer:
            view.clear_overlay(COM_LAYER)
            return
        layer = view.overlay(COM_LAYER)
        world = state.world
        com = centre_of_mass(world)
        solid(layer, "centre-of-mass", com_mesh(), COM_COLOUR).setPos(*com)
        segments(layer, "plumb", [(com, (com[0], com[1], table_top(world)))], COM_COLOUR)


#: Tilted's table, found by :func:`balance3d.gui.games.game_table`.
TABLE = TiltedTable()
