"""What the window draws for Tower: the trays, colours, each base's owner, the dice
roll and the drawn card beside the current player's base, a marker on their tower's
top, and the designer's centres of mass (:data:`TABLE`, a
:class:`~balance3d.gui.games.GameTable`).

The view asks for these every frame while bodies move: the roll's text is rebuilt
only when it changes, and the marker is worked out again only when the phase, the
current seat or its tower's pieces or poses changed (:func:`marker_key`), so a
still table costs no game queries per frame.

Seat ``s`` builds on the scene's body ``base_s``; its tray is a mat on the table in
front of that base (towards -y, the camera's side), its unplayed pieces lying flat
in rows in the order the state lists them.  Pieces that left the game lie on a mat
behind the bases.  Tray slots are *body-frame* poses (position (3,) m, quaternion
xyzw), the frame World.pose reports.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import trimesh

from balance3d.games.tower.judge import base_outline, top_piece
from balance3d.games.tower.physics import centre_of_mass
from balance3d.games.tower.rules import LOGO, piece_key, piece_part
from balance3d.games.tower.state import TowerState
from balance3d.gui.games import CameraPreset, Colour, Tray
from balance3d.gui.games.tower.figures import tower_key
from balance3d.gui.view.marks import flat_rect, flat_text, ink_on, segments, solid, unlit
from balance3d.meshes.part import Part

if TYPE_CHECKING:
    from balance3d.gui.view.table import TableView

#: Name of the table body every scene has.
TABLE_BODY = "table"
#: RGBA: the felt, the bases' wood.
FELT: Colour = (0.16, 0.36, 0.24, 1.0)
BASE_WOOD: Colour = (0.50, 0.32, 0.18, 1.0)
#: RGBA seat colours (seat 0..3), of the letter pieces, the mats and the names.
SEAT_COLOURS: tuple[Colour, ...] = (
    (0.80, 0.16, 0.14, 1.0), (0.16, 0.34, 0.80, 1.0), (0.90, 0.70, 0.10, 1.0),
    (0.55, 0.20, 0.70, 1.0))
#: Share of white mixed into a seat's colour for its logo pieces.
LOGO_TINT = 0.35
#: Share of the felt mixed into a seat's colour for its mat; RGBA of the mat of
#: pieces that left the game.
MAT_FELT_SHARE = 0.55
GONE_MAT: Colour = (0.25, 0.25, 0.25, 1.0)
#: RGBA: the dice and card text, the marker on the current tower's top, a centre of
#: mass over its support and one outside it (names take the ink that reads best on
#: their band, :func:`~balance3d.gui.view.marks.ink_on`).
DICE_INK: Colour = (1.0, 0.95, 0.30, 1.0)
MARKER_COLOUR: Colour = (1.0, 0.85, 0.10, 1.0)
COM_OVER: Colour = (0.20, 1.0, 0.30, 1.0)
COM_OUTSIDE: Colour = (1.0, 0.10, 0.10, 1.0)

#: m: distance of the gone mat's near edge from the bases' back edges.
GONE_GAP = 0.05
#: m: gap between tray slots; distance of a seat's mat's near edge from its base's
#: front edge; pieces per row on a seat's mat and on the gone mat; margin of a mat
#: round its rows; band for a mat's name; letter height of names, of the dice text.
SLOT_GAP, TRAY_GAP, ROW_PIECES, GONE_ROW = 0.002, 0.055, 4, 16
MAT_MARGIN, NAME_BAND, NAME_HEIGHT, DICE_HEIGHT = 0.003, 0.054, 0.042, 0.040
#: m: letter height of the gone mat's title (it lies furthest from the camera).
GONE_NAME = 0.048
#: m: depth of the colour band along the front of a base's top face.  It carries
#: no name: "Player N" is 3.7 times as wide as tall, so the base's 0.1 m width
#: holds letters of 26 mm, 10 px at 1280x720, below the 14 px a painted name needs;
#: the seat's mat in front of the base, in the same colour, carries the name.
BASE_BAND = 0.034
#: m: radius of the marker on the tower's top; of the designer's centre of mass.
MARKER_RADIUS, COM_RADIUS = 0.006, 0.005
#: Names of the view's overlays: the marker on the tower's top, the designer's; of
#: the node (under the view's decor) with the dice and card lines.
MARKER_LAYER, COM_LAYER, ROLL_NODE = "tower:marker", "tower:com", "tower:roll"
#: Python tag on the marker's layer: the :func:`marker_key` it was placed for.
MARKER_KEY = "tower:marker-key"


def seat_colour(seat: int) -> Colour:
    """RGBA of ``seat`` (its letter pieces, its mat and name)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def piece_colour(state: TowerState, piece: str) -> Colour:
    """RGBA of ``piece``: its first owner's colour, lighter for a logo."""
    colour = np.asarray(seat_colour(piece_key(piece)[0] - 1))
    if state.rules.shape(piece_part(piece)) == LOGO:
        colour = (1.0 - LOGO_TINT) * colour + LOGO_TINT
    return tuple(float(v) for v in (*colour[:3], 1.0))


