"""Tower's verdicts: what a drop and a decision did."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from balance3d.games.base import Verdict


@dataclass(frozen=True)
class TowerDropVerdict(Verdict):
    """What a drop did.

    piece : the piece played.  release : (3,) m, its body-frame position at release.
    level : the level the rule read at release (1 + the level of what lay under its
    footprint).  rests_on_level : the level it came to rest on (None when it left
    the game).
    fallen : pieces of the player's tower (the played one included) that fell, in
    the order they were found; removed : every piece that left the game this turn
    (the fallen ones, and the played piece when anything fell).
    knocked : owner seat (as a string) -> that tower's pieces the drop toppled
    (they fell, by the reading of ``fallen``, and moved more than
    ``knock_tolerance``); those towers were restored to their state before the turn.
    out : the player is out (a tower stood on their base before the drop, and
    nothing of it is left).  heights : m, per seat after
    the turn.  settle_time : s simulated in all.  settle_timed_out : a settle hit
    the scene's cap.  vertical_unmet : a "next piece vertical" card was pending and
    the piece does not stand vertically at rest (or left the game): the card still
    stands for the player's next piece.
    """

    piece: str
    release: list[float] = field(metadata={"unit": "m"})
    level: int
    rests_on_level: int | None
    fallen: list[str]
    removed: list[str]
    knocked: dict[str, list[str]]
    out: bool
    heights: list[float] = field(metadata={"unit": "m"})
    settle_time: float = field(metadata={"unit": "s"})
    settle_timed_out: bool
    vertical_unmet: bool


@dataclass(frozen=True)
class TowerChoiceVerdict(Verdict):
    """A decision: ``what`` was chosen (the Choose's ``what``), its ``value``, and
    ``effects``: what followed until the next decision or drop, as the event log
    tells it (``{"kind", "player", "text"}`` each)."""

    what: str
    value: Any
    effects: list[dict[str, Any]]
