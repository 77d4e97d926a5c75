"""Tri-Ba-Lance: place weighted pieces on the numbered fields of a triangular plate
rocking on a ball, without letting the plate come to rest on the frame below it.

This package plays Tri-Ba-Lance as written in ``docs/rules/tribalance.md``: the
table rules and every reading balance3d chose where they leave a simulator a
choice.  Every quantity is SI (metres, kilograms, seconds) unless named ``_deg``;
points are whole numbers.  The judge reads the settled World
(:mod:`balance3d.games.tribalance.judge`); it never guesses from the field.

Modules: :mod:`~balance3d.games.tribalance.rules` (the scene's rule values),
:mod:`~balance3d.games.tribalance.state` (the state machine),
:mod:`~balance3d.games.tribalance.turns` (turns, placements, passes, the end),
:mod:`~balance3d.games.tribalance.placing` (release, settling, reading),
:mod:`~balance3d.games.tribalance.judge`, :mod:`~balance3d.games.tribalance.verdicts`
and :mod:`~balance3d.games.tribalance.planner` (its bot).

Decisions a player is asked for (``State.phase``)
    ``"place"``  a :class:`~balance3d.games.base.Place` of one of their pieces on a
                 free field, or ``Pass()`` (the player is then out).
    ``"over"``   nothing: the game has ended.

Pieces are named ``"{weight}w-p{player}.{copy}"`` (``"3w-p1.2"`` is player 1's
second weight-3 piece); the same name is the piece's body while it is on the plate.

Readings of the rules (where the table rules leave a choice)
-----------------------------------------------------------
Setup
    Each seat receives the scene's piece set for the player count
    (``pieces_2_players``, ``pieces_3_players``).  The scene's
    ``rules.first_player`` starts (default seat 0; "random" draws the seat from the
    game's generator); turns then go clockwise, i.e. by increasing seat number.
Placing
    A piece is lowered onto the centre of a free field, upright (its axis along the
    plate's normal), and released at rest ``release_gap`` above the plate's top face:
    placed, not thrown.  A field is free when no piece was placed on it and stayed;
    a release that would overlap anything (a piece that moved) is refused.
Judging
    Physics runs until every body is at rest and then on until the plate's tilt
    has changed by less than ``still_angle_deg`` over ``hold_time`` (a plate rocking
    slowly can look at rest); the scene's ``settle_max_time`` caps it (the verdict
    says when the cap was hit, and the turn is judged as it stands).  The turn is
    **valid** unless the plate then touches the frame: a contact that persists once
    everything is still.  A touch while the plate moves does not count, since only
    the still state is read.  The verdict names the corners and sides touching.
Pieces that leave the plate
    A piece that no longer rests on the plate (directly or on a piece that does), or
    touches the frame, the stand or the table, slid off: it goes back to its owner's
    hand, on a valid turn as on an invalid one.  On an invalid turn the placed
    piece goes back to its player, who may place it again later.  The pieces going
    back are taken away and physics settles again (until still); pieces that leave
    the plate then go back too.  That state is the next turn's start.
Passing and being out
    A player may pass at any turn and is then out.  Once some player has had all
    their pieces on the plate (this stays so even if one of theirs later comes
    back), an invalid turn puts its player out.  A player whose turn comes while
    they hold no piece is skipped; one who holds pieces but has no free field that
    takes one is out.
End
    The game ends when every player has placed all pieces or is out
    (``"all_done"``), when every field is taken (``"plate_full"``: nobody can place
    a piece), or when every player still in the game has had a turn without a valid
    placement since the last valid one (``"no_valid_round"``: a full round with no
    valid turn).
Score
    Weight x field number of each of the player's pieces on the plate at the end,
    minus the weight of each of their pieces not on it.  Highest score wins; equal
    scores share the rank.
"""
from __future__ import annotations

from balance3d.games.game import Game
from balance3d.games.tribalance.rules import (VARIANT_PLAYER_COUNTS, Phase, TribalanceRules,
                                              piece_name, piece_owner, piece_weight)
from balance3d.games.tribalance.state import TribalanceState
from balance3d.games.tribalance.verdicts import TribalancePassVerdict, TribalanceVerdict

#: The game of Tri-Ba-Lance, registered as "tribalance".
GAME = Game(
    name="tribalance", title="Tri-Ba-Lance", variants=("basic",), counts=VARIANT_PLAYER_COUNTS,
    state_class=TribalanceState, parse_rules=TribalanceRules.from_scene, score_name="points",
    action_types=("place", "pass"),
    bots={"planner": "balance3d.games.tribalance.planner:PlannerBot",
          "random": "balance3d.bots.random_bot:RandomBot"}, default_bot="planner",
    release_kind="plate_field",
    experiments={"fields": "balance3d.games.tribalance.experiments:Fields",
                 "games": "balance3d.games.tribalance.experiments:TribalanceGames"})

__all__ = ["GAME", "Phase", "TribalancePassVerdict", "TribalanceRules", "TribalanceState",
           "TribalanceVerdict", "piece_name", "piece_owner", "piece_weight"]
