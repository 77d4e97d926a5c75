"""The place gesture: pick a piece, point at a field of the release area, release it
there or put it back; and :func:`gesture_for`, which gesture a game's actions take.

A :class:`~balance3d.games.base.Place` names a piece and a field; the game lowers
the piece onto the field itself.  The gesture only builds the same Place a bot
sends, from the region of ``state.release_area()`` under the pointer (a region's
``"field"``); every legality question goes to the game (``state.legal_pieces()``,
``state.is_legal()``).  An area may also list ``"taken"`` regions, places the game
shows but refuses now (a field a piece stands on): pointing at one builds its Place
too, so the game's own reason is what the player reads, in the game's words
(:func:`balance3d.gui.games.worded`).  No Panda3D here.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from balance3d.games.base import Place, State
from balance3d.gui.games import Worded, game_text, worded
from balance3d.gui.gesture import DropGesture, GestureError, pick_refusal

#: What the status line says while the pointer is over no field.
NO_FIELD = "Point at a free field on the plate."


class PlaceGesture:
    """Idle -> holding a piece (its ghost stands on the field under the pointer) ->
    released or put back.  Builds the same Place action a bot sends; legality is
    the game's own ``state.is_legal()``.

    holding : the piece held, None when idle.  x, y : m, world point under the
    pointer.  A Place has no orientation or height: turning, standing and lifting
    change nothing.
    """

    def __init__(self) -> None:
        self.holding: str | None = None
        self.x = 0.0
        self.y = 0.0
        self._regions: list[dict[str, Any]] = []

    # -- state changes ---------------------------------------------------------
    def pick(self, state: State, piece: str) -> None:
        """Hold ``piece``; :class:`GestureError` naming it unless it is one of
        ``state.legal_pieces()``.  The release area is read now (it holds while the
        player chooses)."""
        legal = state.legal_pieces()
        if piece not in legal:
            raise GestureError(pick_refusal(state, Place(piece, 0), legal))
        area = state.release_area() or {}
        self.holding = piece
        self._regions = [*area.get("regions", []), *area.get("taken", [])]

    def move(self, x: float, y: float) -> None:
        """Point at world (x, y) m."""
        self.x, self.y = float(x), float(y)

    def turn(self, steps: int) -> None:
        """A Place has no yaw: nothing changes."""

    def cycle_pose(self) -> None:
        """A Place stands the piece as the game does: nothing changes."""

    def lift(self, steps: int) -> None:
        """A Place has no release height: nothing changes."""

    def cancel(self) -> None:
        """Put the piece back: idle again."""
        self.holding = None
        self._regions = []

    # -- reading ---------------------------------------------------------------
    def region(self) -> dict[str, Any] | None:
        """The region (free or taken) under the pointer, or None."""
        if self.holding is None:
            return None
        point = shapely.Point(self.x, self.y)
        for region in self._regions:
            if shapely.Polygon(region["polygon"]).covers(point):
                return region
        return None

    def action(self) -> Place | None:
        """The Place the gesture shows now, or None when idle or over no field."""
        region = self.region()
        if region is None:
            return None
        return Place(self.holding, region["field"])

    def check(self, state: State) -> tuple[bool, str]:
        """``state.is_legal`` of :meth:`action`: ``(True, "")`` or ``(False, words)``,
        the game's reason worded for a player (a :class:`~balance3d.gui.games.Worded`
        whose ``reason`` is the game's own sentence)."""
        if self.holding is None:
            return False, Worded("Pick a piece from your tray first.", "no piece is held")
        place = self.action()
        if place is None:
            return False, Worded(NO_FIELD, "the pointer is over no field")
        ok, reason = state.is_legal(place)
        return (True, "") if ok else (False, worded(state, reason))

    def landing_point(self, state: State) -> np.ndarray | None:
        """(3,) m: the middle of the field under the pointer at its region's top, or
        None."""
        region = self.region()
        if region is None:
            return None
        centre = shapely.Polygon(region["polygon"]).centroid
        return np.array([centre.x, centre.y, region["top_z"]])

    def ghost_pose(self, state: State) -> tuple[tuple, tuple] | None:
        """Body pose ``(position (3,) m, quaternion xyzw)`` of the held piece standing
        upright (its body frame unturned) on the field under the pointer, or None."""
        point = self.landing_point(state)
        if point is None:
            return None
        low = float(state.piece_part(self.holding).mesh.bounds[0][2])
        return (float(point[0]), float(point[1]), float(point[2]) - low), (0.0, 0.0, 0.0, 1.0)

    def readout(self, state: State) -> str:
        """The field under the pointer for the window's readout, as the game names
        it ("over the 3 on Ann's side"), or "" when idle or over no field (a Place
        has no pose or height to show)."""
        region = self.region()
        if region is None:
            return ""
        return f"over {game_text(state.name).field_name(state, region['field'])}"

    # -- release ---------------------------------------------------------------
    def release(self, state: State) -> Place:
        """The Place to play, and idle again; :class:`GestureError` with the game's
        reason when it is illegal now (still holding, nothing changed)."""
        ok, words = self.check(state)
        if not ok:
            raise GestureError(words)
        place = self.action()
        self.cancel()
        return place


def gesture_for(state: State) -> DropGesture | PlaceGesture:
    """The gesture for ``state``'s game: a :class:`PlaceGesture` when its actions
    include "place", else a :class:`~balance3d.gui.gesture.DropGesture`."""
    return PlaceGesture() if "place" in state.game.action_types else DropGesture()


__all__ = ["NO_FIELD", "PlaceGesture", "gesture_for"]
