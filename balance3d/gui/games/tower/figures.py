"""The tower figures the window shows every frame while bodies move: each tower's
height and how many of its pieces stand vertically (the HUD's seat lines).  Reading
them costs milliseconds (every piece's vertices and design mesh), so each is read
again only when what it depends on changed: a tower's height when
:func:`tower_key` (its pieces and their poses) changed, a piece's "vertical" when
its pose changed.  The figures are the game's own (``physics.tower_height`` and
``judge.is_vertical``, as ``TowerState.heights`` and ``vertical_pieces`` use
them).  No Panda3D."""
from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from balance3d.games.tower.judge import is_vertical
from balance3d.games.tower.physics import tower_height
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
    """``seat``'s tower: (its height m above its base's top face, how many of its
    pieces stand vertically), as ``state.heights[seat]`` and
    ``state.vertical_pieces(seat)`` give them."""
    world = state.world
    key = tower_key(state, seat)
    pieces, poses = key[3], key[4]
    height = remembered(("height", seat), key,
                        lambda: tower_height(world, state.base(seat), pieces))
    vertical = sum(remembered(("vertical", piece), (id(world), pose),
                              lambda piece=piece: is_vertical(world, piece))
                   for piece, pose in zip(pieces, poses))
    return height, vertical
