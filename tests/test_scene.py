"""Scene files: every bundled scene loads; bad files fail with one clear message."""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from balance3d.resources import scenes_dir
from balance3d.scene import SceneError, list_scenes, load_scene, resolve_scene_path

GAMES = {"tilted", "tribalance", "tower"}

MINI = """\
[scene]
name = "mini"
game = "tilted"
description = "a block on the floor"

[physics]
time_step = 0.004

[materials.wood]
density = 650.0
friction = 0.5

[parts.block]
kind = "box"
size = [0.05, 0.05, 0.05]
material = "wood"

[[bodies]]
name = "block"
part = "block"
position = [0.0, 0.0, 0.025]
"""


def write(folder: Path, text: str, name: str = "scene.toml") -> Path:
    path = folder / name
    path.write_text(text)
    return path


# --------------------------------------------------------------- bundled scenes
def test_bundled_scenes_are_listed():
    names = list_scenes()
    assert {"tilted", "tilted-solo", "tilted-advanced", "tribalance", "tower"} <= set(names)
    assert "common" not in names  # shared/ holds includes, not scenes


@pytest.mark.parametrize("name", list_scenes())
def test_bundled_scene_loads(name):
    scene = load_scene(name)
    assert scene.name == name
    assert scene.game in GAMES
    assert scene.path == (scenes_dir() / f"{name}.toml")
    assert scene.bodies and scene.bodies[0].name == "table"
    for body in scene.bodies:
        assert body.part in scene.parts
    for part in scene.parts.values():
        assert part.mass > 0 and math.isfinite(part.mass)
    assert scene.physics.time_step > 0


@pytest.mark.parametrize("name", list_scenes())
def test_digest_is_sha256_of_canonical_content(name):
    scene = load_scene(name)
    blob = json.dumps(scene.data, sort_keys=True, separators=(",", ":"))
    assert scene.digest == hashlib.sha256(blob.encode()).hexdigest()


def test_digest_stable_across_processes_and_locations(tmp_path):
    here = load_scene("tribalance").digest
    code = "from balance3d.scene import load_scene; print(load_scene('tribalance').digest)"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.strip()
    assert other == here
    copy = tmp_path / "scenes"
    shutil.copytree(scenes_dir(), copy)
    assert load_scene(copy / "tribalance.toml").digest == here


def test_digest_changes_with_content(tmp_path):
    a = load_scene(write(tmp_path, MINI, "a.toml"))
    b = load_scene(write(tmp_path, MINI.replace("friction = 0.5", "friction = 0.6"), "b.toml"))
    assert a.digest != b.digest


def test_variants_extend_the_basic_scene():
    basic, solo = load_scene("tilted"), load_scene("tilted-solo")
    assert solo.variant == "solo" and basic.variant == "basic"
    assert [b.name for b in solo.bodies] == [b.name for b in basic.bodies]
    assert solo.rules == basic.rules
    assert solo.digest != basic.digest


def test_edited_file_is_read_again(tmp_path):
    path = write(tmp_path, MINI)
    assert load_scene(path).physics.time_step == 0.004
    path.write_text(MINI.replace("time_step = 0.004", "time_step = 0.002"))
    assert load_scene(path).physics.time_step == 0.002


def test_edited_base_file_is_read_again(tmp_path):
    base = write(tmp_path, MINI, "base.toml")
    top = write(tmp_path, '[scene]\nextends = "base.toml"\nname = "top"\n', "top.toml")
    assert load_scene(top).physics.time_step == 0.004
    base.write_text(MINI.replace("time_step = 0.004", "time_step = 0.002"))
    assert load_scene(top).physics.time_step == 0.002


