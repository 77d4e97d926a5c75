"""Tower in the environments (:mod:`balance3d.envs`): its action grid, decisions
and observation vector.

Drops: piece part (each letter, the logo) × a ``points`` × ``points`` grid of
cell centres over the current player's base (seen from above) × pose × yaw,
released ``rules.find_drop_height`` (m) above whatever is under the piece.  The
piece dropped is the first of the current player's playable pieces of that part.
Decisions: the target seat of a penalty, the card a U-DECIDE stands for, the
extra piece's shape, and the part of the piece given away in a swap.
"""
from __future__ import annotations

import numpy as np

from balance3d.envs.encoding import (COUNT_BOUND, POSITION_BOUND, Encoding, GridOptions,
                                     Layout, add_pose_fields, one_hot, pose_rows)
from balance3d.games.base import Action, Choose, Drop, State
from balance3d.games.tower.judge import base_outline
from balance3d.games.tower.rules import CHOSEN_CARDS, EITHER, SHAPES, Phase, piece_part

#: m, half the side of the square of the table, centred on its middle, that the
#: continuous release position spans.
RELEASE_REACH = 0.5
#: The phases in the order of the observation's phase field.
PHASES = tuple(Phase)
#: What die 2 may demand, in the order of the observation's shape field.
DEMANDS = (*SHAPES, EITHER)


class TowerEncoding(Encoding):
    """Tower's encoding for one scene and player count."""

    poses = ("flat", "edge", "upright")

    def __init__(self, state: State, grid: GridOptions) -> None:
        super().__init__(state, grid)
        rules = state.rules
        self.kinds = (*rules.letter_parts, rules.logo_part)
        self.n_points = grid.points ** 2
        n = self.players
        self.pieces = sorted(p for s in range(n) for p in state.hand(s))
        # a swap can pass pieces on: every seat's pieces of a part may end in one hand
        self.copies = max(sum(piece_part(p) == k for p in self.pieces) for k in self.kinds)
        self.bases = [state.base(s) for s in range(n)]
        self.faces_1 = tuple(dict.fromkeys(rules.die_1))
        self.decisions = (tuple(f"target:{s}" for s in range(n))
                          + tuple(f"penalty:{c}" for c in CHOSEN_CARDS)
                          + tuple(f"shape:{s}" for s in SHAPES)
                          + tuple(f"swap:{k}" for k in self.kinds))
        self.release_low = np.array([-RELEASE_REACH, -RELEASE_REACH, -np.pi, 0.0])
        self.release_high = np.array([RELEASE_REACH, RELEASE_REACH, np.pi,
                                      float(rules.max_drop_height)])
        layout = Layout()
        add_pose_fields(layout, "bases", f"bases {', '.join(self.bases)}", n)
        add_pose_fields(layout, "pieces", "pieces, sorted by name", len(self.pieces))
        layout.add("piece_places", "per piece: held by seat 0..n-1, on a tower, left the game",
                   (len(self.pieces), n + 2), "1", 0.0, 1.0)
        layout.add("levels", "per piece: level on its tower (0: none)", len(self.pieces), "levels",
                   0.0, COUNT_BOUND)
        layout.add("heights", "tower height per seat", n, "m", -POSITION_BOUND, POSITION_BOUND)
        layout.add("seats", "per seat: out, turns to lose, next piece vertical", (n, 3),
                   "1; turns; 1", 0.0, COUNT_BOUND)
        layout.add("die_1", f"die 1 one-hot ({', '.join(self.faces_1)})", len(self.faces_1), "1",
                   0.0, 1.0)
        layout.add("die_2", f"die 2 one-hot ({', '.join(DEMANDS)})", len(DEMANDS), "1", 0.0, 1.0)
        layout.add("phase", f"phase one-hot ({', '.join(p.value for p in PHASES)})",
                   len(PHASES), "1", 0.0, 1.0)
        layout.add("deck", "cards left in the deck", 1, "cards", 0.0, COUNT_BOUND)
        self.layout = layout

    def kind_of(self, piece: str) -> str:
        return piece_part(piece)

    def held(self, state: State) -> list[str]:
        return state.legal_pieces()

    def stranger(self, kind: str) -> str:
        return f"p0.{kind}.0"

    def release_frame(self, state: State) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) m: the bounds of the current player's base seen from
        above (seat 0's when the game is over)."""
        seat = state.current_player
        return base_outline(state.world, state.base(seat if seat is not None else 0)).bounds

    def release(self, state: State, frame: tuple[float, float, float, float], piece: str,
                point: int, pose: str, yaw: int) -> Action:
        n = self.grid.points
        x0, y0, x1, y1 = frame
        row, col = divmod(point, n)
        x = x0 + (col + 0.5) / n * (x1 - x0)
        y = y0 + (row + 0.5) / n * (y1 - y0)
        return Drop(piece, float(x), float(y), float(state.rules.find_drop_height),
                    self.grid.yaw(yaw), pose)

    def head(self, state: State, piece: str, pose: str, release: list[float]) -> Action:
        x, y, yaw, height = release
        return Drop(piece, x, y, height, yaw, pose)

    def decision(self, state: State, slot: int) -> Action:
        what, _, value = self.decisions[slot].partition(":")
        if what == "target":
            return Choose("target", int(value))
        if what == "swap":
            offer = [c.value for c in state.legal_decisions()
                     if getattr(c, "what", None) == "swap"]
            return Choose("swap", next((p for p in offer if piece_part(p) == value),
                                       f"p0.{value}.0"))
        return Choose(what, value)

    def observe(self, state: State) -> np.ndarray:
        n = self.players
        index = {p: i for i, p in enumerate(self.pieces)}
        where = np.zeros((len(self.pieces), n + 2))
        levels = np.zeros(len(self.pieces))
        for seat in range(n):
            for piece in state.hand(seat):
                where[index[piece], seat] = 1.0
            for piece in state.tower(seat):
                where[index[piece], n] = 1.0
                levels[index[piece]] = state.level(piece)
        for piece in state.removed:
            where[index[piece], n + 1] = 1.0
        out = state.out
        dice = state.dice
        seats = [[1.0 if s in out else 0.0, float(state.skips[s]),
                  float(state.must_stand_vertically[s])] for s in range(n)]
        parts = [
            pose_rows(state, self.bases).ravel(), pose_rows(state, self.pieces).ravel(),
            where.ravel(), levels, np.asarray(state.heights, float), np.ravel(seats),
            one_hot(self.faces_1.index(dice[0]) if dice else None, len(self.faces_1)),
            one_hot(DEMANDS.index(dice[1]) if dice else None, len(DEMANDS)),
            one_hot(PHASES.index(state.phase), len(PHASES)), [float(len(state.deck))],
        ]
        return np.concatenate([np.asarray(p, float) for p in parts])

    def out(self, state: State) -> set[int]:
        return set(state.out)


ENCODING = TowerEncoding
