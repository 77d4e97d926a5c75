"""load_scene(overrides=...): each path form sets the value it names; bad paths and
values fail with one line naming the path."""
from __future__ import annotations

import pytest

from balance3d.scene import OverrideError, SceneError, load_scene


def test_material_density_scales_a_parts_mass_by_the_ratio():
    base = load_scene("tilted")
    material = base.data["parts"]["beam"]["material"]
    density = base.materials[material].density
    heavy = load_scene("tilted", {f"materials.{material}.density": 2 * density})
    sx, sy, sz = base.data["parts"]["beam"]["size"]
    # mechanics: a solid box's mass is density x volume
    assert heavy.parts["beam"].mass == pytest.approx(2 * density * sx * sy * sz, rel=1e-9)
    assert heavy.parts["beam"].mass / base.parts["beam"].mass == pytest.approx(2.0, rel=1e-9)
    assert heavy.materials[material].density == 2 * density


def test_each_path_form_sets_its_value():
    scene = load_scene("tilted", {
        "physics.time_step": 0.002,
        "parts.fulcrum.width": 0.07,
        "parts.beam.size[2]": 0.02,
        "rules.coins": 30,
        "bodies[2].position[2]": 0.05,
        "bodies[name=fulcrum].position[0]": 0.01,
        "bodies[name=beam].rpy[2]": 0.1,
        "rules.sections[1][1]": 0.11,
    })
    assert scene.physics.time_step == 0.002
    assert scene.parts["fulcrum"].params["width"] == 0.07
    assert tuple(scene.data["parts"]["beam"]["size"]) == (0.60, 0.06, 0.02)
    assert scene.parts["beam"].extents[2] == pytest.approx(0.02, abs=1e-9)
    assert scene.rules["coins"] == 30
    beam = next(b for b in scene.bodies if b.name == "beam")
    fulcrum = next(b for b in scene.bodies if b.name == "fulcrum")
    assert [b.name for b in scene.bodies][2] == "beam"
    assert beam.position[2] == 0.05 and fulcrum.position[0] == 0.01
    # the file leaves the beam's rpy out: it stands for [0, 0, 0]
    assert beam.rpy == (0.0, 0.0, 0.1) and fulcrum.rpy == (0.0, 0.0, 0.0)
    assert scene.rules["sections"][1][1] == 0.11


def test_an_optional_key_absent_from_the_file_may_be_set():
    scene = load_scene("tilted", {"parts.block_2.mass": 0.2,
                                  "materials.wood.rolling_friction": 0.01})
    assert scene.parts["block_2"].mass == 0.2
    assert scene.materials["wood"].rolling_friction == 0.01


def test_a_whole_number_override_given_as_a_float_becomes_an_int():
    assert load_scene("tilted", {"rules.coins": 24.0}).rules["coins"] == 24


def test_overrides_do_not_leak_into_later_loads():
    load_scene("tilted", {"materials.wood.density": 900.0})
    assert load_scene("tilted").materials["wood"].density == 650.0


@pytest.mark.parametrize("path, value, words", [
    ("materials.blok.density", 1.0,
     "no material 'blok' (materials: beam_wood, block_wood, felt, "),
    ("parts.bean.size[0]", 1.0, "no part 'bean' (parts: beam,"),
    ("materials.wood.hardness", 1.0, "materials.wood has no key 'hardness'"),
    ("physics.time_stepp", 1.0, "physics has no key 'time_stepp'"),
    ("rules.nothing", 1, "rules has no key 'nothing'"),
    ("colour", 1, "no section 'colour'"),
    ("parts.beam.size[3]", 0.1, "index 3 out of range (parts.beam.size has 3 elements)"),
    ("bodies[9].position[0]", 0.1, "index 9 out of range (bodies has 3 elements)"),
    ("bodies[name=plank].position[0]", 0.1, "no element of bodies with name = 'plank'"),
    ("materials.wood.density", "heavy", "must be a number like the scene's 650.0"),
    ("materials.wood.density", True, "must be a number"),
    ("parts.beam.size", 0.1, "must be a list"),
    ("parts.beam.kind", 3, "must be a string"),
    ("rules.coins", 2.5, "must be a whole number"),
    ("materials.wood", 1.0, "names a table, not a value"),
    ("parts.beam.size[x]", 1.0, "[x] is neither an index"),
])
def test_bad_overrides_name_the_path(path, value, words):
    with pytest.raises(OverrideError) as err:
        load_scene("tilted", {path: value})
    message = str(err.value)
    assert "\n" not in message
    assert f"override {path!r}" in message and words in message
    assert err.value.key == path


def test_a_bad_value_of_a_good_path_fails_validation_naming_the_key():
    with pytest.raises(SceneError, match=r"materials\.wood\.density: must be a positive"):
        load_scene("tilted", {"materials.wood.density": -5.0})
