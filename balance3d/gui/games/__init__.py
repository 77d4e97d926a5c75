"""Each game's part of the window, found by the game's registered name.

A game ``name`` has a package ``balance3d.gui.games.<name>`` with two modules:

``text``
    what the HUD and the decision buttons say (no Panda3D): an object ``TEXT``
    following :class:`GameText`.
``table``
    what the window draws besides the World's bodies and where the pieces that are
    not in the World lie (Panda3D): an object ``TABLE`` following
    :class:`GameTable` (its ``seat_colour`` is also the colour the window's turn
    banner speaks in).

Generic code (the window, the session, the HUD) only calls :func:`game_text` and
:func:`game_table`; it never names a game.
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

    def piece_name(self, state: State, piece: str) -> str:
        """``piece`` as the current player names it ("your weight-2 piece", "Bob's
        letter L", "the 6-long block in the supply"): never its id."""

    def field_name(self, state: State, field: int) -> str:
        """Field ``field`` (its index) of a game that places pieces on fields, by its
        painted number and place ("the 3 on Ann's side"): never its index.  Only
        such games are asked."""

    def result_lines(self, state: State, record: dict[str, Any]) -> list[str]:
        """The result of the finished game ``state`` (``record`` its record) for the
        HUD, scores in the game's own units (Tower's heights in mm)."""

    def refusal(self, state: State, reason: str) -> str:
        """A refusal of the game (``reason``, a
        :class:`~balance3d.games.errors.Refusal` when it carries its rule as data)
        in a player's words: what is wrong and what to do instead, with pieces,
        fields and seats named as on the table, never by their ids."""

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

    def seat_colour(self, state: State, seat: int) -> Colour:
        """RGBA of ``seat`` (its mat, its name, the ghost of the piece it holds):
        what a banner saying whose turn it is can be painted in."""


class Worded(str):
    """A refusal as the window says it (pieces and fields named as on the table);
    ``reason`` is the game's own sentence, ids and all, for the log and the trace."""

    reason: str

    def __new__(cls, text: str, reason: str) -> "Worded":
        self = super().__new__(cls, text)
        self.reason = reason
        return self


def worded(state: State, reason: str) -> Worded:
    """``reason`` (a game's refusal) in the game's words for ``state``
    (:meth:`GameText.refusal`); a reason already worded comes back as it is."""
    if isinstance(reason, Worded):
        return reason
    return Worded(game_text(state.name).refusal(state, reason), str(reason))


def game_text(name: str) -> GameText:
    """The :class:`GameText` of the registered game ``name``."""
    return importlib.import_module(f"balance3d.gui.games.{name}.text").TEXT


def game_table(name: str) -> GameTable:
    """The :class:`GameTable` of the registered game ``name`` (imports Panda3D)."""
    return importlib.import_module(f"balance3d.gui.games.{name}.table").TABLE


__all__ = ["CameraPreset", "Colour", "GameTable", "GameText", "Pose", "Tray", "Worded",
           "game_table", "game_text", "worded"]
