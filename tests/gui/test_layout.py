"""The window's layout maths (no Panda3D): regions worked out by hand for one window,
no two regions overlapping at the window sizes players use, text wrapped and
shortened with an ellipsis, buttons flowing in the bar's rows without overlapping."""
import itertools

import pytest

from balance3d.gui.layout import ELLIPSIS, Rect, bar_buttons, fit_lines, fit_text, layout, wrap

#: Window sizes the layout must hold at (width, height px).
SIZES = [(800, 600), (1280, 720), (1920, 1080), (2560, 1080), (1280, 800)]


def mono(text: str) -> float:
    """A monospaced font: every character 0.5 em wide."""
    return 0.5 * len(text)


def test_rect_overlap_needs_a_shared_area_and_touching_edges_do_not_count():
    a = Rect(0, 0, 10, 10)
    assert a.overlaps(Rect(9, 9, 5, 5))
    assert not a.overlaps(Rect(10, 0, 5, 5))          # touching on the right edge
    assert not a.overlaps(Rect(0, 10, 10, 5))         # touching below
    assert a.contains(10, 10) and not a.contains(10.5, 3)
    assert Rect(2, 2, 3, 3).inside(a) and not Rect(8, 8, 3, 3).inside(a)
    assert a.inset(2) == Rect(2, 2, 6, 6)


def test_the_regions_of_a_1000_by_800_window_worked_by_hand():
    # em = 0.0225 * 800 = 18 px; pad 7.2, gap 5.4; the left column is 0.22 * 1000 =
    # 220 px, within 15 em = 270 px and 26 em: so 270 px.
    lay = layout(1000, 800, seats=2)
    assert lay.em == pytest.approx(18.0)
    r = lay.regions
    # banner: 3 lines of 18 px and 2 pads = 68.4 px; the confirm region 20 em = 360 px
    assert r["banner"] == Rect(0, 0, pytest.approx(1000 - 360 - 5.4), pytest.approx(68.4))
    assert r["confirm"].x == pytest.approx(640) and r["confirm"].w == pytest.approx(360)
    # message: 2 lines = 50.4 px at the bottom, from the column (270 px) to the readout
    # (13 em = 234 px wide, a gap before it)
    assert (r["message"].x, r["message"].y) == (pytest.approx(270), pytest.approx(749.6))
    assert r["message"].w == pytest.approx(1000 - 270 - 234 - 5.4)
    # bar: 3 rows of 1.7 em (30.6 px) and 4 gaps = 113.4 px, above the message and a gap
    assert r["bar"].h == pytest.approx(113.4)
    assert r["bar"].bottom == pytest.approx(749.6 - 5.4)
    # seats: 2 seats x 4 lines = 158.4 px, below the banner and a gap
    assert r["seats"] == Rect(0, pytest.approx(73.8), pytest.approx(264.6), pytest.approx(158.4))
    # the left column's bottom: the hint (3 lines), the designer's line (2) above it
    assert r["hint"].h == pytest.approx(3 * 18 + 14.4) and r["hint"].bottom == 800
    assert r["designer"].bottom == pytest.approx(800 - 68.4 - 5.4)
    # the free area: right of the column, between the banner and the bar
    assert lay.free.x == pytest.approx(270) and lay.free.y == pytest.approx(73.8)
    assert lay.free.bottom == pytest.approx(r["bar"].y - 5.4)
    assert lay.free.right == 1000


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_no_two_regions_overlap_and_all_lie_in_the_window(size, seats):
    lay = layout(*size, seats=seats)
    window = Rect(0, 0, *size)
    rects = {**lay.regions, "free": lay.free}
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not ra.overlaps(rb), (size, seats, a, ra, b, rb)
    for name, rect in rects.items():
        assert rect.inside(window), (name, rect)
        assert rect.h > 0 and rect.w > 0, (name, rect)
    # every text region holds at least its one line; the log at least three
    assert lay.lines("log") >= 3
    assert lay.region_at(lay.free.x + 1, lay.free.y + 1) is None
    assert lay.region_at(1, 1) == "banner"


