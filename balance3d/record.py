"""Game records: what was played, as canonical JSON, and how to play it again.

A record is one JSON object::

    {
      "balance3d": "0.1.0",          # version that wrote it
      "format": 1,                   # record format version
      "game": "tilted", "variant": "basic", "seed": 7,
      "scene": {"name": "tilted", "digest": "<sha256 of the resolved scene>",
                "file": "my.toml"},  # "file" only for a scene given by path
      "players": [{"seat": 0, "name": "Player 1", "bot": "planner"}, ...],  # bot null = human
      "setup": [event, ...],         # events before the first action (first-player rolls)
      "turns": [                     # one entry per applied action, in order
        {"turn": 0, "player": 1, "action": {"type": "drop", ...},
         "verdict": {"kind": "TiltedVerdict", ...},
         "events": [event, ...]},    # what the action caused: dice, purchases, bids ...
        ...],
      "outcome": {"termination": ..., "scores": [...], "ranks": [...], "winners": [...]}
    }

``outcome`` is null for a game that stopped before its end (a script that ran out).
Each event is ``{"turn", "player", "kind", "text", "data"}`` as the game logged it.

The text (:func:`dumps`) is canonical: sorted keys, two-space indent, ASCII, exact
floats, a final newline; the same game always gives the same bytes.  A record fully
determines its game: the game, variant, seed, scene digest and the actions replay it
(:func:`replay`), and comparing the replayed record with the stored one
(:func:`diff_records`) verifies that the simulator still plays it the same.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from balance3d import __version__
from balance3d.bots import BotError
from balance3d.games import get_game, new_game
from balance3d.games.base import (ACTION_TYPES, Action, IllegalActionError, Player,
                                  RecordError, State, Verdict, action_from_dict, action_to_dict)
from balance3d.scene import Scene, load_scene

#: Version of the record layout this module writes and reads.
FORMAT = 1

#: Safety stop: a game that has not ended after this many actions is a bug.
MAX_ACTIONS = 5000


# ---------------------------------------------------------------------- writing
class Recorder:
    """Applies actions to a fresh game ``state`` and records each one.

    scene_file : the scene path as the user gave it, for a scene that is not bundled
        (stored so that a replay can find it); None for a bundled scene.
    """

    def __init__(self, state: State, scene_file: str | None = None) -> None:
        if state.history:
            raise RecordError("a record starts from a fresh game (this one has history)")
        self.state = state
        self.scene_file = scene_file
        self.setup = [e.to_dict() for e in state.events]
        self.turns: list[dict[str, Any]] = []

    def apply(self, action: Action) -> Verdict:
        """Apply ``action`` for the current player and record it (raises
        :class:`~balance3d.games.base.IllegalActionError`, nothing recorded, when
        it is illegal)."""
        state = self.state
        seen = len(state.events)
        verdict = state.apply(action)
        entry = dict(state.history[-1])
        entry["events"] = [e.to_dict() for e in state.events[seen:]]
        self.turns.append(entry)
        return verdict

    def record(self) -> dict[str, Any]:
        """The record of the game so far, normalised to plain JSON values."""
        state = self.state
        scene: dict[str, Any] = {"name": state.scene.name, "digest": state.scene.digest}
        if self.scene_file is not None:
            scene["file"] = self.scene_file
        outcome = state.outcome
        data = {
            "balance3d": __version__,
            "format": FORMAT,
            "game": state.name,
            "variant": state.variant,
            "seed": state.seed,
            "scene": scene,
            "players": [dataclasses.asdict(p) for p in state.players],
            "setup": self.setup,
            "turns": self.turns,
            "outcome": outcome.to_dict() if outcome is not None else None,
        }
        return json.loads(dumps(data))


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


_TOP = {"balance3d": str, "format": int, "game": str, "variant": str, "seed": int,
        "scene": dict, "players": list, "setup": list, "turns": list, "outcome": (dict, type(None))}
_SCENE = {"name": str, "digest": str, "file": str}
_PLAYER = {"seat": int, "name": str, "bot": (str, type(None))}
_TURN = {"turn": int, "player": (int, type(None)), "action": dict, "verdict": dict,
         "events": list}
_EVENT = {"turn": int, "player": (int, type(None)), "kind": str, "text": str, "data": dict}
_TYPE_WORDS = {str: "a string", int: "an integer", dict: "an object", list: "a list",
               float: "a number", type(None): "null"}


def _describe(kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_TYPE_WORDS[k] for k in kinds)


def _is(value: Any, kind) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    if float in kinds and isinstance(value, int):
        return True
    return isinstance(value, kinds)


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _check_object(value: Any, where: str, fields: dict[str, Any],
                  optional: Iterable[str] = ()) -> None:
    """Raise RecordError unless ``value`` is an object with exactly ``fields``
    (``optional`` ones may be absent), each of its declared type.  ``where`` is the
    value's path in the record ("" for the record itself)."""
    name = where or "record"
    if not isinstance(value, dict):
        raise RecordError(f"{name}: must be an object, got {type(value).__name__}")
    for key in sorted(value):
        if key not in fields:
            raise RecordError(f"{name}: unknown field {key!r}")
    for key, kind in fields.items():
        if key not in value:
            if key in optional:
                continue
            raise RecordError(f"{name}: missing field {key!r}")
        if not _is(value[key], kind):
            raise RecordError(f"{_at(where, key)}: must be {_describe(kind)}, "
                              f"got {json.dumps(value[key])[:60]}")


