"""The physics' in-memory caches, and the switch that turns them off.

Two computations repeat while games are played: the statics program of a welded
group whose contacts and loads have not changed (:mod:`balance3d.physics.statics`),
and the contact patch of two bodies resting in the same poses
(:mod:`balance3d.physics.welding`).  Clones of one game state rebuild their Worlds
from the same snapshot and meet the same ones again and again, so each thread keeps
the most recent answers, shared by all its Worlds.  Every entry is keyed by the bits
of every input of its computation, and the computations are deterministic, so a
remembered answer is the answer, bit for bit: results are identical with the caches
on or off, and whatever ran before.

>>> with caches_enabled(False):     # measure the cold work, or bound memory
...     state.apply(action)
>>> clear_caches()                   # empty this thread's caches

The hull files on disk (:mod:`balance3d.physics.hulls`) are not switched: pybullet
reads convex meshes from files only.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

_THREAD = threading.local()


class LRU:
    """A mapping that keeps its ``size`` most recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def get(self, key: Hashable) -> Any:
        """The value of ``key`` (now the most recently used); KeyError when absent."""
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        """Remember ``value`` under ``key``, dropping the least recently used entry
        when more than ``size`` are held."""
        self._items[key] = value
        self._items.move_to_end(key)
        if len(self._items) > self.size:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        self._items.clear()


def _caches() -> dict[str, LRU]:
    if not hasattr(_THREAD, "caches"):
        _THREAD.caches = {}
    return _THREAD.caches


def cache(name: str, size: int) -> LRU | None:
    """This thread's cache ``name`` (made holding at most ``size`` entries), or None
    while the caches are switched off (:func:`caches_enabled`)."""
    if not caches_on():
        return None
    caches = _caches()
    if name not in caches:
        caches[name] = LRU(size)
    return caches[name]


def clear_caches() -> None:
    """Empty every cache of this thread (the next computations run cold)."""
    for lru in _caches().values():
        lru.clear()


def caches_on() -> bool:
    """True while this thread's caches are used (the default)."""
    return getattr(_THREAD, "enabled", True)


@contextmanager
def caches_enabled(enabled: bool) -> Iterator[None]:
    """Use (or do not use) this thread's caches inside the ``with`` block; the
    previous choice comes back after it.  Cached entries are kept, not cleared."""
    before = caches_on()
    _THREAD.enabled = bool(enabled)
    try:
        yield
    finally:
        _THREAD.enabled = before
