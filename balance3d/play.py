"""Playing games: bots and scripts taking turns (:func:`play`), and records played
again (:func:`replay`), each action recorded by a
:class:`~balance3d.record.Recorder`."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from balance3d.bots import BotError
from balance3d.games import new_game
from balance3d.games.base import Action, IllegalActionError, RecordError, State, action_to_dict
from balance3d.record import Record, Recorder
from balance3d.scene import Scene, load_scene

#: Safety stop: a game that has not ended after this many actions is a bug.
MAX_ACTIONS = 5000


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


__all__ = ["MAX_ACTIONS", "ReplayError", "ScriptError", "play", "record_scene", "replay",
           "start_game"]
