"""The games' physics settings: one table, the same values as the code's defaults."""
from __future__ import annotations

import tomllib
from dataclasses import fields

import pytest

from balance3d.physics.settings import PhysicsSettings
from balance3d.resources import scenes_dir
from balance3d.scene import list_scenes, load_scene


def test_common_toml_lists_every_setting_at_its_default():
    with open(scenes_dir() / "shared" / "common.toml", "rb") as fh:
        table = tomllib.load(fh)["physics"]
    defaults = PhysicsSettings()
    assert set(table) == {f.name for f in fields(PhysicsSettings)}
    for name, value in table.items():
        assert value == pytest.approx(getattr(defaults, name), rel=1e-12), name


#: The settings a bundled scene overrides, each with its reason in the scene file:
#: Tri-Ba-Lance damps motion more, so that its plate stops rocking on the ball, and
#: welds nothing (nothing stacks in it).
OVERRIDES = {"tribalance": {"angular_damping": 0.9, "linear_damping": 0.9, "weld": False}}


@pytest.mark.parametrize("name", list_scenes())
def test_every_bundled_scene_runs_on_the_defaults(name):
    assert load_scene(name).physics == PhysicsSettings().replace(**OVERRIDES.get(name, {}))


@pytest.mark.parametrize("field,value", [
    ("angular_damping", 1.5), ("linear_damping", -0.1), ("weld_time", 0.0),
    ("wake_speed", -1.0), ("weld_patch_tolerance", 0.0),
    ("split_impulse_penetration_threshold", 0.01)])
def test_out_of_range_settings_are_refused(field, value):
    with pytest.raises(ValueError, match=field):
        PhysicsSettings().replace(**{field: value})
