"""Tilted in the environments (:mod:`balance3d.envs`): its action grid, decisions
and observation vector.

Drops: block length (1u..6u) × release points along the high half of the beam,
from the fulcrum line outward at the centres of ``points`` equal steps, on the
beam's centre line × pose × yaw, released ``FIND_DROP_HEIGHT`` (m) up.  The
block dropped is the current player's held block of that length of the lowest
set.  Decisions: buy yes/no, fallback size 1..6, returned block to auction by
length 1..6, bids of 1 up to the scene's total coins (``rules.coins``: a seat
holding more cannot bid the rest), and pass.
"""
from __future__ import annotations

import numpy as np

from balance3d.envs.encoding import (COUNT_BOUND, Encoding, GridOptions, Layout,
                                     add_pose_fields, one_hot, pose_rows)
from balance3d.games.base import Action, Choose, Drop, Pass, State
from balance3d.games.tilted.rules import FIND_DROP_HEIGHT, Phase, piece_length, piece_name

#: m, half the side of the square of the table, centred on the fulcrum, that the
#: continuous release position spans.
RELEASE_REACH = 0.5
#: The phases in the order of the observation's phase field.
PHASES = tuple(Phase)


class TiltedEncoding(Encoding):
    """Tilted's encoding for one scene, variant and player count."""

    poses = ("flat", "edge", "upright")

    def __init__(self, state: State, grid: GridOptions) -> None:
        super().__init__(state, grid)
        rules = state.rules
        self.lengths = tuple(range(1, len(rules.block_parts) + 1))
        self.kinds = tuple(f"{n}u" for n in self.lengths)
        self.n_points = grid.points
        self.copies = int(rules.sets)
        self.blocks = [piece_name(n, s) for s in range(1, rules.sets + 1) for n in self.lengths]
        self.max_bid = int(rules.coins)
        self.decisions = (("buy:yes", "buy:no") + tuple(f"size:{n}" for n in self.lengths)
                          + tuple(f"auction_order:{n}u" for n in self.lengths)
                          + tuple(f"bid:{v}" for v in range(1, self.max_bid + 1)) + ("pass",))
        self.release_low = np.array([-RELEASE_REACH, -RELEASE_REACH, -np.pi, 0.0])
        self.release_high = np.array([RELEASE_REACH, RELEASE_REACH, np.pi,
                                      float(rules.max_drop_height)])
        n = self.players
        layout = Layout()
        add_pose_fields(layout, "beam", "beam", 1)
        add_pose_fields(layout, "blocks", f"blocks {', '.join(self.blocks)}", len(self.blocks))
        layout.add("block_places", "per block: held by seat 0..n-1, in the supply, frozen",
                   (len(self.blocks), n + 2), "1", 0.0, 1.0)
        layout.add("coins", "coins per seat", n, "coins", -COUNT_BOUND, COUNT_BOUND)
        layout.add("eliminated", "eliminated per seat", n, "1", 0.0, 1.0)
        layout.add("bank", "bank", 1, "coins", -COUNT_BOUND, COUNT_BOUND)
        layout.add("low_end", "low end of the beam (+1: +x end, -1: -x end)", 1, "1", -1.0, 1.0)
        layout.add("phase", f"phase one-hot ({', '.join(p.value for p in PHASES)})",
                   len(PHASES), "1", 0.0, 1.0)
        layout.add("auction", "auction: on, offered length, highest bid", 3, "1; units; coins",
                   0.0, COUNT_BOUND)
        layout.add("high_bidder", "auction: highest bidder one-hot", n, "1", 0.0, 1.0)
        layout.add("fallback_sizes", "fallback sizes offered, per length", len(self.lengths),
                   "1", 0.0, 1.0)
        layout.add("returned", "returned blocks to auction, per length", len(self.lengths),
                   "blocks", 0.0, COUNT_BOUND)
        self.layout = layout

    def kind_of(self, piece: str) -> str:
        return f"{piece_length(piece)}u"

    def held(self, state: State) -> list[str]:
        return sorted(state.legal_pieces(), key=lambda p: int(p.split("-")[1]))

    def stranger(self, kind: str) -> str:
        return f"{kind}-0"

    def release_frame(self, state: State) -> tuple[np.ndarray, np.ndarray] | None:
        """(inner, outer): (2,) m, the middles of the high half's fulcrum-side and
        end edges (None outside the drop phase)."""
        area = state.release_area()
        if area is None:
            return None
        corners = np.asarray(area["regions"][0]["polygon"], float)
        return (corners[0] + corners[3]) / 2, (corners[1] + corners[2]) / 2

    def release(self, state: State, frame: tuple[np.ndarray, np.ndarray] | None, piece: str,
                point: int, pose: str, yaw: int) -> Action:
        if frame is None:
            return Drop(piece, 0.0, 0.0, FIND_DROP_HEIGHT, self.grid.yaw(yaw), pose)
        inner, outer = frame
        x, y = inner + (point + 0.5) / self.n_points * (outer - inner)
        return Drop(piece, float(x), float(y), FIND_DROP_HEIGHT, self.grid.yaw(yaw), pose)

    def head(self, state: State, piece: str, pose: str, release: list[float]) -> Action:
        x, y, yaw, height = release
        return Drop(piece, x, y, height, yaw, pose)

    def decision(self, state: State, slot: int) -> Action:
        what, _, value = self.decisions[slot].partition(":")
        if what == "buy":
            return Choose("buy", value == "yes")
        if what == "size":
            return Choose("size", int(value))
        if what == "auction_order":
            queue = [c.value for c in state.legal_decisions()
                     if getattr(c, "what", None) == "auction_order"]
            piece = next((p for p in queue if self.kind_of(p) == value), f"{value}-0")
            return Choose("auction_order", piece)
        if what == "bid":
            return Choose("bid", int(value))
        return Pass()

    def observe(self, state: State) -> np.ndarray:
        n = self.players
        holders = np.zeros((len(self.blocks), n + 2))
        index = {b: i for i, b in enumerate(self.blocks)}
        for seat in range(n):
            for piece in state.hand(seat):
                holders[index[piece], seat] = 1.0
        for piece in state.supply:
            holders[index[piece], n] = 1.0
        for piece in state.frozen:
            holders[index[piece], n + 1] = 1.0
        auction = state.auction
        size = state.size_choice
        queue = [c.value for c in state.legal_decisions()
                 if getattr(c, "what", None) == "auction_order"] \
            if state.phase == Phase.AUCTION_ORDER else []
        parts = [
            pose_rows(state, ["beam"]).ravel(), pose_rows(state, self.blocks).ravel(),
            holders.ravel(), np.asarray(state.scores, float),
            np.array([1.0 if s in state.eliminated else 0.0 for s in range(n)]),
            [float(state.bank), float(state.low_end)],
            one_hot(PHASES.index(state.phase), len(PHASES)),
            [0.0, 0.0, 0.0] if auction is None else
            [1.0, float(piece_length(auction.piece)), float(auction.high)],
            one_hot(None if auction is None else auction.high_bidder, n),
            [1.0 if size is not None and k in size.options else 0.0 for k in self.lengths],
            [float(sum(piece_length(p) == k for p in queue)) for k in self.lengths],
        ]
        return np.concatenate([np.asarray(p, float) for p in parts])

    def out(self, state: State) -> set[int]:
        return set(state.eliminated)


ENCODING = TiltedEncoding
