"""Opening the window for ``balance3d play``: the one entry point the command
imports, once every argument has been checked (importing this module imports no
Panda3D; :func:`launch` does).

A window game is a :class:`~balance3d.gui.session.Session` (new, loaded or a
replay) shown by a :class:`~balance3d.gui.app.TableApp`; without a game the start
menu makes one.  ``--screenshot`` plays its actions at once, draws one frame into
an offscreen buffer and saves it: the table as those actions left it, with no bot
thinking (when a bot's seat is to act next, the prompt says "Player 2 (planner)
plays next"; it stops earlier at a person's turn or the game's end).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balance3d import play as playing
from balance3d import record as rec
from balance3d.bots import BotError, make_bot
from balance3d.commands import CommandError
from balance3d.games import Player, new_game
from balance3d.games.base import IllegalActionError, action_to_dict

if TYPE_CHECKING:
    from balance3d.commands.play import PlayOptions

#: Panda3D settings of every balance3d window (no sound; frames as fast as they
#: come, the physics is paced by its own clock).
PRC = """
window-title balance3d
sync-video false
audio-library-name null
framebuffer-multisample true
multisamples 4
"""


def launch(options: PlayOptions) -> int:
    """Run the window (or, with ``options.screenshot``, render one frame offscreen)
    until the player quits; the exit status (0 quit normally)."""
    if options.screenshot is not None:
        return _screenshot(options)
    return _window(options)


def _window(options: PlayOptions) -> int:
    from panda3d.core import loadPrcFileData
    loadPrcFileData("balance3d", PRC + "win-size {} {}\n".format(*options.size))
    from direct.showbase.ShowBase import ShowBase

    from balance3d.gui.app import TableApp, default_save_path
    from balance3d.gui.menu import StartMenu
    from balance3d.gui.trace import Trace

    try:
        base = ShowBase()
    except Exception as exc:
        raise CommandError(f"cannot open a window on display {os.environ.get('DISPLAY')!r} "
                           f"({exc}); play headless with 'balance3d simulate'") from None
    base.disableMouse()
    trace = Trace(options.trace)
    save = options.record or options.load
    app = TableApp(base, save or default_save_path(options.game or "game", options.seed), trace)
    base.exitFunc = app.close
    if options.menu:
        def begin(choice: Any) -> None:
            menu.destroy()
            app.save_path = options.record or default_save_path(choice.game, choice.seed)
            app.start(_new_session(choice.game, choice.variant, choice.names, choice.bots,
                                   choice.seed, options.record, options.speed))

        menu = StartMenu(base, begin)
        base.graphicsEngine.renderFrame()
        trace.write("menu", start=list(menu.start_pixel()))
    else:
        session, replaying = _session(options)
        app.start(session, replaying=replaying)
    try:
        base.run()
    finally:
        app.close()
        base.destroy()
    return 0


def _new_session(game: str, variant: str, names: tuple[str, ...], bots: tuple[str | None, ...],
                 seed: int, record: Path | None, speed: str) -> Any:
    from balance3d.gui.session import Session
    return Session.new(game, variant=variant, players=list(names), bots=list(bots), seed=seed,
                       record_path=record, speed=speed)


def _session(options: PlayOptions) -> tuple[Any, bool]:
    """The session the options ask for, and whether it replays a record."""
    from balance3d.gui.session import Session
    if options.replay is not None:
        return Session.replaying(options.replay, speed=options.speed), True
    if options.load is not None:
        session = Session.load(options.load, bots=list(options.bots), speed=options.speed)
        session.record_path = options.record
        return session, False
    return _new_session(options.game, options.variant, options.names, options.bots,
                        options.seed, options.record, options.speed), False


def _screenshot(options: PlayOptions) -> int:
    from balance3d.gui.app import TableApp, default_save_path
    from balance3d.gui.session import Session
    from balance3d.gui.trace import Trace
    from balance3d.gui.view.offscreen import offscreen_base

    if options.load is not None:
        record = rec.load_record(options.load)
        state = playing.start_game(record, playing.record_scene(record, options.load.parent))
        script = list(record.actions)
        ahead = len(script) + options.turns
    else:
        players = [Player(s, n, b) for s, (n, b) in enumerate(zip(options.names, options.bots))]
        state = new_game(options.game, players=players, seed=options.seed,
                         variant=options.variant)
        script, ahead = list(options.script), options.turns
    recorder = rec.Recorder(state)
    played = _play_ahead(recorder, list(options.bots), script, ahead)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        rec.write_record(recorder.record(), path)
        session = Session.load(path, speed="instant")
    base = offscreen_base(options.size)
    trace = Trace(options.trace)
    app = TableApp(base, default_save_path(state.name, state.seed), trace)
    try:
        app.start(session)
        app.widgets.set_hint("")
        app.refresh()
        app.view.screenshot(options.screenshot)
        trace.write("frame", **app.camera_fields(), turns=len(session.recorder.turns))
    finally:
        app.close()
        base.destroy()
    print(f"screenshot written: {options.screenshot} ({state.name}, {played} actions played)")
    return 0


def _play_ahead(recorder: rec.Recorder, bots: list[str | None], script: list[Any],
                actions: int) -> int:
    """Play up to ``actions`` actions at once: the ``script``'s first, then each
    seat's bot (stopping at a person's turn or the game's end); the count played."""
    state = recorder.state
    made = [make_bot(b, state.seed, seat) if b else None for seat, b in enumerate(bots)]
    played = 0
    while played < actions and not state.is_over:
        if played < len(script):
            action = script[played]
        else:
            bot = made[state.current_player]
            if bot is None:
                break
            action = bot.choose(state)
        try:
            recorder.apply(action)
        except IllegalActionError as exc:
            who = f"script action {played + 1}" if played < len(script) else \
                f"bot of seat {state.current_player}"
            raise BotError(f"{who}: illegal {action_to_dict(action)['type']}: "
                           f"{exc.reason}") from None
        played += 1
    return played
