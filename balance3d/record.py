"""Game records: what was played, and the table's state after every turn, as
canonical JSON (playing them on is :mod:`balance3d.play`).

A record is one JSON object::

    {
      "balance3d": "0.2.0",          # version that wrote it
      "format": 3,                   # record format version
      "game": "tilted", "variant": "basic", "seed": 7,
      "scene": {"name": "tilted", "digest": "<sha256 of the resolved scene>",
                "data": {...}},      # "data" only for a scene that is not bundled
      "players": [{"seat": 0, "name": "Player 1", "bot": "planner"}, ...],  # bot null = human
      "setup": [event, ...],         # events before the first action (first-player rolls)
      "start": kept state,           # the table after the setup
      "turns": [                     # one entry per applied action, in order
        {"turn": 0, "player": 1, "action": {"type": "drop", ...},
         "verdict": {"kind": "TiltedVerdict", ...},
         "events": [event, ...],     # what the action caused: dice, purchases, bids ...
         "state": kept state},       # the table after this turn
        ...],
      "outcome": {"termination": ..., "scores": [...], "ranks": [...], "winners": [...]}
    }

``outcome`` is null for a game that stopped before its end (a script that ran out).
Each event is ``{"turn", "player", "kind", "text", "data"}`` as the game logged it.
A kept state is the table's state (:meth:`State.table_dict
<balance3d.games.base.State.table_dict>`: turn counter, generator, World snapshot,
the game's own state) written compactly and exactly against the state kept before
it (:mod:`balance3d.record_states`); the history and the events are not kept again.
A bundled scene is found by its name and digest; any other scene's resolved content
is kept in the record, so that it opens where its file is not.

The header, a kept state and the turns up to it restore the game at that point bit
for bit (:func:`balance3d.play.restore`; its ``to_dict()`` equals the original's),
with no physics run: opening a record never re-simulates it.  Re-judging a turn from the state kept
before it checks the simulator (:mod:`balance3d.verify`); replaying every action
from the start (:func:`balance3d.play.replay`) and comparing the records
(:func:`diff_records`) checks it bit for bit.

The text (:func:`dumps`) is canonical: sorted keys, two-space indent, ASCII, exact
floats, a final newline; the same game always gives the same bytes.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from balance3d import __version__, jsonio
from balance3d import record_states as kept
from balance3d.fields import FieldError, Spec, check_object, line_break, short
from balance3d.games.base import (Action, Player, RecordError, State, Turn, Verdict,
                                  action_from_dict, scene_ref)

#: Version of the record layout this module writes.  Format 3 keeps the table's
#: state after the setup and after every turn, and a scene's content when it is
#: not bundled.  Format 2 (balance3d 0.2.0) keeps no states: it is still read,
#: and opened by playing its actions again.  Format 1 records hold verdicts this
#: version no longer gives, so they are refused rather than replayed.
FORMAT = 3
#: The oldest record format read.
OLDEST_FORMAT = 2
#: What a history entry holds of a record's turn (the rest: events, kept state).
HISTORY_KEYS = ("turn", "player", "action", "verdict")


# ---------------------------------------------------------------------- writing
class Recorder:
    """Applies actions to a fresh game ``state`` and records each one, with the
    table's state after it (and after the setup)."""

    def __init__(self, state: State) -> None:
        if state.history:
            raise RecordError("a record starts from a fresh game (this one has history)")
        self.state = state
        self.setup = [e.to_dict() for e in state.events]
        self._last = _plain(state.table_dict())
        self.start = kept.encode(self._last, None)
        self.turns: list[dict[str, Any]] = []
        self._pending: tuple[Turn, int] | None = None

    @classmethod
    def resumed(cls, state: State, setup: list[dict[str, Any]], turns: list[dict[str, Any]],
                start: dict[str, Any]) -> "Recorder":
        """A recorder going on with ``state``, a game restored part-way (from a
        record, or a saved state for undo) whose record so far is ``setup``,
        ``start`` (the kept state after the setup) and ``turns``: one turn per
        action in the state's history, the same actions in the same order, the
        last one's kept state the state's table (:class:`RecordError` otherwise)."""
        done = [entry["action"] for entry in state.history]
        if [entry["action"] for entry in turns] != done:
            raise RecordError(f"the record's {len(turns)} turns are not the "
                              f"{len(done)} actions the state has played")
        recorder = cls.__new__(cls)
        recorder.state = state
        recorder.setup = list(setup)
        recorder.start = start
        recorder.turns = list(turns)
        recorder._last = _plain(state.table_dict())
        recorder._pending = None
        return recorder

    def begin(self, action: Action) -> Turn:
        """Begin ``action`` for the current player (:meth:`State.begin
        <balance3d.games.base.State.begin>`); the turn is recorded once it has ended,
        however it is advanced.  Raises
        :class:`~balance3d.games.base.IllegalActionError`, nothing recorded, when it
        is illegal."""
        self._collect()
        seen = len(self.state.events)
        turn = self.state.begin(action)
        self._pending = (turn, seen)
        self._collect()
        return turn

    def apply(self, action: Action) -> Verdict:
        """Apply ``action`` for the current player to its end and record it (raises
        :class:`~balance3d.games.base.IllegalActionError`, nothing recorded, when
        it is illegal)."""
        verdict = self.begin(action).run()
        self._collect()
        return verdict

    def _collect(self) -> None:
        """Record the pending turn if it has ended, with the table's state after it."""
        if self._pending is not None and self._pending[0].done:
            seen = self._pending[1]
            self._pending = None
            entry = dict(self.state.history[-1])
            entry["events"] = [e.to_dict() for e in self.state.events[seen:]]
            table = _plain(self.state.table_dict())
            entry["state"] = kept.encode(table, self._last)
            self._last = table
            self.turns.append(entry)

    def record(self) -> dict[str, Any]:
        """The record of the game so far, normalised to plain JSON values (a turn
        still running is not in it)."""
        self._collect()
        state = self.state
        outcome = state.outcome
        data = {
            "balance3d": __version__,
            "format": FORMAT,
            "game": state.name,
            "variant": state.variant,
            "seed": state.seed,
            "scene": scene_ref(state.scene),
            "players": [dataclasses.asdict(p) for p in state.players],
            "setup": self.setup,
            "start": self.start,
            "turns": self.turns,
            "outcome": outcome.to_dict() if outcome is not None else None,
        }
        return json.loads(dumps(data))


