"""Tilted's turns: the hand-over after a drop, buying (basic, solo), seats, turns,
eliminations and the rounds of the advanced game."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from balance3d.games.base import RecordError, Verdict
from balance3d.games.tilted.rules import Phase, piece_key, piece_length, roll_d6
from balance3d.games.tilted.verdicts import TiltedBuyVerdict


@dataclass(frozen=True)
class SizeChoice:
    """A die roll and the block lengths it offers (``options``: the rolled length,
    or the nearest shorter and longer ones the supply has) for ``purpose``: "buy",
    the block the player may buy (asked in the "buy" step, and in the "size" step
    when two lengths are offered); "auction", the block the round's roller puts up
    (asked only when two lengths are offered)."""

    roll: int
    options: list[int]
    purpose: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, as saved states hold it (``for`` is :attr:`purpose`)."""
        return {"roll": self.roll, "options": list(self.options), "for": self.purpose}

    @classmethod
    def from_dict(cls, data: Any) -> "SizeChoice":
        """Inverse of :meth:`to_dict` (:class:`RecordError` on bad data)."""
        if not isinstance(data, dict) or set(data) != {"roll", "options", "for"} \
                or data["for"] not in ("buy", "auction"):
            raise RecordError(f"saved pending_size must be {{'roll', 'options', 'for': 'buy' "
                              f"or 'auction'}}, got {data!r}")
        return cls(int(data["roll"]), [int(n) for n in data["options"]], data["for"])


