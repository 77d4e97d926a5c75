"""What bounds the memory a long process holds: each cache keeps at most its stated
number of entries, a dropped World goes at once, and the C heap gives freed memory
back."""
from __future__ import annotations

import ctypes
import gc
import threading
import weakref
from pathlib import Path

import pytest

from balance3d import scene as scene_module
from balance3d.bots import make_bot
from balance3d import games
from balance3d.games import new_game
from balance3d.physics import caches, heap, statics, weld_patches

#: Entries each physics cache may hold in the test (far fewer than a game fills).
SMALL = 3
#: bytes, MB, MB: the heap blocks of the heap test, how much of them, and how far
#: above its start the process may stay once they are freed.
BLOCK = 64 * 1024
HEAP_MB = 64
SLACK_MB = 16
#: Moves of a seeded Tilted game played with the small caches (its welded blocks
#: need more than 20 statics programs and contact patches by then).
MOVES = 6


def _rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def test_the_physics_caches_hold_no_more_than_their_size(monkeypatch):
    """The statics and contact-patch caches, sized :data:`SMALL` (in a new thread,
    whose caches are made with the sizes then in force), hold exactly that many
    entries after a game has computed more than that many answers."""
    monkeypatch.setattr(statics, "STATICS_CACHE_SIZE", SMALL)
    monkeypatch.setattr(weld_patches, "PATCH_CACHE_SIZE", SMALL)
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


@pytest.mark.skipif(heap._malloc_trim() is None, reason="glibc's malloc_trim")
def test_freed_heap_memory_goes_back_to_the_system():
    """Blocks of 64 kB (below glibc's mmap threshold, so on its heap), 64 MB of them
    written and freed but the last (so that the heap's top cannot shrink on its
    own): once released, the process's RSS is back within 16 MB of its start."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = (ctypes.c_size_t,)
    libc.free.argtypes = (ctypes.c_void_p,)
    heap.release_freed_memory()
    before = _rss_mb()
    blocks = [libc.malloc(BLOCK) for _ in range(HEAP_MB * 1024 * 1024 // BLOCK)]
    for block in blocks:
        ctypes.memset(block, 1, BLOCK)
    for block in blocks[:-1]:
        libc.free(block)
    assert _rss_mb() > before + HEAP_MB / 2
    assert heap.release_freed_memory() is True
    assert _rss_mb() < before + SLACK_MB
    libc.free(blocks[-1])


def test_a_new_game_releases_the_freed_memory_first(monkeypatch):
    calls = []
    monkeypatch.setattr(games, "release_freed_memory", lambda: calls.append(1) or True)
    games.new_game("tilted", players=2, seed=1)
    assert calls == [1]


@pytest.mark.parametrize("game", ["tilted", "tribalance", "tower"])
def test_a_dropped_clone_frees_its_world_at_once(game):
    """A planner's trial clone, dropped, takes its World (and the pybullet client's
    memory) with it at once, without waiting for Python's cyclic collector: nothing
    the World owns refers back to it."""
    state = new_game(game, players=2, seed=1)
    gc.collect()
    gc.disable()
    try:
        clone = state.clone()
        world = weakref.ref(clone.world)
        del clone
        assert world() is None
    finally:
        gc.enable()
