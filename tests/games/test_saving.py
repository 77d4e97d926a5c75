"""A saved state is a snapshot: what ``State.to_dict`` returned does not change when
the game goes on (a caller comparing a state before and after an action, or keeping
a saved dict as an undo point, must see the state as it was)."""
from __future__ import annotations

import copy

from balance3d.bots import make_bot
from balance3d.games import new_game


def test_a_saved_dict_does_not_grow_with_the_game():
    state = new_game("tilted", players=2, seed=4)
    bot = make_bot("random", 4, 0)
    state.apply(bot.choose(state))
    saved = state.to_dict()
    kept = copy.deepcopy(saved)
    for _ in range(3):
        if state.is_over:
            break
        state.apply(make_bot("random", 4, state.current_player).choose(state))
    assert len(state.history) > len(kept["history"])
    assert saved == kept
