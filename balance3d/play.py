"""Playing games: bots and scripts taking turns (:func:`play`), records opened at a
kept state (:func:`restore`, :func:`resume`: no physics runs) and records played
again from their first action (:func:`replay`), each action recorded by a
:class:`~balance3d.record.Recorder`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from balance3d.bots import BotError
from balance3d.games import get_game, new_game
from balance3d.games.base import (Action, IllegalActionError, Player, RecordError, State,
                                  action_to_dict, scene_from_ref)
from balance3d.record import HISTORY_KEYS, Record, Recorder, diff_records
from balance3d.scene import Scene, load_scene

#: Safety stop: a game that has not ended after this many actions is a bug.
MAX_ACTIONS = 5000


def record_scene(record: Record, base: Path | None = None, *,
                 ignore_digest: bool = False) -> Scene:
    """The scene ``record`` was played in: rebuilt from its kept content, else the
    bundled scene of its name (a format 2 record may name a ``file``, relative to
    the current folder, else to ``base``).  Raises :class:`RecordError` when that
    scene's digest differs from the recorded one, unless ``ignore_digest``."""
    info = record.data["scene"]
    if "data" in info:
        scene = scene_from_ref(info)
    elif "file" in info:
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


def restore(record: Record, scene: Scene, after: int | None = None,
            players: Sequence[Player] | None = None,
            table: dict[str, Any] | None = None) -> State:
    """The game as ``record`` kept it after its first ``after`` turns (default:
    all), bit for bit (its ``to_dict()`` is the original's), with no physics run.
    ``players`` replaces the recorded seats (to change who plays them); ``table``
    is that kept state already decoded (:meth:`Record.table
    <balance3d.record.Record.table>`), when the caller has it."""
    after = len(record.actions) if after is None else after
    cls = get_game(record.game).state_class
    return cls.from_table(scene, list(players or record.players), record.seed,
                          record.variant, record.table(after) if table is None else table,
                          record.history(after), record.events(after))


def resume(record: Record, scene: Scene, players: Sequence[Player] | None = None) -> Recorder:
    """A recorder going on with ``record``'s game from its last kept state (no
    physics run): more actions extend the same record."""
    state = restore(record, scene, players=players)
    return Recorder.resumed(state, record.data["setup"], record.data["turns"],
                            record.data["start"])


def opened(record: Record, scene: Scene) -> tuple[Record, str | None]:
    """``record`` with its kept states, and None; for an older record that keeps
    none, the record of its actions played again, and one line saying where that
    differs from the recorded verdicts, events or outcome (None when nowhere).
    Raises :class:`ReplayError` when a recorded action is illegal on the way."""
    if record.keeps_states:
        return record, None
    try:
        data = replay(record, scene).record()
    except ReplayError as exc:
        raise ReplayError(exc.index, f"format {record.data['format']} record (it keeps no "
                                     f"states), played again: {exc}") from None
    differences = diff_records(played(record.data), played(data), limit=1)
    note = None
    if differences:
        note = (f"format {record.data['format']} record (it keeps no states), played "
                f"again: it diverges at {differences[0]}")
    return Record(data, record.players, record.actions), note


def played(data: dict[str, Any]) -> dict[str, Any]:
    """What every record format holds of its game: setup, turns, outcome."""
    return {"setup": data["setup"], "outcome": data["outcome"],
            "turns": [{key: t[key] for key in (*HISTORY_KEYS, "events")}
                      for t in data["turns"]]}


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
    recorder = Recorder(start_game(record, scene))
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


__all__ = ["MAX_ACTIONS", "ReplayError", "ScriptError", "opened", "play", "played", "record_scene",
           "replay", "restore", "resume", "start_game"]