# --------------------------------------------------------------- extends
def test_extends_merges_tables_and_concatenates_bodies(tmp_path):
    write(tmp_path, MINI, "base.toml")
    (tmp_path / "sub").mkdir()
    top = write(tmp_path / "sub", """\
[scene]
extends = "../base.toml"
name = "top"
variant = "solo"

[physics]
solver_iterations = 80

[materials.wood]
friction = 0.7

[parts.ball]
kind = "sphere"
radius = 0.02
material = "wood"

[[bodies]]
name = "ball"
part = "ball"
position = [0.1, 0.0, 0.02]
""", "top.toml")
    scene = load_scene(top)
    assert (scene.name, scene.game, scene.variant) == ("top", "tilted", "solo")
    assert scene.description == "a block on the floor"
    assert scene.physics.time_step == 0.004 and scene.physics.solver_iterations == 80
    assert scene.materials["wood"].density == 650.0
    assert scene.materials["wood"].friction == 0.7
    assert set(scene.parts) == {"block", "ball"}
    assert [b.name for b in scene.bodies] == ["block", "ball"]
    assert "extends" not in scene.data["scene"]


def test_extends_chain_of_three(tmp_path):
    write(tmp_path, MINI, "a.toml")
    write(tmp_path, '[scene]\nextends = "a.toml"\nname = "b"\n'
          '[[bodies]]\nname = "b1"\npart = "block"\nposition = [0.2, 0, 0.025]\n', "b.toml")
    c = write(tmp_path, '[scene]\nextends = "b.toml"\nname = "c"\n'
              '[[bodies]]\nname = "c1"\npart = "block"\nposition = [0.4, 0, 0.025]\n', "c.toml")
    assert [b.name for b in load_scene(c).bodies] == ["block", "b1", "c1"]


# --------------------------------------------------------------- bad files
def _edit(old: str, new: str):
    def edit(text: str) -> str:
        assert old in text
        return text.replace(old, new)
    return edit


