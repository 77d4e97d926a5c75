"""The Game objects and their registry: what every registered game declares, the
rules parsed once per scene, and Tilted's release area measured against the beam."""
from __future__ import annotations

import json

import numpy as np
import pytest
import shapely
from scipy.spatial.transform import Rotation

from balance3d.bots import BotError, bot_names, make_bot, plays
from balance3d.games import (GameError, game_names, get_game, load_state, new_game)
from balance3d.games.base import ACTION_TYPES
from balance3d.scene import load_scene


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_consistent_fields(name):
    game = get_game(name)
    assert game.name == name and game.state_class.game is game
    assert game.variants and len(set(game.variants)) == len(game.variants)
    for variant in game.variants:
        counts = game.player_counts(variant)
        assert counts and all(isinstance(n, int) and n >= 1 for n in counts)
        assert load_scene(game.scene_name(variant)).game == name
        assert load_scene(game.scene_name(variant)).variant == variant
    assert set(game.action_types) <= set(ACTION_TYPES)
    assert game.default_bot in game.bots
    for bot in game.bots:
        assert bot in bot_names() and plays(bot, name)
    assert isinstance(game.score_name, str) and game.score_name
    assert isinstance(game.release_kind, str) and game.release_kind


def test_unknown_game_and_variant_name_what_is_known():
    with pytest.raises(GameError, match="unknown game 'chess' \\(known: tilted, tower, tribalance\\)"):
        get_game("chess")
    with pytest.raises(GameError, match="unknown variant 'bogus' \\(known: basic, solo, "
                                        "advanced\\)"):
        get_game("tilted").player_counts("bogus")
    with pytest.raises(GameError, match="unknown variant"):
        new_game("tilted", players=2, variant="bogus")


def test_tilted_declares_the_rules_counts_and_bots():
    game = get_game("tilted")
    # RULES: 1 to 4 players; solo is one player; the auction needs bidders.
    assert game.player_counts("basic") == (2, 3, 4)
    assert game.player_counts("solo") == (1,)
    assert game.player_counts("advanced") == (2, 3, 4)
    assert game.scene_name("basic") == "tilted" and game.scene_name("solo") == "tilted-solo"
    assert game.score_name == "coins" and game.default_bot == "planner"


def test_rules_are_parsed_once_per_scene_and_shared_by_clones_and_loaded_games():
    game = get_game("tilted")
    state = new_game("tilted", players=2, seed=1)
    # A parse makes a new rules object: the same object means no second parse.
    assert state.clone().rules is state.rules
    assert load_state(json.loads(state.to_json())).rules is state.rules
    other = load_scene("tilted-solo")
    assert game.rules(other) is game.rules(other)
    assert game.rules(other) is not state.rules


def test_the_planner_refuses_a_game_it_does_not_declare():
    state = new_game("tilted", players=2, seed=1)
    bot = make_bot("planner", 1, state.current_player)
    bot.games = ("tower",)
    with pytest.raises(BotError, match="plays tower only, not 'tilted'"):
        bot.choose(state)


def test_tilted_release_area_is_the_high_half_of_the_beam_top_seen_from_above():
    state = new_game("tilted", players=2, seed=1)
    area = state.release_area()
    assert area["kind"] == "beam_half"
    region, = area["regions"]
    polygon = shapely.Polygon(region["polygon"])
    length, width, thickness = load_scene("tilted").parts["beam"].extents
    # Seen from above, a face of area A whose normal makes the angle theta with the
    # vertical covers A cos(theta); here A = length / 2 x width.
    centre, quat = state.world.pose("beam")
    rot = Rotation.from_quat(quat).as_matrix()
    normal_z = rot[2, 2]
    assert polygon.is_valid
    assert polygon.area == pytest.approx(length / 2 * width * abs(normal_z), rel=1e-9)
    # The high half: the beam's highest point is its top corner at the high end;
    # every corner of the region is on that end's side of the fulcrum's apex.
    beam = state.world.vertices("beam")
    top = beam[np.argmax(beam[:, 2])]
    assert region["top_z"] == pytest.approx(top[2], abs=1e-9)
    apex_x = float(np.mean(state.world.vertices("fulcrum")[:, 0]))
    side = np.sign(top[0] - apex_x)
    # x of the top face's centre line, seen from above
    centre_x = float(centre[0] + rot[0, 2] * thickness / 2)
    # (the settled beam's yaw of a few microradians moves corners by microns)
    assert all(side * (x - centre_x) >= -1e-5 for x, _ in region["polygon"])
    assert max(side * (x - centre_x) for x, _ in region["polygon"]) \
        == pytest.approx(length / 2 * abs(rot[0, 0]), abs=1e-5)


def test_release_area_is_none_when_no_piece_is_released():
    state = new_game("tilted", players=2, seed=1, variant="advanced",
                     scene="tilted-advanced")
    while state.phase == "drop":
        state.apply(make_bot("planner", 1, state.current_player).choose(state))
    assert state.release_area() is None
