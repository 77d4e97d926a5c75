"""Tri-Ba-Lance's scene rules: a wrong value is refused with one line naming the
file, the key and the reason."""
from __future__ import annotations

import pytest

from balance3d.games import get_game, new_game
from balance3d.scene import SceneError, load_scene


def scene_with(tmp_path, rules: str):
    bundled = load_scene("tribalance").path
    (tmp_path / "mine.toml").write_text(
        f'[scene]\nextends = "{bundled.as_posix()}"\nname = "mine"\n\n[rules]\n{rules}\n')
    return load_scene(tmp_path / "mine.toml")


@pytest.mark.parametrize("rules, key, reason", [
    ("unit_mass = 0.010", "rules.unit_mass", "weighs 0.02 kg, not 1 x 0.01 kg"),
    ("fields = [[0.0, 0.0, 1], [0.0, -0.11, 5]]", "rules.fields[1]",
     "would overhang the plate's edge"),
    ("fields = [[0.0, 0.0, 1], [0.01, 0.0, 2]]", "rules.fields[1]", "would overlap"),
    ("fields = [[0.0, 0.0, 0]]", "rules.fields[0]", "whole number >= 1"),
    ("pieces_3_players = [0, 0, 0, 0, 0]", "rules.pieces_3_players", "not all zero"),
    ("first_player = 2", "rules.first_player", "must be a seat"),
    ("hold_time = -1.0", "rules.hold_time", ""),
    ("colour = 'red'", "rules.colour", "unknown key"),
])
def test_a_wrong_rule_value_names_the_file_key_and_reason(tmp_path, rules, key, reason):
    scene = scene_with(tmp_path, rules)
    with pytest.raises(SceneError) as caught:
        get_game("tribalance").rules(scene)
    message = str(caught.value)
    assert "mine.toml" in message and key in message and reason in message
    assert "\n" not in message


def test_a_seeded_first_player_comes_from_the_games_generator(tmp_path):
    scene = scene_with(tmp_path, 'first_player = "random"')
    firsts = {new_game("tribalance", players=3, seed=seed, scene=scene).current_player
              for seed in range(12)}
    assert firsts == {0, 1, 2}
    again = [new_game("tribalance", players=3, seed=7, scene=scene).current_player
             for _ in range(2)]
    assert again[0] == again[1]
