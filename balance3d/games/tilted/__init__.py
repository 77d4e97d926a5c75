"""Tilted: drop wooden blocks on the high side of a beam on a fulcrum to tip it.

This package plays Tilted as written below: the table rules, and every reading
balance3d chose where a table rulebook leaves a simulator a choice.  Every quantity
is SI: metres, kilograms, seconds; coins are whole numbers.  The judge reads the
settled World (:mod:`balance3d.games.tilted.judge`); it never guesses from the
release point.

Modules: :mod:`~balance3d.games.tilted.rules` (the scene's rule values),
:mod:`~balance3d.games.tilted.state` (the state machine),
:mod:`~balance3d.games.tilted.drops` (drops: legality, physics, judging),
:mod:`~balance3d.games.tilted.turns` (turns, rounds, buying),
:mod:`~balance3d.games.tilted.auction` (auctions, advanced),
:mod:`~balance3d.games.tilted.verdicts` and :mod:`~balance3d.games.tilted.judge`.

Decisions a player is asked for (``State.phase``)
    ``"drop"``           a :class:`~balance3d.games.base.Drop` of one of their blocks.
    ``"buy"``            ``Choose("buy", True)`` or ``Choose("buy", False)``, the die
                         already rolled (``State.size_choice``).
    ``"size"``           ``Choose("size", n)``: the larger or the smaller fallback length.
    ``"bid"``            ``Choose("bid", amount)`` (advanced) or ``Pass()`` to decline.
    ``"auction_order"``  ``Choose("auction_order", piece)``: the returned block to
                         auction next (advanced).
    ``"over"``           nothing: the game has ended.

Blocks are named ``"{length}u-{set}"`` (``"3u-2"`` is the 3-unit block of set 2);
the same name is the block's body in the World while it is on the beam.

Readings of the rules (where the table rules leave a choice)
-----------------------------------------------------------
Setup
    Seat ``i`` takes set ``i + 1``; the other sets are the supply.  The first player
    is found by D6 rolls (highest starts, the tied re-roll among themselves; no roll
    in solo).  Play then goes clockwise, i.e. by increasing seat number.  The beam's
    low side is the scene's ``rules.start_low_side`` ("random" draws it from the
    game's generator after the first-player rolls).  The beam is tipped physically:
    from the scene's level pose it is set turning about the fulcrum's apex line at
    ``start_tip_speed`` towards its low side, and physics brings it down onto the
    table and settles it.
Drop legality (checked before any physics)
    The release point (x, y) must lie above the top face of the high side's half of
    the beam (vertically; strictly on the high side of the centre line).  "Above a
    frozen block" is read as: the block's horizontal footprint at release overlaps
    the footprint of a frozen block (stricter than the release point alone, because
    nothing may be *placed on* a frozen block).  The release height must be positive
    and at most ``max_drop_height`` (a simulator limit: a block falling from there
    moves about 7 mm per 1/240 s step, less than the beam's 12 mm thickness, so the
    engine finds its contacts before it can pass through; players drop blocks from a
    few centimetres).  A block that would overlap anything at release is refused.
Settle
    Physics runs until every body is at rest *and* the beam rests on one of its ends
    (a beam still tipping slowly can look at rest), or until the scene's
    ``settle_max_time``; the verdict says when the cap was hit.
Tilted
    The end that was high before the drop now rests on the table (its lowest point
    within ``end_rest_gap`` of the table top) and the other end does not.  The tilt,
    the blocks that go back and the dropped block's value are all judged on the
    state the drop settled into, *before* any block is taken away (the rules' order:
    settle; judge the tilt and the returns; pay the penalty; then the coins).
    Taking a returned block away cannot undo a tilt the drop made, nor make one it
    did not.
Returned blocks
    A block goes back to the supply when it touches the table, when it no longer
    rests on the beam (directly or through a chain of blocks), or when it lies across
    the fulcrum centre line (covers the painted line on both sides) **unless another
    block that stays rests on it**: such a block cannot be lifted out without
    disturbing the pile, so it stays and is *frozen* ("becomes frozen if it stays").
    Crossing blocks are lifted off top-down, so a pile of crossing blocks goes back
    whole.  The returned blocks are taken away and physics settles again (blocks
    resting on them may now fall, and go back the same way, each costing the
    penalty too) until nothing more goes back.  That last settled state is the next
    turn's start: the beam's low end for the next turn is read from it (the lower
    end when neither rests on the table), so after a tilt undone by a removal the
    next player drops on the side that is high *then*.  The player pays ``penalty``
    per returned block, as far as their coins go, *before* receiving coins for the
    drop (the rules' order).
Frozen blocks
    Recomputed after every drop from the World: the crossing blocks that stayed and
    every block resting on them, recursively.
Coins for the drop
    Only when tilted and the dropped block stayed (it is not among the blocks the
    judged state sends back).  Its value, read on the judged state, is the lowest section
    value among the beam sections its top-face contacts touch (a section line is a
    painted band ``line_width`` wide: touching it touches both sections; the fulcrum
    section is worth 0) and, for a block resting on blocks, the lowest value among
    its supporters, recursively.  Overhanging a section without touching it does not
    count, and the markings end at the beam's edges.  A block touching no section
    and resting on no block is worth 0.  The bank pays even when it is empty (it may
    go negative; the verdicts record it).
Buying (basic and solo)
    Optional in every variant (the rules say "may").  With at least ``buy_cost``
    coins and a non-empty supply, the D6 is rolled first: it offers the block of
    that length, else the nearest larger or smaller length left in the supply
    (``State.size_choice`` holds the roll and the lengths).  Then the player decides
    (``Choose("buy", ...)``): declining keeps the coins; buying pays ``buy_cost``
    for the block on offer, and when both fallback lengths exist the player picks
    (``Choose("size", n)``).
End
    A player with no block at the start of their turn is eliminated.  So is a
    player who holds blocks but has **no legal drop** (the high side covered by
    frozen footprints, or nothing fits): the winner is "the last player left with a
    block to place", and a block that cannot be placed is no block to place.
    Passing instead would stall a game in which nobody can drop, since only drops
    change the beam.  The check is the game's own search (``State.legal_release``):
    the smallest block held, standing upright (the smallest footprint a block has),
    along the beam, released ``FIND_DROP_HEIGHT`` up, its centre on a grid a quarter
    of a block apart over the high half; a spot under a frozen footprint is skipped.
    An eliminated player keeps the blocks they hold.  The game ends when one player
    is left (they win, even without blocks); ranks follow the elimination order.
    Solo: the game ends when the player has no block, or no legal drop, at the start
    of a turn; score = coins.
    The "eliminated" event's ``reason`` says why a player is out: ``"no_block"`` or
    ``"no_legal_drop"``.  The outcome's termination: ``"last_player"`` (basic,
    advanced); solo ``"no_blocks"`` (the player has no block left) or
    ``"no_legal_drop"`` (the player holds blocks, none of which can be dropped).
Advanced
    A round: every player still in plays steps 1-2 once, from the round's starter
    clockwise.  Then the round's last player rolls and offers a block of that length
    from the supply (the fallback rule above; the roller picks when both exist) and
    bids first.  Bids are whole coins, at least ``auction_min_bid`` and above the
    current bid, and never more than the bidder's coins; a player who cannot raise
    is passed automatically.  The winner pays the bank, takes the block and starts
    the next round, so the player on the winner's right plays last and rolls next
    ("the die passes to the player on their right").  No bid (or an empty supply):
    nobody buys, and the next round starts with the player after the roller.
    Blocks returned by a drop are auctioned one at a time right after the penalty,
    bidding from the player after the offender; with several, the offender picks
    the next one to auction each time (``Choose("auction_order", piece)``), which is
    the same as choosing the order, one pick at a time.  Then the round goes on as
    if nothing happened.
"""
from __future__ import annotations

