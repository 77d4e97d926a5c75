"""What rests on what, read from a World's support graph: the fixed point the
judges use to find every body resting, through a chain of others, on a given set."""
from __future__ import annotations

from collections.abc import Iterable, Mapping


def resting_on(start: Iterable[str], names: Iterable[str],
               graph: Mapping[str, set[str]]) -> set[str]:
    """``start`` and every name of ``names`` that rests on one of them, directly or
    through a chain of names of ``names``.

    graph : body name -> the names of the bodies supporting it
    (:meth:`balance3d.physics.World.support_graph`); every name of ``names`` is a key.
    """
    names = list(names)
    found = set(start)
    changed = True
    while changed:
        changed = False
        for name in names:
            if name not in found and graph[name] & found:
                found.add(name)
                changed = True
    return found
