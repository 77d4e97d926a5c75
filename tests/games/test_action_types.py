"""Actions of the wrong type: any field of any action of any game holding a value of
the wrong type (a list, a dict, an array, bytes, a bool in a number field, a number
too large for a float, a non-finite number) is refused by ``is_legal`` with a reason
naming the field, and ``apply`` raises ``IllegalActionError`` with the state unchanged
(compared by ``to_dict()``).  numpy's scalars still count as numbers."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from balance3d.games import (Choose, Drop, IllegalActionError, Pass, Place, game_names,
                             new_game)
from balance3d.games.actions import checked_action
from balance3d.fields import FieldError

#: Values no field of any action may hold (each is of a type no field is typed with).
NEVER = ([], {}, [1.0], {"a": 1}, np.array([1.0]), b"x", object(), 1j, (1, 2))
#: Values a ``float`` field may not hold: not a number, or not a finite float.
NOT_FLOAT = NEVER + ("1", None, True, float("inf"), float("-inf"), float("nan"), 10 ** 400,
                     np.float64("nan"), np.bool_(True))
#: Values an ``int`` field may not hold.
NOT_INT = NEVER + ("1", None, True, 1.0, np.float64(1.0), np.bool_(True))
#: Values a ``str`` field may not hold.
NOT_STR = NEVER + (None, True, 1, 1.0, np.int64(1))


@pytest.fixture(scope="module", params=game_names())
def started(request):
    """A game of ``request.param`` at its start and one legal physical action."""
    state = new_game(request.param, players=2)
    action = state.legal_release()
    assert action is not None and state.is_legal(action) == (True, "")
    return state, action


def wrong_values(kind: str) -> tuple:
    return {"float": NOT_FLOAT, "int": NOT_INT, "str": NOT_STR}[kind]


def refused(state, action) -> str:
    """The reason ``state`` refuses ``action``; checks that apply raises
    IllegalActionError and leaves the state as it was."""
    before = state.to_dict()
    ok, reason = state.is_legal(action)
    assert not ok and reason
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_dict() == before
    return reason


def test_every_field_of_the_wrong_type_is_refused(started):
    state, action = started
    for field in dataclasses.fields(action):
        for value in wrong_values(str(field.type)):
            wrong = dataclasses.replace(action, **{field.name: value})
            reason = refused(state, wrong)
            assert reason.startswith(f"{field.name}: must be "), reason


def test_a_huge_whole_number_is_refused_by_the_rules(started):
    """2**70 is of the right type (a whole number, a float once converted) but lies
    off every table and beyond every field index."""
    state, action = started
    names = ("x", "y") if isinstance(action, Drop) else ("field",)
    for name in names:
        refused(state, dataclasses.replace(action, **{name: 2 ** 70}))


def test_decisions_and_non_actions_of_the_wrong_type_are_refused(started):
    state, _ = started
    for value in NEVER:
        assert refused(state, Choose("buy", value)).startswith("value: must be ")
        assert refused(state, Choose(value, 1)).startswith("what: must be ")
    for thing in (None, "drop", {"type": "pass"}, Pass):
        assert refused(state, thing).startswith("action: not an action")


def test_numpy_scalars_count_as_numbers(started):
    state, action = started
    numbers = {f.name: (np.float64(getattr(action, f.name)) if str(f.type) == "float"
                        else np.int64(getattr(action, f.name)))
               for f in dataclasses.fields(action) if str(f.type) in ("float", "int")}
    assert numbers
    assert state.is_legal(dataclasses.replace(action, **numbers)) == (True, "")


def test_checked_action_gives_python_numbers():
    drop = checked_action(Drop("a", np.float32(0.5), 1, np.float64(0.01), yaw=np.int64(2)))
    assert drop == Drop("a", 0.5, 1.0, 0.01, yaw=2.0)
    assert all(type(v) is float for v in (drop.x, drop.y, drop.height, drop.yaw))
    place = checked_action(Place("a", np.int64(3)))
    assert type(place.field) is int and place.field == 3
    assert type(checked_action(Choose("bid", np.int64(4))).value) is int
    with pytest.raises(FieldError, match="^field: must be an integer"):
        checked_action(Place("a", 3.0))
