"""Tower's tuning experiments, run directly (``cases`` and ``run``): option checks,
determinism, a perfectly aimed tower standing as tall as its pieces are thick, and
a shaky hand's towers falling."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from balance3d.scene import load_scene
from balance3d.tune.experiment import ExperimentError, Jitter, make_experiment

STILL = Jitter(position=0.0, yaw=0.0, height=0.0)
#: m, how far a settled stack's height may lie from the sum of its pieces'
#: thicknesses (the engine's contacts rest within a collision margin, 0.5 mm).
STACK_TOLERANCE = 0.001


def test_a_perfectly_aimed_tower_stands_as_tall_as_its_pieces_are_thick():
    scene = load_scene("tower")
    towers = make_experiment("tower", "towers", {"pieces": 8}, STILL)
    (case,) = towers.cases(scene)
    out = towers.run(scene, case, np.random.default_rng(0))
    # flat pieces stacked straight: every part's thickness is the same
    thickness = scene.data["parts"]["letter_T"]["thickness"]
    assert {scene.data["parts"][p]["thickness"] for p in ("letter_L", "letter_H", "logo")} \
        == {thickness}
    assert out["stood"] and out["pieces_before_fall"] == 8
    assert out["height"] == pytest.approx(8 * thickness, abs=STACK_TOLERANCE)
    assert out["peak_height"] == out["height"]


def test_a_shaky_hand_topples_towers_a_steady_one_builds():
    scene = load_scene("tower")
    # misses of 15 mm (sd) against pieces 30 to 40 mm across put a piece's centre of
    # mass past the edge of the one below it in about a third of the drops
    shaky = make_experiment("tower", "towers", {"pieces": 8}, Jitter(position=0.015))
    steady = make_experiment("tower", "towers", {"pieces": 8}, STILL)
    (case,) = shaky.cases(scene)
    shaky_runs = [shaky.run(scene, case, np.random.default_rng(seed)) for seed in range(6)]
    steady_run = steady.run(scene, case, np.random.default_rng(0))
    fallen = [r for r in shaky_runs if not r["stood"]]
    assert len(fallen) >= 4 and steady_run["stood"]
    assert all(r["pieces_before_fall"] < 8 for r in fallen)


def test_pieces_standing_on_edge_follow_the_stand_option():
    towers = make_experiment("tower", "towers", {"stand": 0.5}, STILL)
    assert [towers.stands(i) for i in range(6)] == [False, True, False, True, False, True]
    towers = make_experiment("tower", "towers", {"stand": [0, 3]}, STILL)
    assert [towers.stands(i) for i in range(5)] == [True, False, False, True, False]
    assert not any(make_experiment("tower", "towers").stands(i) for i in range(24))


def test_cases_and_the_same_generator_gives_the_same_outcomes():
    scene = load_scene("tower")
    towers = make_experiment("tower", "towers", {"pieces": [3, 5], "kinds": ["logo"]})
    assert towers.cases(scene) == [{"pieces": 3}, {"pieces": 5}]
    first = towers.run(scene, {"pieces": 3}, np.random.default_rng(7))
    assert towers.run(scene, {"pieces": 3}, np.random.default_rng(7)) == first
    assert set(first) == set(towers.outcomes)
    assert make_experiment("tower", "towers").cases(scene) == [{"pieces": 24}]


@pytest.mark.parametrize("options,key", [
    ({"pieces": 0}, "pieces"), ({"kinds": "logo"}, "kinds"), ({"stand": 1.5}, "stand"),
    ({"stand": [-1]}, "stand"), ({"stand": "all"}, "stand"), ({"height": 1}, "height"),
])
def test_bad_options_name_the_key(options, key):
    with pytest.raises(ExperimentError, match=rf"^experiment\.{re.escape(key)}: "):
        make_experiment("tower", "towers", options)


def test_an_unknown_kind_names_the_scene_pieces():
    towers = make_experiment("tower", "towers", {"kinds": ["letter_Q"]})
    with pytest.raises(ExperimentError, match=r"^experiment\.kinds: 'letter_Q' is not a piece "
                                              r"part of tower \(pieces: letter_H, "):
        towers.cases(load_scene("tower"))


def test_bot_games_report_falls_knocks_and_the_tallest_tower():
    scene = load_scene("tower")
    games = make_experiment("tower", "games", {"bots": "random", "max_turns": 4})
    (case,) = games.cases(scene)
    out = games.run(scene, case, np.random.default_rng(1))
    assert set(out) == set(games.outcomes)
    assert {"fall_rate", "knock_rate", "tallest"} <= set(out)
    assert out["turns"] == 4 and not out["finished"] and math.isnan(out["mean_score"])
    assert 0.0 <= out["fall_rate"] <= 1.0 and out["tallest"] >= 0.0
