"""The window's layout on the real widgets, offscreen: each game at 1280x720 and
800x600, at the start, holding a piece, at each kind of decision (and its
question), after a refusal and at the end.  Every widget's pixel rectangle and its
text's ink are read from the widgets, and the table's bodies, tray pieces and
marks (mats, fields, labels) are projected through the real lens; then:

- no two widgets overlap, and each lies inside the window;
- every text's ink lies inside its widget (so inside the window and its region);
- nothing of the table lies under a widget: all of it projects into the free area;
- the table spans at least :data:`FILL` of the free area's width or height.
"""
from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest

from balance3d import record as rec
from balance3d.bots import make_bot
from balance3d.games import Drop, Pass, Place, new_game
from balance3d.games.base import Player
from balance3d.gui.games import game_text
from balance3d.gui.layout import ELLIPSIS, Rect

#: Window sizes checked (width, height px).
SIZES = [(1280, 720), (800, 600)]
#: Least share of the free area's width or height the table's projection spans.
FILL = 0.6
#: px a glyph's ink may stray past its box (antialiasing of the font's bounds).
INK_SLACK = 0.5
#: Actions the random bots may play to reach a moment.
MOST_ACTIONS = 400
#: The games: (name, seats, seed).
GAMES = [("tilted", 3, 2), ("tribalance", 3, 2), ("tower", 4, 0)]
#: A refusal longer than the message line holds (it must end in an ellipsis).
LONG = ("this text is far longer than the message line under the table can hold, so the "
        "window has to shorten it with an ellipsis and keep the whole of it in the log "
        "where the player can read it all: ") * 3


@pytest.fixture(scope="module")
def base():
    from balance3d.gui.view.offscreen import offscreen_base

    return offscreen_base(SIZES[0])


def session_at(game, seats, seed, until, folder):
    """A session of people at the first moment ``until(state)`` holds, reached by
    random bots, loaded from its record as the window loads one."""
    from balance3d.gui.session import Session

    players = [Player(s, f"Player {s + 1}", None) for s in range(seats)]
    state = new_game(game, players=players, seed=seed)
    recorder = rec.Recorder(state)
    bots = [make_bot("random", seed, s) for s in range(seats)]
    for _ in range(MOST_ACTIONS):
        if until(state) or state.is_over:
            break
        recorder.apply(bots[state.current_player].choose(state))
    assert until(state), f"{game}: the moment was not reached in {MOST_ACTIONS} actions"
    path = folder / f"{game}-{len(recorder.turns)}.json"
    rec.write_record(recorder.record(), path)
    return Session.load(path, bots=[None] * seats, speed="instant")


def projected_box(view, corners) -> list[tuple[float, float]]:
    pixels = [view.project(c) for c in corners]
    assert all(p is not None for p in pixels), "part of the table is outside the view"
    return pixels


def check(app, moment):
    """The layout's promises on the app's window as it is drawn now."""
    from balance3d.gui.framing import mark_boxes, table_points

    app.refresh()
    widgets, view, state = app.widgets, app.view, app.session.state
    width, height = view.frame_size()
    window = Rect(0, 0, width, height)
    lay = widgets.lay
    rects = widgets.widget_rects()
    assert rects, moment
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not ra.overlaps(rb), f"{moment}: {a} {ra} overlaps {b} {rb}"
    for name, rect in rects.items():
        assert rect.inside(window), f"{moment}: {name} {rect} leaves the window"
        region = name.split(":")[0]
        home = lay.regions["bar" if region == "button" else region]
        assert rect.inside(home), f"{moment}: {name} {rect} leaves its region {home}"
    inks = widgets.text_rects()
    for name, ink in inks.items():
        assert ink.inside(rects[name], INK_SLACK), f"{moment}: {name}'s text {ink} " \
                                                   f"leaves its widget {rects[name]}"
    # the table, as the real lens draws it, lies in the free area, under no widget
    assert view.camera.at_reset(), moment
    points = table_points(state, view.pick_boxes(state), mark_boxes(view))
    pixels = np.array(projected_box(view, points))
    for px, py in pixels:
        assert lay.free.contains(px, py), f"{moment}: the table at pixel {(px, py)} " \
                                          f"leaves the free area {lay.free}"
        assert widgets.lay.region_at(px, py) is None, moment
    span = pixels.max(axis=0) - pixels.min(axis=0)
    assert span[0] >= FILL * lay.free.w or span[1] >= FILL * lay.free.h, \
        f"{moment}: the table spans {span} px of the free area {lay.free}"
    return rects


