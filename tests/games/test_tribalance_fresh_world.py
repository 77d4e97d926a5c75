"""A Tri-Ba-Lance placement starts from the between-turns snapshot.

Between turns the World is as :meth:`commit_world` restored it, so a placement
uses it without restoring it again (:meth:`TribalanceState.fresh_world`); once
anything has changed it, the placement restores it first, and judges exactly what
a copy of the game that never saw the change judges."""
from __future__ import annotations

import pytest

from balance3d.games import Place
from balance3d.games.tribalance import TribalanceState

#: Fields used: the centre (1), one numbered 3 and one numbered 4.
CENTRE, INNER, OUTER = 0, 7, 19
#: m, how far the hand-moved piece is shifted along x on the plate.
SHIFT = 0.03


def staged() -> TribalanceState:
    """Seat 0 to play its weight-2 piece; seat 1's weight-3 piece stands on an inner
    field, seat 0's weight-1 piece on the centre."""
    state = TribalanceState.arranged(2, hands=[[1, 2], [3, 1]], first=0)
    state.stage([Place("1w-p1.1", CENTRE), Place("3w-p2.1", INNER)])
    return state


def test_between_turns_the_world_is_as_restored_from_the_snapshot():
    state = staged()
    assert state.world.restored_from is not None
    world = state.world
    assert state.fresh_world() is world
    assert world.restored_from is not None, "fresh_world must not change it"
    state.apply(Place("2w-p1.1", OUTER))
    assert state.world.restored_from is not None


@pytest.mark.parametrize("change", ["set_pose", "step"])
def test_a_placement_after_a_change_by_hand_judges_the_between_turns_state(change):
    state = staged()
    twin = state.clone()
    world = state.world
    if change == "set_pose":
        position, orientation = world.pose("3w-p2.1")
        world.set_pose("3w-p2.1", (position[0] + SHIFT, position[1], position[2]),
                       tuple(orientation))
    else:
        world.step(24)
    assert world.restored_from is None
    place = Place("2w-p1.1", OUTER)
    assert state.apply(place).to_dict() == twin.apply(place).to_dict()
