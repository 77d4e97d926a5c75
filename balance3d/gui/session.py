"""One game played in the window, without the window: the record, the bots, the
turn being shown, undo, save, load, restart and replay.

The window calls :meth:`Session.tick` once per frame on its render thread.  A
physical turn advances by whole physics steps paced by a
:class:`~balance3d.gui.clock.PhysicsClock`; bots think on a worker thread
(:class:`~balance3d.gui.worker.Worker`, a daemon) on a ``state.clone()`` made on
the render thread, so the window stays responsive, and report their trials as they
go (:meth:`Session.bot_progress`).  Closing, undo and restart abandon a move being
worked out (it stops at the bot's next report, and closing waits for nothing).
Nothing here reads the wall clock to decide anything about the game: the same
seed, seats, bots and human actions give the same record, byte for byte, at any
speed and frame rate, as ``balance3d simulate`` (:func:`balance3d.play.play`)
gives.

A loaded game is restored from the state its record kept after the last turn,
and a replay shows the states the record kept after each turn: neither runs any
physics to open (:func:`balance3d.play.restore`).

Bots keep their own seeded generators from one move to the next, as in
``simulate``.  Undo puts them back as they were before the undone action, so a
repeated move meets the same replies; a loaded game starts its bots afresh (a
record holds the actions, not the bots' generators), so they may reply otherwise
than the bots of the game that was saved.
"""
from __future__ import annotations

import copy
import json
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from balance3d import play as playing
from balance3d import record as rec
from balance3d import record_states
from balance3d.bots import Bot, BotError, make_bot, plays
from balance3d.bots import progress as bot_progress
from balance3d.games import Player, get_game, new_game
from balance3d.games.base import (Action, IllegalActionError, State, Turn,
                                  Verdict, verdict_from_dict)
from balance3d.gui.clock import MAX_STEPS_PER_FRAME, PhysicsClock
from balance3d.gui.saving import SaveFiles, SessionError, free_beside, open_record
from balance3d.gui.worker import Job, Worker

#: Simulated seconds per wall second at each paced speed ("instant" runs a turn to
#: its end in one frame).
SPEEDS = {"real": 1.0, "fast": 4.0}
#: The speed names, slowest first.
SPEED_NAMES = ("real", "fast", "instant")


@dataclass(frozen=True)
class _UndoPoint:
    """What undo restores: the state before a human action (``state``: its
    ``to_dict``), how many turns the record had, the bots then and the verdict
    shown then."""

    state: dict[str, Any]
    turns: int
    bots: list[Bot | None]
    last_verdict: Verdict | None


def _think(bot: Bot, state: State, listen: Any) -> Action:
    """A bot's move, on the worker thread (``state`` is the bot's own clone), its
    trials reported to ``listen``."""
    return bot_progress.choose(bot, state, listen)


def _preview(state: State, action: Action, _listen: Any) -> Verdict:
    """The verdict of ``action`` in ``state`` (a look-ahead clone), on the worker."""
    return state.apply(action)