def refusal(state):
    """An action the game refuses now (a placement on a field that does not exist,
    a drop far off the table), and the game's reason."""
    piece = state.legal_pieces()[0]
    action = Place(piece, 10_000) if "place" in state.game.action_types \
        else Drop(piece, 5.0, 5.0, 0.01)
    ok, reason = state.is_legal(action)
    assert not ok and reason
    return action, reason


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game, seats, seed", GAMES, ids=[g[0] for g in GAMES])
def test_no_widget_overlaps_another_or_the_table(base, tmp_path, monkeypatch, size, game,
                                                 seats, seed):
    from balance3d.gui import pointing
    from balance3d.gui.app import TableApp
    from balance3d.gui.hud import _decisions
    from balance3d.gui.trace import Trace
    from balance3d.gui.view.offscreen import offscreen_base

    offscreen_base(size)
    # an offscreen buffer has no mouse: the held piece stays where the pick put it
    monkeypatch.setattr(pointing, "mouse_ray", lambda base: None)
    monkeypatch.setattr(pointing, "pointer_pixel", lambda base: [0, 0])
    app = TableApp(base, tmp_path / "saved.json", Trace(tmp_path / "trace.jsonl"))
    try:
        # the start: nothing asked but a piece
        app.start(session_at(game, seats, seed, lambda s: True, tmp_path))
        app.widgets.set_hint(f"Ctrl+S saves to {tmp_path / 'a-long-file-name-for-the-record.json'}"
                             "   F1 help")
        check(app, "start")
        # the banner speaks in the colour of the seat to act (lightened on its panel)
        from balance3d.gui.widgets import LIGHTEN
        seat = app.session.state.current_player
        colour = importlib.import_module(f"balance3d.gui.games.{game}.table").SEAT_COLOURS[seat]
        ink = app.widgets.labels["banner"].textNode.getTextColor()
        assert list(ink)[:3] == pytest.approx([c + (1 - c) * LIGHTEN for c in colour[:3]],
                                              abs=1e-6)
        # holding a piece: its readout shows
        state = app.session.state
        piece = state.legal_pieces()[0]
        app.gesture.pick(state, piece)
        app._ghost_key = None
        rects = check(app, "holding")
        if game != "tribalance":
            assert "readout" in rects and "mm up" in app.widgets.text("readout")
        # a refusal by the game, then one too long for the message line
        action, reason = refusal(state)
        app.submit(action)
        assert app.widgets.text("message") == game_text(game).refusal(state, reason)
        check(app, "refusal")
        app.widgets.set_status(LONG, alert=True)
        check(app, "long refusal")
        assert app.widgets.labels["message"].getText().endswith(ELLIPSIS)
        assert " ".join(LONG.split()) in app.widgets.notes
        app.put_back()
        # each kind of decision the game has
        app.start(session_at(game, seats, seed, lambda s: len(_decisions(s)) >= 2
                             or Pass() in _decisions(s), tmp_path))
        rects = check(app, "decision")
        labels = [label for label, _ in app.widgets._decisions]
        assert [f"button:{label}" for label, _ in app.widgets._decisions] == \
            [name for name in rects if name.startswith("button:")]
        if Pass() in _decisions(app.session.state):
            app.decide(Pass())
            rects = check(app, "question")
            assert app.widgets.question is not None
            assert not any(name.startswith("button:") for name in rects)
            assert {"confirm:Yes", "confirm:No, go back"} <= set(rects)
            # the answers are shown whole
            assert [b["text"] for b in app.widgets.confirm_buttons] == ["Yes", "No, go back"]
            app._escape()
        assert labels
        # the end
        app.start(session_at(game, seats, seed, lambda s: s.is_over, tmp_path))
        check(app, "end")
        # the verdict panel shows the game's result, in the game's own words
        result = game_text(game).result_lines(app.session.state, app.session.record())
        assert result and app.widgets.text("verdict") == "\n".join(result)
    finally:
        app.destroy()


