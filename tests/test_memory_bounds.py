"""What bounds the memory a long process holds: each cache keeps at most its stated
number of entries, and the C heap is told to give freed memory back."""
from __future__ import annotations

import threading

import pytest

from balance3d import scene as scene_module
from balance3d.bots import make_bot
from balance3d.games import new_game
from balance3d.physics import caches, heap, statics, welding

#: Entries each physics cache may hold in the test (far fewer than a game fills).
SMALL = 3
#: Moves of a seeded Tilted game played with the small caches (its welded blocks
#: need more than 20 statics programs and contact patches by then).
MOVES = 6


def test_the_physics_caches_hold_no_more_than_their_size(monkeypatch):
    """The statics and contact-patch caches, sized :data:`SMALL` (in a new thread,
    whose caches are made with the sizes then in force), hold exactly that many
    entries after a game has computed more than that many answers."""
    monkeypatch.setattr(statics, "STATICS_CACHE_SIZE", SMALL)
    monkeypatch.setattr(welding, "PATCH_CACHE_SIZE", SMALL)
    held: dict[str, int] = {}

    def play() -> None:
        state = new_game("tilted", players=2, seed=3)
        bots = [make_bot("random", 3, seat, game="tilted") for seat in range(2)]
        for _ in range(MOVES):
            state.apply(bots[state.current_player].choose(state))
        held.update({name: len(lru) for name, lru in caches._caches().items()})

    thread = threading.Thread(target=play)
    thread.start()
    thread.join()
    assert held == {"statics": SMALL, "patches": SMALL}


def test_the_scene_cache_keeps_its_size(monkeypatch):
    """More distinct scenes than :data:`~balance3d.scene.SCENE_CACHE_SIZE` loaded:
    the cache holds that many, the newest among them."""
    scene_module._load_cached.cache_clear()
    size = scene_module.SCENE_CACHE_SIZE
    densities = [500.0 + i for i in range(size + 4)]
    for density in densities:
        scene_module.load_scene("tilted", {"materials.block_wood.density": density})
    info = scene_module._load_cached.cache_info()
    assert info.currsize == size
    scene_module.load_scene("tilted", {"materials.block_wood.density": densities[-1]})
    assert scene_module._load_cached.cache_info().hits == info.hits + 1


@pytest.mark.skipif(not heap.sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_heap_thresholds_are_set_unless_the_user_chose_them(monkeypatch):
    for name in heap.USER_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    assert heap.bound_heap() is True
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "1000000")
    assert heap.bound_heap() is False
