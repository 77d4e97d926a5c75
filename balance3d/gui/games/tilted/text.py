"""What the window says about Tilted: seat lines, prompts, decision buttons and
verdicts (no Panda3D).  Every number shown is read from the state or the verdict,
never worked out here."""
from __future__ import annotations

from balance3d.games.base import Action, Choose, Pass, State, Verdict, action_to_dict
from balance3d.games.tilted.rules import Phase
from balance3d.games.tilted.verdicts import (TiltedAuctionVerdict, TiltedBuyVerdict,
                                             TiltedVerdict)
from balance3d.record import describe_action


def _count(n: int, word: str) -> str:
    """``1 coin``, ``3 coins``, ``-2 coins``."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def _end(end: int) -> str:
    """``+x`` or ``-x``: a beam end by its side of the beam frame."""
    return "+x" if end > 0 else "-x"


class TiltedText:
    """Tilted's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  4 coins  6 blocks``, with ``out`` for an eliminated seat."""
        line = (f"{state.players[seat].name}  {_count(state.scores[seat], 'coin')}  "
                f"{_count(len(state.hand(seat)), 'block')}")
        return line + "  out" if seat in state.eliminated else line

    def prompt(self, state: State) -> str:
        """What the current player is asked for now; the game-over line at the end."""
        if state.is_over:
            over = [e.text for e in state.events if e.kind == "over"]
            return over[-1] if over else "game over"
        name = state.players[state.current_player].name
        phase = state.phase
        if phase == Phase.DROP:
            return (f"{name}: drop a block on the high side (the {_end(-state.low_end)} end "
                    f"of the beam)")
        if phase == Phase.BUY:
            return (f"{name}: buy a block from the supply for "
                    f"{_count(state.rules.buy_cost, 'coin')}? (the die says which)")
        if phase == Phase.SIZE:
            choice = state.size_choice
            small, large = choice.options
            what = "to buy" if choice.purpose == "buy" else "to put up for auction"
            return (f"{name}: rolled {choice.roll}, no {choice.roll}u block is left: pick a "
                    f"{small}u or a {large}u block {what}")
        if phase == Phase.AUCTION_ORDER:
            blocks = [a.value for a in state.legal_decisions()]
            return f"{name}: pick the returned block to auction next ({', '.join(blocks)})"
        auction = state.auction
        need = min(a.value for a in state.legal_decisions() if isinstance(a, Choose))
        if auction.high_bidder is None:
            return (f"{name}: bid at least {_count(need, 'coin')} for {auction.piece} or "
                    f"pass (no bid yet)")
        return (f"{name}: raise to at least {_count(need, 'coin')} for {auction.piece} or "
                f"pass (high bid {auction.high} by {state.players[auction.high_bidder].name})")

    def decision_label(self, state: State, action: Action) -> str:
        """Button text for one of ``state.legal_decisions()``."""
        if isinstance(action, Pass):
            return "Pass"
        if isinstance(action, Choose):
            if action.what == "buy":
                return (f"Buy ({_count(state.rules.buy_cost, 'coin')})" if action.value
                        else "Don't buy")
            if action.what == "size":
                return f"{action.value}u block"
            if action.what == "auction_order":
                return f"Auction {action.value} next"
            if action.what == "bid":
                return f"Bid {_count(action.value, 'coin')}"
        return describe_action(action_to_dict(action))

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """The verdict's summary, then what it did: the tilt and the coins won, the
        blocks returned and why, the penalty; a purchase; an auction's state."""
        lines = [verdict.summary]
        if isinstance(verdict, TiltedVerdict):
            if verdict.tilted and verdict.value is None:
                lines.append(f"the beam tilts, but {verdict.piece} goes back: no coins")
            elif verdict.tilted:
                lines.append(f"the beam tilts: {verdict.piece} is worth "
                             f"{_count(verdict.value, 'coin')}, "
                             f"{_count(verdict.coins_won, 'coin')} won")
            elif verdict.beam_resting:
                lines.append("the beam does not tilt: no coins")
            else:
                lines.append("the beam rests on neither end: no coins")
            lines.extend(f"{item['piece']} goes back to the supply: {item['reason']}"
                         for item in verdict.returned)
            if verdict.penalty_due:
                lines.append(f"penalty: {verdict.penalty_paid} of "
                             f"{_count(verdict.penalty_due, 'coin')} paid")
            if verdict.frozen:
                lines.append("frozen: " + ", ".join(verdict.frozen))
            if verdict.settle_timed_out:
                lines.append(f"the settle hit its time cap ({verdict.settle_time:.1f} s)")
        elif isinstance(verdict, TiltedBuyVerdict):
            if verdict.roll is not None:
                lines.append(f"the die: {verdict.roll}")
            if verdict.piece is not None:
                lines.append(f"bought {verdict.piece} for {_count(verdict.paid, 'coin')}")
        elif isinstance(verdict, TiltedAuctionVerdict):
            if verdict.closed:
                lines.append(f"{verdict.piece} sold for {_count(verdict.price, 'coin')}"
                             if verdict.winner is not None else f"{verdict.piece}: no sale")
            elif verdict.high_bidder is not None:
                lines.append(f"{verdict.piece}: high bid {_count(verdict.high_bid, 'coin')}")
        return lines

    def confirm(self, state: State, action: Action) -> str | None:
        """No decision of this game ends a player's game: nothing to confirm."""
        return None


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TiltedText()

__all__ = ["TEXT", "TiltedText"]
