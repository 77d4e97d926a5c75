"""What the window says about Tilted: seat lines, prompts, decision buttons,
verdicts and refusals (no Panda3D).  Every number shown is read from the state or
the verdict, never worked out here.  Blocks are named by their length ("the 6-long
block"), the beam's ends by the tray each lies by ("the end by the supply"), never
by ids or axes."""
from __future__ import annotations

import re

import numpy as np

from balance3d.games.base import Action, Choose, Pass, State, Verdict, action_to_dict
from balance3d.games.tilted.judge import BEAM, FULCRUM, TABLE, BeamFrame
from balance3d.games.tilted.rules import Phase, piece_length
from balance3d.games.tilted.turns import SizeChoice
from balance3d.games.tilted.verdicts import (TiltedAuctionVerdict, TiltedBuyVerdict,
                                             TiltedVerdict)
from balance3d.gui.games.tilted.mats import tray_mats
from balance3d.gui.games.words import (common_refusal, count, height_refusal, join_names,
                                       number_word, result_words)
from balance3d.record import describe_action

#: What the fixed bodies are called.
BODY_NAMES = {BEAM: "the beam", FULCRUM: "the fulcrum", TABLE: "the table"}



#: A block's id in a game's sentence ("6u-5"), its length the group.
BLOCK_ID = re.compile(r"\b(\d+)u-\d+\b")


def unid(text: str) -> str:
    """``text`` (a sentence of the game's) with every block id as "a 6-long block"."""
    return BLOCK_ID.sub(lambda m: f"a {m[1]}-long block", text)


def block(piece: str) -> str:
    """``"6-long block"``: a block by its length (blocks of one length are alike)."""
    return f"{piece_length(piece)}-long block"


def _tray_by(state: State, end: int) -> str | None:
    """Whose tray lies beyond the beam's end ``end`` (its mat's middle further out
    along the beam than the end): "the supply", "your tray", "Bob's tray"; None
    when no tray does."""
    frame = BeamFrame.of(state.world)
    centre = frame.to_world([(0.0, 0.0, 0.0)])[0][:2]
    axis = (frame.to_world([(end * frame.half[0], 0.0, 0.0)])[0][:2] - centre)
    reach = float(np.hypot(*axis))
    best = None
    for seat, mat, _, _ in tray_mats(state):
        x0, y0, x1, y1 = mat.bounds()
        offset = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0]) - centre
        out = float(offset @ axis) / reach
        if out > reach and (best is None or out < best[0]):
            best = (out, seat)
    if best is None:
        return None
    seat = best[1]
    if seat is None:
        return "the supply"
    return "your tray" if seat == state.current_player else f"{state.players[seat].name}'s tray"


def end_name(state: State, end: int) -> str:
    """``"the end by the supply"``, ``"the end by Bob's tray"``, ``"the end away from
    the supply"``: the beam's end ``end`` (+1 or -1 along the beam) by the tray
    lying beyond it on the table, else away from the one beyond the other end."""
    here = _tray_by(state, end)
    if here is not None:
        return f"the end by {here}"
    there = _tray_by(state, -end)
    return f"the end away from {there}" if there is not None else "the high end"


def high_end(state: State) -> str:
    """The high end of the beam in words, with the arrow that marks it."""
    return f"{end_name(state, -state.low_end)}, where the arrow points"


def offer_words(offer: SizeChoice, cost: int) -> str:
    """The buying question once the die has rolled: what it offers, for how much."""
    price = count(cost, "coin")
    if offer.options == [offer.roll]:
        return f"the die rolled {offer.roll}: buy the {offer.roll}-long block for {price}?"
    lengths = " or a ".join(f"{n}-long" for n in offer.options)
    pick = ", your pick" if len(offer.options) == 2 else ""
    return (f"the die rolled {offer.roll}, no {offer.roll}-long block is left: buy a "
            f"{lengths} block for {price}{pick}?")


