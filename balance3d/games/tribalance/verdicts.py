"""Tri-Ba-Lance's verdicts: what a placement and a pass did."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from balance3d.games.base import Verdict


@dataclass(frozen=True)
class TribalanceVerdict(Verdict):
    """What a placement did.

    piece, field, number : the piece placed, the field's index and its number.
    valid : no corner or side of the plate rested on the frame once the plate was
    still (judged before any piece was taken away).
    points : weight x number the piece scores where it stands (0 unless it stayed).
    tilt_deg : degrees, the plate's tilt when judged; tilt_direction_deg : degrees,
    world direction (from +x towards +y, seen from above) in which it slopes down.
    frame_contacts : the corners and sides resting on the frame when judged,
    ``{"kind": "corner" | "side", "index": i}`` each (corner 0 is the plate's +y
    corner, counted counter-clockwise seen from above; side i joins corners i, i+1).
    slid_off : pieces that left the plate during the turn, ``{"piece", "owner"}``,
    each back in its owner's hand.
    returned : every piece that went back to a hand (the placed piece when invalid,
    and the slid-off ones).
    tilt_after_deg : degrees, the plate's tilt once the returned pieces were taken
    away and everything was still again (the next turn's start).
    settle_time : s simulated in all.  settle_timed_out : a settle hit the scene's
    ``settle_max_time`` (the cap) before the plate was still.
    out : the player is out after this turn (an invalid turn once some player has
    placed all their pieces).  scores : per seat after the turn.
    """

    piece: str
    field: int
    number: int
    valid: bool
    points: int
    tilt_deg: float = field(metadata={"unit": "deg"})
    tilt_direction_deg: float = field(metadata={"unit": "deg"})
    frame_contacts: list[dict[str, Any]]
    slid_off: list[dict[str, Any]]
    returned: list[str]
    tilt_after_deg: float = field(metadata={"unit": "deg"})
    settle_time: float = field(metadata={"unit": "s"})
    settle_timed_out: bool
    out: bool
    scores: list[int]


@dataclass(frozen=True)
class TribalancePassVerdict(Verdict):
    """A pass: the player is out (``scores`` per seat after it)."""

    scores: list[int]