def _plain(value: Any) -> Any:
    """``value`` as the JSON text gives it back (lists for tuples, fresh objects)."""
    return json.loads(json.dumps(value))


def dumps(record: dict[str, Any]) -> str:
    """Canonical JSON text of ``record``: sorted keys, indent 2, ASCII, final newline.
    Raises :class:`RecordError` for values JSON cannot hold exactly (NaN, objects)."""
    try:
        return json.dumps(record, sort_keys=True, indent=2, ensure_ascii=True,
                          allow_nan=False) + "\n"
    except (TypeError, ValueError) as exc:
        raise RecordError(f"record is not JSON-ready: {exc}") from None


def write_record(record: dict[str, Any], path: str | Path, *, force: bool = False) -> str:
    """Write ``record`` canonically to ``path`` atomically (a temporary file in the
    same folder, then ``os.replace``: a crash never leaves a half-written file).

    An existing file is replaced only when ``force`` is true or it already holds
    exactly these bytes (rerunning the same command is harmless; a different game is
    never lost by accident).  Returns "written", "unchanged" or "replaced"."""
    path = Path(path)
    text = dumps(record)
    status = "written"
    if path.exists():
        if path.is_dir():
            raise RecordError(f"{path}: is a folder, not a record file")
        if path.read_bytes() == text.encode("ascii"):
            return "unchanged"
        if not force:
            raise RecordError(f"{path} already exists and holds a different record; "
                              f"pass --force to replace it")
        status = "replaced"
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise RecordError(f"{path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="ascii", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return status


def _umask() -> int:
    """The process's file-creation mask (mkstemp makes files 0600; a record gets the
    permissions of any file the user creates)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------------- reading
@dataclass(frozen=True)
class Record:
    """A validated record: its raw ``data``, the ``players`` and the ``actions``."""

    data: dict[str, Any]
    players: tuple[Player, ...]
    actions: tuple[Action, ...]

    @property
    def game(self) -> str:
        return self.data["game"]

    @property
    def variant(self) -> str:
        return self.data["variant"]

    @property
    def seed(self) -> int:
        return self.data["seed"]

    @property
    def keeps_states(self) -> bool:
        """True when the record keeps the table's states (format 3 on); an older
        one opens only by playing its actions again."""
        return self.data["format"] >= 3

    def tables(self) -> list[dict[str, Any]]:
        """The kept table states, decoded: after the setup, then after each turn."""
        if not self.keeps_states:
            raise RecordError(f"a record of format {self.data['format']} keeps no states")
        out = [kept.decode(self.data["start"], None, "start")]
        for i, turn in enumerate(self.data["turns"]):
            out.append(kept.decode(turn["state"], out[-1], f"turns[{i}].state"))
        return out

    def table(self, after: int) -> dict[str, Any]:
        """The table state kept after the first ``after`` turns (0: the start)."""
        if not self.keeps_states:
            raise RecordError(f"a record of format {self.data['format']} keeps no states")
        table = kept.decode(self.data["start"], None, "start")
        for i, turn in enumerate(self.data["turns"][:after]):
            table = kept.decode(turn["state"], table, f"turns[{i}].state")
        return table

    def history(self, after: int) -> list[dict[str, Any]]:
        """A state's history after the first ``after`` turns (its entries as
        :attr:`State.history <balance3d.games.base.State.history>` holds them)."""
        return [{key: t[key] for key in HISTORY_KEYS} for t in self.data["turns"][:after]]

    def events(self, after: int) -> list[dict[str, Any]]:
        """Every event logged by the setup and the first ``after`` turns."""
        return [*self.data["setup"], *(e for t in self.data["turns"][:after]
                                        for e in t["events"])]


_NULL = type(None)
_TOP = (Spec("balance3d", str, line=True), Spec("format", int), Spec("game", str, line=True),
        Spec("variant", str, line=True), Spec("seed", int), Spec("scene", dict),
        Spec("players", list), Spec("setup", list), Spec("turns", list),
        Spec("outcome", (dict, _NULL)))
#: Format 3 on: the kept start state.
_TOP_STATES = (*_TOP, Spec("start", dict))
_SCENE = (Spec("name", str, line=True), Spec("digest", str, line=True),
          Spec("data", dict, required=False))
#: Format 2 named a scene that is not bundled by its file.
_SCENE_2 = (Spec("name", str, line=True), Spec("digest", str, line=True),
            Spec("file", str, required=False, line=True))
#: Names and bots are printed in summaries and messages: one line each.
_PLAYER = (Spec("seat", int), Spec("name", str, line=True), Spec("bot", (str, _NULL), line=True))
_TURN_2 = (Spec("turn", int), Spec("player", (int, _NULL)), Spec("action", dict),
           Spec("verdict", dict), Spec("events", list))
_TURN = (*_TURN_2, Spec("state", dict))
_EVENT = (Spec("turn", int), Spec("player", (int, _NULL)), Spec("kind", str), Spec("text", str),
          Spec("data", dict))


def parse_record(data: Any) -> Record:
    """Validate a record's JSON value, its kept states included; :class:`RecordError`
    says what is wrong and where (``turns[3].action: unknown field 'foo'``)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    try:
        fmt = data.get("format")
        if isinstance(fmt, int) and not isinstance(fmt, bool):
            if fmt > FORMAT:
                raise FieldError("format", f"record format {fmt} is newer than this "
                                           f"balance3d reads ({FORMAT}); upgrade balance3d")
            if fmt < OLDEST_FORMAT:
                version = data.get("balance3d")
                if not isinstance(version, str) or line_break(version) is not None:
                    version = short(version)
                raise FieldError("format", f"record format {fmt} (balance3d "
                                           f"{version}) is older than "
                                           f"this balance3d reads ({OLDEST_FORMAT} to "
                                           f"{FORMAT}): its verdicts follow older rule "
                                           f"readings; simulate the game again")
        states = isinstance(fmt, int) and fmt >= 3
        check_object(data, _TOP_STATES if states else _TOP, "", label="record")
        if data["seed"] < 0:
            raise FieldError("seed", f"must be a non-negative integer, got {data['seed']}")
        check_object(data["scene"], _SCENE if states else _SCENE_2, "scene")
        players = []
        for i, p in enumerate(data["players"]):
            check_object(p, _PLAYER, f"players[{i}]")
            if p["seat"] != i:
                raise FieldError(f"players[{i}].seat", f"must be {i}, got {p['seat']}")
            players.append(Player(**p))
        for i, e in enumerate(data["setup"]):
            check_object(e, _EVENT, f"setup[{i}]")
        actions = []
        for i, t in enumerate(data["turns"]):
            check_object(t, _TURN if states else _TURN_2, f"turns[{i}]")
            if t["player"] is not None and not 0 <= t["player"] < len(players):
                raise FieldError(f"turns[{i}].player", f"no seat {t['player']} (the record "
                                                       f"has {len(players)} players)")
            actions.append(action_from_dict(t["action"], f"turns[{i}].action"))
            for j, e in enumerate(t["events"]):
                check_object(e, _EVENT, f"turns[{i}].events[{j}]")
    except FieldError as exc:
        raise RecordError(str(exc)) from None
    record = Record(data, tuple(players), tuple(actions))
    if states:
        record.table(len(data["turns"]))
    return record


