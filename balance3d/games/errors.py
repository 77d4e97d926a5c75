"""The game layer's errors."""
from __future__ import annotations


class GameError(Exception):
    """Base class of the game layer's errors."""


class RecordError(GameError):
    """A saved state, record or action dict is malformed or does not fit the game."""


class Refusal(str):
    """Why the game refuses an action: the complete sentence (ids and all, what
    scripts, logs and records read) with, as data, ``code`` (a word naming the rule
    broken, "" when none) and ``data`` (what it is about: piece ids, field indices,
    seats, numbers), which a window words for a player.

    It is a ``str``: everything that reads a reason as text reads the sentence."""

    code: str
    data: dict

    def __new__(cls, text: str, code: str = "", **data) -> "Refusal":
        self = super().__new__(cls, text)
        self.code = code
        self.data = data
        return self

    def __reduce__(self):
        return _refusal, (str(self), self.code, self.data)


def _refusal(text: str, code: str, data: dict) -> Refusal:
    """Rebuild a pickled :class:`Refusal`."""
    return Refusal(text, code, **data)
