"""Tilted's verdicts: what a drop, a buy decision and an auction decision did."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from balance3d.games.base import Verdict

@dataclass(frozen=True)
class TiltedVerdict(Verdict):
    """What a drop did.

    piece : the block dropped.  release : (3,) m, its body position at release.
    tilted : the drop settled with the beam on its other end (judged before any
    returned block was taken away).
    low_end_before, low_end_after : the beam end (+1 / -1, beam frame x) on the
    table before the drop and once the returned blocks are gone and everything has
    settled again (the lower end when neither rests): the next turn's low end.
    beam_resting : an end of the beam rested on the table when the drop settled.
    blocks : every block left on the beam at the end: ``piece``, ``sections``
    (values touched on the top face), ``supports`` (blocks it rests on), ``value``
    (coins it is worth), ``across`` (lies across the fulcrum line), ``frozen``.
    value : the dropped block's value when the drop settled (None when it was
    returned then).
    coins_won : coins paid by the bank for the drop.
    returned : blocks sent back to the supply, ``{"piece", "reason"}`` each.
    penalty_due, penalty_paid : coins.  coins : per seat after the drop.
    bank : coins in the bank (may be negative).  frozen : frozen blocks.
    settle_time : s simulated.  settle_timed_out : a settle hit its time cap.
    settles : settle rounds (one more after each removal of returned blocks).
    auction : the auction this drop opened in the advanced game (kind, piece, roll),
    else None.
    """

    piece: str
    release: list[float] = field(metadata={"unit": "m"})
    tilted: bool
    low_end_before: int
    low_end_after: int
    beam_resting: bool
    blocks: list[dict[str, Any]]
    value: int | None
    coins_won: int
    returned: list[dict[str, str]]
    penalty_due: int
    penalty_paid: int
    coins: list[int]
    bank: int
    frozen: list[str]
    settle_time: float = field(metadata={"unit": "s"})
    settle_timed_out: bool
    settles: int
    auction: dict[str, Any] | None


@dataclass(frozen=True)
class TiltedBuyVerdict(Verdict):
    """What a buy decision did: ``buy`` (the decision, None for a size choice),
    ``roll`` (the die rolled before the decision, None for a size choice),
    ``options`` (fallback lengths offered, when the player must choose one),
    ``piece`` bought (None if none),
    ``paid`` coins, ``coins`` per seat and ``bank`` after."""

    buy: bool | None
    roll: int | None
    options: list[int]
    piece: str | None
    paid: int
    coins: list[int]
    bank: int


@dataclass(frozen=True)
class TiltedAuctionVerdict(Verdict):
    """What an auction decision did (advanced): ``auction`` ("round" or
    "returned"), ``piece`` on offer, ``bid`` made (None for a pass or a choice),
    ``high_bid`` and ``high_bidder`` after it, ``passed`` (seats that declined with
    this action, including those passed automatically), and when the auction
    closed: ``closed``, ``winner`` (None: no sale) and ``price``; ``coins`` per
    seat and ``bank`` after."""

    auction: str
    piece: str
    bid: int | None
    high_bid: int
    high_bidder: int | None
    passed: list[int]
    closed: bool
    winner: int | None
    price: int | None
    coins: list[int]
    bank: int