def read_json(path: str | Path) -> Any:
    """The JSON value in the file ``path``, within the size, nesting and string
    limits of :mod:`balance3d.jsonio`; :class:`RecordError` names the file and, for
    bad JSON, the line and column."""
    try:
        return jsonio.read_json(path)
    except jsonio.JsonFileError as exc:
        raise RecordError(str(exc)) from None


def load_record(path: str | Path) -> Record:
    """Read and validate the record file ``path`` (errors start with the file name)."""
    try:
        return parse_record(read_json(path))
    except RecordError as exc:
        text = str(exc)
        raise RecordError(text if text.startswith(str(path)) else f"{path}: {text}") from None


def load_script(path: str | Path) -> tuple[list[Action], Record | None]:
    """Actions to play from ``path``: a JSON list of action dicts (as a record's
    ``turns[i].action``), or a whole record whose turns' actions are taken (the
    record is returned too, else None)."""
    data = read_json(path)
    try:
        if isinstance(data, list):
            return [action_from_dict(a, f"[{i}]") for i, a in enumerate(data)], None
        if isinstance(data, dict) and "turns" in data:
            record = parse_record(data)
            return list(record.actions), record
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    raise RecordError(f"{path}: a script is a list of actions or a record with 'turns'")


# ---------------------------------------------------------------------- comparing
def diff_records(recorded: Any, replayed: Any, where: str = "",
                 limit: int = 10) -> list[str]:
    """Where two JSON values differ, as readable lines (at most ``limit``):
    ``turns[3].verdict.coins_won: recorded 2, replayed 3``.  The writing version
    (``balance3d``) is not compared."""
    out: list[str] = []

    def walk(a: Any, b: Any, path: str) -> None:
        if len(out) >= limit:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                if path == "" and key == "balance3d":
                    continue
                sub = f"{path}.{key}" if path else key
                if key not in b:
                    out.append(f"{sub}: recorded {short(a[key])}, missing on replay")
                elif key not in a:
                    out.append(f"{sub}: not recorded, replayed {short(b[key])}")
                else:
                    walk(a[key], b[key], sub)
        elif isinstance(a, list) and isinstance(b, list):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}[{i}]")
            if len(a) != len(b) and len(out) < limit:
                out.append(f"{path}: recorded {len(a)} entries, replayed {len(b)}")
        elif a != b or type(a) is not type(b):
            out.append(f"{path}: recorded {short(a)}, replayed {short(b)}")

    walk(recorded, replayed, where)
    return out


