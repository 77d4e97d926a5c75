"""Readable text on the table, measured in offscreen renders with the camera fitted
as the window fits it (:func:`balance3d.gui.framing.frame_table` into the free area
of :func:`balance3d.gui.layout.layout` for the window's size and seat count), with
:mod:`balance3d.gui.view.legibility` (glyphs are the pixels that differ with and
without the labels): every painted number, name and weight is tall enough and
contrasts with the table round it by at least WCAG AA's 4.5:1.  Tilted's value for
the centre sections, too short for a digit, is written on the table in front of
the fulcrum.  Every label meets both figures at both window sizes: none is
excused."""
from __future__ import annotations

import pytest

from balance3d.games import new_game
from balance3d.games.tribalance.rules import piece_weight

#: WCAG AA's least contrast ratio for text.
WCAG_AA = 4.5
#: pixels, the least glyph height at each window size.
MIN_HEIGHT = {(1280, 720): 14.0, (800, 600): 11.0}
#: Seats each game is drawn with (the most its trays hold).
SEATS = {"tilted": 4, "tower": 4, "tribalance": 3}


def measured(game: str, size: tuple[int, int]):
    """The game's new state and its labels' readings, the camera fitted to the free
    area of a ``size`` (width, height) px window as the window fits it."""
    from balance3d.gui.framing import frame_table
    from balance3d.gui.layout import layout
    from balance3d.gui.view.legibility import read_labels
    from balance3d.gui.view.offscreen import offscreen_base
    from balance3d.gui.view.table import TableView

    base = offscreen_base(size)
    state = new_game(game, SEATS[game], seed=0)
    view = TableView(base, state)
    try:
        frame_table(view, state, layout(size[0], size[1], len(state.players)))
        return state, read_labels(view)
    finally:
        view.destroy()


@pytest.mark.parametrize("size", sorted(MIN_HEIGHT))
@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_label_contrasts_and_names_and_numbers_are_tall_enough(game, size):
    state, readings = measured(game, size)
    names = {p.name for p in state.players}
    assert names <= {r.text for r in readings}                # every seat's name is drawn
    seen = [r for r in readings if r.pixels]
    assert seen
    short = [(r.group, r.text, round(r.height, 1)) for r in seen
             if r.height < MIN_HEIGHT[size]]
    faint = [(r.group, r.text, round(r.contrast, 2)) for r in seen if r.contrast < WCAG_AA]
    assert not short, (game, size, short)
    assert not faint, (game, size, faint)


def test_tri_ba_lance_weights_read_on_every_seat_colour():
    # a weight digit on each seat's darkest (weight 5) and lightest piece
    state, readings = measured("tribalance", (1280, 720))
    digits = [r for r in readings if r.text.isdigit() and r.pixels]
    weights = {str(piece_weight(p)) for s in range(3) for p in state.hand(s)}
    assert weights <= {r.text for r in digits}
    assert min(r.contrast for r in digits) >= WCAG_AA


def test_a_two_player_tower_shows_only_the_bases_of_seats_that_play():
    from balance3d.gui.view.offscreen import offscreen_base
    from balance3d.gui.view.table import TableView

    state = new_game("tower", 2, seed=0)
    view = TableView(offscreen_base((640, 360)), state)
    try:
        bases = sorted(n for n in view.names if n.startswith("base_"))
        assert bases == ["base_0", "base_1", "base_2", "base_3"]     # the scene's four
        shown = [n for n in bases if not view.node(n).isHidden()]
        assert shown == [state.base(0), state.base(1)]
    finally:
        view.destroy()
