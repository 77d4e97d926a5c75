"""The game layer's errors."""
from __future__ import annotations


class GameError(Exception):
    """Base class of the game layer's errors."""


class RecordError(GameError):
    """A saved state, record or action dict is malformed or does not fit the game."""