def mat_colour(seat: int) -> Colour:
    """RGBA of ``seat``'s mat: its colour toned down with the felt."""
    mixed = (1 - MAT_FELT_SHARE) * np.asarray(seat_colour(seat)) \
        + MAT_FELT_SHARE * np.asarray(FELT)
    return tuple(float(v) for v in mixed)


def cell(state: TowerState) -> tuple[float, float]:
    """m, ``(dx, dy)``: the tray slot pitch, the widest piece part lying flat plus
    :data:`SLOT_GAP`."""
    parts = [*state.rules.letter_parts, state.rules.logo_part]
    sizes = np.array([np.ptp(state.scene.parts[p].mesh.bounds[:, :2], axis=0) for p in parts])
    return float(sizes[:, 0].max()) + SLOT_GAP, float(sizes[:, 1].max()) + SLOT_GAP


def base_box(state: TowerState, seat: int) -> tuple[float, float, float, float, float]:
    """``(x0, y0, x1, y1, top)`` m of ``seat``'s base: its outline's box and its top."""
    x0, y0, x1, y1 = base_outline(state.world, state.base(seat)).bounds
    return x0, y0, x1, y1, float(state.world.vertices(state.base(seat))[:, 2].max())


def mat_extent(state: TowerState, seat: int | None,
               count: int) -> tuple[float, float, float, float]:
    """``(x0, y0, x1, y1)`` m (world) of the mat of ``seat`` (None: the pieces that
    left the game) holding ``count`` pieces (at least one row), its name band
    included: a seat's name band nearest its base, the gone mat's likewise."""
    dx, dy = cell(state)
    columns = ROW_PIECES if seat is not None else GONE_ROW
    rows = max(1, -(-count // columns))
    half = columns * dx / 2.0 + MAT_MARGIN
    if seat is None:
        ys = [base_box(state, s)[3] for s in range(len(state.players))]
        y0 = max(ys) + GONE_GAP
        return -half, y0, half, y0 + NAME_BAND + rows * dy + 2 * MAT_MARGIN
    x0, y0, x1, _, _ = base_box(state, seat)
    middle, top = (x0 + x1) / 2.0, y0 - TRAY_GAP
    return middle - half, top - NAME_BAND - rows * dy - 2 * MAT_MARGIN, middle + half, top


def slot_pose(state: TowerState, seat: int | None, index: int,
              piece: str) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
    """Body-frame pose of the ``index``-th piece on ``seat``'s mat (None: the gone
    mat): lying flat, its bounding box centred in its cell, on the table top."""
    dx, dy = cell(state)
    x0, y0, x1, y1 = mat_extent(state, seat, index + 1)
    columns = ROW_PIECES if seat is not None else GONE_ROW
    row, col = divmod(index, columns)
    x = x0 + MAT_MARGIN + (col + 0.5) * dx
    if seat is None:
        y = y0 + NAME_BAND + MAT_MARGIN + (row + 0.5) * dy
    else:
        y = y1 - NAME_BAND - MAT_MARGIN - (row + 0.5) * dy
    lo, hi = state.piece_part(piece).mesh.bounds
    centre = (lo + hi) / 2.0
    return ((float(x - centre[0]), float(y - centre[1]), float(-lo[2])), (0.0, 0.0, 0.0, 1.0))


def drawn_card(state: TowerState) -> str | None:
    """The penalty card drawn since the last roll (None: none)."""
    for event in reversed(state.events):
        if event.kind == "card":
            return str(event.data["card"])
        if event.kind == "roll":
            return None
    return None


def roller(state: TowerState) -> int | None:
    """The seat that rolled last (None before any roll)."""
    for event in reversed(state.events):
        if event.kind == "roll":
            return event.player
    return None


@cache
def marker_mesh(radius: float) -> trimesh.Trimesh:
    """A marker: a sphere of ``radius`` m."""
    return trimesh.creation.icosphere(2, radius)


def top_marker(state: TowerState) -> tuple[float, float, float] | None:
    """m, where the marker on the current player's tower top goes: over the top
    piece's centre (the base's centre for an empty tower), on the release area's
    ``top_z``; None unless a drop is asked for (none is while a released piece is
    still falling: the turn is running)."""
    if state.running is not None:
        return None
    area = state.release_area()
    if area is None:
        return None
    seat, region = state.current_player, area["regions"][0]
    top = top_piece(state.world, state.tower(seat))
    if top is None:
        x0, y0, x1, y1, _ = base_box(state, seat)
        x, y = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    else:
        x, y = (float(v) for v in state.world.pose(top)[0][:2])
    return x, y, float(region["top_z"]) + MARKER_RADIUS


def marker_key(state: TowerState) -> tuple:
    """Everything :func:`top_marker` reads, as one comparable value: the state and
    its World, the phase, the current seat and its tower (:func:`tower_key`), or that
    a turn is running (then there is no marker, whatever moves)."""
    seat = state.current_player
    if state.running is not None:
        return (id(state), id(state.world), "running")
    return (id(state), id(state.world), str(state.phase), seat,
            None if seat is None else tower_key(state, seat))


def show_top_marker(view: TableView, state: TowerState) -> None:
    """The marker at :func:`top_marker` (none when that is None), in the view's
    overlay :data:`MARKER_LAYER`; worked out again only when :func:`marker_key`
    changed since the view last showed it."""
    key = marker_key(state)
    layer = view.find_overlay(MARKER_LAYER)
    if layer is None:
        layer = view.overlay(MARKER_LAYER)
    elif layer.getPythonTag(MARKER_KEY) == key:
        return
    layer.setPythonTag(MARKER_KEY, key)
    point = top_marker(state)
    marker = layer.find("marker")
    if point is None:
        if not marker.isEmpty():
            marker.removeNode()
        return
    if marker.isEmpty():
        marker = solid(layer, "marker", marker_mesh(MARKER_RADIUS), MARKER_COLOUR)
    marker.setPos(*point)


def roll_line(state: TowerState) -> tuple[int | None, str]:
    """The seat that rolled last and what the table shows in front of its base: the
    dice, then the card drawn since the roll (no seat and no text before any roll)."""
    seat = roller(state)
    if seat is None:
        return None, ""
    card = drawn_card(state)
    return seat, "dice: " + " / ".join(state.dice) + (f"  card: {card}" if card else "")


def roll_point(state: TowerState, seat: int) -> tuple[float, float, float]:
    """m, the middle of :func:`roll_line` on the table: centred in the gap between
    ``seat``'s base and its mat."""
    x0, y0, x1, _, _ = base_box(state, seat)
    return (x0 + x1) / 2.0, y0 - TRAY_GAP / 2.0, 0.0


def show_roll(view: TableView, state: TowerState) -> None:
    """Write :func:`roll_line` at :func:`roll_point` (rebuilt only when it changes:
    the view refreshes every frame while bodies move)."""
    seat, line = roll_line(state)
    key = f"{seat}:{line}"
    old = view.decor.find(ROLL_NODE)
    if not old.isEmpty():
        if old.getTag("shows") == key:
            return
        old.removeNode()
    node = unlit(view.decor.attachNewNode(ROLL_NODE))
    node.setTag("shows", key)
    if seat is None:
        return
    flat_text(node, line, roll_point(state, seat), DICE_HEIGHT, DICE_INK)


class TowerTable:
    """Tower's :class:`~balance3d.gui.games.GameTable` (see the module docstring)."""

    def camera_preset(self, state: TowerState) -> CameraPreset:
        return CameraPreset(target=(0.0, -0.10, 0.04), distance=1.35, heading=0.0, pitch=50.0)

    def trays(self, state: TowerState) -> list[Tray]:
        in_world = set(state.world.names)
        trays = []
        for seat in range(len(state.players)):
            pieces = [p for p in state.hand(seat) if p not in in_world]
            slots = tuple(slot_pose(state, seat, i, p) for i, p in enumerate(pieces))
            trays.append(Tray(seat, state.players[seat].name, tuple(pieces), slots))
        gone = [p for p in state.removed if p not in in_world]
        trays.append(Tray(None, "left the game", tuple(gone),
                          tuple(slot_pose(state, None, i, p) for i, p in enumerate(gone))))
        return trays

    def piece_part(self, state: TowerState, piece: str) -> Part:
        return state.piece_part(piece)

    def colour(self, state: TowerState, name: str) -> Colour:
        if name == TABLE_BODY:
            return FELT
        if name.startswith("base_"):
            return BASE_WOOD
        return piece_colour(state, name)

    def seat_colour(self, state: TowerState, seat: int) -> Colour:
        """RGBA of ``seat``: its mat's and name's colour."""
        return seat_colour(seat)

    def decorate(self, view: TableView, state: TowerState) -> None:
        """Each seat's base: a band of the seat's colour along the front of its top
        face; each seat's mat with the owner's name in a band of the seat's colour,
        nearest the base; the gone mat.  The scene's bases of seats nobody plays are
        hidden."""
        decor = unlit(view.decor.attachNewNode("tower"))
        count = state.rules.letters_per_player + state.rules.logos_per_player
        for seat in range(len(state.players)):
            x0, y0, x1, _, top = base_box(state, seat)
            flat_rect(decor, f"base-band:{seat}", (x0, y0, x1, y0 + BASE_BAND), top,
                      seat_colour(seat))
            x0, y0, x1, y1 = mat_extent(state, seat, count)
            flat_rect(decor, f"mat:{seat}", (x0, y0, x1, y1), 0.0, mat_colour(seat))
            flat_rect(decor, f"band:{seat}", (x0, y1 - NAME_BAND, x1, y1), 0.0002,
                      seat_colour(seat))
            flat_text(decor, state.players[seat].name, ((x0 + x1) / 2.0, y1 - NAME_BAND / 2.0,
                                                        0.0004), NAME_HEIGHT,
                      ink_on(seat_colour(seat)))
        x0, y0, x1, y1 = mat_extent(state, None, len(state.players) * count)
        flat_rect(decor, "mat:gone", (x0, y0, x1, y1), 0.0, GONE_MAT)
        flat_text(decor, "left the game", ((x0 + x1) / 2.0, y0 + NAME_BAND / 2.0, 0.0004),
                  GONE_NAME, ink_on(GONE_MAT))
        for name in view.names:                   # the bases of seats nobody plays
            if name.startswith("base_") and int(name.split("_")[1]) >= len(state.players):
                view.node(name).hide()

    def update(self, view: TableView, state: TowerState, designer: bool) -> None:
        """The last roll and the card drawn since, written on the table in front of
        the roller's base; the marker on the current player's tower top while a drop is
        asked for; the designer's centre of mass of each tower, green over its base,
        red outside it, with a line down to the base's top."""
        show_roll(view, state)
        show_top_marker(view, state)
        view.clear_overlay(COM_LAYER)
        if not designer:
            return
        layer = view.overlay(COM_LAYER)
        present = set(state.world.names)
        for s in range(len(state.players)):
            pieces = [p for p in state.tower(s) if p in present]
            if not pieces:
                continue
            com = centre_of_mass(state.world, pieces)
            x0, y0, x1, y1, top = base_box(state, s)
            over = x0 <= com[0] <= x1 and y0 <= com[1] <= y1
            colour = COM_OVER if over else COM_OUTSIDE
            solid(layer, f"com:{s}", marker_mesh(COM_RADIUS), colour).setPos(*com)
            segments(layer, f"com-line:{s}", [(tuple(com), (com[0], com[1], top))], colour,
                     thickness=3.0)


#: Tower's table, found by :func:`balance3d.gui.games.game_table`.
TABLE = TowerTable()
