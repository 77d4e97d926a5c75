"""The game API shared by every game.

Modelled on OpenSpiel's Python ``State`` (current player, legal actions, apply,
terminal, returns, clone) and python-chess (``Outcome``, typed errors).

A game is a :class:`~balance3d.games.game.Game` registered by name (see
:mod:`balance3d.games`) whose ``state_class`` is a :class:`State` subclass.
The state owns one :class:`~balance3d.physics.World` built from its scene.  Between
turns the world is kept as a :class:`~balance3d.physics.bodies.Snapshot` (bodies and
welds); every physical action first rebuilds the engine from that snapshot
(``World.restore``, which welds again what was welded without solving statics), so
a state's future depends only on what :meth:`State.to_dict` holds: a saved, cloned
or replayed state plays on bit for bit like the original.

Randomness (dice, cards, first player) comes only from ``State.rng``, a NumPy
``Generator`` seeded with the game's seed and saved with the state.

The actions (:mod:`balance3d.games.actions`), the errors
(:mod:`balance3d.games.errors`) and running turns (:mod:`balance3d.games.turn`) have
their own modules; their public names are importable from here too.
"""
from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Generator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from balance3d import __version__
from balance3d.fields import FieldError, line_break
from balance3d.games.actions import (ACTION_TYPES, POSES, Action, Choose, Drop,
                                     IllegalActionError, Pass, Place, action_from_dict,
                                     action_to_dict, action_type, checked_action)
from balance3d.games.errors import GameError, RecordError, Refusal
from balance3d.games.turn import Turn, run_to_end
from balance3d.physics.caches import caches_on
from balance3d.physics.weld_state import WeldState
from balance3d.physics.bodies import BodyState, Snapshot
from balance3d.physics.world import World
from balance3d.scene import Scene, SceneError, list_scenes, load_scene, scene_from_data

if TYPE_CHECKING:
    from balance3d.games.game import Game
    from balance3d.meshes.part import Part


# ---------------------------------------------------------------------- results
@dataclass(frozen=True)
class Player:
    """A seat at the table: ``seat`` (0-based), display ``name`` and the ``bot``
    playing it (None for a human)."""

    seat: int
    name: str
    bot: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or line_break(self.name) is not None:
            where = "not a string" if not isinstance(self.name, str) else \
                f"character {line_break(self.name)}"
            raise GameError(f"player {self.seat}: the name must be one line of printable "
                            f"text, got {self.name!r} ({where})")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    termination : why it ended (game-specific word, e.g. "last_player").
    scores : per seat (coins, points, height in m ...).
    ranks : per seat, 1 = best; tied seats share a rank.
    """

    termination: str
    scores: tuple[float, ...]
    ranks: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats ranked first."""
        return tuple(i for i, r in enumerate(self.ranks) if r == 1)

    def to_dict(self) -> dict[str, Any]:
        return {"termination": self.termination, "scores": list(self.scores),
                "ranks": list(self.ranks), "winners": list(self.winners)}


def ranks_from_keys(keys: list) -> tuple[int, ...]:
    """Competition ranks (1 = best) from per-seat sort keys, higher is better;
    equal keys share a rank (1, 1, 3)."""
    return tuple(1 + sum(1 for other in keys if other > k) for k in keys)


@dataclass(frozen=True)
class Verdict:
    """What one applied action did.  Games subclass it with their own fields; every
    field must be JSON-ready (numbers, strings, lists, dicts)."""

    player: int
    summary: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": type(self).__name__, **dataclasses.asdict(self)}


