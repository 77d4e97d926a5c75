"""What the games' tuning experiments share, with no game named here: the hand's
jittered release of a drop (:func:`jittered_drop`) and the per-drop rates a bot-games
experiment reads from its verdicts (:func:`per_drop_rates`)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from balance3d.games.base import Drop, State
from balance3d.games.bot_games import rate, verdicts
from balance3d.games.experiment import Jitter


def jittered_drop(jitter: Jitter, rng: np.random.Generator, piece: str, x: float, y: float,
                  height: float, yaw: float, pose: str) -> Drop:
    """The hand's drop of ``piece`` aimed at (``x``, ``y``) m, released ``height`` m
    up, turned ``yaw`` rad, in ``pose``, missed by one draw of ``jitter`` (position
    in x and y, yaw, height: :meth:`Jitter.draw`)."""
    dx, dy, dyaw, dh = jitter.draw(rng)
    return Drop(piece, float(x + dx), float(y + dy), height + dh, yaw + dyaw, pose)


def per_drop_rates(state: State, kind: str,
                   counts: Mapping[str, Callable[[dict[str, Any]], float]]) -> dict[str, float]:
    """name -> the count ``counts[name]`` gives each verdict of class ``kind`` in
    ``state``'s history, summed and divided by the number of such verdicts (0 when
    there is none)."""
    drops = verdicts(state, kind)
    return {name: rate(sum(count(v) for v in drops), len(drops))
            for name, count in counts.items()}


__all__ = ["jittered_drop", "per_drop_rates"]
