"""Tower's scene rules: a bad value is refused with the file, the key and why."""
from __future__ import annotations

import pytest

from balance3d.games.tower.rules import TowerRules
from balance3d.scene import SceneError, load_scene

SCENE = load_scene("tower")


def edited(tmp_path, old: str, new: str):
    text = SCENE.path.read_text()
    assert old in text
    text = text.replace(old, new).replace(
        'extends = "shared/common.toml"',
        f'extends = "{SCENE.path.parent / "shared" / "common.toml"}"')
    path = tmp_path / "tower-edited.toml"
    path.write_text(text)
    return load_scene(path)


@pytest.mark.parametrize("old,new,key", [
    ('"play 4", "give penalty"', '"play four", "give penalty"', "rules.die_1"),
    ('"letter or logo"]', '"both"]', "rules.die_2"),
    ('["u-decide", 2]', '["u-decide", -1]', "rules.penalty_deck"),
    ('["u-decide", 2]', '["free turn", 2]', "rules.penalty_deck"),
    ("knock_tolerance = 0.002", "knock_tolerance = 0", "rules.knock_tolerance"),
    ('logo_part = "logo"', 'logo_part = "letter_T"', "rules.logo_part"),
], ids=["die-1-face", "die-2-face", "negative-count", "unknown-card", "zero-tolerance",
        "logo-is-a-letter"])
def test_a_bad_rule_value_names_the_file_and_key(tmp_path, old, new, key):
    scene = edited(tmp_path, old, new)
    with pytest.raises(SceneError, match=f"tower-edited.toml: {key}"):
        TowerRules.from_scene(scene)


def test_the_bundled_rules_read_as_written():
    rules = TowerRules.from_scene(SCENE)
    assert len(rules.deck()) == 16 and rules.letters_per_player == rules.logos_per_player == 12
    assert rules.shape("logo") == "logo" and rules.shape("letter_H") == "letter"


def test_a_scene_dealing_no_piece_is_refused(tmp_path):
    scene = edited(tmp_path, "letters_per_player = 12\nlogos_per_player = 12",
                   "letters_per_player = 0\nlogos_per_player = 0")
    with pytest.raises(SceneError, match="rules.logos_per_player: each player needs"):
        TowerRules.from_scene(scene)
