"""The drop gesture: pick a piece, carry its ghost over the release area, turn it,
stand it on a face, raise or lower it, release it or put it back.

The gesture only builds the same :class:`~balance3d.games.base.Drop` a bot sends;
every legality question goes to the game (``state.legal_pieces()``,
``state.is_legal()``), and the ghost's pose is the release pose the game will use
(:func:`balance3d.games.placement.release_pose`).  Refusals come back in the game's
words for a player (:func:`balance3d.gui.games.worded`: no ids), the game's own
sentence kept beside them for the log and the trace.  No Panda3D here: the window
maps mouse and keys onto these calls.
"""
from __future__ import annotations

import math

import numpy as np
import shapely
from scipy.spatial.transform import Rotation

from balance3d.games.base import POSES, Action, Drop, GameError, Refusal, State
from balance3d.games.placement import footprint_points, release_pose
from balance3d.gui.games import Worded, worded

#: rad, one turn step of the held piece (wheel notch, Q/E): 15 degrees.
YAW_STEP = math.pi / 12.0
#: m, one step of the release clearance (W/S, PgUp/PgDn).
HEIGHT_STEP = 0.005
#: m, lowest release clearance the gesture offers (a drop needs a positive one).
HEIGHT_MIN = 0.002
#: m, highest release clearance the gesture offers.
HEIGHT_MAX = 0.10
#: m, release clearance of a freshly picked piece.
DEFAULT_HEIGHT = 0.01
#: Codes of the game's refusals that are about the piece itself (or the moment),
#: not where it is released: a pick refused for one of them says the game's words.
PIECE_CODES = ("not_yours", "wrong_shape", "decision_asked", "over", "running")


class GestureError(GameError):
    """A gesture step the game refuses: the message is the game's words for a
    player; ``reason`` the game's own sentence (ids and all) for the log."""

    def __init__(self, words: str) -> None:
        super().__init__(str(words))
        self.reason = getattr(words, "reason", str(words))


def pick_refusal(state: State, probe: Action, legal: list[str]) -> Worded:
    """Why the piece of ``probe`` (an action releasing it) may not be picked, in the
    game's words: the game's own reason when it is about the piece, else that
    another piece is asked for."""
    ok, reason = state.is_legal(probe)
    if ok or getattr(reason, "code", "") not in PIECE_CODES:
        text = (f"piece {probe.piece!r} cannot be picked: the pieces that may be played now "
                f"are {', '.join(legal)}" if legal else "no piece may be played now")
        reason = Refusal(text, "not_pickable", piece=probe.piece)
        words = ("Pick one of the pieces in your tray that the game asks for." if legal
                 else "No piece may be played now: answer with the buttons, or wait.")
        return Worded(words, str(reason))
    return worded(state, reason)


