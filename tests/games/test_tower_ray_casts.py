"""A Tower drop casts its footprint's support rays once.

Legality reads the World of the between-turns snapshot and the run restores the same
World from it, so the body under the footprint and the height the release is
measured from are found by one cast of the footprint's rays
(:func:`balance3d.games.tower.physics.body_below`), not one per question and per
stage.
"""
from __future__ import annotations

import numpy as np
import pytest

from balance3d.games.tower import TowerState, judge
from balance3d.physics.world import World

#: The roll loaded for every turn: the player drops one letter.
ROLL = ("play 1", "letter")


@pytest.fixture
def casts(monkeypatch) -> dict[str, int]:
    """Counts of the rays' casts (a test zeroes them once set up): body_below (one
    cast naming the body hit) and World.height_below (one cast of heights)."""
    counts = {"body_below": 0, "height_below": 0}
    body_below, height_below = judge.body_below, World.height_below

    def counted_body_below(*args, **kwargs):
        counts["body_below"] += 1
        return body_below(*args, **kwargs)

    def counted_height_below(*args, **kwargs):
        counts["height_below"] += 1
        return height_below(*args, **kwargs)

    monkeypatch.setattr(judge, "body_below", counted_body_below)
    monkeypatch.setattr(World, "height_below", counted_height_below)
    return counts


def game() -> tuple[TowerState, list]:
    """A 2-player game waiting for its first drop, and two legal drops for it, found
    on a clone (so the game itself has checked neither)."""
    state = TowerState.arranged(2, seed=1)
    state.load_dice(*[ROLL] * 8)
    state.give_turn(0, *ROLL)
    probe = state.clone()
    first = probe.legal_release()
    assert first is not None
    second = type(first)(first.piece, first.x + 0.01, first.y, first.height, first.yaw,
                         first.pose)
    assert probe.is_legal(second)[0]
    return state, [first, second]


def test_a_judged_drop_casts_its_footprint_rays_once(casts):
    state, (drop, _) = game()
    casts.update(dict.fromkeys(casts, 0))
    state.apply(drop)
    assert casts == {"body_below": 1, "height_below": 0}


def test_the_run_casts_again_for_a_drop_other_than_the_one_checked(casts):
    state, (checked, played) = game()
    casts.update(dict.fromkeys(casts, 0))
    assert state.is_legal(checked)[0]
    state.apply(played)
    assert casts == {"body_below": 2, "height_below": 0}
    where = state.world.pose(played.piece)[0][:2]
    assert np.allclose(where, (played.x, played.y), atol=0.005), \
        "released over the drop played, not the one checked"
