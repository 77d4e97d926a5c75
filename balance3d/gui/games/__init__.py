"""Each game's part of the window, found by the game's registered name.

A game ``name`` has a package ``balance3d.gui.games.<name>`` with two modules:

``text``
    what the HUD and the decision buttons say (no Panda3D): an object ``TEXT``
    following :class:`GameText`.
``table``
    what the window draws besides the World's bodies and where the pieces that are
    not in the World lie (Panda3D): an object ``TABLE`` following
    :class:`GameTable`, and ``SEAT_COLOURS``, the seats' colours (RGBA), which the
    window's turn banner also speaks in (:func:`seat_colours`).

Generic code (the window, the session, the HUD) only calls :func:`game_text`,
:func:`game_table` and :func:`seat_colours`; it never names a game.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from balance3d.games.base import Action, State, Verdict
    from balance3d.meshes.part import Part

#: RGBA colour, each channel 0..1.
Colour = tuple[float, float, float, float]
#: A pose: (position (3,) m, quaternion (x, y, z, w)), world frame.
Pose = tuple[tuple[float, float, float], tuple[float, float, float, float]]


@dataclass(frozen=True)
class CameraPreset:
    """Where the camera starts for a game: it looks at ``target`` ((3,) m) from
    ``distance`` m away, turned ``heading`` degrees about the vertical (0 = looking
    along +y) and tilted ``pitch`` degrees down from the horizontal."""

    target: tuple[float, float, float]
    distance: float
    heading: float
    pitch: float


@dataclass(frozen=True)
class Tray:
    """Pieces that are not in the World, laid out on the table: a seat's hand
    (``seat`` its index) or a common supply (``seat`` None).  ``label`` is shown
    beside it; ``slots[i]`` is the pose of ``pieces[i]``."""

    seat: int | None
    label: str
    pieces: tuple[str, ...]
    slots: tuple[Pose, ...]


class GameText(Protocol):
    """What the window says about one game (no Panda3D)."""

    def seat_line(self, state: State, seat: int) -> str:
        """One line for a seat in the HUD: name and holdings ("Ann  4 coins  5 blocks")."""

    def prompt(self, state: State) -> str:
        """What the current player is asked for now ("Ann: drop a block on the
        high side"); the result line once the game is over."""

    def decision_label(self, state: State, action: Action) -> str:
        """Button text for one of ``state.legal_decisions()`` ("Buy (3 coins)")."""

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """What a finished action did, for the HUD: the summary, then details such
        as returned pieces and coins won."""

    def confirm(self, state: State, action: Action) -> str | None:
        """The question the window asks before it plays ``action`` (one of
        ``state.legal_decisions()`` or a Pass) when the action ends the player's
        game ("Ann: pass and be out for the rest of this game?"), else None."""


class GameTable(Protocol):
    """What the window draws for one game (Panda3D)."""

    def camera_preset(self, state: State) -> CameraPreset:
        """The camera's start and reset position."""

    def trays(self, state: State) -> list[Tray]:
        """Every piece not in the World and where it lies on the table."""

    def piece_part(self, state: State, piece: str) -> Part:
        """The part (mesh) a piece is made of, in the World or not."""

    def colour(self, state: State, name: str) -> Colour:
        """Colour of a body of the World or of a piece in a tray."""

    def decorate(self, view: Any, state: State) -> None:
        """Add the game's fixed marks to a freshly built table view (lines, labels
        and values drawn on its parts)."""

    def update(self, view: Any, state: State, designer: bool) -> None:
        """Refresh the game's overlays after the bodies moved (``designer``: also
        the designer's overlays, such as a centre of mass)."""


def game_text(name: str) -> GameText:
    """The :class:`GameText` of the registered game ``name``."""
    return importlib.import_module(f"balance3d.gui.games.{name}.text").TEXT


def game_table(name: str) -> GameTable:
    """The :class:`GameTable` of the registered game ``name`` (imports Panda3D)."""
    return importlib.import_module(f"balance3d.gui.games.{name}.table").TABLE


def seat_colours(name: str) -> tuple[Colour, ...]:
    """The seats' colours of the registered game ``name`` (its table module's
    ``SEAT_COLOURS``; empty when it has none).  Imports Panda3D."""
    module = importlib.import_module(f"balance3d.gui.games.{name}.table")
    return tuple(getattr(module, "SEAT_COLOURS", ()))


__all__ = ["CameraPreset", "Colour", "GameTable", "GameText", "Pose", "Tray", "game_table",
           "game_text", "seat_colours"]
