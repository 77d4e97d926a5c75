"""The State queries of a game whose states keep their phase and the seat to act:
``current_player``, ``phase`` and ``is_over`` read from ``_phase`` (a ``StrEnum``
whose last phase is "over") and ``_current`` (the seat to act)."""
from __future__ import annotations

from enum import StrEnum

#: The phase of a finished game, in every game's Phase enum.
OVER = "over"


class PhasedMixin:
    """``current_player``, ``phase`` and ``is_over`` of a state with ``_phase`` and
    ``_current`` (list it before :class:`~balance3d.games.base.State`)."""

    _phase: StrEnum
    _current: int | None

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._current

    @property
    def phase(self) -> StrEnum:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._phase == OVER