@pytest.mark.parametrize("size", [(1920, 1080), (2560, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game, seats, seed", GAMES, ids=[g[0] for g in GAMES])
def test_wide_windows_frame_the_table_clear_of_the_widgets(base, tmp_path, size, game, seats,
                                                           seed):
    from balance3d.gui.app import TableApp
    from balance3d.gui.trace import Trace
    from balance3d.gui.view.offscreen import offscreen_base

    offscreen_base(size)
    app = TableApp(base, tmp_path / "saved.json", Trace(tmp_path / "trace.jsonl"))
    try:
        app.start(session_at(game, seats, seed, lambda s: True, tmp_path))
        check(app, f"start at {size}")
    finally:
        app.destroy()


def test_a_click_on_a_widget_never_picks_the_piece_behind_it(base, tmp_path, monkeypatch):
    """The camera panned so that a tray piece lies under the seat panel: a click
    there picks nothing, though the ray through it meets the piece; the same piece
    clicked in the free area is picked."""
    import math

    from balance3d.gui import picking, pointing
    from balance3d.gui.app import TableApp
    from balance3d.gui.trace import Trace
    from balance3d.gui.view.offscreen import offscreen_base

    offscreen_base(SIZES[0])
    app = TableApp(base, tmp_path / "saved.json", Trace(tmp_path / "trace.jsonl"))
    pointer = [0.0, 0.0]

    def ray(_base):
        fields = pointing.camera_fields(base)
        width, height = fields["size"]
        mouse = (pointer[0] / width * 2.0 - 1.0, 1.0 - pointer[1] / height * 2.0)
        return picking.camera_ray(tuple(fields["camera"]["pos"]), fields["camera"]["quat"],
                                  tuple(fields["fov"]), mouse)

    monkeypatch.setattr(pointing, "mouse_ray", ray)
    monkeypatch.setattr(pointing, "pointer_pixel", lambda _base: [int(v) for v in pointer])
    try:
        app.start(session_at("tilted", 3, 2, lambda s: True, tmp_path))
        app.refresh()
        state, view = app.session.state, app.view
        piece = state.legal_pieces()[0]
        centre = view.pick_boxes(state)[piece][0]
        seats = app.widgets.lay.regions["seats"]
        target = (seats.x + seats.w / 2.0, seats.y + seats.h / 2.0)
        cam = view.camera
        for _ in range(40):                     # pan until the piece is under the panel
            cam.apply(base.camera, base.camLens)
            px, py = view.project(centre)
            ex, ey = target[0] - px, target[1] - py
            if abs(ex) < 0.5 and abs(ey) < 0.5:
                break
            metres = 2.0 * cam.distance * math.tan(math.radians(base.camLens.getFov()[1]) / 2.0) \
                / view.frame_size()[1]
            cam.pan(-ex * metres, ey * metres)
        pointer[:] = [round(v) for v in view.project(centre)]
        assert app.widgets.lay.region_at(*pointer) == "seats"
        assert picking.pick(*ray(base), view.pick_boxes(state)) == piece   # it is behind
        app.left_click()
        assert app.gesture.holding is None
        # back at the preset, the same piece is in the free area, and a click picks it
        app._reset_camera()
        pointer[:] = [round(v) for v in view.project(centre)]
        assert app.widgets.lay.region_at(*pointer) is None
        app.left_click()
        assert app.gesture.holding == piece
    finally:
        app.destroy()