def parse_action(data: Any, where: str) -> Action:
    """The action an action dict describes; :class:`RecordError` names ``where`` and
    the field that is wrong (``turns[3].action: unknown field 'foo'``)."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: an action must be an object, got {type(data).__name__}")
    if "type" not in data:
        raise RecordError(f"{where}: missing field 'type'")
    cls = ACTION_TYPES.get(data["type"]) if isinstance(data["type"], str) else None
    if cls is None:
        raise RecordError(f"{where}.type: unknown action type {json.dumps(data['type'])} "
                          f"(known: {', '.join(sorted(ACTION_TYPES))})")
    kinds = {"str": str, "int": int, "float": float}
    fields = {f.name: kinds.get(str(f.type), object) for f in dataclasses.fields(cls)}
    optional = [f.name for f in dataclasses.fields(cls)
                if f.default is not dataclasses.MISSING]
    body = {k: v for k, v in data.items() if k != "type"}
    for key in sorted(body):
        if key not in fields:
            raise RecordError(f"{where}: unknown field {key!r}")
    for key, kind in fields.items():
        if key not in body:
            if key not in optional:
                raise RecordError(f"{where}: missing field {key!r}")
        elif kind is not object and not _is(body[key], kind):
            raise RecordError(f"{where}.{key}: must be {_describe(kind)}, "
                              f"got {json.dumps(body[key])[:60]}")
    return action_from_dict(data)


def parse_record(data: Any) -> Record:
    """Validate a record's JSON value; :class:`RecordError` says what is wrong and
    where (``turns[3].action: unknown field 'foo'``)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    _check_object(data, "", _TOP)
    if data["format"] > FORMAT:
        raise RecordError(f"format: record format {data['format']} is newer than this "
                          f"balance3d reads ({FORMAT}); upgrade balance3d")
    _check_object(data["scene"], "scene", _SCENE, optional=("file",))
    players = []
    for i, p in enumerate(data["players"]):
        _check_object(p, f"players[{i}]", _PLAYER)
        if p["seat"] != i:
            raise RecordError(f"players[{i}].seat: must be {i}, got {p['seat']}")
        players.append(Player(**p))
    for i, e in enumerate(data["setup"]):
        _check_object(e, f"setup[{i}]", _EVENT)
    actions = []
    for i, t in enumerate(data["turns"]):
        _check_object(t, f"turns[{i}]", _TURN)
        if t["player"] is not None and not 0 <= t["player"] < len(players):
            raise RecordError(f"turns[{i}].player: no seat {t['player']} "
                              f"(the record has {len(players)} players)")
        actions.append(parse_action(t["action"], f"turns[{i}].action"))
        for j, e in enumerate(t["events"]):
            _check_object(e, f"turns[{i}].events[{j}]", _EVENT)
    return Record(data, tuple(players), tuple(actions))


def read_json(path: str | Path) -> Any:
    """The JSON value in the file ``path``; :class:`RecordError` names the file and,
    for bad JSON, the line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}") from None


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
            return [parse_action(a, f"[{i}]") for i, a in enumerate(data)], None
        if isinstance(data, dict) and "turns" in data:
            record = parse_record(data)
            return list(record.actions), record
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    raise RecordError(f"{path}: a script is a list of actions or a record with 'turns'")


# ---------------------------------------------------------------------- playing
def record_scene(record: Record, base: Path | None = None, *,
                 ignore_digest: bool = False) -> Scene:
    """The scene ``record`` was played in: its ``file`` (relative to the current
    folder, else to ``base``) or the bundled scene of its name.  Raises
    :class:`RecordError` when that scene's digest differs from the recorded one,
    unless ``ignore_digest``."""
    info = record.data["scene"]
    if "file" in info:
        candidates = [Path(info["file"])]
        if base is not None and not candidates[0].is_absolute():
            candidates.append(base / info["file"])
        found = next((p for p in candidates if p.is_file()), candidates[0])
        scene = load_scene(found)
    else:
        scene = load_scene(info["name"])
    if scene.digest != info["digest"] and not ignore_digest:
        raise RecordError(
            f"scene {scene.name!r} ({scene.path}) has changed since the record was made "
            f"(digest {scene.digest[:12]}, recorded {info['digest'][:12]}); its verdicts "
            f"would not replay")
    return scene


class ReplayError(RecordError):
    """A recorded action is illegal when replayed; ``index`` is its turns[] index."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def start_game(record: Record, scene: Scene) -> State:
    """A fresh game as ``record`` started it: same game, variant, seed, seats."""
    return new_game(record.game, players=list(record.players), seed=record.seed,
                    scene=scene, variant=record.variant)


