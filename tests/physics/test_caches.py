"""The physics' caches: results are the same with them on, off, cold or warm; the
hull files live in the user's cache folder and a damaged one is written again."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from balance3d.bots import make_bot
from balance3d.games import new_game
from balance3d.physics import caches_enabled, clear_caches
from balance3d.physics.caches import LRU, cache, caches_on
from balance3d.physics.hulls import hull_cache_dir
from balance3d.physics.statics import STATICS_CACHE_SIZE
from balance3d.physics.weld_patches import PATCH_CACHE_SIZE
from balance3d.play import play
from balance3d.record import Recorder, dumps
from balance3d.scene import load_scene


def play_game(seed: int = 3, players: int = 2) -> str:
    """A whole Tilted game between random bots, as its record's text."""
    state = new_game("tilted", players=players, seed=seed, bots=["random"] * players)
    recorder = Recorder(state)
    play(recorder, [make_bot("random", seed, seat) for seat in range(players)])
    assert state.is_over
    return dumps(recorder.record())


def cached_entries() -> int:
    return len(cache("statics", STATICS_CACHE_SIZE)) + len(cache("patches", PATCH_CACHE_SIZE))


@pytest.mark.portable
def test_a_whole_game_is_byte_identical_with_caches_off_cold_and_warm():
    clear_caches()
    with caches_enabled(False):
        assert not caches_on()
        off = play_game()
    assert caches_on()
    assert cached_entries() == 0  # nothing was remembered while off
    cold = play_game()
    assert cached_entries() > 0
    warm = play_game()  # replays every program and patch from the caches
    assert '"outcome": null' not in off
    assert cold == off
    assert warm == off


def test_switch_and_clear():
    clear_caches()
    with caches_enabled(False):
        assert cache("statics", STATICS_CACHE_SIZE) is None
        with caches_enabled(True):
            cache("statics", STATICS_CACHE_SIZE).put("key", 1)
        assert not caches_on()
    assert cache("statics", STATICS_CACHE_SIZE).get("key") == 1
    clear_caches()
    assert "key" not in cache("statics", STATICS_CACHE_SIZE)


def test_scenes_are_validated_anew_while_the_caches_are_off():
    assert load_scene("tilted") is load_scene("tilted")       # remembered by content
    with caches_enabled(False):
        fresh = load_scene("tilted")
        assert fresh is not load_scene("tilted")
    assert fresh.digest == load_scene("tilted").digest


def test_lru_drops_the_least_recently_used_entry():
    lru = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" is now the most recent
    lru.put("c", 3)
    assert ("a" in lru, "b" in lru, "c" in lru) == (True, False, True)
    assert len(lru) == 2
    with pytest.raises(KeyError):
        lru.get("b")


# ------------------------------------------------------------------ hull files
def logo_world_poses(scene) -> list[bytes]:
    """A tower scene built, one logo piece (a convex hull) dropped on a base and
    settled: every body's pose, as bytes."""
    world = scene.build_world()
    base = world.pose(world.names[1])[0]
    world.drop("piece", scene.parts["logo"], (base[0], base[1], base[2] + 0.08))
    world.settle()
    return [world.pose(n)[0].tobytes() + world.pose(n)[1].tobytes() for n in world.names]


def test_hull_files_live_in_the_user_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert hull_cache_dir() == tmp_path / "balance3d" / "hulls"
    logo_world_poses(load_scene("tower"))
    written = list(hull_cache_dir().iterdir())
    assert written and all(p.suffix == ".obj" for p in written)


DAMAGE = {
    "garbage": lambda text: b"garbage\n" * 10,
    "truncated": lambda text: text[:len(text) // 2],
    "empty": lambda text: b"",
    "binary": lambda text: bytes(range(256)),
    "one vertex moved": lambda text: text.replace(b"v ", b"v 1", 1),
    "check line lost": lambda text: text[:text.rindex(b"#")],
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_hull_file_is_written_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    scene = load_scene("tower")
    expected = logo_world_poses(scene)
    files = sorted(hull_cache_dir().glob("*.obj"))
    assert files
    originals = {f: f.read_bytes() for f in files}
    for f in files:
        f.write_bytes(DAMAGE[damage](originals[f]))
        assert f.read_bytes() != originals[f]
    assert logo_world_poses(scene) == expected
    assert {f: f.read_bytes() for f in files} == originals


def test_hull_files_go_to_the_temporary_folder_when_the_cache_cannot_be_written(
        tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    assert hull_cache_dir() == Path(tmp_path / "tmp" / "balance3d-hulls")
    logo_world_poses(load_scene("tower"))
    assert list(hull_cache_dir().glob("*.obj"))