@dataclass(frozen=True)
class Event:
    """One entry of the event log: ``turn`` number, acting ``player`` (or None for
    the game itself), ``kind`` (e.g. "roll", "coins", "eliminated"), readable
    ``text`` and JSON-ready ``data``."""

    turn: int
    player: int | None
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------- state
class State(ABC):
    """One game in progress.  Subclasses implement the ``_``-prefixed hooks; the
    game's :class:`~balance3d.games.game.Game` binds itself as :attr:`game`."""

    #: The game this state plays (set when its Game is made).
    game: ClassVar["Game"]

    def __init__(self, scene: Scene, players: list[Player], seed: int, variant: str) -> None:
        self.scene = scene
        #: The scene's rules, parsed once per scene by the Game.
        self.rules = self.game.rules(scene)
        self.players = list(players)
        self.seed = int(seed)
        self.variant = variant
        self.rng = np.random.Generator(np.random.PCG64(self.seed))
        self.events: list[Event] = []
        self.history: list[dict[str, Any]] = []
        self.turn = 0
        self._world: World | None = None
        #: A World to restore :attr:`world` into when it is first needed, instead
        #: of building one (a trial copy's scratch World).
        self._spare: World | None = None
        self._snapshot: Snapshot | None = None
        self._turn: Turn | None = None

    @property
    def name(self) -> str:
        """The registered game name."""
        return self.game.name

    # -- construction ----------------------------------------------------------
    @classmethod
    def new(cls, scene: Scene, players: list[Player], seed: int, variant: str) -> "State":
        """A fresh game at its first decision (set-up done, dice rolled)."""
        game = cls.game
        counts = game.player_counts(variant)
        if len(players) not in counts:
            raise GameError(f"{game.name} ({variant}) plays with "
                            f"{' or '.join(map(str, counts))} player(s), not {len(players)}")
        if scene.game != game.name:
            raise GameError(f"scene {scene.name!r} is for {scene.game!r}, not {game.name!r}")
        state = cls(scene, players, seed, variant)
        state._world = scene.build_world()
        state._setup()
        state.commit_world()
        return state

    # -- the world ---------------------------------------------------------------
    @property
    def world(self) -> World:
        """The physics world in its between-turns state (for reading and rendering)."""
        if self._world is None:
            if self._spare is not None:
                self._spare.restore(self._snapshot)
                self._world, self._spare = self._spare, None
            else:
                self._world = World.from_snapshot(self._snapshot, self.scene.physics)
        return self._world

    def fresh_world(self) -> World:
        """The world rebuilt from the between-turns snapshot: call at the start of
        every physical action so its outcome depends only on the saved state (a
        world not yet built or restored is built or restored once)."""
        if self._world is None:
            return self.world
        self._world.restore(self._snapshot)
        return self._world

    def commit_world(self) -> None:
        """Record the world's current state as the new between-turns snapshot, and
        restore the world from it: between turns this state reads exactly the world
        a clone, a saved copy or a replay of it reads (the engine's own pose of a
        body can differ from its restored pose in the last bits), so a bot or a
        legality check decides the same in all of them."""
        self._snapshot = self._world.snapshot()
        self._world.restore(self._snapshot)

    # -- the API -----------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, or None when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """What the current player is asked for (game-specific word, e.g. "drop")."""

    @abstractmethod
    def legal_pieces(self, player: int | None = None) -> list[str]:
        """Pieces ``player`` (default: the current player) may play now."""

    @abstractmethod
    def piece_part(self, piece: str) -> "Part":
        """The part ``piece`` is made of, wherever it is (a hand, a supply, the
        World): what a window draws and where a gesture releases it."""

    @abstractmethod
    def legal_decisions(self) -> list[Action]:
        """Every legal non-physical action now (Pass, Choose); empty when the phase
        asks for a Drop or Place, whose legal set is continuous or per-piece."""

    @abstractmethod
    def release_area(self) -> dict[str, Any] | None:
        """Where the current player may release a piece now, as data a bot or a
        window can use, or None when the phase asks for no physical action::

            {"kind": <the Game's release_kind>,
             "regions": [{"polygon": [[x, y], ...],   # m, world frame, seen from above
                          "top_z": z}, ...]}          # m, the region's highest point

        Every legal release point lies in one of the regions' polygons; the regions
        are necessary, not sufficient (the game's own checks, such as overlaps, still
        apply: :meth:`is_legal`)."""

    @abstractmethod
    def legal_release(self) -> Action | None:
        """A legal physical action (Drop, Place) for the current player now, found by
        the game's own search: the check that one exists.  None when the phase asks
        for a decision, or when the player has none (a game never asks a player for
        a physical action they cannot make)."""

    @abstractmethod
    def _illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now (a :class:`Refusal`: the sentence, and the
        rule and what it is about as data), or None when it is legal."""

    @abstractmethod
    def _run(self, action: Action) -> Generator[None, None, Verdict]:
        """Carry out a legal action as a generator returning its verdict.  A
        physical action yields once when the World is ready (the piece at its release
        pose, no step taken), then once after every physics time step; a decision
        returns without yielding."""

    @abstractmethod
    def _setup(self) -> None:
        """Deal pieces, roll for the first player, set the world's start pose."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True when the game has ended."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def _state_dict(self) -> dict[str, Any]:
        """The game-specific part of :meth:`to_dict`."""

    @abstractmethod
    def _load_state_dict(self, data: dict[str, Any]) -> None:
        """Inverse of :meth:`_state_dict` (raise RecordError on bad data)."""

    def is_legal(self, action: Action) -> tuple[bool, str]:
        """``(True, "")`` when ``action`` is legal now, else ``(False, reason)``
        (``reason`` a :class:`Refusal` when the game gives its rule as data)."""
        if self._turn is not None:
            return False, Refusal("a turn is running: advance it to its end first", "running")
        if self.is_over:
            return False, Refusal("the game is over", "over")
        try:
            action = checked_action(action)
        except FieldError as exc:
            return False, Refusal(str(exc), "malformed", field=exc.where)
        reason = self._illegal_reason(action)
        return (reason is None), (reason or "")

    def begin(self, action: Action) -> "Turn":
        """Start ``action`` for the current player and return its running
        :class:`Turn`: the caller advances it and reads poses between steps; it ends
        with exactly the Verdict :meth:`apply` returns.  A decision's turn is finished
        at once.  While a turn runs, the state refuses every other action and cannot
        be saved.  Raises :class:`IllegalActionError` (state unchanged) when the
        action is not legal."""
        ok, reason = self.is_legal(action)
        if not ok:
            raise IllegalActionError(action, reason)
        turn = Turn(self, checked_action(action))
        if not turn.done:
            self._turn = turn
        return turn

    def apply(self, action: Action) -> Verdict:
        """Play ``action`` for the current player to its end: :meth:`begin` and
        :meth:`Turn.run`.  Raises :class:`IllegalActionError` (state unchanged) when
        it is not legal."""
        return self.begin(action).run()

    @property
    def running(self) -> "Turn | None":
        """The turn being played step by step, or None."""
        return self._turn

    def log(self, player: int | None, kind: str, text: str, **data: Any) -> None:
        """Append an event to :attr:`events`."""
        self.events.append(Event(self.turn, player, kind, text, data))

    def clone(self) -> "State":
        """An independent copy (its own world) that plays on identically.  It goes
        through JSON, so it shares no mutable data with this state and is exactly
        what saving and loading would give."""
        return type(self).from_dict(json.loads(json.dumps(self.to_dict())), scene=self.scene)

    def trial_copy(self, world: World) -> "State":
        """A copy to try an action in and then drop (a bot's look-ahead): it plays on
        exactly as a :meth:`clone` does, but has no history or events, shares this
        state's between-turns snapshot (immutable) and plays in ``world``, a World
        of this scene's physics settings that it restores from that snapshot when
        it first needs one and then uses as its own (saving the cost of building
        one; a legality check that reads no World leaves the one restore to the
        action).  A :class:`GameError` while a turn runs."""
        if self._turn is not None:
            raise GameError("a game cannot be copied while a turn runs")
        twin = type(self)(self.scene, self.players, self.seed, self.variant)
        twin.turn = self.turn
        twin.rng.bit_generator.state = self.rng.bit_generator.state
        twin._snapshot = self._snapshot
        twin._load_state_dict(json.loads(json.dumps(self._state_dict())))
        twin._spare = world
        return twin

    # -- saving ------------------------------------------------------------------
    def table_dict(self) -> dict[str, Any]:
        """The table's state between turns, JSON-ready: the ``turn`` counter, the
        generator's state (``rng``), the World snapshot (``world``: settled poses,
        velocities, welds) and the game's own state (``game_state``).  With the
        game's header (:meth:`header_dict`), the history and the events it is the
        whole of :meth:`to_dict` (a :class:`GameError` while a turn runs)."""
        if self._turn is not None:
            raise GameError("a game cannot be saved or cloned while a turn runs")
        snap = self._snapshot
        return {
            "turn": self.turn,
            "rng": self.rng.bit_generator.state,
            "world": {"time": snap.time, "bodies": [
                {"name": b.name, "part": b.part.name, "static": b.static,
                 "position": list(b.position), "orientation": list(b.orientation),
                 "linear_velocity": list(b.linear_velocity),
                 "angular_velocity": list(b.angular_velocity)} for b in snap.bodies],
                "welds": snap.welds.to_dict()},
            "game_state": self._state_dict(),
        }

    def header_dict(self) -> dict[str, Any]:
        """What does not change during play: version, game, variant, seed, scene
        (:func:`scene_ref`) and players."""
        return {"balance3d": __version__, "game": self.name, "variant": self.variant,
                "seed": self.seed, "scene": scene_ref(self.scene),
                "players": [dataclasses.asdict(p) for p in self.players]}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready full state: enough to continue the game bit for bit (a
        :class:`GameError` while a turn runs): :meth:`header_dict`,
        :meth:`table_dict`, the ``history`` and the ``events``."""
        return {**self.header_dict(), **self.table_dict(), "history": list(self.history),
                "events": [e.to_dict() for e in self.events]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], scene: Scene | None = None) -> "State":
        """Rebuild a state saved by :meth:`to_dict`.  The scene is rebuilt from its
        kept content or found by its bundled name (:func:`scene_from_ref`) unless
        given, and must have the saved digest."""
        try:
            if data["game"] != cls.game.name:
                raise RecordError(f"saved game is {data['game']!r}, not {cls.game.name!r}")
            if scene is None:
                scene = scene_from_ref(data["scene"])
            if scene.digest != data["scene"]["digest"]:
                raise RecordError(f"scene {scene.name!r} has changed since the game was saved "
                                  f"(digest {scene.digest[:12]} != {data['scene']['digest'][:12]})")
            players = [Player(**p) for p in data["players"]]
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, GameError) as exc:
            raise RecordError(f"saved {cls.game.name} state is malformed: "
                              f"{type(exc).__name__}: {exc}") from None
        return cls.from_table(scene, players, data["seed"], data["variant"], data,
                              data["history"], data["events"])

    @classmethod
    def from_table(cls, scene: Scene, players: list[Player], seed: int, variant: str,
                   table: dict[str, Any], history: list[dict[str, Any]],
                   events: list[dict[str, Any]]) -> "State":
        """A state of ``scene`` with these seats, seed and variant, at the table
        state ``table`` (:meth:`table_dict`), with its ``history`` (entries as
        :attr:`history` holds them) and ``events`` (:meth:`Event.to_dict` each).
        Builds no World and runs no physics.  :class:`RecordError` on bad data."""
        try:
            state = cls(scene, players, seed, variant)
            state.turn = int(table["turn"])
            state.rng.bit_generator.state = table["rng"]
            bodies = []
            for b in table["world"]["bodies"]:
                if b["part"] not in scene.parts:
                    raise RecordError(f"saved body {b['name']!r} uses unknown part {b['part']!r}")
                bodies.append(BodyState(b["name"], scene.parts[b["part"]], bool(b["static"]),
                                        tuple(b["position"]), tuple(b["orientation"]),
                                        tuple(b["linear_velocity"]), tuple(b["angular_velocity"])))
            # a state saved without welds is welded from scratch when restored
            welds = table["world"].get("welds")
            welds = WeldState() if welds is None else WeldState.from_dict(welds)
            names = {b.name for b in bodies}
            for name in (*welds.welded, *(n for ct in welds.contacts
                                          for n in (ct.body_a, ct.body_b))):
                if name not in names:
                    raise RecordError(f"saved welds name {name!r}, not a saved body")
            state._snapshot = Snapshot(tuple(bodies), float(table["world"]["time"]), welds)
            state.history = list(history)
            state.events = [Event(**e) for e in events]
            state._load_state_dict(table["game_state"])
            return state
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, GameError) as exc:
            raise RecordError(f"saved {cls.game.name} state is malformed: "
                              f"{type(exc).__name__}: {exc}") from None

    def to_json(self) -> str:
        """:meth:`to_dict` as canonical JSON text (sorted keys, exact floats)."""
        return json.dumps(self.to_dict(), sort_keys=True, indent=1)
def scene_ref(scene: Scene) -> dict[str, Any]:
    """How a saved game names its scene: ``{"name", "digest"}`` for a bundled scene
    (the bundled file of that name has that digest), and ``"data"``, the resolved
    content (:attr:`Scene.data`), too for any other scene, so that it opens on a
    machine without its file."""
    ref: dict[str, Any] = {"name": scene.name, "digest": scene.digest}
    bundled = _is_bundled if caches_on() else _is_bundled.__wrapped__
    if not bundled(scene.name, scene.digest):
        ref["data"] = scene.data
    return ref


@lru_cache(maxsize=64)
def _is_bundled(name: str, digest: str) -> bool:
    """True when the bundled scene ``name`` exists and has ``digest`` (kept per name
    and digest while the caches are on: a clone names its scene at every move)."""
    if name not in list_scenes():
        return False
    try:
        return load_scene(name).digest == digest
    except SceneError:
        return False


def scene_from_ref(info: dict[str, Any], where: str = "scene") -> Scene:
    """The scene :func:`scene_ref` names: rebuilt from its kept ``data``, else the
    bundled scene of its ``name`` (or, for a state saved by an older balance3d,
    its ``path``).  Its digest is not checked here.  :class:`RecordError` naming
    ``where`` when no such scene can be made."""
    try:
        if "data" in info:
            return scene_from_data(info["data"], f"{where}.data")
        if "path" in info and (Path(info["path"]).is_file()
                               or info["name"] not in list_scenes()):
            return load_scene(info["path"])
        return load_scene(info["name"])
    except SceneError as exc:
        raise RecordError(str(exc)) from None


def verdict_from_dict(data: dict[str, Any]) -> Verdict:
    """The :class:`Verdict` whose :meth:`Verdict.to_dict` is ``data`` (its ``kind``
    names a Verdict subclass of a loaded game); :class:`RecordError` otherwise."""
    kinds = {}
    todo = [Verdict]
    while todo:
        cls = todo.pop()
        kinds[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    fields = dict(data)
    kind = fields.pop("kind", None)
    if kind not in kinds:
        raise RecordError(f"unknown verdict kind {kind!r}")
    try:
        return kinds[kind](**fields)
    except TypeError as exc:
        raise RecordError(f"verdict {kind}: {exc}") from None


__all__ = ["ACTION_TYPES", "POSES", "Action", "Choose", "Drop", "Event", "GameError",
           "IllegalActionError", "Outcome", "Pass", "Place", "Player", "RecordError", "Refusal",
           "State",
           "Turn", "Verdict", "action_from_dict", "action_to_dict", "action_type",
           "ranks_from_keys", "run_to_end", "scene_from_ref", "scene_ref", "verdict_from_dict"]