class TurnsMixin:
    """The turn steps of :class:`~balance3d.games.tilted.state.TiltedState`."""

    def _after_drop(self, seat: int, returned: list[str]) -> dict[str, Any] | None:
        """Step 3 and the hand-over; returns the auction opened (advanced), if any."""
        if self.variant == "advanced":
            if returned:
                self._returned_queue = list(returned)
                self._offender = seat
                return self._next_returned_auction()
            return self._continue_round()
        if self._coins[seat] >= self.rules.buy_cost and self._supply:
            self._offer_block(seat)
        else:
            self._begin_turn(self._next_seat(seat))
        return None

    # -- buying (basic, solo)
    def _fallbacks(self, roll: int) -> list[int]:
        """Lengths on offer for a die ``roll``: that length if the supply has it,
        else the nearest smaller and larger lengths it has (one or both)."""
        have = {piece_length(p) for p in self._supply}
        if roll in have:
            return [roll]
        smaller = max((n for n in have if n < roll), default=None)
        larger = min((n for n in have if n > roll), default=None)
        return [n for n in (smaller, larger) if n is not None]

    def _take_from_supply(self, length: int) -> str:
        piece = next(p for p in self._supply if piece_length(p) == length)
        self._supply.remove(piece)
        return piece

    def _offer_block(self, seat: int) -> None:
        """Buying, first step: the die is rolled, and ``seat`` is asked whether to
        buy the block of the rolled length (or of a fallback length) for
        ``buy_cost``."""
        roll = roll_d6(self.rng)
        options = self._fallbacks(roll)
        lengths = " or ".join(f"{n}u" for n in options)
        self.log(seat, "roll", f"{self.players[seat].name} rolls {roll}: a {lengths} block "
                               f"is on offer", roll=roll, options=options)
        self._pending_size = SizeChoice(roll, options, "buy")
        self._phase = Phase.BUY

    def _apply_buy(self, buy: bool) -> TiltedBuyVerdict:
        seat, offer = self._current, self._pending_size
        name = self.players[seat].name
        if not buy:
            self._pending_size = None
            self.log(seat, "buy", f"{name} does not buy")
            self._begin_turn(self._next_seat(seat))
            return TiltedBuyVerdict(seat, f"rolled {offer.roll}: {name} does not buy", False,
                                    offer.roll, [], None, 0, list(self._coins), self._bank)
        if len(offer.options) == 2:
            self._phase = Phase.SIZE
            small, large = offer.options
            return TiltedBuyVerdict(seat, f"rolled {offer.roll}: choose {small}u or {large}u",
                                    True, offer.roll, list(offer.options), None, 0,
                                    list(self._coins), self._bank)
        self._pending_size = None
        piece = self._buy(seat, offer.options[0])
        return TiltedBuyVerdict(seat, f"rolled {offer.roll}: bought {piece}", True, offer.roll,
                                [], piece, self.rules.buy_cost, list(self._coins), self._bank)

    def _buy(self, seat: int, length: int) -> str:
        cost = self.rules.buy_cost
        piece = self._take_from_supply(length)
        self._hands[seat].append(piece)
        self._hands[seat].sort(key=piece_key)
        self._coins[seat] -= cost
        self._bank += cost
        self.log(seat, "buy", f"{self.players[seat].name} buys {piece} for {cost} coins",
                 piece=piece, paid=cost)
        self._begin_turn(self._next_seat(seat))
        return piece

    def _apply_size(self, length: int) -> Verdict:
        seat, pending = self._current, self._pending_size
        self._pending_size = None
        if pending.purpose == "buy":
            piece = self._buy(seat, length)
            return TiltedBuyVerdict(seat, f"chose {length}u: bought {piece}", None, None,
                                    pending.options, piece, self.rules.buy_cost,
                                    list(self._coins), self._bank)
        piece = next(p for p in self._supply if piece_length(p) == length)
        self.log(seat, "size", f"{self.players[seat].name} offers {piece}", piece=piece)
        return self._auction_verdict(seat, f"offers {piece}", None,
                                     self._open_auction("round", piece, seat))

    # -- turns and rounds
    def _next_seat(self, seat: int) -> int:
        """The next seat still in the game after ``seat``, clockwise (``seat`` itself
        when it is the only one)."""
        n = len(self.players)
        for k in range(1, n + 1):
            other = (seat + k) % n
            if other not in self._eliminated:
                return other
        return seat

    def _cannot_drop(self, seat: int) -> str | None:
        """Why ``seat`` cannot play a turn ("no_block", "no_legal_drop"), or None."""
        if not self._hands[seat]:
            return "no_block"
        if self._find_drop(seat) is None:
            return "no_legal_drop"
        return None

    def _eliminate(self, seat: int, reason: str) -> bool:
        """Put ``seat`` out of the game for ``reason`` (see :meth:`_cannot_drop`);
        True when the game is now over."""
        self._eliminated.append(seat)
        why = "has no block" if reason == "no_block" else "has no legal drop"
        self.log(seat, "eliminated", f"{self.players[seat].name} {why} and is out",
                 order=len(self._eliminated), reason=reason)
        left = [s for s in range(len(self.players)) if s not in self._eliminated]
        if self.variant == "solo" or len(left) <= 1:
            self._phase, self._current = Phase.OVER, None
            self._auction = self._pending_size = None
            if self.variant == "solo":
                text = f"game over: {self._coins[0]} coin(s) left"
            else:
                text = f"game over: {self.players[left[0]].name} wins"
            self.log(None, "over", text, coins=list(self._coins))
            return True
        return False

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn (basic, solo), eliminating players with no block or
        no legal drop."""
        while (reason := self._cannot_drop(seat)) is not None:
            if self._eliminate(seat, reason):
                return
            seat = self._next_seat(seat)
        self.turn += 1
        self._current, self._phase = seat, Phase.DROP

    def _begin_round(self, starter: int) -> None:
        """Start an advanced round with ``starter``."""
        n = len(self.players)
        self._round_left = [s for k in range(n) if (s := (starter + k) % n) not in self._eliminated]
        self.log(starter, "round", f"a round starts with {self.players[starter].name}")
        self._continue_round()

    def _continue_round(self) -> dict[str, Any] | None:
        """Next turn of the advanced round, or its auction when every player has
        played; returns the auction opened, if any."""
        while self._round_left:
            seat = self._round_left.pop(0)
            reason = self._cannot_drop(seat)
            if reason is None:
                self.turn += 1
                self._current, self._phase = seat, Phase.DROP
                return None
            if self._eliminate(seat, reason):
                return None
        roller = self._last_dropper
        if not self._supply:
            self.log(roller, "auction", "the supply is empty: no auction")
            self._begin_round(self._next_seat(roller))
            return None
        roll = roll_d6(self.rng)
        options = self._fallbacks(roll)
        self.log(roller, "roll", f"{self.players[roller].name} rolls {roll} for the auction",
                 roll=roll, options=options)
        if len(options) == 2:
            self._pending_size = SizeChoice(roll, options, "auction")
            self._current, self._phase = roller, Phase.SIZE
            return {"kind": "round", "roll": roll, "piece": None, "options": options}
        piece = next(p for p in self._supply if piece_length(p) == options[0])
        self._open_auction("round", piece, roller)
        return {"kind": "round", "roll": roll, "piece": piece, "options": []}

    # -- auctions (advanced)
