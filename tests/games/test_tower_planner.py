"""Tower's planner bot on hand-built situations: it targets the leader, stands a
piece on edge when a card demands it, and builds without a fall where a centred flat
drop stands (a flat piece centred on a flat tower: its centre of mass over the
middle of the piece under it)."""
from __future__ import annotations

import numpy as np

from balance3d.bots import make_bot
from balance3d.games import Choose, Drop
from balance3d.games.tower import TowerState
from balance3d.games.tower.planner import PlannerBot
from balance3d.games.tower.rules import VERTICAL, piece_part


def game(players: int = 3) -> TowerState:
    state = TowerState.arranged(players, seed=2)
    state.load_dice(*[("play 1", "letter")] * 8)
    return state


def centred(state: TowerState, seat: int, piece: str) -> Drop:
    x, y = np.mean(state.world.vertices(state.base(seat))[:, :2], axis=0)
    return Drop(piece, float(x), float(y), 0.002)


def test_the_planner_is_the_games_planner():
    assert isinstance(make_bot("planner", 1, 0, game="tower"), PlannerBot)


def test_the_planner_gives_its_penalty_to_the_tallest_tower():
    state = game()
    for seat, count in ((1, 1), (2, 3)):
        logos = [p for p in state.hand(seat) if piece_part(p) == "logo"][:count]
        state.stage(seat, [centred(state, seat, p) for p in logos])
    state.give_turn(0, "give penalty", "logo")
    assert PlannerBot(2, 0).choose(state) == Choose("target", 2)


def test_the_planner_stands_a_piece_on_edge_when_a_card_demands_it():
    state = game()
    state.stack_deck([VERTICAL])
    state.give_turn(0, "receive penalty", "logo")
    state.give_turn(0, "play 1", "letter")
    action = PlannerBot(2, 0).choose(state)
    assert isinstance(action, Drop) and action.pose != "flat"
    assert state.is_legal(action) == (True, "")


def test_the_planners_drops_on_a_flat_tower_stand():
    state = game(2)
    hs = [p for p in state.hand(0) if piece_part(p) == "letter_H"][:3]
    state.stage(0, [centred(state, 0, p) for p in hs])
    state.give_turn(0, "play 2", "letter or logo")
    bot = PlannerBot(2, 0)
    for _ in range(2):
        verdict = state.apply(bot.choose(state))
        assert not verdict.fallen and verdict.rests_on_level == verdict.level
    assert len(state.tower(0)) == 5
