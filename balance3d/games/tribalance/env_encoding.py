"""Tri-Ba-Lance in the environments (:mod:`balance3d.envs`): its action grid,
decisions and observation vector.

Placements: piece weight (1..5) × field (the scene's field list, in order); the
grid options do not apply (the fields are the grid, a piece has no pose or yaw).
The piece placed is the current player's first held piece of that weight.  In
continuous mode a head is a weight and a copy, placed on the field whose centre is
nearest the action's (x, y); yaw and height are not used.  The one decision is pass
(which puts the player out).
"""
from __future__ import annotations

import numpy as np

from balance3d.envs.encoding import (COUNT_BOUND, Encoding, GridOptions, Layout,
                                     add_pose_fields, one_hot, pose_rows)
from balance3d.games.base import Action, Pass, Place, State
from balance3d.games.tribalance.rules import Phase, piece_weight

#: m, half the side of the square of the table, centred on the plate, that the
#: continuous release position spans.
RELEASE_REACH = 0.5
#: The phases in the order of the observation's phase field.
PHASES = tuple(Phase)
#: The bodies that move, besides the pieces.
MOVING = ("plate",)


class TribalanceEncoding(Encoding):
    """Tri-Ba-Lance's encoding for one scene and player count."""

    poses = ("flat",)
    decisions = ("pass",)

    def __init__(self, state: State, grid: GridOptions) -> None:
        super().__init__(state, grid)
        rules = state.rules
        self.kinds = tuple(f"{w}w" for w in range(1, len(rules.piece_parts) + 1))
        self.fields = np.array([(f.x, f.y) for f in rules.fields])
        self.n_points = len(self.fields)
        n = self.players
        self.pieces = sorted(p for s in range(n) for p in state.hand(s))
        self.copies = max(sum(self.kind_of(p) == k for p in state.hand(0)) for k in self.kinds)
        self.release_low = np.array([-RELEASE_REACH, -RELEASE_REACH, -np.pi, 0.0])
        self.release_high = np.array([RELEASE_REACH, RELEASE_REACH, np.pi, 1.0])
        layout = Layout()
        add_pose_fields(layout, "plate", "plate", len(MOVING))
        add_pose_fields(layout, "pieces", "pieces, sorted by name", len(self.pieces))
        layout.add("piece_holders", "per piece: held by seat 0..n-1", (len(self.pieces), n),
                   "1", 0.0, 1.0)
        layout.add("piece_fields", "per piece: field it stands on + 1 (0: none)",
                   len(self.pieces), "1", 0.0, float(self.n_points))
        layout.add("free_fields", "free fields", self.n_points, "1", 0.0, 1.0)
        layout.add("points", "points per seat now", n, "points", -COUNT_BOUND, COUNT_BOUND)
        layout.add("out", "out per seat", n, "1", 0.0, 1.0)
        layout.add("phase", f"phase one-hot ({', '.join(p.value for p in PHASES)})",
                   len(PHASES), "1", 0.0, 1.0)
        self.layout = layout

    @property
    def n_yaws(self) -> int:
        return 1

    def kind_of(self, piece: str) -> str:
        return f"{piece_weight(piece)}w"

    def held(self, state: State) -> list[str]:
        return state.legal_pieces()

    def stranger(self, kind: str) -> str:
        return f"{kind}-p0.0"

    def release(self, state: State, frame: None, piece: str, point: int, pose: str,
                yaw: int) -> Action:
        return Place(piece, point)

    def head(self, state: State, piece: str, pose: str, release: list[float]) -> Action:
        distances = np.hypot(self.fields[:, 0] - release[0], self.fields[:, 1] - release[1])
        return Place(piece, int(np.argmin(distances)))

    def release_of(self, action: Action) -> list[float]:
        """The centre of the placement's field (m), yaw and height 0."""
        x, y = self.fields[action.field]
        return [float(x), float(y), 0.0, 0.0]

    def decision(self, state: State, slot: int) -> Action:
        return Pass()

    def observe(self, state: State) -> np.ndarray:
        n = self.players
        index = {p: i for i, p in enumerate(self.pieces)}
        held = np.zeros((len(self.pieces), n))
        for seat in range(n):
            for piece in state.hand(seat):
                held[index[piece], seat] = 1.0
        fields = np.zeros(len(self.pieces))
        for piece, field in state.placed.items():
            fields[index[piece]] = field + 1.0
        free = np.zeros(self.n_points)
        free[state.free_fields()] = 1.0
        parts = [pose_rows(state, list(MOVING)).ravel(), pose_rows(state, self.pieces).ravel(),
                 held.ravel(), fields, free, np.asarray(state.scores, float),
                 [1.0 if s in state.out else 0.0 for s in range(n)],
                 one_hot(PHASES.index(state.phase), len(PHASES))]
        return np.concatenate([np.asarray(p, float) for p in parts])

    def out(self, state: State) -> set[int]:
        return set(state.out)


ENCODING = TribalanceEncoding