class Session:
    """One game played in the window: the Recorder, which seats are bots, the running
    turn paced by a PhysicsClock, bots thinking off the render thread, undo, save,
    load, restart.  Called from the render thread once per frame (tick).

    recorder : the record of the game being played (its ``state`` is the live game).
    bots : per seat, the bot playing it, or None for a human.
    record_path : autosave: the record is written there after every finished action
        (and after undo and restart).
    speed : "real", "fast" or "instant".
    replay : a record whose actions are shown one at a time (:meth:`replaying`).
    """

    def __init__(self, recorder: rec.Recorder, bots: list[Bot | None], *,
                 record_path: Path | None = None, speed: str = "real",
                 replay: rec.Record | None = None) -> None:
        state = recorder.state
        if len(bots) != len(state.players):
            raise SessionError(f"{len(bots)} bot entries for {len(state.players)} seats")
        self.recorder = recorder
        self._bots = list(bots)
        self.clock = PhysicsClock(state.world.settings.time_step)
        self._speed = "real"
        self.speed = speed
        self.running: Turn | None = None
        self.last_verdict: Verdict | None = None
        self._worker = Worker()
        self._thinking: Job | None = None
        self._undo: list[_UndoPoint] = []
        self._files = SaveFiles()
        self._texts: list[str] = []
        self._seen = len(state.events)
        self._replay = replay
        self._replayed = 0
        #: a replay's kept state of the turn shown (decoded), for the next one's
        self._table = replay.table(0) if replay is not None else None
        self._differences: list[str] | None = None
        self._record: dict[str, Any] | None = None
        self._record_path: Path | None = None
        self.record_path = record_path

    # ------------------------------------------------------------------ making
    @classmethod
    def new(cls, game: str, *, variant: str | None = None, players: list[str],
            bots: list[str | None], seed: int, record_path: Path | None = None,
            speed: str = "real") -> "Session":
        """A fresh game: ``players`` names one per seat, ``bots`` the bot name per
        seat (None for a human), ``seed`` the game's (and the bots') seed."""
        if len(bots) != len(players):
            raise SessionError(f"{len(bots)} bot entries for {len(players)} players")
        known = get_game(game)
        for seat, name in enumerate(bots):
            if name is not None and (name not in known.bots or not plays(name, game)):
                raise SessionError(f"seat {seat}: bot {name!r} does not play {game} "
                                   f"(bots that do: {', '.join(known.bots)})")
        seats = [Player(i, name, bot) for i, (name, bot) in enumerate(zip(players, bots))]
        state = new_game(game, players=seats, seed=seed, variant=variant)
        return cls(rec.Recorder(state), _make_bots(state), record_path=record_path,
                   speed=speed)

    @classmethod
    def load(cls, path: Path, bots: list[str | None] | None = None, *,
             speed: str = "real") -> "Session":
        """The game saved in the record ``path``, restored from its last kept state
        (no physics runs) and ready to go on.  ``bots`` (per seat, None for a human)
        replaces the recorded seats' bots (the record's own by default).  A record
        of an older format keeps no states: it is played again, and
        :class:`SessionError` says where when it no longer plays as recorded."""
        path = Path(path)
        record, scene = open_record(path)
        players = record.players
        if bots is not None:
            if len(bots) != len(players):
                raise SessionError(f"{len(bots)} bot entries for the {len(players)} seats of "
                                   f"{path}")
            players = tuple(Player(p.seat, p.name, b) for p, b in zip(players, bots))
        recorder = playing.resume(record, scene, players)
        return cls(recorder, _make_bots(recorder.state), speed=speed)

    @classmethod
    def replaying(cls, path: Path, *, speed: str = "real") -> "Session":
        """A session that shows the record ``path`` one recorded turn at a time
        (:meth:`next_action`), each from the state the record kept after it: no
        physics runs, no bot plays and no human acts."""
        path = Path(path)
        record, scene = open_record(path)
        recorder = rec.Recorder(playing.restore(record, scene, after=0))
        return cls(recorder, [None] * len(record.players), speed=speed, replay=record)

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The live state (read it to draw; never change it)."""
        return self.recorder.state

    @property
    def record_path(self) -> Path | None:
        """Where the record is autosaved (None: nowhere).  Setting it checks the
        file at once: :class:`SessionError` when it holds another game."""
        return self._record_path

    @record_path.setter
    def record_path(self, path: Path | None) -> None:
        if path is not None:
            path = Path(path)
            self._files.check(path, self.record())
        self._record_path = path

    @property
    def speed(self) -> str:
        """"real", "fast" or "instant"."""
        return self._speed

    @speed.setter
    def speed(self, value: str) -> None:
        if value not in SPEED_NAMES:
            raise SessionError(f"speed must be one of {', '.join(SPEED_NAMES)}, got {value!r}")
        self._speed = value
        if value in SPEEDS:
            self.clock.speed = SPEEDS[value]
            self.clock.max_steps_per_frame = int(MAX_STEPS_PER_FRAME * SPEEDS[value])

    @property
    def replay_mode(self) -> bool:
        """True for a session made by :meth:`replaying`."""
        return self._replay is not None

    @property
    def replay_position(self) -> tuple[int, int]:
        """(actions begun, actions in the record) of a replay; (0, 0) otherwise."""
        if self._replay is None:
            return 0, 0
        return self._replayed, len(self._replay.actions)

    def replay_differences(self) -> list[str] | None:
        """Once a replay has shown every action: where its record differs from the
        recorded one (:func:`balance3d.record.diff_records`; empty when every
        verdict, event and the outcome are the same).  None before then and
        outside a replay."""
        if (self._replay is None or self.running is not None
                or self._replayed < len(self._replay.actions)):
            return None
        if self._differences is None:
            self._differences = rec.diff_records(self._replay.data, self.record())
        return self._differences

    def bot(self, seat: int) -> Bot | None:
        """The bot playing ``seat``, or None for a human."""
        return self._bots[seat]

    def human_to_act(self) -> bool:
        """True when the game waits for a human at this computer: not over, no turn
        running, not a replay, and the seat to act has no bot."""
        seat = self.state.current_player
        return (self._replay is None and self.running is None and seat is not None
                and self._bots[seat] is None)

    def bot_thinking(self) -> bool:
        """True while a bot's move is being worked out (or waits to be played)."""
        return self._thinking is not None

    def bot_progress(self) -> bot_progress.Progress | None:
        """How far the thinking bot has got (trials made of those it plans), or
        None when no bot is thinking or it has reported nothing yet."""
        return None if self._thinking is None else self._thinking.progress

    def poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Every World body now: name -> (position (3,) m, quaternion xyzw (4,))."""
        if self.running is not None:
            return self.running.poses()
        world = self.state.world
        return {name: world.pose(name) for name in world.names}

    def record(self) -> dict[str, Any]:
        """The record of the finished actions (kept until the next one ends: cheap to
        ask every frame)."""
        if self._record is None:
            self._record = self.recorder.record()
        return self._record

    def can_undo(self) -> bool:
        """True when a human action can be undone."""
        return bool(self._undo)

    # ------------------------------------------------------------------ playing
    def submit(self, action: Action) -> None:
        """Play a human's ``action`` for the seat to act: a physical one starts a
        turn that :meth:`tick` shows, a decision ends at once.  Raises
        :class:`~balance3d.games.base.IllegalActionError` (nothing changed) when the
        game refuses it, and :class:`SessionError` when no human is to act."""
        if self._replay is not None:
            raise SessionError("a replay takes no actions: step it with next_action()")
        seat = self.state.current_player
        if seat is not None and self._bots[seat] is not None:
            raise SessionError(f"seat {seat} ({self.state.players[seat].name}) is played by "
                               f"the {self._bots[seat].name} bot, not by a human")
        ok, reason = self.state.is_legal(action)
        if not ok:
            raise IllegalActionError(action, reason)
        # through JSON: to_dict shares lists (the history) with the live state
        point = _UndoPoint(json.loads(json.dumps(self.state.to_dict())), len(self.recorder.turns),
                           copy.deepcopy(self._bots), self.last_verdict)
        turn = self.recorder.begin(action)
        self._undo.append(point)
        self._started(turn)

    def tick(self, frame_dt: float) -> list[str]:
        """Advance by one frame of ``frame_dt`` wall seconds: run the physics steps the
        clock owes the running turn (all of them at speed "instant"), play a bot's
        move once it is ready, and set the next bot thinking.  Returns the texts of
        what happened (the game's events, in order) for the log.  Raises
        :class:`~balance3d.bots.BotError` when a bot fails or plays an illegal
        move, :class:`SessionError` when the autosave cannot be written (the game
        goes on; the file keeps its last whole record) and a physics error of the
        running turn (the game is as before that action)."""
        if self.running is not None:
            self._advance(None if self._speed == "instant" else self.clock.steps_due(frame_dt))
        if self.running is None and self._thinking is not None and self._thinking.future.done():
            self._play_bot_move()
        if (self.running is None and self._thinking is None and self._replay is None
                and not self.state.is_over):
            seat = self.state.current_player
            bot = self._bots[seat] if seat is not None else None
            if bot is not None:
                self._thinking = self._worker.submit(_think, bot, self.state.clone())
        texts, self._texts = self._texts, []
        return texts

    def single_step(self) -> None:
        """Run one physics step of the running turn while the clock is paused (the
        designer's single step)."""
        if self.running is not None:
            self._advance(self.clock.single_step())

    def next_action(self) -> Action | None:
        """In a replay, show the next recorded turn: the game as the record kept it
        after that turn (no physics runs), its verdict and its events; returns its
        action, or None when every turn has been shown.  :class:`SessionError`
        outside a replay."""
        if self._replay is None:
            raise SessionError("next_action() steps a replay (Session.replaying)")
        record = self._replay
        if self._replayed >= len(record.actions):
            return None
        index = self._replayed
        turn = record.data["turns"][index]
        self._table = record_states.decode(turn["state"], self._table, f"turns[{index}].state")
        state = playing.restore(record, self.state.scene, after=index + 1, table=self._table)
        self.recorder = rec.Recorder.resumed(state, record.data["setup"],
                                             record.data["turns"][:index + 1],
                                             record.data["start"])
        self._replayed += 1
        self._record = None
        self.last_verdict = verdict_from_dict(turn["verdict"])
        self._texts.extend(e["text"] for e in turn["events"])
        self._seen = len(state.events)
        return record.actions[index]

    def preview(self, action: Action) -> Future:
        """The designer's "what if": a Future of the Verdict ``action`` would get,
        played in a look-ahead clone on the worker thread (the live game is not
        touched).  The Future raises IllegalActionError for an illegal action."""
        if self.running is not None:
            raise SessionError("no preview while a turn runs")
        return self._worker.submit(_preview, self.state.clone(), action).future

    # ------------------------------------------------------------------ undo, restart
    def undo(self) -> None:
        """Back to just before the last human action: that action and every bot move
        after it are gone from the game and the record; the bots are as they were
        then.  :class:`SessionError` when there is no human action to undo."""
        if not self._undo:
            raise SessionError("nothing to undo: no human action has been played")
        point = self._undo.pop()
        self._drop_work()
        state = type(self.state).from_dict(point.state, scene=self.state.scene)
        old = self.recorder
        self.recorder = rec.Recorder.resumed(state, old.setup, old.turns[:point.turns],
                                             old.start)
        self._bots = point.bots
        self.last_verdict = point.last_verdict
        self._seen = len(state.events)
        self._texts.append(f"undone: back to turn {state.turn}")
        self._autosave()

    def restart(self) -> None:
        """A fresh game with the same game, variant, scene, seed and seats (a replay
        starts again from its first action).  With autosave, the game left behind
        stays in its file when it has any action, and the new game is saved beside
        it, in the first free ``NAME-2.json``, ``NAME-3.json`` ...: a restart never
        loses a saved game."""
        old = self.state
        self._drop_work()
        if self.record_path is not None and self.recorder.turns:
            kept, self._record_path = self.record_path, free_beside(self.record_path)
            self._texts.append(f"the last game stays in {kept}; this one is saved to "
                               f"{self.record_path}")
        if self._replay is not None:
            state = playing.restore(self._replay, old.scene, after=0)
            self._table = self._replay.table(0)
        else:
            state = new_game(old.name, players=list(old.players), seed=old.seed,
                             scene=old.scene, variant=old.variant)
        self.recorder = rec.Recorder(state)
        self._bots = [None] * len(state.players) if self._replay is not None \
            else _make_bots(state)
        self._undo.clear()
        self.last_verdict = None
        self._replayed = 0
        self._differences = None
        self._texts.extend(e.text for e in state.events)
        self._seen = len(state.events)
        self._autosave()

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> None:
        """Write the record to ``path`` atomically: a loadable record that
        ``balance3d replay`` plays.  Only between turns (:class:`SessionError` while
        a turn runs).  A file holding this game, or an earlier record of it, is
        replaced; one holding another game is never overwritten
        (:class:`SessionError` naming it)."""
        if self.running is not None:
            raise SessionError(f"cannot save to {path} while a turn runs: wait for it to "
                               f"settle")
        self._files.write(Path(path), self.record())

    def close(self) -> None:
        """Stop the worker without waiting for it: a move being worked out is
        abandoned at the bot's next report, a preview is dropped."""
        self._thinking = None
        self._worker.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ inside
    def _started(self, turn: Turn) -> None:
        """A turn has begun: show it, or finish it now (a decision, or "instant")."""
        self.clock.carry = 0.0
        self.running = turn
        self._advance(None if self._speed == "instant" else 0)

    def _advance(self, steps: int | None) -> None:
        """Run ``steps`` physics steps of the running turn (None: to its end) and
        finish it if it has ended.  A step that fails (a
        :class:`~balance3d.physics.world.WorldError`) ends the turn with the game as
        it was before the action, and is raised."""
        try:
            if steps is None:
                self.running.run()
            else:
                self.running.advance(steps)
        except BaseException:
            self.running = None
            raise
        self._after_steps()

    def _after_steps(self) -> None:
        """Finish the running turn if it has ended: record it, show its events and
        verdict, autosave."""
        turn = self.running
        if turn is None or not turn.done:
            return
        self.running = None
        self.last_verdict = turn.verdict
        record = self._record = self.recorder.record()
        events = self.state.events
        self._texts.extend(e.text for e in events[self._seen:])
        self._seen = len(events)
        if self.record_path is not None:
            self._files.write(self.record_path, record)

    def _play_bot_move(self) -> None:
        """Begin the move the worker has worked out."""
        job, self._thinking = self._thinking, None
        seat = self.state.current_player
        bot = self._bots[seat]
        try:
            action = job.future.result()
        except Exception as exc:
            if isinstance(exc, BotError):
                raise
            raise BotError(f"bot {bot.name!r} (seat {seat}) failed at game turn "
                           f"{self.state.turn}: {type(exc).__name__}: {exc}") from exc
        try:
            turn = self.recorder.begin(action)
        except IllegalActionError as exc:
            raise BotError(f"bot {bot.name!r} (seat {seat}) chose an illegal action at game "
                           f"turn {self.state.turn}: {exc}") from None
        self._started(turn)

    def _drop_work(self) -> None:
        """Abandon the running turn and any move being worked out."""
        if self.running is not None:
            self.running.cancel()
            self.running = None
        if self._thinking is not None:
            self._thinking.cancel()
        self._thinking = None
        self._record = None

    def _autosave(self) -> None:
        if self.record_path is not None:
            self._files.write(self.record_path, self.record())


def _make_bots(state: State) -> list[Bot | None]:
    """The bots of ``state``'s seats (each Player's ``bot``), as simulate makes them."""
    return [None if p.bot is None else make_bot(p.bot, state.seed, p.seat)
            for p in state.players]


__all__ = ["SPEEDS", "SPEED_NAMES", "Session", "SessionError"]
