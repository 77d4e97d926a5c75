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
from typing import Any

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
    """The observation vector's fields in order: key, name, shape, unit, bounds.
    The vector is the fields flattened one after another; the ``"state"``
    observation gives each field under its key, in its shape."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, str, tuple[int, ...], str, float, float]] = []

    def add(self, key: str, name: str, shape: int | tuple[int, ...], unit: str, low: float,
            high: float) -> None:
        """Append field ``key`` (``name`` says what it holds) of ``shape`` entries,
        each within ``[low, high]`` in ``unit``."""
        if any(f[0] == key for f in self.fields):
            raise ValueError(f"the layout has a field {key!r} already")
        shape = (int(shape),) if isinstance(shape, int) else tuple(int(d) for d in shape)
        self.fields.append((key, name, shape, unit, float(low), float(high)))

    @property
    def size(self) -> int:
        """Entries in the whole vector."""
        return sum(int(np.prod(f[2])) for f in self.fields)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high), each (size,) float64."""
        low = np.concatenate([np.full(int(np.prod(f[2])), f[4]) for f in self.fields])
        high = np.concatenate([np.full(int(np.prod(f[2])), f[5]) for f in self.fields])
        return low, high

    def spaces(self) -> dict[str, tuple[tuple[int, ...], float, float]]:
        """key -> (shape, low, high) of every field."""
        return {key: (shape, low, high) for key, _, shape, _, low, high in self.fields}

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """key -> the field's entries of ``vector`` ((size,) float64), in its shape
        (copies, float64)."""
        out, offset = {}, 0
        for key, _, shape, _, _, _ in self.fields:
            size = int(np.prod(shape))
            out[key] = np.array(vector[offset:offset + size], dtype=np.float64).reshape(shape)
            offset += size
        return out

    def describe(self) -> list[str]:
        """One line a field: offset, size, key, name, shape and unit."""
        lines, offset = [], 0
        for key, name, shape, unit, _, _ in self.fields:
            size = int(np.prod(shape))
            lines.append(f"[{offset}:{offset + size}] {key} {shape}: {name} ({unit})")
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


def add_pose_fields(layout: Layout, key: str, what: str, count: int) -> None:
    """The :func:`pose_rows` of ``count`` bodies as layout field ``key``, (count, 8)."""
    layout.add(key, f"{what}: present, x, y, z, qx, qy, qz, qw per body", (count, 8),
               "1; m; quaternion", -POSITION_BOUND, POSITION_BOUND)


