"""How far a bot's move has got: the trials a planner has made of those it plans,
reported to whoever asked the move (the window shows "Bob (planner): 2 of 3
candidates tried"), and the way to abandon a move being worked out.

A planner calls :func:`report` once before its first trial and after each trial
(a copy of the game played to its verdict).  :func:`choose` asks a bot for its
move with a ``progress`` callback that receives those reports; without one,
:func:`report` does nothing.  The callback only listens: the bot chooses exactly
the same action with or without it, and its work is never cut by the wall clock.
A callback may raise :class:`Cancelled` to abandon the move (the window does on
closing, undo and restart): the bot stops at its next report, between two trials,
and :func:`choose` raises it on.

The callback is kept in a :class:`contextvars.ContextVar`, so each thread asking
for a move has its own and a bot object holds no reference to it (bots are copied
for undo).
"""
from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable

from balance3d.games.base import Action, State


@dataclass(frozen=True)
class Progress:
    """A bot's move so far: ``tried`` trials made of ``planned`` (``tried`` <=
    ``planned``; both whole numbers >= 0)."""

    tried: int
    planned: int


class Cancelled(Exception):
    """The move being worked out was abandoned (raised by a progress callback)."""


#: The progress callback of the move being worked out in this context (None: none).
_LISTENER: ContextVar[Callable[[Progress], None] | None] = ContextVar(
    "balance3d_bot_progress", default=None)


def report(tried: int, planned: int) -> None:
    """A planner's report: ``tried`` trials made so far of the ``planned`` ones
    (``planned`` is raised to ``tried`` when a planner goes beyond its plan).  The
    callback given to :func:`choose` receives it; it may raise :class:`Cancelled`."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(Progress(int(tried), max(int(planned), int(tried))))


def choose(bot, state: State, progress: Callable[[Progress], None] | None = None) -> Action:
    """``bot.choose(state)``, with ``progress`` receiving the bot's reports meanwhile
    (:class:`Cancelled` when the callback raised it)."""
    token = _LISTENER.set(progress)
    try:
        return bot.choose(state)
    finally:
        _LISTENER.reset(token)


__all__ = ["Cancelled", "Progress", "choose", "report"]
