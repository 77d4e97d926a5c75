"""Where Tilted's trays lie round the table (no Panda3D): a mat per seat and the
supply's, and which tray each lies by.

Seats sit round the table clockwise seen from above (front, left, back, right:
seat 0 faces the camera's preset); the supply's mat takes the right side when no
seat does, else the front right corner."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance3d.games.tilted.state import TiltedState

#: m, margin of a mat round its rows and the band for the name before the rows;
#: the name lies at least NAME_CLEAR m clear of the rows (the blocks of the front
#: seat's first row stand before its name as the preset camera sees it).
MAT_MARGIN, NAME_BAND, NAME_CLEAR = 0.02, 0.085, 0.035


@dataclass(frozen=True)
class Mat:
    """A tray's place on the table top: rows start at ``origin`` ((x, y) m) and run
    along ``along`` (unit (x, y)) for ``length`` m; further rows step along
    ``across`` (unit (x, y)).  The name sits in a band before the first row, read
    turned ``heading`` degrees."""

    origin: tuple[float, float]
    along: tuple[float, float]
    across: tuple[float, float]
    length: float
    depth: float
    heading: float

    def point(self, a: float, b: float) -> np.ndarray:
        """(2,) m: the point ``a`` m along the rows and ``b`` m across them."""
        return np.asarray(self.origin) + a * np.asarray(self.along) + b * np.asarray(self.across)

    def bounds(self, depth: float | None = None) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) m of the mat holding rows ``depth`` m deep (default: its
        full depth), name band and margins included."""
        depth = self.depth if depth is None else depth
        corners = np.array([self.point(a, b) for a in (-MAT_MARGIN, self.length + MAT_MARGIN)
                            for b in (-NAME_BAND, depth + MAT_MARGIN)])
        return (*corners.min(axis=0), *corners.max(axis=0))


#: The mats round the table: front (towards the preset camera), left, back, right,
#: and the front right corner (the supply's with four players).
SIDES = {
    "front": Mat((-0.30, -0.195), (1.0, 0.0), (0.0, -1.0), 0.60, 0.28, 0.0),
    "left": Mat((-0.43, 0.30), (0.0, -1.0), (-1.0, 0.0), 0.60, 0.28, -90.0),
    "back": Mat((0.30, 0.19), (-1.0, 0.0), (0.0, 1.0), 0.60, 0.28, 180.0),
    "right": Mat((0.43, -0.30), (0.0, 1.0), (1.0, 0.0), 0.60, 0.28, 90.0),
}
CORNER = Mat((0.38, -0.425), (1.0, 0.0), (0.0, -1.0), 0.38, 0.36, 0.0)
#: Which sides the seats take, by player count (clockwise from the front).
SEATING = {1: ("front",), 2: ("front", "back"), 3: ("front", "left", "back"),
           4: ("front", "left", "back", "right")}


def seat_mats(players: int) -> list[Mat]:
    """The mat of each seat for ``players`` players."""
    return [SIDES[side] for side in SEATING[players]]


def supply_mat(players: int) -> Mat:
    """The supply's mat: the right side when no seat takes it, else the corner."""
    return CORNER if "right" in SEATING[players] else SIDES["right"]


def tray_mats(state: TiltedState) -> list[tuple[int | None, Mat, str, list[str]]]:
    """``(seat, mat, label, pieces)`` of each seat's tray, then the supply's (seat
    None); the pieces are those not in the World."""
    players = len(state.players)
    in_world = set(state.world.names)   # a dropped block while its turn runs

    def out(pieces: list[str]) -> list[str]:
        return [p for p in pieces if p not in in_world]

    seats = [(seat, mat, state.players[seat].name, out(state.hand(seat)))
             for seat, mat in enumerate(seat_mats(players))]
    return seats + [(None, supply_mat(players), "Supply", out(state.supply))]


__all__ = ["CORNER", "MAT_MARGIN", "Mat", "NAME_BAND", "NAME_CLEAR", "SEATING", "SIDES",
           "seat_mats", "supply_mat", "tray_mats"]
