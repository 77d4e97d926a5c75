"""Tri-Ba-Lance's planner: valid placements worth points, counterweights when the
plate leans, and exactly what its trial in a copy saw."""
from __future__ import annotations

from balance3d.bots import make_bot
from balance3d.games import Place
from balance3d.games.tribalance import TribalanceState
from balance3d.games.tribalance.planner import PlannerBot

FIELDS = TribalanceState.arranged(2).rules.fields


def test_the_planner_places_validly_and_for_more_than_the_safest_placement():
    state = TribalanceState.arranged(2, first=0)
    bot = make_bot("planner", 0, 0, game="tribalance")
    place = bot.choose(state)
    weight, number = int(place.piece.split("w-")[0]), FIELDS[place.field].number
    seen = PlannerBot.trial(state, place)
    verdict = state.apply(place)
    assert verdict == seen                      # the copy showed exactly this turn
    assert verdict.valid
    # the safest placement, the lightest piece on a field numbered 1, is worth
    # 1 x (1 + 1) against keeping it: the planner aims higher
    assert weight * (number + 1) > 1 * (1 + 1)


def test_the_planner_counterbalances_a_leaning_plate():
    """A weight-3 piece leans the plate towards its +y corner.  A weight-4 piece on
    the same side (field numbered 4 towards that corner) puts the corner on the
    frame; the planner puts its weight-4 piece where it pulls the other way."""
    state = TribalanceState.arranged(2, hands=[[4], [3]], first=0)
    lean = next(i for i, f in enumerate(FIELDS) if f.number == 2 and f.y > 0)
    state.stage([Place(next(p for p in state.hand(1) if p.startswith("3w-")), lean)])
    same_side = next(i for i, f in enumerate(FIELDS) if f.number == 4 and f.y > 0)
    piece = state.hand(0)[0]
    assert not state.clone().apply(Place(piece, same_side)).valid
    place = make_bot("planner", 0, 0, game="tribalance").choose(state)
    verdict = state.apply(place)
    assert verdict.valid, verdict.summary
    assert FIELDS[place.field].y < 0            # it pulls against the lean (+y)