def replay(record: Record, scene: Scene,
           on_turn: Callable[[int, dict[str, Any]], None] | None = None) -> Recorder:
    """Play ``record``'s actions again in ``scene``; returns the recorder holding
    the new record.  ``on_turn(index, entry)`` is called after every action.
    Raises :class:`ReplayError` at the first action that is now illegal."""
    recorder = Recorder(start_game(record, scene), record.data["scene"].get("file"))
    for i, action in enumerate(record.actions):
        try:
            recorder.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(i, f"turns[{i}]: {action_to_dict(action)['type']} by "
                                 f"seat {record.data['turns'][i]['player']} is illegal "
                                 f"on replay: {exc.reason}") from None
        if on_turn is not None:
            on_turn(i, recorder.turns[-1])
    return recorder


class ScriptError(RecordError):
    """A scripted action is illegal; ``index`` is its position in the script."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def play(recorder: Recorder, bots: Sequence[Any] = (), script: Sequence[Action] = (),
         on_turn: Callable[[int, dict[str, Any]], None] | None = None,
         max_actions: int = MAX_ACTIONS) -> None:
    """Play on from ``recorder``'s state: first every action of ``script`` (for
    whichever seat is to act), then the bot of each seat (``bots[seat]``, None for a
    human) until the game ends or a human is to act.  ``on_turn(index, entry)`` is
    called after every action.

    Raises :class:`ScriptError` naming the script action and game turn of an illegal
    scripted action, and :class:`~balance3d.bots.BotError` when a bot plays an illegal
    action or the game has not ended after ``max_actions`` actions."""
    state = recorder.state
    for i, action in enumerate(script):
        if state.is_over:
            raise ScriptError(i, f"script action {i + 1} (of {len(script)}): the game is "
                                 f"already over")
        player = state.current_player
        try:
            recorder.apply(action)
        except IllegalActionError as exc:
            raise ScriptError(i, f"script action {i + 1} (turns[{i}], game turn {state.turn}, "
                                 f"{state.players[player].name}): illegal "
                                 f"{action_to_dict(action)['type']}: {exc.reason}") from None
        if on_turn is not None:
            on_turn(len(recorder.turns) - 1, recorder.turns[-1])
    while not state.is_over:
        seat = state.current_player
        bot = bots[seat] if seat is not None and seat < len(bots) else None
        if bot is None:
            return
        if len(recorder.turns) >= max_actions:
            raise BotError(f"the game has not ended after {max_actions} actions")
        action = bot.choose(state)
        try:
            recorder.apply(action)
        except IllegalActionError as exc:
            raise BotError(f"bot {bot.name!r} (seat {seat}) chose an illegal action at game "
                           f"turn {state.turn}: {exc}") from None
        if on_turn is not None:
            on_turn(len(recorder.turns) - 1, recorder.turns[-1])


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
                    out.append(f"{sub}: recorded {_short(a[key])}, missing on replay")
                elif key not in a:
                    out.append(f"{sub}: not recorded, replayed {_short(b[key])}")
                else:
                    walk(a[key], b[key], sub)
        elif isinstance(a, list) and isinstance(b, list):
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{path}[{i}]")
            if len(a) != len(b) and len(out) < limit:
                out.append(f"{path}: recorded {len(a)} entries, replayed {len(b)}")
        elif a != b or type(a) is not type(b):
            out.append(f"{path}: recorded {_short(a)}, replayed {_short(b)}")

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


def describe_turn(index: int, entry: dict[str, Any], players: list) -> str:
    """One line for the record entry ``turns[index]``: who did what, and the verdict."""
    who = player_label(players[entry["player"]]) if entry["player"] is not None else "game"
    return (f"{index + 1:4d}  t{entry['turn']:<3d} {who:<22} "
            f"{describe_action(entry['action'])}  ->  {entry['verdict'].get('summary', '')}")


def describe_outcome(record: dict[str, Any]) -> list[str]:
    """Lines giving the ranks and scores of a record (or that it did not finish)."""
    outcome = record["outcome"]
    if outcome is None:
        return [f"game not finished after {len(record['turns'])} actions"]
    score = get_game(record["game"]).score_name
    lines = [f"result ({outcome['termination']}):"]
    order = sorted(range(len(outcome["ranks"])), key=lambda s: (outcome["ranks"][s], s))
    for seat in order:
        lines.append(f"  {outcome['ranks'][seat]}. {player_label(record['players'][seat]):<22} "
                     f"{score} {outcome['scores'][seat]:g}")
    return lines


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 70 else text[:67] + "..."


__all__ = ["FORMAT", "MAX_ACTIONS", "Record", "Recorder", "ReplayError", "describe_action",
           "describe_outcome", "describe_turn", "diff_records", "player_label",
           "dumps", "load_record", "load_script", "parse_action", "parse_record",
           "play", "read_json", "record_scene", "replay", "ScriptError", "start_game",
           "write_record"]
