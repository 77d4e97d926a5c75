"""A game on an edited copy of a bundled scene that keeps the bundled scene's name
saves and loads: the saved state keeps the copy's content, so loading neither looks
the name up among the bundled scenes nor needs the copy to stay as it was."""
from __future__ import annotations

import shutil

from balance3d.games import load_state, new_game
from balance3d.resources import scenes_dir
from balance3d.scene import load_scene

#: kg/m^3, the copy's beam density (the bundled scene's is 650).
EDITED_DENSITY = 500.0


def test_an_edited_copy_keeping_the_bundled_name_saves_and_loads(tmp_path):
    shutil.copytree(scenes_dir() / "shared", tmp_path / "shared")
    bundled = (scenes_dir() / "tilted.toml").read_text()
    marker = "[materials.beam_wood]  # the beam\ndensity = 650.0"
    assert marker in bundled
    copy = tmp_path / "tilted.toml"
    copy.write_text(bundled.replace(marker, marker.replace("650.0", f"{EDITED_DENSITY}")))
    scene = load_scene(copy)
    assert scene.name == "tilted" and scene.digest != load_scene("tilted").digest
    state = new_game("tilted", players=2, scene=copy)
    saved = state.to_dict()
    copy.unlink()   # the saved state must not need the file
    loaded = load_state(saved)
    assert loaded.scene.digest == scene.digest
    assert loaded.scene.materials["beam_wood"].density == EDITED_DENSITY
    assert loaded.to_dict() == saved
