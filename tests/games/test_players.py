"""Seats' names are one line of printable text, however a game is started or loaded:
a newline or other control character in a name would break every line that shows it."""
from __future__ import annotations

import json

import pytest

import balance3d
from balance3d.games import GameError, RecordError


@pytest.mark.parametrize("name", ["a\nb", "tab\there", "bell\x07", "line\u2028sep"])
def test_new_game_refuses_a_name_that_is_not_one_line(name):
    with pytest.raises(GameError, match="one line of printable text"):
        balance3d.new_game("tilted", players=[name, "other"], seed=0)


def test_a_saved_state_with_such_a_name_is_refused_as_malformed():
    data = balance3d.new_game("tilted", players=["Zoë 王", "other"], seed=0).to_dict()
    assert data["players"][0]["name"] == "Zoë 王"        # printable text is kept
    data = json.loads(json.dumps(data))
    data["players"][1]["name"] = "two\nlines"
    with pytest.raises(RecordError, match="players|one line"):
        balance3d.load_state(data)
