"""The start menu (Panda3D DirectGUI): game, variant, number of players, per seat a
name and a person or a bot kind, the seed, and Start.

It asks the game registry for every choice (games, their variants, player counts
and bots), so a new game shows up without a change here.

Layout, in the menu frame's units: a column of labels, a column of the game's
choices, the seats' names and the seed, a column of the seats' person-or-bot menus
and, to the right of every widget, the pop-up column: an option menu's list opens
there, its top level with the menu's own, so it never covers another widget.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from direct.gui.DirectGui import DGG, DirectButton, DirectEntry, DirectFrame, DirectOptionMenu
from direct.gui.OnscreenText import OnscreenText
from panda3d.core import Point3, TextNode

from balance3d.bots import plays
from balance3d.games import game_names, get_game
from balance3d.gui.widgets import widget_pixel

#: The seat choice meaning a person plays it.
PERSON = "person"
#: aspect2d units, height of the menu's text.
TEXT_SCALE = 0.05
#: aspect2d units, vertical distance between the menu's rows.
ROW = 0.1
#: Seed shown when the menu opens.
DEFAULT_SEED = 0
#: Characters a seat's name may have at most.
NAME_LENGTH = 20
#: Menu frame units: the frame's half width and half height.
HALF_WIDTH, HALF_HEIGHT = 1.05, 0.88
#: Menu frame units: the labels' right edge, the left edges of the game's choices
#: and the name fields, of the seats' person-or-bot menus and of the pop-up column.
LABEL_X, NAME_X, CHOICE_X, POPUP_X = -0.62, -0.58, 0.02, 0.34
#: Name field width, in characters of TEXT_SCALE.
NAME_WIDTH = 11
#: Menu frame units: height of the first row.
TOP_ROW = 0.55


@dataclass(frozen=True)
class MenuChoice:
    """What the menu's Start hands over: a new game's settings."""

    game: str
    variant: str
    names: tuple[str, ...]
    bots: tuple[str | None, ...]
    seed: int


class SidePopupMenu(DirectOptionMenu):
    """An option menu whose list opens in the menu's pop-up column: left edge at
    :data:`POPUP_X` of ``column`` (the menu frame), top level with the option
    menu's top, moved up only as far as the frame's bottom demands."""

    def __init__(self, column: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.initialiseoptions(SidePopupMenu)
        self._column = column

    def showPopupMenu(self, event: Any = None) -> None:
        super().showPopupMenu(event)
        top = self._column.getRelativePoint(self, Point3(0, 0, self.getBounds()[3]))[2]
        height = -self.popupMenu.getBounds()[2] * self.popupMenu.getScale(self._column)[2]
        top = max(top, -HALF_HEIGHT + height)
        self.popupMenu.setPos(self._column, POPUP_X, 0, top)


class StartMenu:
    """The start menu; ``on_start(MenuChoice)`` is called when Start is clicked with
    valid settings (an invalid seed or name is named on the menu instead)."""

    def __init__(self, base: Any, on_start: Callable[[MenuChoice], None]) -> None:
        self.base = base
        self.on_start = on_start
        self.frame = DirectFrame(parent=base.aspect2d, frameColor=(0.06, 0.06, 0.09, 0.92),
                                 frameSize=(-HALF_WIDTH, HALF_WIDTH, -HALF_HEIGHT, HALF_HEIGHT))
        OnscreenText(text="balance3d", parent=self.frame, pos=(0, 0.7), scale=0.09,
                     fg=(1, 1, 1, 1))
        self.game = self._option("Game", 0, game_names(), self._changed)
        self.variant = self._option("Variant", 1, ["-"], self._changed)
        self.players = self._option("Players", 2, ["-"], self._changed)
        #: per seat: (its label, its name field, its person-or-bot menu)
        self.seat_rows: list[tuple[OnscreenText, DirectEntry, DirectOptionMenu]] = []
        self._seed_row = 3
        self.seed = DirectEntry(parent=self.frame, initialText=str(DEFAULT_SEED), width=6,
                                scale=TEXT_SCALE, numLines=1, focus=0)
        self._seed_label = self._label("Seed", 0)
        self.message = OnscreenText(text="", parent=self.frame, pos=(0, -0.6),
                                    scale=0.04, fg=(1, 0.45, 0.4, 1), mayChange=True)
        self.start = DirectButton(parent=self.frame, text="Start", scale=0.07,
                                  pos=(0, 0, -0.74), relief=DGG.FLAT,
                                  frameColor=(0.2, 0.45, 0.3, 1), text_fg=(1, 1, 1, 1),
                                  pad=(0.6, 0.25), command=self._start)
        self._changed()

    @property
    def seats(self) -> list[DirectOptionMenu]:
        """Per seat, its person-or-bot menu."""
        return [menu for _, _, menu in self.seat_rows]

    @property
    def names(self) -> list[DirectEntry]:
        """Per seat, its name field."""
        return [entry for _, entry, _ in self.seat_rows]

    # -- layout -----------------------------------------------------------------
    @staticmethod
    def _y(row: int) -> float:
        return TOP_ROW - row * ROW

    def _label(self, text: str, row: int) -> OnscreenText:
        return OnscreenText(text=text, parent=self.frame, pos=(LABEL_X, self._y(row) + 0.01),
                            align=TextNode.ARight, scale=TEXT_SCALE, fg=(0.9, 0.9, 0.85, 1),
                            mayChange=True)

    def _menu(self, items: list[str], initial: int, row: int, x: float,
              command: Callable[..., None] | None = None) -> DirectOptionMenu:
        return SidePopupMenu(self.frame, parent=self.frame, items=items, initialitem=initial,
                             scale=TEXT_SCALE, pos=(x, 0, self._y(row)),
                             highlightColor=(0.6, 0.6, 0.8, 1), command=command)

    def _option(self, label: str, row: int, items: list[str],
                command: Callable[..., None]) -> DirectOptionMenu:
        self._label(label, row)
        return self._menu(items, 0, row, NAME_X, command)

    @staticmethod
    def _set_items(menu: DirectOptionMenu, items: list[str]) -> None:
        """Offer ``items``, keeping the current choice when it is still one of them."""
        current = menu.get()
        if list(menu["items"]) != items:
            menu["items"] = items
        menu.set(items.index(current) if current in items else 0, fCommand=0)

    def _changed(self, *_: Any) -> None:
        """Offer the variants, player counts and seat choices that fit the game, and
        put the seed's row under the last seat's."""
        game = get_game(self.game.get())
        self._set_items(self.variant, list(game.variants))
        counts = [str(n) for n in game.player_counts(self.variant.get())]
        self._set_items(self.players, counts)
        seats = int(self.players.get())
        kinds = [PERSON] + [b for b in game.bots if plays(b, game.name)]
        while len(self.seat_rows) > seats:
            for widget in self.seat_rows.pop():
                widget.destroy()
        for seat in range(seats):
            if seat == len(self.seat_rows):
                self.seat_rows.append(self._seat_row(seat, kinds))
            else:
                self._set_items(self.seat_rows[seat][2], kinds)
        row = 3 + seats
        self.seed.setPos(NAME_X, 0, self._y(row))
        self._seed_label.setPos(LABEL_X, self._y(row) + 0.01)

    def _seat_row(self, seat: int, kinds: list[str]
                  ) -> tuple[OnscreenText, DirectEntry, DirectOptionMenu]:
        row = 3 + seat
        label = self._label(f"Seat {seat + 1}", row)
        name = DirectEntry(parent=self.frame, initialText=f"Player {seat + 1}",
                           width=NAME_WIDTH, scale=TEXT_SCALE, pos=(NAME_X, 0, self._y(row)),
                           numLines=1, focus=0)
        first = 0 if seat == 0 else min(1, len(kinds) - 1)
        return label, name, self._menu(kinds, first, row, CHOICE_X)

    # -- starting ---------------------------------------------------------------
    def choice(self) -> MenuChoice:
        """The settings shown; ValueError naming the seed when it is not a whole
        number >= 0, or the seat whose name is empty, longer than
        :data:`NAME_LENGTH` or another seat's."""
        text = self.seed.get().strip()
        if not text.isdigit():
            raise ValueError(f"seed {text!r}: give a whole number >= 0")
        names = tuple(entry.get().strip() for entry in self.names)
        for seat, name in enumerate(names):
            if not name:
                raise ValueError(f"seat {seat + 1}: give the player a name")
            if len(name) > NAME_LENGTH:
                raise ValueError(f"seat {seat + 1}: {name!r} is longer than {NAME_LENGTH} "
                                 f"characters; give a shorter name")
            if name in names[:seat]:
                raise ValueError(f"seat {seat + 1}: {name!r} is seat "
                                 f"{names.index(name) + 1}'s name too; give another")
        bots = tuple(None if m.get() == PERSON else m.get() for m in self.seats)
        return MenuChoice(self.game.get(), self.variant.get(), names, bots, int(text))

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
