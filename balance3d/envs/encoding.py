"""What a game gives its environments: a fixed action grid, the decisions, the
continuous heads and a fixed-size observation vector.

Each game defines an :class:`Encoding` subclass in ``balance3d/games/<game>/env_encoding.py``
(found through the game registry: :func:`encoding_class`).  The environments
(:mod:`balance3d.envs.aec`) never name a game; they ask the encoding.

Discrete actions are numbered ``[drops..., decisions...]``.  Drop ``i`` is
``(kind, point, pose, yaw)`` in row-major order over :attr:`Encoding.kinds`,
:attr:`Encoding.n_points` release points, :attr:`Encoding.poses` and
:attr:`Encoding.n_yaws` yaw angles.  Continuous choices are numbered
``[heads..., decisions...]``, a head being ``(kind, pose)``, released at the
continuous ``(x, y, yaw, height)`` of the action's Box.
"""
from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from balance3d.games import REGISTRY, get_game
from balance3d.games.base import Action, State

#: m, bound of every position in the observation (a body beyond it is off any table).
POSITION_BOUND = 100.0
#: bound of every count, coin or point in the observation.
COUNT_BOUND = 1.0e6


@dataclass(frozen=True)
class GridOptions:
    """The discrete action grid's resolution.

    points : release points per axis of the release area (the game says which
        axes: along a beam, each side of a base); at least 1.
    yaws : yaw angles, evenly spaced over a half turn from 0 rad; at least 1.
    """

    points: int = 4
    yaws: int = 2

    def __post_init__(self) -> None:
        for name in ("points", "yaws"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"grid {name} must be a whole number >= 1, got {value!r}")

    def yaw(self, index: int) -> float:
        """rad, the ``index``-th yaw angle."""
        return float(np.pi * index / self.yaws)


class Layout:
    """The observation vector's fields in order: name, size, unit, bounds."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, int, str, float, float]] = []

    def add(self, name: str, size: int, unit: str, low: float, high: float) -> None:
        """Append a field of ``size`` entries, each within ``[low, high]`` in ``unit``."""
        self.fields.append((name, int(size), unit, float(low), float(high)))

    @property
    def size(self) -> int:
        """Entries in the whole vector."""
        return sum(f[1] for f in self.fields)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high), each (size,) float64."""
        low = np.concatenate([np.full(f[1], f[3]) for f in self.fields])
        high = np.concatenate([np.full(f[1], f[4]) for f in self.fields])
        return low, high

    def describe(self) -> list[str]:
        """One line a field: offset, size, name and unit."""
        lines, offset = [], 0
        for name, size, unit, _, _ in self.fields:
            lines.append(f"[{offset}:{offset + size}] {name} ({unit})")
            offset += size
        return lines


def one_hot(index: int | None, size: int) -> np.ndarray:
    """(size,) float64 with 1.0 at ``index`` (all zeros for None)."""
    out = np.zeros(size)
    if index is not None:
        out[index] = 1.0
    return out


def pose_rows(state: State, names: list[str]) -> np.ndarray:
    """(len(names), 8) float64: per body ``[present, x, y, z, qx, qy, qz, qw]``,
    position in m and orientation quaternion in the scene's frame (the table's:
    x, y across it, z up); a body not in the World is all zeros."""
    world = state.world
    present = set(world.names)
    rows = np.zeros((len(names), 8))
    for i, name in enumerate(names):
        if name in present:
            position, orientation = world.pose(name)
            rows[i, 0] = 1.0
            rows[i, 1:4] = position
            rows[i, 4:8] = orientation
    return rows


def add_pose_fields(layout: Layout, what: str, count: int) -> None:
    """The :func:`pose_rows` of ``count`` bodies, flattened, as layout fields."""
    layout.add(f"{what}: present, x, y, z, qx, qy, qz, qw per body", 8 * count,
               "1; m; quaternion", -POSITION_BOUND, POSITION_BOUND)