def test_wrap_breaks_at_spaces_and_splits_a_word_longer_than_a_line():
    # 5 em lines hold 10 characters
    assert wrap("aaa bbb ccc dddd", 5.0, mono) == ["aaa bbb", "ccc dddd"]
    assert wrap("abcdefghijklmnopqrstuvwxy", 5.0, mono) == ["abcdefghij", "klmnopqrst",
                                                            "uvwxy"]
    assert wrap("one\ntwo", 5.0, mono) == ["one", "two"]


def test_a_text_that_needs_more_lines_ends_in_an_ellipsis_within_the_width():
    lines, short = fit_text("aaa bbb ccc ddd eee fff", 4.0, 2, mono)
    # 4 em = 8 characters: "aaa bbb" / "ccc ddd" / "eee fff"; two kept, the last
    # with the ellipsis (8 characters wide at most)
    assert short and lines == ["aaa bbb", "ccc ddd" + ELLIPSIS]
    assert all(mono(line) <= 4.0 for line in lines)
    lines, short = fit_text("aaa bbb", 4.0, 2, mono)
    assert not short and lines == ["aaa bbb"]


def test_the_log_keeps_the_latest_lines_and_marks_an_entry_cut_at_its_start():
    entries = ["first entry here", "second", "third one"]
    # 5 em = 10 characters; 3 lines: "third one", "second", and the first's last line
    # "entry here" behind the ellipsis, losing its start to keep 10 characters
    assert fit_lines(entries, 5.0, 3, mono) == [ELLIPSIS + "ntry here", "second", "third one"]
    assert fit_lines(entries, 5.0, 10, mono) == ["first", "entry here", "second", "third one"]


def test_buttons_flow_in_rows_without_overlapping_inside_the_bar():
    bar = Rect(100, 500, 600, 100)
    # em 20: a button is 34 px tall with 6 px gaps (2 rows fit in 100 px); text is
    # 17 px per em, 12 px padding each side: "Give the penalty to Player 2" is 28
    # characters, 14 em, 238 + 24 = 262 px; two fit in a row of 588 px, not three
    labels = [f"Give the penalty to Player {n}" for n in (2, 3, 4)]
    buttons = bar_buttons(bar, labels, 20.0, mono)
    assert [b.label for b in buttons] == labels
    assert [b.rect.w for b in buttons] == [pytest.approx(262)] * 3
    assert buttons[0].rect.y == buttons[1].rect.y == pytest.approx(506)
    assert buttons[2].rect.y == pytest.approx(546)
    # the first row is centred: 262 + 6 + 262 = 530 px in a 600 px bar
    assert buttons[0].rect.x == pytest.approx(100 + 35)
    for a, b in itertools.combinations(buttons, 2):
        assert not a.rect.overlaps(b.rect)
    assert all(b.rect.inside(bar) for b in buttons)


def test_a_label_keeps_every_letter_when_its_button_is_sized_to_it():
    # widths of a font whose advances are not exact in binary (0.1 em, 0.3 em ...)
    def odd(text):
        return sum(0.1 + 0.2 * (ord(c) % 3) for c in text)

    labels = ["Yes", "No, go back", "Pass (be out)"]
    buttons = bar_buttons(Rect(0, 0, 900, 60), labels, 13.5, odd)
    assert [b.label for b in buttons] == labels


def test_more_buttons_than_rows_share_a_row_and_shorten_their_labels():
    bar = Rect(0, 0, 300, 90)
    labels = [f"a long label number {n}" for n in range(4)]    # 22 characters, 11 em
    buttons = bar_buttons(bar, labels, 20.0, mono)
    # two rows of 34 px and three gaps of 6 px fit in 90 px (86 px); 4 buttons in 2
    # columns of (300 - 12 - 6) / 2 = 141 px; room for (141 - 24) / 17 = 6.9 em of
    # text: 12 characters and the ellipsis
    assert [b.rect.w for b in buttons] == [pytest.approx(141)] * 4
    assert all(b.label.endswith(ELLIPSIS) and mono(b.label) <= (141 - 24) / 17
               for b in buttons)
    assert buttons[0].label == "a long label" + ELLIPSIS
    for a, b in itertools.combinations(buttons, 2):
        assert not a.rect.overlaps(b.rect)
    assert all(b.rect.inside(bar) for b in buttons)
