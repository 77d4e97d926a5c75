"""Tower: build the tallest tower of letter and logo pieces, as two dice and a deck
of penalty cards say, on your own wooden base.

This package plays Tower as written in ``docs/rules/tower.md``: the table rules and
every reading balance3d chose where they leave a simulator a choice.  Every
quantity is SI (metres, kilograms, seconds).  The judge reads the settled World
(:mod:`balance3d.games.tower.judge`); it never guesses from the release point.

Modules: :mod:`~balance3d.games.tower.rules` (the scene's rule values),
:mod:`~balance3d.games.tower.state` (queries, legality, saving),
:mod:`~balance3d.games.tower.turns` (the flow, the dice, a drop played out),
:mod:`~balance3d.games.tower.cards` (the penalty deck), :mod:`~balance3d.games.tower.judge`,
:mod:`~balance3d.games.tower.physics` (tower measures), :mod:`~balance3d.games.tower.verdicts`
and :mod:`~balance3d.games.tower.planner` (its bot).

Decisions a player is asked for (``State.phase``)
    ``"drop"``     a :class:`~balance3d.games.base.Drop` of one of ``legal_pieces()``
                   over their own base (release area kind ``"tower_top"``).
    ``"target"``   ``Choose("target", seat)``: the opponent who draws a card.
    ``"penalty"``  ``Choose("penalty", card)``: the penalty a U-DECIDE card stands for.
    ``"shape"``    ``Choose("shape", "letter" | "logo")``: the shape of the extra piece
                   an opponent must play.
    ``"swap"``     ``Choose("swap", piece)``: the unplayed piece given to the left.
    ``"over"``     nothing: the game has ended.

Pieces are named ``"p{seat}.{part}.{copy}"`` (``"p1.letter_T.2"``); the name is the
piece's body while it stands on a tower and keeps its first owner after a swap.

Readings of the rules (where the table rules leave a choice): see
``docs/rules/tower.md``; in short: the first player is drawn from the game's
generator; play goes by increasing seat; a roll's pieces are of die 2's shape only
(with fewer of it, the player plays those they have); a drop's level is read at
release from the body highest under its footprint, and a piece that comes to rest on
a closed level after its release stays there (the rule binds releases, not physics);
a played piece that fell, and every piece of the tower that fell in the turn, leave
the game, and a fall that leaves nothing on a base where a tower stood before the
drop puts its player out (their unplayed pieces leave the game), while a piece that
falls off an empty base only leaves the game itself; a knock (a drop that makes
pieces of another tower fall, by the same reading) restores the harmed towers whole,
and the culprit loses their next turn and draws a card; the "next piece vertical"
card is judged on the piece at rest and stays pending until a piece of the player's
comes to rest standing vertically; the game ends when no player holds an unplayed
piece.
"""
from __future__ import annotations

from balance3d.games.game import Game
from balance3d.games.tower.rules import VARIANT_PLAYER_COUNTS, Phase, TowerRules
from balance3d.games.tower.state import TowerState
from balance3d.games.tower.verdicts import TowerChoiceVerdict, TowerDropVerdict

#: The game of Tower, registered as "tower".
GAME = Game(
    name="tower", variants=("basic",), counts=VARIANT_PLAYER_COUNTS, state_class=TowerState,
    parse_rules=TowerRules.from_scene, score_name="height", action_types=("drop", "choose"),
    bots={"planner": "balance3d.games.tower.planner:PlannerBot",
          "random": "balance3d.bots.random_bot:RandomBot"}, default_bot="planner",
    release_kind="tower_top", score_unit="m",
    experiments={"towers": "balance3d.games.tower.experiments:Towers",
                 "games": "balance3d.games.tower.experiments:TowerGames"})

__all__ = ["GAME", "Phase", "TowerChoiceVerdict", "TowerDropVerdict", "TowerRules",
           "TowerState"]
