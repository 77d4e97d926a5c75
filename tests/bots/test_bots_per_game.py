"""Bots per game: each Game names its bots, the generic code names no game, and the
old ways of making a bot still work."""
from __future__ import annotations

from pathlib import Path

import pytest

import balance3d.bots
from balance3d.bots import BotError, GameBot, bot_names, make_bot, plays
from balance3d.games import Place, game_names, new_game
from balance3d.games.tilted.planner import PlannerBot as TiltedPlanner
from balance3d.games.tribalance.planner import PlannerBot as TribalancePlanner


def test_each_game_gives_its_own_planner_and_the_generic_random_bot():
    assert {"planner", "random"} <= set(bot_names())
    assert isinstance(make_bot("planner", 1, 0, game="tilted"), TiltedPlanner)
    assert isinstance(make_bot("planner", 1, 0, game="tribalance"), TribalancePlanner)
    for game in game_names():
        assert plays("planner", game) and plays("random", game)
    with pytest.raises(BotError, match="unknown bot 'genius'"):
        make_bot("genius", 1, 0)


def test_the_generic_bots_module_names_no_game():
    folder = Path(balance3d.bots.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text()
        for game in game_names():
            assert game not in text, f"{path.name} names the game {game!r}"


def test_a_planner_made_without_its_game_plays_as_the_games_own():
    state = new_game("tribalance", players=2, seed=2)
    without = make_bot("planner", 2, 0)
    assert isinstance(without, GameBot)
    assert without.choose(state) == make_bot("planner", 2, 0, game="tribalance").choose(state)
    assert isinstance(without.bot_for("tilted"), TiltedPlanner)


def test_the_random_bot_places_a_held_piece_on_a_free_field():
    state = new_game("tribalance", players=3, seed=5)
    bots = [make_bot("random", 5, seat) for seat in range(3)]
    for _ in range(4):
        action = bots[state.current_player].choose(state)
        assert isinstance(action, Place)
        assert action.piece in state.legal_pieces()
        assert action.field in state.free_fields()
        state.apply(action)
