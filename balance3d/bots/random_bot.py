"""The ``random`` bot: a seeded, uniformly random legal action.

Decisions (buy, size, bid, pass ...) are drawn uniformly from
``state.legal_decisions()``.  A drop draws, independently and uniformly:

- the piece among ``state.legal_pieces()``;
- the release point (x, y): a region of ``state.release_area()`` is chosen with
  probability proportional to its polygon's area, then the point uniformly in that
  polygon's bounding box (m; a point outside the polygon is refused by the game);
- the yaw in [0, pi) rad (a box turned by pi is the same drop);
- the pose among "flat", "edge" and "upright";
- the release height in [:data:`HEIGHT_MIN`, :data:`HEIGHT_MAX`] m above the surface
  beneath.

A placement (in a game whose action types include "place") draws the piece among
``state.legal_pieces()`` and the field among the ``field`` indices of the regions of
``state.release_area()`` (one region per free field), independently and uniformly.

A draw the game refuses (``state.is_legal``: say, over a frozen block) is drawn
again, up to :data:`MAX_TRIES` times; then the bot plays the legal action the game
itself finds (``state.legal_release()``), so it never stalls where one exists.
"""
from __future__ import annotations

import math

import numpy as np

from balance3d import planar
from balance3d.bots import BotError, bot_rng
from balance3d.games.base import POSES, Action, Drop, Place, State

#: m, lowest and highest release height (clearance above the surface beneath).
HEIGHT_MIN = 0.002
HEIGHT_MAX = 0.05
#: Drops drawn before giving up when every one is illegal.
MAX_TRIES = 200


def random_drop(state: State, rng: np.random.Generator) -> Drop:
    """One uniformly random drop for the current player (not checked for legality)."""
    pieces = state.legal_pieces()
    if not pieces:
        raise BotError(f"seat {state.current_player} has no piece to drop")
    area = state.release_area()
    polygons = [np.asarray(r["polygon"], dtype=float).reshape(-1, 2)
                for r in (area or {"regions": []})["regions"]]
    areas = np.array([planar.area(p) for p in polygons], dtype=float)
    if not polygons or not areas.sum() > 0:
        raise BotError(f"seat {state.current_player} has no release area")
    chosen = polygons[rng.choice(len(polygons), p=areas / areas.sum())]
    (x0, y0), (x1, y1) = chosen.min(axis=0), chosen.max(axis=0)
    return Drop(piece=str(pieces[rng.integers(len(pieces))]),
                x=float(rng.uniform(x0, x1)), y=float(rng.uniform(y0, y1)),
                height=float(rng.uniform(HEIGHT_MIN, HEIGHT_MAX)),
                yaw=float(rng.uniform(0.0, math.pi)),
                pose=POSES[rng.integers(len(POSES))])


def random_place(state: State, rng: np.random.Generator) -> Place:
    """One uniformly random placement for the current player: a piece among
    ``state.legal_pieces()`` on a field among the release area's regions (not
    checked for legality)."""
    pieces = state.legal_pieces()
    if not pieces:
        raise BotError(f"seat {state.current_player} has no piece to place")
    fields = [r["field"] for r in (state.release_area() or {"regions": []})["regions"]]
    if not fields:
        raise BotError(f"seat {state.current_player} has no free field")
    return Place(piece=str(pieces[rng.integers(len(pieces))]),
                 field=int(fields[rng.integers(len(fields))]))


class RandomBot:
    """Uniformly random legal actions from its own generator (game seed, seat)."""

    name = "random"
    #: Games it plays: any whose pieces are dropped into a release area or placed on
    #: its fields.
    games = None

    def __init__(self, seed: int, seat: int) -> None:
        self.seat = seat
        self.rng = bot_rng(seed, seat)

    def choose(self, state: State) -> Action:
        """A random legal action for ``state.current_player`` (state unchanged)."""
        decisions = state.legal_decisions()
        if decisions:
            return decisions[self.rng.integers(len(decisions))]
        draw = random_place if "place" in state.game.action_types else random_drop
        reasons = set()
        for _ in range(MAX_TRIES):
            action = draw(state, self.rng)
            ok, reason = state.is_legal(action)
            if ok:
                return action
            reasons.add(reason)
        found = state.legal_release()
        if found is None:
            raise BotError(f"random bot (seat {self.seat}): the game offers no legal action "
                           f"and {MAX_TRIES} random ones were refused: "
                           f"{'; '.join(sorted(reasons))}")
        return found
