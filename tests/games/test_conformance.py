"""Conformance: every registered game, on every bundled scene of that game, keeps the
promises of the shared game API (``balance3d.games.game.Game`` and
``balance3d.games.base.State``).

A game conforms when a random player can always find a legal action (a decision from
``legal_decisions()``, a ``Drop`` of one of ``legal_pieces()`` sampled in the
bounding box of a region of ``release_area()``, or a ``Place`` of one of them on a
field index, else the game's own ``legal_release()``, which must exist whenever the
game asks for a physical action) and when, along a random playthrough,
``current_player`` is a seat (None once over), ``is_legal`` agrees with ``apply``,
an illegal action changes nothing, ``to_dict`` survives JSON and ``from_dict``, a
clone is independent, and the playthrough ENDS within :data:`MAX_ACTIONS` actions
with an outcome of consistent competition ranks.  Player counts come from the Game;
every variant's scene and every bundled scene of a registered game is played.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from balance3d.games import Drop, IllegalActionError, Place, game_names, get_game, new_game
from balance3d.scene import list_scenes, load_scene

#: Actions a random playthrough may take before the game counts as stalled.
MAX_ACTIONS = 600
#: Random drops or placements tried before a test gives up finding a legal one.
MAX_TRIES = 300
#: Placement field indices tried for Place games.
MAX_FIELDS = 64
#: Every so many actions, a clone is checked for independence (it runs physics).
CLONE_EVERY = 10

CASES = sorted({(name, scene) for name in game_names() for scene in list_scenes()
                if load_scene(scene).game == name}
               | {(name, get_game(name).scene_name(v)) for name in game_names()
                  for v in get_game(name).variants})


def random_action(state, rng: np.random.Generator):
    """A uniformly random legal action (see the module docstring)."""
    decisions = state.legal_decisions()
    if decisions:
        return decisions[rng.integers(len(decisions))]
    pieces = state.legal_pieces()
    assert pieces, f"{state.name}: no decision and no piece for seat {state.current_player}"
    area = state.release_area()
    if area is not None:
        assert area["kind"] == state.game.release_kind
        boxes = [np.asarray(r["polygon"], float) for r in area["regions"]]
        assert boxes, f"{state.name}: empty release area"
        for _ in range(MAX_TRIES):
            box = boxes[rng.integers(len(boxes))]
            (x0, y0), (x1, y1) = box.min(axis=0), box.max(axis=0)
            action = Drop(str(pieces[rng.integers(len(pieces))]), float(rng.uniform(x0, x1)),
                          float(rng.uniform(y0, y1)), float(rng.uniform(0.002, 0.02)),
                          yaw=float(rng.uniform(0.0, math.pi)))
            if state.is_legal(action)[0]:
                return action
    if "place" in state.game.action_types:
        for field in rng.permutation(MAX_FIELDS):
            action = Place(str(pieces[rng.integers(len(pieces))]), int(field))
            if state.is_legal(action)[0]:
                return action
    found = state.legal_release()
    assert found is not None, (f"{state.name}: seat {state.current_player} is asked for a "
                               f"physical action but the game finds none")
    return found


def check_seat(state) -> None:
    seat = state.current_player
    if state.is_over:
        assert seat is None and state.outcome is not None
    else:
        assert isinstance(seat, int) and 0 <= seat < len(state.players)
        assert state.outcome is None


def check_round_trip(state) -> None:
    text = json.dumps(state.to_dict(), sort_keys=True)
    again = type(state).from_dict(json.loads(text), scene=state.scene)
    assert json.dumps(again.to_dict(), sort_keys=True) == text
    assert again.current_player == state.current_player and again.phase == state.phase


def check_outcome(state) -> None:
    outcome = state.outcome
    n = len(state.players)
    assert len(outcome.scores) == len(outcome.ranks) == n
    for rank in outcome.ranks:    # competition ranks: 1 + how many seats did better
        assert rank == 1 + sum(1 for other in outcome.ranks if other < rank)
    assert outcome.winners and all(outcome.ranks[s] == 1 for s in outcome.winners)
    json.dumps(outcome.to_dict())


@pytest.mark.parametrize("name, scene", CASES)
def test_new_game_for_every_allowed_player_count(name, scene):
    game = get_game(name)
    variant = load_scene(scene).variant
    assert variant in game.variants
    for count in game.player_counts(variant):
        state = new_game(name, players=count, seed=count, scene=scene, variant=variant)
        assert state.name == name and len(state.players) == count
        assert not state.is_over
        check_seat(state)
        check_round_trip(state)


@pytest.mark.parametrize("pick", [min, max], ids=["fewest", "most"])
@pytest.mark.parametrize("name, scene", CASES)
def test_a_random_legal_playthrough_keeps_the_invariants_and_ends(name, scene, pick):
    variant = load_scene(scene).variant
    count = pick(get_game(name).player_counts(variant))
    state = new_game(name, players=count, seed=3, scene=scene, variant=variant)
    rng = np.random.default_rng(3)
    for step in range(MAX_ACTIONS):
        if state.is_over:
            break
        if state.release_area() is not None:
            found = state.legal_release()
            assert found is not None and state.is_legal(found) == (True, "")
        action = random_action(state, rng)
        if step % CLONE_EVERY == 0:
            before = state.to_json()
            clone = state.clone()
            clone.apply(action)
            assert state.to_json() == before
        wrong = Place("no-such-piece", -1) if isinstance(action, Drop) else \
            Drop("no-such-piece", 0.0, 0.0, 0.01)
        before = state.to_json()
        ok, reason = state.is_legal(wrong)
        assert not ok and reason
        with pytest.raises(IllegalActionError):
            state.apply(wrong)
        assert state.to_json() == before
        assert state.is_legal(action) == (True, "")
        verdict = state.apply(action)
        json.dumps(verdict.to_dict())
        check_seat(state)
        check_round_trip(state)
    assert state.is_over, f"{name} on {scene}: not over after {MAX_ACTIONS} actions"
    check_outcome(state)
    assert state.legal_decisions() == [] and state.legal_pieces() == []
    assert state.release_area() is None and state.legal_release() is None
    ok, reason = state.is_legal(Drop("no-such-piece", 0.0, 0.0, 0.01))
    assert not ok and reason
