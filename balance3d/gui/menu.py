"""The start menu (Panda3D DirectGUI): game, variant, number of players, a person or
a bot kind per seat, the seed, and Start.

It asks the game registry for every choice (games, their variants, player counts
and bots), so a new game shows up without a change here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame, DirectOptionMenu
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import TextNode

from balance3d.bots import plays
from balance3d.games import game_names, get_game
from balance3d.gui.widgets import widget_pixel

#: The seat choice meaning a person plays it.
PERSON = "person"
#: aspect2d units, height of the menu's text.
TEXT_SCALE = 0.05
#: aspect2d units, vertical distance between the menu's rows.
ROW = 0.11
#: Seed shown when the menu opens.
DEFAULT_SEED = 0


@dataclass(frozen=True)
class MenuChoice:
    """What the menu's Start hands over: a new game's settings."""

    game: str
    variant: str
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    seed: int


class StartMenu:
    """The start menu; ``on_start(MenuChoice)`` is called when Start is clicked with
    valid settings (an invalid seed is named on the menu instead)."""

    def __init__(self, base: Any, on_start: Callable[[MenuChoice], None]) -> None:
        self.base = base
        self.on_start = on_start
        self.frame = DirectFrame(parent=base.aspect2d, frameColor=(0.06, 0.06, 0.09, 0.92),
                                 frameSize=(-0.9, 0.9, -0.85, 0.85))
        OnscreenText(text="balance3d", parent=self.frame, pos=(0, 0.7), scale=0.09,
                     fg=(1, 1, 1, 1))
        self._rows: list[Any] = []
        self.game = self._option("Game", 0, game_names(), self._changed)
        self.variant = self._option("Variant", 1, ["-"], self._changed)
        self.players = self._option("Players", 2, ["-"], self._changed)
        self.seats: list[DirectOptionMenu] = []
        self.seed = DirectEntry(parent=self.frame, initialText=str(DEFAULT_SEED), width=6,
                                scale=TEXT_SCALE, pos=(0.0, 0, self._y(7)), numLines=1,
                                focus=0)
        self._label("Seed", 7)
        self.message = OnscreenText(text="", parent=self.frame, pos=(0, self._y(8)),
                                    scale=0.04, fg=(1, 0.45, 0.4, 1), mayChange=True)
        self.start = DirectButton(parent=self.frame, text="Start", scale=0.07,
                                  pos=(0, 0, -0.72), relief=DGG.FLAT,
                                  frameColor=(0.2, 0.45, 0.3, 1), text_fg=(1, 1, 1, 1),
                                  pad=(0.6, 0.25), command=self._start)
        self._changed()

    # -- layout -----------------------------------------------------------------
    @staticmethod
    def _y(row: int) -> float:
        return 0.52 - row * ROW

    def _label(self, text: str, row: int) -> None:
        OnscreenText(text=text, parent=self.frame, pos=(-0.1, self._y(row) + 0.01),
                     align=TextNode.ARight, scale=TEXT_SCALE, fg=(0.9, 0.9, 0.85, 1))

    def _option(self, label: str, row: int, items: list[str],
                command: Callable[..., None]) -> DirectOptionMenu:
        self._label(label, row)
        return DirectOptionMenu(parent=self.frame, items=items, initialitem=0,
                                scale=TEXT_SCALE, pos=(0.0, 0, self._y(row)),
                                highlightColor=(0.6, 0.6, 0.8, 1), command=command)

    @staticmethod
    def _set_items(menu: DirectOptionMenu, items: list[str]) -> None:
        """Offer ``items``, keeping the current choice when it is still one of them."""
        current = menu.get()
        if list(menu["items"]) != items:
            menu["items"] = items
        menu.set(items.index(current) if current in items else 0, fCommand=0)

    def _changed(self, *_: Any) -> None:
        """Offer the variants, player counts and seat choices that fit the game."""
        game = get_game(self.game.get())
        self._set_items(self.variant, list(game.variants))
        counts = [str(n) for n in game.player_counts(self.variant.get())]
        self._set_items(self.players, counts)
        seats = int(self.players.get())
        kinds = [PERSON] + [b for b in game.bots if plays(b, game.name)]
        while len(self.seats) > seats:
            self.seats.pop().destroy()
        for seat in range(seats):
            if seat == len(self.seats):
                self.seats.append(self._seat_menu(seat, kinds))
            else:
                self._set_items(self.seats[seat], kinds)

    def _seat_menu(self, seat: int, kinds: list[str]) -> DirectOptionMenu:
        first = 0 if seat == 0 else min(1, len(kinds) - 1)
        menu = DirectOptionMenu(parent=self.frame, items=kinds, initialitem=first,
                                scale=TEXT_SCALE, pos=(0.0, 0, self._y(3 + seat * 0.85)),
                                highlightColor=(0.6, 0.6, 0.8, 1))
        OnscreenText(text=f"Player {seat + 1}", parent=menu, pos=(-2.0, 0.2),
                     align=TextNode.ARight, scale=1.0, fg=(0.9, 0.9, 0.85, 1))
        return menu

    # -- starting ---------------------------------------------------------------
    def choice(self) -> MenuChoice:
        """The settings shown; ValueError naming the seed when it is not a whole
        number >= 0."""
        text = self.seed.get().strip()
        if not text.isdigit():
            raise ValueError(f"seed {text!r}: give a whole number >= 0")
        seats = len(self.seats)
        bots = tuple(None if m.get() == PERSON else m.get() for m in self.seats)
        return MenuChoice(self.game.get(), self.variant.get(),
                          tuple(f"Player {s + 1}" for s in range(seats)), bots, int(text))

    def _start(self) -> None:
        try:
            choice = self.choice()
        except ValueError as exc:
            self.message.setText(str(exc))
            return
        self.on_start(choice)

    def start_pixel(self) -> tuple[float, float]:
        """Pixel (x right, y down) of the Start button's centre in the window."""
        return widget_pixel(self.base, self.start)

    def destroy(self) -> None:
        self.frame.destroy()
