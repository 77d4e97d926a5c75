"""The World's errors."""
from __future__ import annotations


class WorldError(Exception):
    """Base class of the World's errors."""


class InvalidStateError(WorldError):
    """The simulation left the physical domain (NaN, a body far off the table)."""


class OverlapError(WorldError):
    """A body was released where it overlaps another body."""