BAD = [
    # id, edit of MINI, key named, reason fragment
    ("missing-name", _edit('name = "mini"\n', ""), "scene.name", "missing"),
    ("missing-kind", _edit('kind = "box"\n', ""), "parts.block.kind", "missing"),
    ("missing-size", _edit("size = [0.05, 0.05, 0.05]\n", ""), "parts.block.size", "missing"),
    ("missing-position", _edit("position = [0.0, 0.0, 0.025]\n", ""), "bodies[0].position",
     "missing"),
    ("missing-density", _edit("density = 650.0\n", ""), "materials.wood.density", "missing"),
    ("wrong-type-size", _edit("size = [0.05, 0.05, 0.05]", 'size = "big"'),
     "parts.block.size", "list of 3 positive numbers"),
    ("wrong-type-static", _edit('material = "wood"\n', 'material = "wood"\nstatic = 1\n'),
     "parts.block.static", "true or false"),
    ("wrong-type-position", _edit("position = [0.0, 0.0, 0.025]", "position = [0.0, 0.0]"),
     "bodies[0].position", "list of 3 numbers"),
    ("wrong-type-iterations", _edit("time_step = 0.004", "time_step = 0.004\n"
                                                         "solver_iterations = 10.5"),
     "physics.solver_iterations", "whole number"),
    ("wrong-type-table",
     lambda text: 'physics = "fast"\n' + _edit("[physics]\ntime_step = 0.004\n", "")(text),
     "physics", "must be a table"),
    ("scene-not-table", lambda text: "scene = 3\n" + _edit("[scene]\n", "[rules]\n")(text),
     "scene", "must be a table"),
    ("negative-mass", _edit('material = "wood"\n', 'material = "wood"\nmass = -0.1\n'),
     "parts.block.mass", "positive number"),
    ("zero-mass", _edit('material = "wood"\n', 'material = "wood"\nmass = 0\n'),
     "parts.block.mass", "positive number"),
    ("nan-mass", _edit('material = "wood"\n', 'material = "wood"\nmass = nan\n'),
     "parts.block.mass", "got nan"),
    ("inf-mass", _edit('material = "wood"\n', 'material = "wood"\nmass = inf\n'),
     "parts.block.mass", "got inf"),
    ("nan-density", _edit("density = 650.0", "density = nan"), "materials.wood.density",
     "got nan"),
    ("nan-friction", _edit("friction = 0.5", "friction = -nan"), "materials.wood.friction",
     "got nan"),
    ("nan-position", _edit("position = [0.0, 0.0, 0.025]", "position = [0.0, nan, 0.025]"),
     "bodies[0].position", "nan"),
    ("nan-time-step", _edit("time_step = 0.004", "time_step = nan"), "physics.time_step",
     "finite number"),
    ("negative-time-step", _edit("time_step = 0.004", "time_step = -0.004"),
     "physics.time_step", "must be positive"),
    ("negative-size", _edit("size = [0.05, 0.05, 0.05]", "size = [0.05, -0.05, 0.05]"),
     "parts.block.size", "positive"),
    ("restitution-above-1", _edit("friction = 0.5", "friction = 0.5\nrestitution = 1.5"),
     "materials.wood.restitution", "0..1"),
    ("unknown-part", _edit('part = "block"', 'part = "brick"'), "bodies[0].part",
     "unknown part 'brick'"),
    ("unknown-kind", _edit('kind = "box"', 'kind = "pyramid"'), "parts.block.kind",
     "unknown part kind 'pyramid'"),
    ("unknown-material", _edit('material = "wood"', 'material = "steel"'),
     "parts.block.material", "unknown material 'steel'"),
    ("unknown-physics-key", _edit("time_step = 0.004", "time_step = 0.004\ntimestep = 1"),
     "physics.timestep", "unknown key"),
    ("unknown-part-key", _edit('kind = "box"', 'kind = "box"\nradius = 0.1'),
     "parts.block.radius", "unknown key"),
    ("unknown-glyph", _edit('kind = "box"\nsize = [0.05, 0.05, 0.05]',
                            'kind = "letter"\nglyph = "Q"\nwidth = 0.04\nheight = 0.06\n'
                            'thickness = 0.015'),
     "parts.block.glyph", "unknown glyph 'Q'"),
    ("duplicate-body", _edit("position = [0.0, 0.0, 0.025]\n",
                             'position = [0.0, 0.0, 0.025]\n[[bodies]]\nname = "block"\n'
                             'part = "block"\nposition = [0.1, 0.0, 0.025]\n'),
     "bodies[1].name", "duplicate body name 'block'"),
    ("bodies-not-array", lambda text: "bodies = 3\n" + text.partition("[[bodies]]")[0],
     "bodies", "array of tables"),
    ("density-and-mass", _edit('material = "wood"\n', 'material = "wood"\nmass = 0.1\n'
                                                       'density = 800.0\n'),
     "parts.block.density", "a mass or a density, not both"),
    ("negative-part-density", _edit('material = "wood"\n', 'material = "wood"\n'
                                                            'density = -800.0\n'),
     "parts.block.density", "positive number"),
    ("unknown-game", _edit('game = "tilted"', 'game = "chess"'), "scene.game",
     "unknown game 'chess' (known: tilted, tower, tribalance)"),
    ("unknown-variant", _edit('game = "tilted"', 'game = "tilted"\nvariant = "expert"'),
     "scene.variant", "tilted has no variant 'expert' (variants: basic, solo, advanced)"),
    ("huge-time-step", _edit("time_step = 0.004", "time_step = 1e9"), "physics.time_step",
     "must be within 1e-05..0.01 s, got 1000000000.0"),
    ("tiny-time-step", _edit("time_step = 0.004", "time_step = 1e-9"), "physics.time_step",
     "must be within 1e-05..0.01 s"),
    ("huge-density", _edit("density = 650.0", "density = 1e308"), "materials.wood.density",
     "must be within 1..25000 kg/m^3, got 1e+308"),
    ("tiny-density", _edit("density = 650.0", "density = 1e-300"), "materials.wood.density",
     "must be within 1..25000 kg/m^3"),
    ("huge-part-density", _edit('material = "wood"\n', 'material = "wood"\n'
                                                         'density = 1e308\n'),
     "parts.block.density", "must be within 1..25000 kg/m^3"),
    ("huge-size", _edit("size = [0.05, 0.05, 0.05]", "size = [1e300, 0.05, 0.05]"),
     "parts.block.size", "must be within 0.0001..10 m, got [1e+300, 0.05, 0.05]"),
    ("tiny-size", _edit("size = [0.05, 0.05, 0.05]", "size = [0.05, 1e-300, 0.05]"),
     "parts.block.size", "must be within 0.0001..10 m"),
    ("huge-radius", _edit('kind = "box"\nsize = [0.05, 0.05, 0.05]',
                          'kind = "sphere"\nradius = 1e200'),
     "parts.block.radius", "must be within 0.0001..10 m, got 1e+200"),
    ("stadium-too-short", _edit('kind = "box"\nsize = [0.05, 0.05, 0.05]',
                                'kind = "stadium"\nlength = 0.02\nwidth = 0.03\n'
                                'thickness = 0.01'),
     "parts.block", "at least its width"),
]