# ---------------------------------------------------------------------- summaries
def describe_action(action: dict[str, Any]) -> str:
    """One readable phrase for an action dict: ``drop block_4 flat yaw 30 deg at
    x=+0.123 y=-0.004 m, 10 mm up``, ``choose buy = true``, ``pass``."""
    kind = action.get("type")
    if kind == "drop":
        return (f"drop {action['piece']} {action.get('pose', 'flat')} "
                f"yaw {math.degrees(action.get('yaw', 0.0)):.0f} deg at "
                f"x={action['x']:+.3f} y={action['y']:+.3f} m, "
                f"{action['height'] * 1000:.0f} mm up")
    if kind == "place":
        return f"place {action['piece']} on field {action['field']}"
    if kind == "choose":
        return f"choose {action['what']} = {json.dumps(action.get('value'))}"
    return str(kind)


def player_label(player: dict[str, Any] | Player) -> str:
    """``Player 1 [planner]`` (``[human]`` for a seat without a bot)."""
    p = dataclasses.asdict(player) if isinstance(player, Player) else player
    return f"{p['name']} [{p['bot'] or 'human'}]"


__all__ = ["FORMAT", "HISTORY_KEYS", "OLDEST_FORMAT", "Record", "Recorder", "describe_action",
           "diff_records", "dumps", "load_record", "load_script", "parse_record",
           "player_label", "read_json", "write_record"]