class TiltedText:
    """Tilted's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  4 coins  6 blocks``, with ``out`` for an eliminated seat."""
        line = (f"{state.players[seat].name}  {count(state.scores[seat], 'coin')}  "
                f"{count(len(state.hand(seat)), 'block')}")
        return line + "  out" if seat in state.eliminated else line

    def prompt(self, state: State) -> str:
        """What the current player is asked for now; the game-over line at the end."""
        if state.is_over:
            over = [e.text for e in state.events if e.kind == "over"]
            return over[-1] if over else "game over"
        name = state.players[state.current_player].name
        phase = state.phase
        if phase == Phase.DROP:
            return f"{name}: drop a block on the high side of the beam ({high_end(state)})"
        if phase == Phase.BUY:
            return f"{name}: {offer_words(state.size_choice, state.rules.buy_cost)}"
        if phase == Phase.SIZE:
            choice = state.size_choice
            small, large = choice.options
            what = "to buy" if choice.purpose == "buy" else "to put up for auction"
            return (f"{name}: rolled {choice.roll}, no {choice.roll}-long block is left: pick "
                    f"a {small}-long or a {large}-long block {what}")
        if phase == Phase.AUCTION_ORDER:
            lengths = [piece_length(a.value) for a in state.legal_decisions()]
            blocks = [f"a {n}-long block" if lengths.count(n) == 1
                      else f"{number_word(lengths.count(n))} {n}-long blocks"
                      for n in dict.fromkeys(lengths)]
            return (f"{name}: pick the returned block to auction next "
                    f"({join_names(blocks, 'or')})")
        auction = state.auction
        need = min(a.value for a in state.legal_decisions() if isinstance(a, Choose))
        if auction.high_bidder is None:
            return (f"{name}: bid at least {count(need, 'coin')} for the {block(auction.piece)} "
                    f"(lit in the supply) or pass (no bid yet)")
        return (f"{name}: raise to at least {count(need, 'coin')} for the "
                f"{block(auction.piece)} (lit in the supply) or pass (high bid {auction.high} "
                f"by {state.players[auction.high_bidder].name})")

    def decision_label(self, state: State, action: Action) -> str:
        """Button text for one of ``state.legal_decisions()``."""
        if isinstance(action, Pass):
            return "Pass"
        if isinstance(action, Choose):
            if action.what == "buy":
                if not action.value:
                    return "Don't buy"
                price, options = count(state.rules.buy_cost, "coin"), state.size_choice.options
                return (f"Buy the {options[0]}-long block ({price})" if len(options) == 1
                        else f"Buy ({price}), then pick the length")
            if action.what == "size":
                return f"{action.value}-long block"
            if action.what == "auction_order":
                return f"Auction the {block(action.value)} next"
            if action.what == "bid":
                return f"Bid {count(action.value, 'coin')}"
        return describe_action(action_to_dict(action))

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """The verdict's summary, then what it did: the tilt and the coins won, the
        blocks returned and why, the penalty; a purchase; an auction's state."""
        lines = [unid(verdict.summary)]
        if isinstance(verdict, TiltedVerdict):
            lines = [f"the {block(verdict.piece)}: "
                     f"{'tilted' if verdict.tilted else 'not tilted'}, "
                     f"+{count(verdict.coins_won, 'coin')}"]
            if verdict.tilted and verdict.value is None:
                lines.append(f"the beam tilts, but the {block(verdict.piece)} goes back: "
                             f"no coins")
            elif verdict.tilted:
                lines.append(f"the beam tilts: the {block(verdict.piece)} is worth "
                             f"{count(verdict.value, 'coin')}, "
                             f"{count(verdict.coins_won, 'coin')} won")
            elif verdict.beam_resting:
                lines.append("the beam does not tilt: no coins")
            else:
                lines.append("the beam rests on neither end: no coins")
            lines.extend(f"a {block(item['piece'])} goes back to the supply: {item['reason']}"
                         for item in verdict.returned)
            if verdict.penalty_due:
                lines.append(f"penalty: {verdict.penalty_paid} of "
                             f"{count(verdict.penalty_due, 'coin')} paid")
            if verdict.frozen:
                lines.append("frozen: " + ", ".join(block(p) for p in verdict.frozen))
            if verdict.settle_timed_out:
                lines.append(f"the settle hit its time cap ({verdict.settle_time:.1f} s)")
        elif isinstance(verdict, TiltedBuyVerdict):
            if verdict.roll is not None:
                lines.append(f"the die: {verdict.roll}")
            if verdict.piece is not None:
                lines.append(f"bought a {block(verdict.piece)} for "
                             f"{count(verdict.paid, 'coin')}")
        elif isinstance(verdict, TiltedAuctionVerdict):
            if verdict.closed:
                lines.append(f"the {block(verdict.piece)} sold for "
                             f"{count(verdict.price, 'coin')}" if verdict.winner is not None
                             else f"the {block(verdict.piece)}: no sale")
            elif verdict.high_bidder is not None:
                lines.append(f"the {block(verdict.piece)}: high bid "
                             f"{count(verdict.high_bid, 'coin')}")
        return lines

    def confirm(self, state: State, action: Action) -> str | None:
        """No decision of this game ends a player's game: nothing to confirm."""
        return None


    def piece_name(self, state: State, piece: str) -> str:
        """``"your 6-long block"``, ``"Bob's 6-long block"``, ``"the 6-long block in
        the supply"``, ``"the 6-long block on the beam"``."""
        for seat in range(len(state.players)):
            if piece in state.hand(seat):
                whose = ("your" if seat == state.current_player
                         else f"{state.players[seat].name}'s")
                return f"{whose} {block(piece)}"
        where = "in the supply" if piece in state.supply else "on the beam"
        return f"the {block(piece)} {where}"

    def result_lines(self, state: State, record: dict) -> list[str]:
        """The result at the end in a player's words, each seat's coins beside
        its rank."""
        return result_words(state, lambda seat: count(int(state.outcome.scores[seat]), "coin"),
                            "coins")

    def refusal(self, state: State, reason: str) -> str:
        """The game's refusal in a player's words, saying what to do instead."""
        code, data = getattr(reason, "code", ""), getattr(reason, "data", {})
        if code == "not_yours":
            what = self.piece_name(state, data["piece"])
            if data["place"] == "nowhere":
                return "Pick one of your own blocks from your tray."
            return (f"That is {what}: pick one of your own blocks from your tray"
                    + (" (or buy one when the die lets you)." if data["place"] == "supply"
                       else "."))
        if code in ("off_beam", "low_side"):
            where = ("That point is off the beam" if code == "off_beam"
                     else "That is the beam's low side")
            return f"{where}: drop on the high side, {high_end(state)}."
        if code == "over_frozen":
            return ("A frozen block lies there (it stays for good): drop beside it, "
                    "not above it.")
        if code == "overlap":
            hits = join_names([BODY_NAMES.get(h) or self.piece_name(state, h)
                               for h in data["hits"]])
            return (f"The {block(data['piece'])} would start inside {hits}: raise it (W) or "
                    f"move it clear.")
        if code == "height":
            return height_refusal(reason)
        if code in ("drop_asked", "no_pass", "decision_value"):
            return {"drop_asked": "Drop one of your blocks first: pick it from your tray.",
                    "no_pass": "There is no passing now: answer with one of the buttons.",
                    "decision_value": "Choose one of the buttons."}[code]
        if code == "decision_asked":
            return "Answer the question first: click one of its buttons."
        if code in ("bid_whole", "bid_low"):
            need = state.legal_decisions()
            least = min((a.value for a in need if isinstance(a, Choose)), default=None)
            return (f"Bid at least {count(least, 'coin')}, or pass." if least is not None
                    else "Pass: you cannot bid more now.")
        if code == "bid_high":
            return f"You have only {count(data['have'], 'coin')}: bid less, or pass."
        return common_refusal(reason)


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TiltedText()

__all__ = ["TEXT", "TiltedText"]