class DropGesture:
    """Idle -> holding a piece (ghost follows the pointer) -> released or put back.
    Builds the same Drop action a bot sends; legality is the game's own
    state.is_legal().

    holding : the piece held, None when idle.  x, y : m, world position of the
    ghost's bounding-box centre (the Drop's x, y).  yaw : rad.  pose : "flat",
    "edge" or "upright".  height : m, release clearance above the surface beneath.
    A new piece starts flat, unturned, :data:`DEFAULT_HEIGHT` up; when the game
    refuses a flat piece (a card that says it must stand vertically) it starts on
    edge.
    """

    def __init__(self) -> None:
        self.holding: str | None = None
        self.x = 0.0
        self.y = 0.0
        self.yaw = 0.0
        self.pose = POSES[0]
        self.height = DEFAULT_HEIGHT

    # -- state changes ---------------------------------------------------------
    def pick(self, state: State, piece: str) -> None:
        """Hold ``piece``; :class:`GestureError` naming it unless it is one of
        ``state.legal_pieces()``.  The ghost starts over the middle of the first
        release region, if the game gives one."""
        legal = state.legal_pieces()
        if piece not in legal:
            raise GestureError(pick_refusal(state, Drop(piece, self.x, self.y, DEFAULT_HEIGHT),
                                            legal))
        self.holding = piece
        area = state.release_area()
        if area and area.get("regions"):
            centre = shapely.Polygon(area["regions"][0]["polygon"]).centroid
            self.x, self.y = float(centre.x), float(centre.y)
        self.yaw, self.height = 0.0, DEFAULT_HEIGHT
        self.pose = POSES[0]
        if getattr(state.is_legal(self.action())[1], "code", "") == "vertical":
            self.pose = POSES[1]

    def move(self, x: float, y: float) -> None:
        """Carry the ghost to world (x, y) m."""
        self.x, self.y = float(x), float(y)

    def turn(self, steps: int) -> None:
        """Turn the held piece by ``steps`` * :data:`YAW_STEP` rad (negative: the
        other way); the yaw is kept in [0, 2 pi)."""
        self.yaw = (self.yaw + steps * YAW_STEP) % (2.0 * math.pi)

    def cycle_pose(self) -> None:
        """Stand the piece on its next face: flat -> edge -> upright -> flat."""
        self.pose = POSES[(POSES.index(self.pose) + 1) % len(POSES)]

    def lift(self, steps: int) -> None:
        """Raise (lower, for negative ``steps``) the release clearance by
        :data:`HEIGHT_STEP` m each, clamped to [:data:`HEIGHT_MIN`,
        :data:`HEIGHT_MAX`]."""
        self.height = min(HEIGHT_MAX, max(HEIGHT_MIN, self.height + steps * HEIGHT_STEP))

    def cancel(self) -> None:
        """Put the piece back: idle again."""
        self.holding = None

    # -- reading ---------------------------------------------------------------
    def action(self) -> Drop | None:
        """The Drop the gesture shows now, or None when idle."""
        if self.holding is None:
            return None
        return Drop(self.holding, self.x, self.y, self.height, self.yaw, self.pose)

    def check(self, state: State) -> tuple[bool, str]:
        """``state.is_legal`` of :meth:`action`: ``(True, "")`` or ``(False, words)``,
        the game's reason worded for a player (a :class:`~balance3d.gui.games.Worded`
        whose ``reason`` is the game's own sentence)."""
        drop = self.action()
        if drop is None:
            return False, Worded("Pick a piece from your tray first.", "no piece is held")
        ok, reason = state.is_legal(drop)
        return (True, "") if ok else (False, worded(state, reason))

    def ghost_pose(self, state: State) -> tuple[tuple, tuple] | None:
        """Body pose ``(position (3,) m, quaternion xyzw)`` the held piece would be
        released at (:func:`~balance3d.games.placement.release_pose`), or None."""
        drop = self.action()
        if drop is None:
            return None
        return release_pose(state.world, state.piece_part(drop.piece), drop)

    def landing_point(self, state: State) -> np.ndarray | None:
        """(3,) m: the ghost's (x, y) on the highest surface beneath its footprint
        (where it would land falling straight down), or None when idle."""
        drop = self.action()
        if drop is None:
            return None
        part = state.piece_part(drop.piece)
        pos, quat = release_pose(state.world, part, drop)
        outline = Rotation.from_quat(quat).apply(part.mesh.vertices)[:, :2] + np.asarray(pos[:2])
        surface = max(state.world.height_below(footprint_points(outline)), 0.0)
        return np.array([drop.x, drop.y, surface])

    def readout(self, state: State) -> str:
        """The held piece's pose, yaw and release height for the window's readout
        ("flat, turned 15 deg, 10 mm up"), or "" when idle (``state``: the game,
        which a drop's readout does not need)."""
        if self.holding is None:
            return ""
        return (f"{self.pose}, turned {math.degrees(self.yaw):.0f} deg, "
                f"{self.height * 1000.0:.0f} mm up")

    # -- release ---------------------------------------------------------------
    def release(self, state: State) -> Drop:
        """The Drop to play, and idle again; :class:`GestureError` with the game's
        reason when it is illegal now (still holding, nothing changed)."""
        drop = self.action()
        if drop is None:
            raise GestureError(Worded("Pick a piece from your tray first.",
                                      "nothing to release: no piece is held"))
        ok, words = self.check(state)
        if not ok:
            raise GestureError(words)
        self.holding = None
        return drop


__all__ = ["DEFAULT_HEIGHT", "DropGesture", "GestureError", "HEIGHT_MAX", "HEIGHT_MIN",
           "HEIGHT_STEP", "PIECE_CODES", "YAW_STEP", "pick_refusal"]
