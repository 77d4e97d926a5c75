"""Screenshots of one game's window at the moments a player meets: holding a piece
over the table, a refusal, a decision, a question before an action that ends the
player's game (where the game asks one) and the end.  Rendered offscreen (no
display needed), one PNG per moment, for the README.

    python docs/screenshot_moments.py GAME SEATS SEED FOLDER [--size 1280x720]

Each moment is the first one random bots reach from the seeded start (the seats are
people at that moment, as in a loaded game); the held piece is carried to where the
random bot would have dropped it.  ``docs/make_screenshots.py`` runs this for each
game.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import Drop, Pass, new_game
from balance3d.games.base import Player

#: Actions the random bots may play to reach a moment.
MOST_ACTIONS = 400


def session_at(game: str, seats: int, seed: int, until, folder: Path):
    """A session of people at the first moment ``until(state)`` holds, reached by
    random bots and opened from its record as the window opens one; None when no
    such moment comes within :data:`MOST_ACTIONS` actions."""
    from balance3d.gui.session import Session

    players = [Player(s, f"Player {s + 1}", None) for s in range(seats)]
    state = new_game(game, players=players, seed=seed)
    recorder = rec.Recorder(state)
    bots = [make_bot("random", seed, s) for s in range(seats)]
    for _ in range(MOST_ACTIONS):
        if until(state) or state.is_over:
            break
        recorder.apply(bots[state.current_player].choose(state))
    if not until(state):
        return None
    path = folder / f"{game}-{len(recorder.turns)}.json"
    rec.write_record(recorder.record(), path)
    return Session.load(path, bots=[None] * seats, speed="instant")


def _offered(state) -> list:
    """The decisions the window offers as buttons now (:func:`hud._decisions`)."""
    from balance3d.gui.hud import _decisions

    return _decisions(state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("seats", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--size", default="1280x720")
    options = parser.parse_args(argv)
    size = tuple(int(v) for v in options.size.split("x"))

    from balance3d.gui import pointing
    from balance3d.gui.app import TableApp
    from balance3d.gui.trace import Trace
    from balance3d.gui.view.offscreen import offscreen_base

    # an offscreen buffer has no mouse: the held piece stays where it is carried
    pointing.mouse_ray = lambda base: None
    base = offscreen_base(size)
    game, folder = options.game, options.folder
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        app = TableApp(base, scratch / "saved.json", Trace(None))

        def shoot(moment: str, what: str) -> None:
            app.widgets.set_hint("")
            app.refresh()
            path = folder / f"{game}-{moment}.png"
            app.view.screenshot(path)
            print(f"{path.name}: {what}", flush=True)

        def start(until) -> bool:
            session = session_at(game, options.seats, options.seed, until, scratch)
            if session is None:
                return False
            app.start(session)
            return True

        try:
            start(lambda s: bool(s.legal_pieces()))
            state = app.session.state
            choice = make_bot("random", options.seed, state.current_player).choose(state)
            app.gesture.pick(state, choice.piece if hasattr(choice, "piece")
                             else state.legal_pieces()[0])
            if isinstance(choice, Drop):
                app.gesture.move(choice.x, choice.y)
            shoot("holding", "a piece held: its ghost in the seat's colour, the readout")
            app.gesture.move(100.0, 100.0)
            app._ghost_key = None
            shoot("refused", "the held piece where it may not go: the reason, in words")
            app.put_back()
            if start(lambda s: len(_offered(s)) >= 2):
                shoot("decision", "a decision: the buttons in the bar")
            if start(lambda s: Pass() in _offered(s)
                     and app_text(s.name).confirm(s, Pass()) is not None):
                app.decide(Pass())
                shoot("question", "an action that ends the player's game asks first")
                app._escape()
            start(lambda s: s.is_over)
            shoot("end", "the end: the result in the game's own units")
        finally:
            app.destroy()
            base.destroy()
    return 0


def app_text(name: str):
    """The game's window text (:func:`balance3d.gui.games.game_text`)."""
    from balance3d.gui.games import game_text

    return game_text(name)


if __name__ == "__main__":
    sys.exit(main())