from balance3d.games.game import Game
from balance3d.games.tilted.rules import (VARIANT_PLAYER_COUNTS, Phase, TiltedRules, piece_key,
                                          piece_length, piece_name, roll_d6)
from balance3d.games.tilted.state import TiltedState
from balance3d.games.tilted.verdicts import TiltedAuctionVerdict, TiltedBuyVerdict, TiltedVerdict

#: The game of Tilted, registered as "tilted".
GAME = Game(
    name="tilted", variants=("basic", "solo", "advanced"), counts=VARIANT_PLAYER_COUNTS,
    state_class=TiltedState, parse_rules=TiltedRules.from_scene, score_name="coins",
    action_types=("drop", "choose", "pass"),
    bots={"planner": "balance3d.games.tilted.planner:PlannerBot",
          "random": "balance3d.bots.random_bot:RandomBot"}, default_bot="planner",
    release_kind="beam_half",
    experiments={"drops": "balance3d.games.tilted.experiments:Drops",
                 "games": "balance3d.games.tilted.experiments:TiltedGames"})

__all__ = ["GAME", "Phase", "TiltedAuctionVerdict", "TiltedBuyVerdict", "TiltedRules",
           "TiltedState", "TiltedVerdict", "piece_key", "piece_length", "piece_name", "roll_d6"]
