"""The start menu, offscreen: a name field per seat, names checked at Start, and
option menus whose open lists cover no other widget and stay in the menu."""
from __future__ import annotations

import pytest
from panda3d.core import Point3

from balance3d.games import get_game

#: Window size, pixels.
SIZE = (1280, 720)


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base
    return offscreen_base(SIZE)


@pytest.fixture
def menu(base):
    from balance3d.gui.menu import StartMenu
    started = []
    made = StartMenu(base, started.append)
    made.started = started
    yield made
    made.destroy()


def rect(frame, node, bounds) -> tuple[float, float, float, float]:
    """(left, right, bottom, top) in ``frame``'s units of ``node``'s local
    ``bounds`` (left, right, bottom, top)."""
    left, right, bottom, top = bounds
    a = frame.getRelativePoint(node, Point3(left, 0, bottom))
    b = frame.getRelativePoint(node, Point3(right, 0, top))
    return min(a[0], b[0]), max(a[0], b[0]), min(a[2], b[2]), max(a[2], b[2])


def text_rect(frame, text) -> tuple[float, float, float, float]:
    low, high = text.getTightBounds(frame)
    return low[0], high[0], low[2], high[2]


def overlap(a, b) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def widgets(menu) -> dict[str, tuple[float, float, float, float]]:
    """Every widget of the menu but the pop-ups: name -> rectangle (frame units)."""
    frame = menu.frame
    out = {name: rect(frame, w, w.getBounds()) for name, w in
           [("game", menu.game), ("variant", menu.variant), ("players", menu.players),
            ("seed", menu.seed), ("start", menu.start)]}
    for seat, (label, name, kind) in enumerate(menu.seat_rows):
        out[f"seat {seat + 1} label"] = text_rect(frame, label)
        out[f"seat {seat + 1} name"] = rect(frame, name, name.getBounds())
        out[f"seat {seat + 1} kind"] = rect(frame, kind, kind.getBounds())
    return out


def test_each_seat_has_a_name_field_and_start_hands_the_names_over(menu):
    menu.players.set(menu.players["items"].index("3"))
    assert len(menu.names) == 3 == len(menu.seats)
    assert [n.get() for n in menu.names] == ["Player 1", "Player 2", "Player 3"]
    menu.names[0].enterText("Ann")
    menu.names[2].enterText("  Cy ")
    menu._start()
    [choice] = menu.started
    assert choice.names == ("Ann", "Player 2", "Cy")
    assert len(choice.bots) == 3 and choice.bots[0] is None


@pytest.mark.parametrize("names, reason", [
    (["", "Bob"], "seat 1: give the player a name"),
    (["Ann", "Ann"], "seat 2: 'Ann' is seat 1's name too"),
    (["Ann", "B" * 21], "seat 2: 'BBBBBBBBBBBBBBBBBBBBB' is longer than 20 characters"),
])
def test_a_missing_repeated_or_long_name_is_named_on_the_menu(menu, names, reason):
    menu.players.set(menu.players["items"].index("2"))
    for entry, name in zip(menu.names, names):
        entry.enterText(name)
    menu._start()
    assert menu.started == []
    assert menu.message.getText().startswith(reason)


@pytest.mark.parametrize("game", ["tilted", "tower", "tribalance"])
def test_open_lists_cover_no_other_widget_and_stay_in_the_menu(menu, game):
    from balance3d.gui.menu import HALF_HEIGHT, HALF_WIDTH
    menu.game.set(menu.game["items"].index(game))
    counts = get_game(game).player_counts(menu.variant.get())
    menu.players.set(menu.players["items"].index(str(max(counts))))
    assert len(menu.seat_rows) == max(counts)
    others = widgets(menu)
    names = {id(w): n for n, w in [("game", menu.game), ("variant", menu.variant),
                                   ("players", menu.players)]}
    names.update({id(m): f"seat {s + 1} kind" for s, m in enumerate(menu.seats)})
    for option in [menu.game, menu.variant, menu.players, *menu.seats]:
        option.showPopupMenu()
        popup = rect(menu.frame, option.popupMenu, option.popupMenu.getBounds())
        option.hidePopupMenu()
        hit = [n for n, r in others.items() if overlap(popup, r)]
        assert hit == [], f"{names[id(option)]}'s list covers {hit}"
        assert -HALF_WIDTH <= popup[0] and popup[1] <= HALF_WIDTH
        assert -HALF_HEIGHT <= popup[2] and popup[3] <= HALF_HEIGHT
    for a, ra in others.items():          # and the widgets themselves do not overlap
        for b, rb in others.items():
            assert a >= b or not overlap(ra, rb), (a, b)
