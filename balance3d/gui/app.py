"""The window's wiring (Panda3D): one frame task advances the session, draws its
bodies and trays, carries the drop gesture under the mouse and writes the HUD;
mouse and keys are bound to the gesture, the camera, the session and the widgets.

Every rule question goes to the game through the session and the gesture; the app
only turns pointer pixels into world points (a ray through the mouse, met with the
surface under it) and draws what the state says.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from direct.showbase.DirectObject import DirectObject

from balance3d.games.base import GameError, IllegalActionError, action_to_dict
from balance3d.gui import picking, pointing
from balance3d.gui.designer import SLOW_MOTION, DesignerTools
from balance3d.gui.framing import frame_table
from balance3d.gui.gesture import DropGesture, GestureError
from balance3d.gui.games import game_text, worded
from balance3d.gui.hud import hud_text
from balance3d.gui.place_gesture import PlaceGesture, gesture_for
from balance3d.gui.trace import Trace
from balance3d.gui.view.marks import segments
from balance3d.gui.view.table import TableView
from balance3d.gui.widgets import Widgets
from balance3d.physics.world import WorldError

#: Name of the view's overlay outlining the release region under the pointer.
REGION_LAYER = "gesture:region"
#: RGBA of that outline when the release there is legal / refused.
REGION_LEGAL, REGION_REFUSED = (1.0, 0.85, 0.1, 1.0), (0.95, 0.08, 0.05, 1.0)
#: m, how far the outline floats above the region's top.
REGION_LIFT = 0.001


class TableApp(DesignerTools):
    """The window of one game at a time, on the ShowBase ``base``.  Its widgets