@pytest.mark.parametrize("edit,key,reason", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_scene_names_file_key_and_reason(tmp_path, edit, key, reason):
    path = write(tmp_path, edit(MINI))
    with pytest.raises(SceneError) as info:
        load_scene(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {key}: "), message
    assert reason in message
    assert "\n" not in message


def test_part_density_overrides_its_material_density(tmp_path):
    two = MINI + ('\n[parts.oak]\nkind = "box"\nsize = [0.05, 0.05, 0.05]\n'
                  'material = "wood"\ndensity = 700.0\n')
    scene = load_scene(write(tmp_path, two))
    side = 0.05  # m, both cubes
    # kg: density (kg/m^3) times the cube's volume; the material keeps its own density
    assert scene.parts["oak"].mass == pytest.approx(700.0 * side ** 3, rel=1e-12)
    assert scene.parts["block"].mass == pytest.approx(650.0 * side ** 3, rel=1e-12)
    assert scene.materials["wood"].density == 650.0
    # the part keeps its material's surface
    assert scene.parts["oak"].material.friction == 0.5


@pytest.mark.parametrize("name", ["tilted", "tribalance", "tower"])
def test_bundled_part_kinds_have_their_own_materials(name):
    scene = load_scene(name)
    used = {spec["material"] for spec in scene.data["parts"].values()}
    assert "wood" not in used
    wood = scene.materials["wood"]
    for material in used - {"felt"}:
        # the same values as the plain wood: splitting the materials changes no physics
        own = scene.materials[material]
        assert (own.density, own.friction, own.restitution) == \
            (wood.density, wood.friction, wood.restitution)


def test_bad_toml(tmp_path):
    path = write(tmp_path, MINI.replace("density = 650.0", "density = 650.0.0"))
    with pytest.raises(SceneError, match=r"^.*scene\.toml: not valid TOML: .*line 10"):
        load_scene(path)


def test_extends_loop(tmp_path):
    a = write(tmp_path, '[scene]\nextends = "b.toml"\nname = "a"\n', "a.toml")
    write(tmp_path, '[scene]\nextends = "a.toml"\nname = "b"\n', "b.toml")
    with pytest.raises(SceneError) as info:
        load_scene(a)
    message = str(info.value)
    assert "scene.extends" in message and "loop" in message
    assert "a.toml -> b.toml -> a.toml" in message


def test_extends_itself(tmp_path):
    a = write(tmp_path, '[scene]\nextends = "a.toml"\nname = "a"\n', "a.toml")
    with pytest.raises(SceneError, match="scene.extends: files extend each other in a loop"):
        load_scene(a)


def test_extends_missing_file(tmp_path):
    a = write(tmp_path, '[scene]\nextends = "nowhere.toml"\nname = "a"\n', "a.toml")
    with pytest.raises(SceneError) as info:
        load_scene(a)
    assert str(info.value).startswith(f"{a}: scene.extends: no such scene file ")
    assert "nowhere.toml" in str(info.value)


def test_extends_wrong_type(tmp_path):
    a = write(tmp_path, '[scene]\nextends = 3\nname = "a"\n', "a.toml")
    with pytest.raises(SceneError, match=r"a\.toml: scene\.extends: must be a file name"):
        load_scene(a)


def test_error_in_base_file_names_the_base_file(tmp_path):
    base = write(tmp_path, MINI.replace('material = "wood"', 'material = "steel"'), "base.toml")
    top = write(tmp_path, '[scene]\nextends = "base.toml"\nname = "top"\n', "top.toml")
    with pytest.raises(SceneError) as info:
        load_scene(top)
    message = str(info.value)
    assert message.startswith(f"{base}: parts.block.material: unknown material 'steel'")
    assert f"(loading {top})" in message


def test_error_in_extending_file_names_it(tmp_path):
    write(tmp_path, MINI, "base.toml")
    top = write(tmp_path, '[scene]\nextends = "base.toml"\nname = "top"\n'
                '[[bodies]]\nname = "b2"\npart = "nothing"\nposition = [0.1, 0, 0.1]\n',
                "top.toml")
    with pytest.raises(SceneError) as info:
        load_scene(top)
    assert str(info.value).startswith(f"{top}: bodies[1].part: unknown part 'nothing'")


def test_scene_error_method_names_origin():
    scene = load_scene("tilted")
    common = scenes_dir() / "shared" / "common.toml"
    assert str(scene.error("physics.time_step", "too big")).startswith(
        f"{common}: physics.time_step: too big")
    assert str(scene.error("rules.coins", "too few")) == f"{scene.path}: rules.coins: too few"


# --------------------------------------------------------------- names and paths
def test_unknown_scene_name():
    with pytest.raises(SceneError, match="no scene named 'chess'; bundled scenes: .*tilted"):
        load_scene("chess")


def test_missing_scene_path(tmp_path):
    with pytest.raises(SceneError, match="no such scene file"):
        load_scene(tmp_path / "missing.toml")


def test_bundled_name_wins_over_a_folder_of_that_name(tmp_path, monkeypatch):
    (tmp_path / "tilted").mkdir()
    monkeypatch.chdir(tmp_path)
    assert resolve_scene_path("tilted") == scenes_dir() / "tilted.toml"


def test_relative_path_is_resolved(tmp_path, monkeypatch):
    write(tmp_path, MINI, "mini.toml")
    monkeypatch.chdir(tmp_path)
    assert load_scene("mini.toml").path == tmp_path / "mini.toml"


# --------------------------------------------------------------- summary
def test_summary_lists_every_body_with_mass_and_pose():
    scene = load_scene("tribalance")
    summary = scene.summary()
    json.dumps(summary)  # JSON-ready
    assert [b["name"] for b in summary["bodies"]] == [b.name for b in scene.bodies]
    plate = next(b for b in summary["bodies"] if b["name"] == "plate")
    assert plate["position_m"] == [0.0, 0.0, 0.175]
    assert plate["mass_kg"] == pytest.approx(650.0 * math.sqrt(3) / 4 * 0.4**2 * 0.01)
    assert summary["parts"]["plate"]["dimensions"] == {"side": 0.4, "thickness": 0.01}
    assert summary["physics"]["time_step"] == scene.physics.time_step
    assert summary["digest"] == scene.digest


def test_a_malformed_glyph_names_the_models_file_and_key(tmp_path, monkeypatch):
    import balance3d.scene_checks as checks
    (tmp_path / "letters.toml").write_text("[glyphs.T]\ncolumns = 3\nrows = 0\nrects = []\n")
    monkeypatch.setattr(checks, "models_dir", lambda: tmp_path)
    with pytest.raises(SceneError, match=r"letters\.toml: glyphs\.T\.rows: must be a positive"):
        checks.letter_glyphs()
