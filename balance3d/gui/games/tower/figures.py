"""The tower figures the window shows every frame while bodies move: each tower's
height and vertical pieces (the HUD's seat lines).  Reading them from the state
costs milliseconds (every piece's vertices and orientation), so they are read again
only when the tower changed: :func:`tower_key` is a tower's pieces and their poses,
and a figure read for one key is given again while the key stays the same.  No
Panda3D."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from balance3d.games.tower.state import TowerState
from balance3d.gui.view.poses import pose_key

#: What was last read under each name: name -> (key, value).
_LAST: dict[Hashable, tuple[tuple, Any]] = {}


def tower_key(state: TowerState, seat: int) -> tuple:
    """``seat``'s tower as one comparable value: the state and its World, the
    tower's pieces in the World and their poses (the bases do not move)."""
    world = state.world
    present = set(world.names)
    pieces = tuple(p for p in state.tower(seat) if p in present)
    return (id(state), id(world), seat, pieces,
            tuple(pose_key(*world.pose(p)) for p in pieces))


def remembered(name: Hashable, key: tuple, read: Callable[[], Any]) -> Any:
    """What ``read()`` gives, read again only when ``key`` differs from the key it
    was last read under for ``name``."""
    last = _LAST.get(name)
    if last is not None and last[0] == key:
        return last[1]
    value = read()
    _LAST[name] = (key, value)
    return value


def tower_figures(state: TowerState, seat: int) -> tuple[float, int]:
    """``(state.heights[seat]`` m, ``state.vertical_pieces(seat))``, read again only
    when :func:`tower_key` changed."""
    return remembered(("figures", seat), tower_key(state, seat),
                      lambda: (state.heights[seat], state.vertical_pieces(seat)))