keep to the regions of :mod:`balance3d.gui.layout`, and the preset camera frames
the table in the space they leave free.

    save_path : where Ctrl+S saves (the record file, or a default name).
    trace : the ``--trace`` writer.
    """

    def __init__(self, base: Any, save_path: Path, trace: Trace) -> None:
        self.base = base
        self.save_path = save_path
        self.trace = trace
        self.session: Any = None
        self.view: TableView | None = None
        self.gesture: DropGesture | PlaceGesture = DropGesture()
        self.widgets = Widgets(base, self.decide)
        self.designer = False
        self.slow = 0
        self.paused = False
        self.replaying = False
        self._signature: Any = None
        self._moment: Any = None
        self._ghost_key: Any = None
        self._ray_key: Any = None
        self._prompt: str | None = None
        self._ready_key: Any = None
        self._verdict: Any = None
        self._preview: Any = None
        self._size: Any = None
        self._buttons: Any = None
        self._pointer: Any = None
        self.mouse = pointing.CameraMouse(base)
        #: The app's own key and mouse bindings (the ShowBase keeps its own).
        self.events = DirectObject()
        self._bind()
        base.taskMgr.add(self._frame, "balance3d-frame")

    # -- setting up -------------------------------------------------------------
    def _bind(self) -> None:
        keys = {
            "mouse1": self.left_click, "mouse3": lambda: self.mouse.start("orbit"),
            "mouse3-up": self._end_drag, "mouse2": lambda: self.mouse.start("pan"),
            "mouse2-up": self._end_drag, "wheel_up": lambda: self._wheel(1),
            "wheel_down": lambda: self._wheel(-1), "q": lambda: self._turn(1),
            "e": lambda: self._turn(-1), "tab": self._cycle_pose,
            "w": lambda: self._lift(1), "s": lambda: self._lift(-1),
            "page_up": lambda: self._lift(1), "page_down": lambda: self._lift(-1),
            "escape": self._escape, "home": self._reset_camera,
            "control-s": self.save, "control-z": self.undo, "control-r": self.restart,
            "control-q": self.quit, "1": lambda: self._speed(0), "2": lambda: self._speed(1),
            "3": lambda: self._speed(2), "d": self._toggle_designer, "p": self._pause,
            "n": self._single_step, "[": lambda: self._slow(1), "]": lambda: self._slow(-1),
            "v": self._what_if, "space": self.next_action, "arrow_right": self.next_action,
            "f1": self.widgets.toggle_help,
        }
        for key, handler in keys.items():
            everywhere = key in ("control-q", "f1")
            self.events.accept(key, handler if everywhere else self._in_game(handler))

    def _in_game(self, handler: Any) -> Any:
        """``handler``, called only while a game is shown (not over the start menu,
        where the keys type the seed)."""
        def call() -> None:
            if self.session is not None:
                handler()
        return call

    def start(self, session: Any, replaying: bool = False) -> None:
        """Show ``session``'s game (a new, loaded or replayed one)."""
        if self.session is not None:
            self.session.close()
        self.session = session
        self.replaying = replaying
        self.put_back()
        self.gesture = gesture_for(session.state)
        if self.view is not None and self.view.state.name != session.state.name:
            self.view.destroy()
            self.view = None
        if self.view is None:
            self.view = TableView(self.base, session.state)
            self.view.set_designer(self.designer)
        self._signature = self._moment = None
        self._ready_key = None
        self.widgets.end_question()
        self.widgets.clear_log()
        self.widgets.arrange(len(session.state.players))
        self._size = self.widgets.lay.size
        self.widgets.set_hint("replay: Space or Right for the next action   F1 help" if replaying
                              else f"Ctrl+S saves to {self.save_path}   F1 help")
        self._sync_view()
        self._frame_camera()

    # -- the frame --------------------------------------------------------------
    def _frame(self, task: Any) -> Any:
        if self.session is None:
            return task.cont
        dt = self.base.clock.getDt()
        try:
            for text in self.session.tick(dt):
                self.widgets.set_status(text)
        except (GameError, WorldError) as exc:
            self.widgets.set_status(str(exc), alert=True)
        self.refresh()
        return task.cont

    def refresh(self) -> None:
        """Draw the session as it is now (bodies, camera, gesture, HUD), without
        advancing it; a window of a new size is laid out and framed again."""
        size = (self.base.win.getXSize(), self.base.win.getYSize())
        if size != self._size:
            self._size = size
            self.widgets.arrange(len(self.session.state.players))
            self._frame_camera()
        self._sync_view()
        if self.view is not None and self.mouse.follow(self.view):
            self._ready_key = None
        self._update_gesture()
        self._update_hud()
        self._check_preview()
        self._trace_ready()
        self._trace_buttons()
        self._trace_pointer()

    def _sync_view(self) -> None:
        """Rebuild the view when the bodies or the trays changed (a turn ended or
        began), then move every body to its pose now."""
        session, state, view = self.session, self.session.state, self.view
        poses = session.poses()
        # the trays are laid out again only when an action began or ended
        moment = (id(state), len(session.recorder.turns), session.running is not None,
                  len(state.events))
        if moment != self._moment:
            self._moment = moment
            trays = view.table.trays(state)
            signature = (id(state), tuple(sorted(poses)),
                         tuple((t.seat, t.pieces) for t in trays))
            if signature != self._signature:
                self._signature = signature
                reframe = view.camera.at_reset()
                view.rebuild(state)
                if reframe:
                    self._frame_camera()
                self._ghost_key = None
                if self.gesture.holding and self.gesture.holding not in state.legal_pieces():
                    self.put_back()
        view.set_poses(poses)
        if self.designer:
            view.show_forces(state.world.contacts())
        else:
            view.hide_forces()

    def _update_gesture(self) -> None:
        """Carry the held piece to where the mouse points and show its ghost (red
        with the reason when the game refuses that drop) and its landing mark."""
        view, state = self.view, self.session.state
        if self.gesture.holding is None:
            return
        ray = pointing.mouse_ray(self.base)
        ray_key = None if ray is None else (tuple(ray[0]), tuple(ray[1]), self._moment)
        if ray is not None and ray_key != self._ray_key:
            self._ray_key = ray_key
            hit = self.surface_hit(*ray)
            if hit is not None:
                self.gesture.move(hit[0], hit[1])
        key = (self.gesture.holding, self.gesture.action())
        if key == self._ghost_key:
            return
        self._ghost_key = key
        ok, reason = self.gesture.check(state)
        part = state.piece_part(self.gesture.holding)
        view.show_ghost(part, self.gesture.ghost_pose(state), ok, held=self.gesture.holding)
        view.show_marker(self.gesture.landing_point(state))
        self._show_region(ok)
        self.widgets.set_readout(self.gesture.readout(state))
        if ok:
            held = game_text(state.name).piece_name(state, self.gesture.holding)
            self.widgets.set_status(f"{held}: click to release, Esc puts it back")
        else:
            self.widgets.set_status(reason, alert=True)

    def _update_hud(self) -> None:
        hud = hud_text(self.session)
        state = self.session.state
        colour = None if state.is_over \
            else self.view.table.seat_colour(state, state.current_player)
        self.widgets.show_hud(hud.title, hud.seats, hud.prompt, hud.verdict, hud.log, colour,
                              hud.result)
        self.widgets.set_decisions([] if self.replaying else hud.decisions)
        verdict = self.session.last_verdict
        if verdict is not None and verdict is not self._verdict:
            self._verdict = verdict
            self.trace.write("verdict", verdict=verdict.to_dict())
        if hud.prompt != self._prompt:
            self._prompt = hud.prompt
            self.trace.write("hud", title=hud.title, prompt=hud.prompt)
        if self.designer:
            clock = self.session.clock
            self.widgets.set_designer(
                f"designer  speed {self.session.speed}  x{SLOW_MOTION[self.slow]:g}"
                f"{'  PAUSED' if self.paused else ''}  behind {clock.behind:.2f} s")
        else:
            self.widgets.set_designer("")

    def _trace_ready(self) -> None:
        """Trace the camera, lens and tray pixels once each time a person is to act."""
        session, state = self.session, self.session.state
        if not session.human_to_act() or session.running is not None:
            return
        key = (len(session.recorder.turns), state.turn, str(state.phase), state.current_player)
        if key == self._ready_key:
            return
        self._ready_key = key
        pieces = {}
        for name, (centre, _, _) in self.view.pick_boxes(state).items():
            pixel = self.view.project(centre)
            if pixel is not None:
                pieces[name] = [float(pixel[0]), float(pixel[1])]
        regions = {name: [r.x, r.y, r.w, r.h] for name, r in self.widgets.lay.regions.items()}
        self.trace.write("ready", **self.camera_fields(), pieces=pieces,
                         legal=state.legal_pieces(), buttons=self.widgets.button_pixels(),
                         turns=len(session.recorder.turns), phase=str(state.phase),
                         regions=regions)

    def _trace_pointer(self) -> None:
        """Trace the mouse pixel when it moved since the last frame: this frame's
        gesture and widgets have seen it there."""
        watcher = self.base.mouseWatcherNode    # None offscreen: no mouse to trace
        if watcher is not None and watcher.hasMouse():
            pointer = pointing.pointer_pixel(self.base)
            if pointer != self._pointer:
                self._pointer = pointer
                self.trace.write("pointer", pointer=pointer)

    def _trace_buttons(self) -> None:
        """Trace the buttons shown (decisions, and a question's answers) once they
        changed and a frame has been drawn with them (they take clicks from then)."""
        shown = {"decisions": self.widgets.button_pixels() if not self.widgets.question
                 else {}, "confirm": self.widgets.confirm_pixels()}
        frame = self.base.clock.getFrameCount()
        if self._buttons is None or self._buttons[0] != shown:
            self._buttons = (shown, frame, False)
        elif not self._buttons[2] and frame > self._buttons[1] + 1:
            self._buttons = (shown, frame, True)
            self.trace.write("buttons", **shown)

    def camera_fields(self) -> dict[str, Any]:
        """The camera and lens as the trace gives them (:func:`pointing.camera_fields`)."""
        return pointing.camera_fields(self.base)

    def surface_hit(self, origin: np.ndarray, direction: np.ndarray) -> np.ndarray | None:
        """Where the ray meets the table's surface (:func:`pointing.surface_hit`)."""
        return pointing.surface_hit(self.session.state, origin, direction)

    # -- the gesture --------------------------------------------------------------
    def left_click(self) -> None:
        """Pick the tray piece under the mouse, or release the held one."""
        self.trace.write("click", pointer=pointing.pointer_pixel(self.base))
        session = self.session
        if session is None or self.replaying:
            return
        if not session.human_to_act() or session.running is not None:
            self.widgets.set_status("wait: it is not a person's turn", alert=True)
            return
        state = session.state
        pointer = pointing.pointer_pixel(self.base)
        if self.widgets.covers(*pointer) or self.widgets.question is not None:
            return                      # the widget's click, never the table's
        if self.gesture.holding is None:
            ray = pointing.mouse_ray(self.base)
            piece = picking.pick(*ray, self.view.pick_boxes(state)) if ray else None
            if piece is None:
                return
            try:
                self.gesture.pick(state, piece)
            except GestureError as exc:
                self._refuse(str(exc))
                return
            self.trace.write("picked", piece=piece, pointer=pointer)
            self._ghost_key = self._ray_key = None
            return
        self._update_gesture()          # the release is where the pointer is now
        ok, reason = self.gesture.check(state)
        if not ok:
            self._refuse(reason, self.gesture.action())
            return
        drop = self.gesture.release(state)
        self.view.hide_ghost()
        self.view.hide_marker()
        self.view.clear_overlay(REGION_LAYER)
        self.trace.write("release", pointer=pointing.pointer_pixel(self.base),
                         action=action_to_dict(drop))
        self.submit(drop)

    def _show_region(self, ok: bool) -> None:
        """Outline the release region under the pointer (a place gesture's field),
        in the refusal colour when the game refuses the release there."""
        region = self.gesture.region() if isinstance(self.gesture, PlaceGesture) else None
        if region is None:
            self.view.clear_overlay(REGION_LAYER)
            return
        z = region["top_z"] + REGION_LIFT
        ring = [(x, y, z) for x, y in region["polygon"]]
        segments(self.view.overlay(REGION_LAYER), "outline",
                 list(zip(ring, ring[1:] + ring[:1])), REGION_LEGAL if ok else REGION_REFUSED,
                 thickness=3.0)

    def _refuse(self, reason: str, action: Any = None) -> None:
        shown = worded(self.session.state, reason)
        self.widgets.set_status(shown, alert=True)
        fields = {"action": action_to_dict(action)} if action is not None else {}
        self.trace.write("refused", reason=shown.reason, pointer=pointing.pointer_pixel(self.base),
                         **fields)

    def submit(self, action: Any) -> None:
        """Hand a person's action to the session (a refusal is shown, not raised)."""
        try:
            self.session.submit(action)
        except IllegalActionError as exc:
            self._refuse(exc.reason, action)

    def decide(self, action: Any) -> None:
        """A decision button was clicked: played at once, or, when the game says
        it ends the player's game, asked first (Yes plays it, No or Esc does not)."""
        session = self.session
        if session is None or not session.human_to_act() or self.widgets.question is not None:
            return
        question = game_text(session.state.name).confirm(session.state, action)
        if question is None:
            self.submit(action)
            return
        self.put_back()

        def yes() -> None:
            self.widgets.end_question()
            self.trace.write("answered", question=question, yes=True)
            self.submit(action)

        self.widgets.ask(question, yes, self._answer_no)
        self.trace.write("asked", question=question, action=action_to_dict(action),
                         buttons=self.widgets.confirm_pixels())

    def _answer_no(self) -> None:
        question = self.widgets.question
        self.widgets.end_question()
        self.trace.write("answered", question=question, yes=False)

    def _escape(self) -> None:
        """Esc: answers No to a question, else puts the held piece back."""
        if self.widgets.question is not None:
            self._answer_no()
        else:
            self.put_back()

    def put_back(self) -> None:
        """Put the held piece (if any) back in its tray."""
        if self.gesture.holding is not None:
            self.trace.write("put back", piece=self.gesture.holding)
        self.gesture.cancel()
        self._ghost_key = None
        if self.view is not None:
            self.view.hide_ghost()
            self.view.hide_marker()
            self.view.clear_overlay(REGION_LAYER)
        self.widgets.set_status("")
        self.widgets.set_readout("")

    def _turn(self, steps: int) -> None:
        self.gesture.turn(steps)

    def _cycle_pose(self) -> None:
        self.gesture.cycle_pose()

    def _lift(self, steps: int) -> None:
        self.gesture.lift(steps)

    def _wheel(self, steps: int) -> None:
        if self.gesture.holding is not None:
            self.gesture.turn(steps)
        elif self.view is not None:
            self.mouse.zoom(self.view, steps)
            self._ready_key = None

    # -- the camera ---------------------------------------------------------------
    def _end_drag(self) -> None:
        if self.mouse.end() and self.gesture.holding is not None:
            self.put_back()

    def _reset_camera(self) -> None:
        if self.view is not None:
            self.mouse.reset(self.view)
            self._ready_key = None

    def _frame_camera(self) -> None:
        """Fit the preset camera to the table in the layout's free area, and reset
        the camera there."""
        if self.view is not None and self.session is not None:
            frame_table(self.view, self.session.state, self.widgets.lay)
            self._reset_camera()

    # -- the session ----------------------------------------------------------------
    def save(self) -> None:
        """Save the game (a turn boundary only; the reason is shown otherwise)."""
        if self.session is None or self.replaying:
            return
        try:
            self.session.save(self.save_path)
        except (GameError, OSError) as exc:
            self.widgets.set_status(f"not saved: {exc}", alert=True)
            return
        self.widgets.set_status(f"saved to {self.save_path}")
        self.trace.write("saved", path=str(self.save_path))

    def undo(self) -> None:
        if self.session is None or self.replaying:
            return
        if not self.session.can_undo():
            self.widgets.set_status("nothing to undo: no action of a person yet", alert=True)
            return
        self.put_back()
        self.session.undo()
        self._ready_key = None

    def restart(self) -> None:
        if self.session is None or self.replaying:
            return
        self.put_back()
        autosave = self.session.record_path
        self.session.restart()
        if autosave is not None and self.session.record_path != autosave:
            self.save_path = self.session.record_path
            self.widgets.set_hint(f"Ctrl+S saves to {self.save_path}   F1 help")
            self.widgets.set_status(f"the last game stays in {autosave}; this one is saved "
                                    f"to {self.save_path}")
        self._ready_key = None

    def next_action(self) -> None:
        """Replay: show the next recorded turn."""
        if self.replaying and self.session.running is None:
            if not self.session.next_action():
                self.widgets.set_status("the record has no more actions")

    def quit(self) -> None:
        """Close the window (the session stops its worker; the trace ends)."""
        self.trace.write("quit")
        self.base.taskMgr.stop()

    def close(self) -> None:
        """Stop the session's worker and end the trace."""
        if self.session is not None:
            self.session.close()
            self.session = None
        self.trace.close()

    def destroy(self) -> None:
        """Close, and take the app off its ShowBase: its frame task, its keys, the
        widgets and the view (the ShowBase itself stays)."""
        self.close()
        self.base.taskMgr.remove("balance3d-frame")
        self.events.ignoreAll()
        self.widgets.destroy()
        if self.view is not None:
            self.view.destroy()
            self.view = None


def default_save_path(game: str, seed: int) -> Path:
    """``balance3d-<game>-seed<seed>-<local time>.json`` in the current folder."""
    return Path(f"balance3d-{game}-seed{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json")
