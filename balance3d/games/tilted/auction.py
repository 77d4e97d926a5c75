"""Tilted's auctions (advanced): the open auction as a typed record, and the steps
of bidding (see the package docstring, "Advanced")."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from balance3d.games.base import Action, Pass, RecordError
from balance3d.games.tilted.rules import Phase, piece_key
from balance3d.games.tilted.verdicts import TiltedAuctionVerdict


@dataclass
class Auction:
    """The auction of one block.

    kind : "round" (the round's auction) or "returned" (a block a drop returned).
    piece : the block on offer (in the supply).
    order : seats in bidding order.  bidders : seats still in the auction.
    high : coins, the highest bid so far (0: none).  high_bidder : its seat.
    last : the seat that acted last (bidding goes on after it).
    """

    kind: str
    piece: str
    order: list[int]
    bidders: list[int]
    high: int = 0
    high_bidder: int | None = None
    last: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as saved states hold it (``in`` is :attr:`bidders`)."""
        return {"kind": self.kind, "piece": self.piece, "order": list(self.order),
                "in": list(self.bidders), "high": self.high, "high_bidder": self.high_bidder,
                "last": self.last}

    @classmethod
    def from_dict(cls, data: Any) -> "Auction":
        """Inverse of :meth:`to_dict` (:class:`RecordError` naming the field)."""
        keys = {"kind", "piece", "order", "in", "high", "high_bidder", "last"}
        if not isinstance(data, dict) or set(data) != keys:
            raise RecordError(f"saved auction must have exactly the fields {sorted(keys)}, "
                              f"got {data!r}")
        if data["kind"] not in ("round", "returned"):
            raise RecordError(f"saved auction.kind must be 'round' or 'returned', "
                              f"got {data['kind']!r}")
        return cls(str(data["kind"]), str(data["piece"]), [int(s) for s in data["order"]],
                   [int(s) for s in data["in"]], int(data["high"]),
                   None if data["high_bidder"] is None else int(data["high_bidder"]),
                   None if data["last"] is None else int(data["last"]))


@dataclass(frozen=True)
class AuctionStep:
    """What one auction step did: ``passed`` (seats that passed, automatically or
    not) and, when the auction closed, ``closed`` (the auction) and ``winner``
    (None: no sale)."""

    passed: list[int] = field(default_factory=list)
    closed: Auction | None = None
    winner: int | None = None


class AuctionsMixin:
    """The auction steps of :class:`~balance3d.games.tilted.state.TiltedState`."""

    def _min_raise(self) -> int:
        return max(self._auction.high + 1, self.rules.auction_min_bid)

    def _next_returned_auction(self) -> dict[str, Any] | None:
        queue = self._returned_queue
        if not queue:
            self._offender = None
            return self._continue_round()
        if len(queue) > 1:
            self._current, self._phase = self._offender, Phase.AUCTION_ORDER
            return {"kind": "returned", "roll": None, "piece": None, "options": list(queue)}
        piece = queue.pop(0)
        self._open_auction("returned", piece, self._next_seat(self._offender))
        return {"kind": "returned", "roll": None, "piece": piece, "options": []}

    def _apply_order(self, piece: str) -> TiltedAuctionVerdict:
        seat = self._current
        self._returned_queue.remove(piece)
        self.log(seat, "auction_order", f"{self.players[seat].name} puts {piece} up next",
                 piece=piece)
        return self._auction_verdict(seat, f"puts {piece} up for auction", None,
                                     self._open_auction("returned", piece,
                                                        self._next_seat(self._offender)))

    def _open_auction(self, kind: str, piece: str, first: int) -> AuctionStep:
        """Open the auction of ``piece`` (in the supply) with ``first`` to bid; see
        :meth:`_advance_auction` for the result."""
        n = len(self.players)
        order = [s for k in range(n) if (s := (first + k) % n) not in self._eliminated]
        self._auction = Auction(kind, piece, order, list(order))
        self.log(first, "auction", f"{piece} is up for auction; {self.players[first].name} "
                                   f"bids first", auction=kind, piece=piece)
        return self._advance_auction(first_turn=True)

    def _advance_auction(self, first_turn: bool = False) -> AuctionStep:
        """Give the turn to the next bidder who can raise (passing the others
        automatically), or close the auction."""
        a, passed = self._auction, []
        order = a.order
        index = 0 if first_turn else order.index(a.last) + 1
        while True:
            if not a.bidders:
                return self._close_auction(None, passed)
            seat = order[index % len(order)]
            index += 1
            if seat not in a.bidders:
                continue
            if seat == a.high_bidder:
                return self._close_auction(seat, passed)
            if self._coins[seat] < self._min_raise():
                a.bidders.remove(seat)
                a.last = seat
                passed.append(seat)
                self.log(seat, "pass", f"{self.players[seat].name} cannot raise and is out of "
                                       f"the auction", automatic=True)
                continue
            self._current, self._phase = seat, Phase.BID
            return AuctionStep(passed)

    def _apply_bid(self, action: Action) -> TiltedAuctionVerdict:
        seat, a = self._current, self._auction
        name = self.players[seat].name
        a.last = seat
        if isinstance(action, Pass):
            a.bidders.remove(seat)
            self.log(seat, "pass", f"{name} declines", automatic=False)
            step = self._advance_auction()
            step.passed.insert(0, seat)
            return self._auction_verdict(seat, f"{name} declines", None, step)
        bid = int(action.value)
        a.high, a.high_bidder = bid, seat
        self.log(seat, "bid", f"{name} bids {bid}", bid=bid)
        return self._auction_verdict(seat, f"{name} bids {bid}", bid, self._advance_auction())

    def _close_auction(self, winner: int | None, passed: list[int]) -> AuctionStep:
        """Sell the block to ``winner`` (None: no sale), then go on with the game."""
        a = self._auction
        self._auction = None
        piece, price = a.piece, a.high
        if winner is None:
            self.log(None, "auction", f"no bid for {piece}; it stays in the supply", piece=piece)
        else:
            self._supply.remove(piece)
            self._hands[winner].append(piece)
            self._hands[winner].sort(key=piece_key)
            self._coins[winner] -= price
            self._bank += price
            self.log(winner, "auction", f"{self.players[winner].name} buys {piece} for {price}",
                     piece=piece, price=price)
        if a.kind == "returned":
            self._next_returned_auction()
        else:
            self._begin_round(winner if winner is not None else self._next_seat(self._last_dropper))
        return AuctionStep(passed, a, winner)

    def _auction_verdict(self, seat: int, text: str, bid: int | None,
                         step: AuctionStep) -> TiltedAuctionVerdict:
        info = step.closed if step.closed is not None else self._auction
        winner = step.winner
        if step.closed is not None:
            text += (f"; {self.players[winner].name} buys {info.piece} for {info.high}"
                     if winner is not None else f"; no sale of {info.piece}")
        return TiltedAuctionVerdict(
            player=seat, summary=text, auction=info.kind, piece=info.piece, bid=bid,
            high_bid=info.high, high_bidder=info.high_bidder, passed=step.passed,
            closed=step.closed is not None, winner=winner,
            price=info.high if winner is not None else None,
            coins=list(self._coins), bank=self._bank)