class Encoding(ABC):
    """A game's encoding for one configuration (scene, variant, player count),
    built from a fresh state of it.  Subclasses set :attr:`kinds`, :attr:`poses`,
    :attr:`n_points`, :attr:`decisions` (readable names of the decision slots),
    :attr:`release_low` / :attr:`release_high` ((4,) float64: x m, y m, yaw rad,
    height m) and :attr:`layout`, and implement the abstract methods."""

    kinds: tuple[str, ...]
    poses: tuple[str, ...]
    n_points: int
    decisions: tuple[str, ...]
    release_low: np.ndarray
    release_high: np.ndarray
    layout: Layout

    def __init__(self, state: State, grid: GridOptions) -> None:
        self.grid = grid
        self.players = len(state.players)

    @property
    def n_yaws(self) -> int:
        """Yaw angles of the grid (1 for a game whose pieces have no yaw)."""
        return self.grid.yaws

    @property
    def n_drops(self) -> int:
        """Discrete drop actions: kinds × points × poses × yaws."""
        return len(self.kinds) * self.n_points * len(self.poses) * self.n_yaws

    @property
    def n_discrete(self) -> int:
        """Every discrete action: the drops, then the decisions."""
        return self.n_drops + len(self.decisions)

    @property
    def n_choices(self) -> int:
        """Every continuous choice: the heads (kind × pose), then the decisions."""
        return len(self.kinds) * len(self.poses) + len(self.decisions)

    def drop_kind(self, index: int) -> str:
        """The piece kind of discrete drop ``index``."""
        return self.kinds[index // (self.n_points * len(self.poses) * self.n_yaws)]

    def head_kind(self, choice: int) -> str:
        """The piece kind of continuous head ``choice``."""
        return self.kinds[choice // len(self.poses)]

    def discrete(self, state: State, index: int) -> Action:
        """The action discrete ``index`` stands for in ``state`` (legal or not)."""
        if index < self.n_drops:
            kind, rest = divmod(index, self.n_points * len(self.poses) * self.n_yaws)
            point, rest = divmod(rest, len(self.poses) * self.n_yaws)
            pose, yaw = divmod(rest, self.n_yaws)
            return self.release(state, self.kinds[kind], point, self.poses[pose], yaw)
        return self.decision(state, index - self.n_drops)

    def continuous(self, state: State, choice: int, release: np.ndarray) -> Action:
        """The action of continuous ``choice`` with ``release`` ((4,): x m, y m,
        yaw rad, height m) in ``state``."""
        heads = len(self.kinds) * len(self.poses)
        if choice < heads:
            kind, pose = divmod(choice, len(self.poses))
            return self.head(state, self.kinds[kind], self.poses[pose],
                             [float(v) for v in release])
        return self.decision(state, choice - heads)

    @abstractmethod
    def kind_of(self, piece: str) -> str:
        """The kind of ``piece`` (pieces of one kind play alike)."""

    @abstractmethod
    def release(self, state: State, kind: str, point: int, pose: str, yaw: int) -> Action:
        """The physical action of a piece of ``kind`` at grid ``point`` with ``pose``
        and grid ``yaw`` index, for the current player."""

    @abstractmethod
    def head(self, state: State, kind: str, pose: str, release: list[float]) -> Action:
        """The physical action of a piece of ``kind`` with ``pose`` at ``release``
        ([x m, y m, yaw rad, height m]) for the current player."""

    @abstractmethod
    def decision(self, state: State, slot: int) -> Action:
        """The decision of slot ``slot`` (of :attr:`decisions`) in ``state``."""

    @abstractmethod
    def observe(self, state: State) -> np.ndarray:
        """The game's part of the observation, (layout.size,) float64."""

    @abstractmethod
    def out(self, state: State) -> set[int]:
        """Seats out of the game now (they play no more)."""


def piece_of_kind(state: State, kind: str, encoding: Encoding, hand: list[str],
                  stranger: str) -> str:
    """The first piece of ``kind`` in ``hand``, else ``stranger`` (a name the
    current player does not hold, so that the action is refused by the game)."""
    return next((p for p in hand if encoding.kind_of(p) == kind), stranger)


def encoding_class(game: str) -> type[Encoding]:
    """The :class:`Encoding` of the registered game ``game``: the ``ENCODING`` of
    the ``env_encoding`` module in its package."""
    get_game(game)
    return importlib.import_module(REGISTRY[game] + ".env_encoding").ENCODING