class Encoding(ABC):
    """A game's encoding for one configuration (scene, variant, player count),
    built from a fresh state of it.  Subclasses set :attr:`kinds`, :attr:`poses`,
    :attr:`n_points`, :attr:`copies` (the most pieces of one kind a player can
    hold), :attr:`decisions` (readable names of the decision slots),
    :attr:`release_low` / :attr:`release_high` ((4,) float64: x m, y m, yaw rad,
    height m) and :attr:`layout`, and implement the abstract methods."""

    kinds: tuple[str, ...]
    poses: tuple[str, ...]
    n_points: int
    copies: int
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
    def n_heads(self) -> int:
        """Continuous heads: kinds × copies × poses."""
        return len(self.kinds) * self.copies * len(self.poses)

    @property
    def n_choices(self) -> int:
        """Every continuous choice: the heads, then the decisions."""
        return self.n_heads + len(self.decisions)

    def head_piece(self, choice: int) -> tuple[str, int]:
        """(kind, copy) of continuous head ``choice``."""
        kind, rest = divmod(choice, self.copies * len(self.poses))
        return self.kinds[kind], rest // len(self.poses)

    def piece(self, state: State, kind: str, copy: int = 0) -> str:
        """The current player's ``copy``-th playable piece of ``kind`` (in
        :meth:`held` order), else :meth:`stranger` (so the game refuses it)."""
        pieces = [p for p in self.held(state) if self.kind_of(p) == kind]
        return pieces[copy] if copy < len(pieces) else self.stranger(kind)

    def discrete(self, state: State, index: int) -> Action:
        """The action discrete ``index`` stands for in ``state`` (legal or not)."""
        if index < self.n_drops:
            kind, point, pose, yaw = self.drop_cell(index)
            return self.release(state, self.release_frame(state), self.piece(state, kind),
                                point, pose, yaw)
        return self.decision(state, index - self.n_drops)

    def drop_cell(self, index: int) -> tuple[str, int, str, int]:
        """(kind, point, pose, yaw index) of discrete drop ``index``."""
        kind, rest = divmod(index, self.n_points * len(self.poses) * self.n_yaws)
        point, rest = divmod(rest, len(self.poses) * self.n_yaws)
        pose, yaw = divmod(rest, self.n_yaws)
        return self.kinds[kind], point, self.poses[pose], yaw

    def drops(self, state: State, kinds: set[str]) -> dict[int, Action]:
        """Discrete index -> action of every drop of a kind in ``kinds`` in
        ``state``: the actions :meth:`discrete` gives, with the release frame and
        each kind's piece found once."""
        frame = self.release_frame(state)
        pieces = {kind: self.piece(state, kind) for kind in kinds}
        per_kind = self.n_points * len(self.poses) * self.n_yaws
        made = {}
        for k, kind in enumerate(self.kinds):
            if kind not in kinds:
                continue
            for index in range(k * per_kind, (k + 1) * per_kind):
                _, point, pose, yaw = self.drop_cell(index)
                made[index] = self.release(state, frame, pieces[kind], point, pose, yaw)
        return made

    def continuous(self, state: State, choice: int, release: np.ndarray) -> Action:
        """The action of continuous ``choice`` with ``release`` ((4,): x m, y m,
        yaw rad, height m) in ``state``."""
        if choice < self.n_heads:
            kind, copy = self.head_piece(choice)
            pose = self.poses[choice % len(self.poses)]
            return self.head(state, self.piece(state, kind, copy), pose,
                             [float(v) for v in release])
        return self.decision(state, choice - self.n_heads)

    def encode(self, state: State, action: Action) -> dict[str, Any]:
        """The continuous action that stands for ``action`` in ``state``:
        ``{"choice": int, "release": (4,) float64}`` (:class:`ValueError` when none
        does: a piece the player cannot play, a decision of no slot)."""
        piece = getattr(action, "piece", None)
        if isinstance(piece, str):
            kind = self.kind_of(piece)
            pieces = [p for p in self.held(state) if self.kind_of(p) == kind]
            if piece not in pieces:
                raise ValueError(f"{piece!r} is not a playable piece of the current player")
            pose = self.poses.index(getattr(action, "pose", self.poses[0]))
            choice = ((self.kinds.index(kind) * self.copies + pieces.index(piece))
                      * len(self.poses) + pose)
            return {"choice": choice, "release": np.array(self.release_of(action), float)}
        for slot in range(len(self.decisions)):
            if self.decision(state, slot) == action:
                return {"choice": self.n_heads + slot, "release": np.zeros(4)}
        raise ValueError(f"no decision slot stands for {action!r}")

    def release_of(self, action: Action) -> list[float]:
        """[x m, y m, yaw rad, height m] of a physical ``action`` (a Drop's own)."""
        return [action.x, action.y, action.yaw, action.height]

    @abstractmethod
    def kind_of(self, piece: str) -> str:
        """The kind of ``piece`` (pieces of one kind play alike)."""

    def release_frame(self, state: State) -> Any:
        """What every grid release point of ``state`` is placed from (the release
        area, a base's outline), found once per mask; None by default."""
        return None

    @abstractmethod
    def release(self, state: State, frame: Any, piece: str, point: int, pose: str,
                yaw: int) -> Action:
        """The physical action of ``piece`` at grid ``point`` with ``pose`` and grid
        ``yaw`` index, for the current player, ``frame`` being
        :meth:`release_frame` of ``state``."""

    @abstractmethod
    def held(self, state: State) -> list[str]:
        """The pieces the current player may choose from now, in a fixed order."""

    @abstractmethod
    def stranger(self, kind: str) -> str:
        """A name of ``kind`` that no player holds (an action with it is refused)."""

    @abstractmethod
    def head(self, state: State, piece: str, pose: str, release: list[float]) -> Action:
        """The physical action of ``piece`` with ``pose`` at ``release``
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


def encoding_class(game: str) -> type[Encoding]:
    """The :class:`Encoding` of the registered game ``game``: the ``ENCODING`` of
    the ``env_encoding`` module in its package."""
    get_game(game)
    return importlib.import_module(REGISTRY[game] + ".env_encoding").ENCODING
