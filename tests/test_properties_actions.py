"""Property tests of the actions every game takes: any field of any type is refused
with :class:`IllegalActionError` and leaves the state as it was (its ``to_dict()``
unchanged); numpy's numbers count as numbers.

Hypothesis runs derandomized (``derandomize=True``), so every run of the suite
tries the same examples."""
from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from balance3d.bots import make_bot
from balance3d.games import IllegalActionError, game_names, get_game, new_game
from balance3d.games.actions import ACTION_TYPES

#: Examples per property and state.
EXAMPLES = 30
PROPERTY = settings(derandomize=True, database=None, deadline=None,
                    max_examples=EXAMPLES,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
SEED = 7


def _configs() -> list[tuple[str, str, int]]:
    """(game, variant, fewest players) of every game and variant."""
    return [(g, v, get_game(g).player_counts(v)[0])
            for g in game_names() for v in get_game(g).variants]


CONFIGS = _configs()


@pytest.fixture(scope="module", params=CONFIGS, ids=["-".join(map(str, c)) for c in CONFIGS])
def state(request):
    game, variant, players = request.param
    return new_game(game, players=players, seed=SEED, variant=variant)


# values of every kind a caller might pass, numpy's scalars and huge numbers included
ANY = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2 ** 62, max_value=2 ** 80),
    st.just(10 ** 400), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.binary(max_size=6), st.complex_numbers(max_magnitude=10),
    st.lists(st.integers(), max_size=3), st.tuples(st.floats(), st.floats()),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(np.float64, st.floats(allow_nan=True)), st.builds(np.float32, st.floats(width=32)),
    st.builds(np.int64, st.integers(-2 ** 63, 2 ** 63 - 1)), st.builds(np.bool_, st.booleans()),
    st.builds(np.str_, st.text(max_size=4)), st.just(np.array([1.0, 2.0])), st.just(object()),
    st.just(Ellipsis), st.just(float("nan")))


def _number(value: object) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _finite(value: object) -> bool:
    try:
        return _number(value) and math.isfinite(float(value))
    except OverflowError:
        return False


def _fits(value: object, annotation: str) -> bool:
    """Whether ``value`` is of the type the action's field declares (the spec of the
    actions: ``str``; ``int``, numpy integers included; ``float``, any finite real
    number; ``Any``, one JSON scalar)."""
    if annotation == "str":
        return isinstance(value, str)
    if annotation == "int":
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if annotation == "float":
        return _finite(value)
    return value is None or isinstance(value, (str, bool, np.bool_)) or _finite(value)


def _plausible(state) -> st.SearchStrategy:
    """Values of the right types near what the state takes: its pieces' names,
    small field numbers, table-sized coordinates, the decisions' words."""
    pieces = sorted({p for seat in range(len(state.players))
                     for p in state.legal_pieces(seat)} | set(state.legal_pieces())) \
        or ["none"]
    return st.one_of(st.sampled_from(pieces), st.integers(-3, 40),
                     st.floats(-0.5, 0.5), st.sampled_from(["flat", "edge", "upright",
                                                            "buy", "size", "bid", "target"]))


def _refused_unchanged(state, action) -> None:
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_dict() == before


@PROPERTY
@given(data=st.data())
def test_a_field_of_any_type_is_refused_and_the_state_unchanged(state, data):
    cls = data.draw(st.sampled_from(sorted(ACTION_TYPES.values(), key=lambda c: c.type)))
    fields = dataclasses.fields(cls)
    if not fields:
        return
    plausible = _plausible(state)
    values = {f.name: data.draw(st.one_of(ANY, plausible), label=f.name) for f in fields}
    wrong = data.draw(st.sampled_from(fields), label="mistyped field")
    values[wrong.name] = data.draw(ANY.filter(lambda v: not _fits(v, str(wrong.type))),
                                   label="its value")
    action = cls(**values)
    ok, reason = state.is_legal(action)
    assert not ok and reason
    _refused_unchanged(state, action)


@PROPERTY
@given(data=st.data())
def test_any_action_refused_by_is_legal_is_refused_by_apply_unchanged(state, data):
    """Well typed or not, an action ``is_legal`` refuses is refused by ``apply``,
    which changes nothing."""
    cls = data.draw(st.sampled_from(sorted(ACTION_TYPES.values(), key=lambda c: c.type)))
    plausible = _plausible(state)
    action = cls(**{f.name: data.draw(st.one_of(plausible, ANY), label=f.name)
                    for f in dataclasses.fields(cls)})
    ok, _ = state.is_legal(action)
    if not ok:
        _refused_unchanged(state, action)


NUMPY_NUMBERS = {"int": [np.int64, np.int32, np.uint16],
                 "float": [np.float64, lambda v: np.longdouble(v)]}


@PROPERTY
@given(data=st.data())
def test_numpy_numbers_count_as_numbers(state, data):
    """A legal action (a random bot's choice) with its numbers made numpy scalars of
    the same value is legal still."""
    seed = data.draw(st.integers(0, 2 ** 16), label="bot seed")
    action = make_bot("random", seed, state.current_player, game=state.game.name).choose(state)
    assert state.is_legal(action) == (True, "")
    values = {}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        kinds = NUMPY_NUMBERS.get(str(f.type), [])
        if kinds and not isinstance(value, bool):
            value = data.draw(st.sampled_from(kinds), label=f.name)(value)
        values[f.name] = value
    assert state.is_legal(type(action)(**values)) == (True, "")
