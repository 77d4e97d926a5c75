"""The window's speed keys and designer tools (D), mixed into
:class:`~balance3d.gui.app.TableApp`: the speed of bots and physics (1 / 2 / 3),
pause (P), single step (N), slow motion ([ ]) and the what-if verdict (V) of the
held drop, computed off-thread."""
from __future__ import annotations

from typing import Any

from balance3d.games.base import GameError, action_to_dict
from balance3d.gui.games import game_text
from balance3d.gui.session import SPEED_NAMES, SPEEDS
from balance3d.physics.world import WorldError

#: slow motion factors offered by [ and ] (simulated seconds per wall second).
SLOW_MOTION = (1.0, 0.5, 0.25, 0.125, 0.0625)


class DesignerTools:
    """Speeds and the designer's tools of a :class:`~balance3d.gui.app.TableApp`
    (which gives ``session``, ``view``, ``widgets``, ``gesture``, ``trace`` and
    the ``designer``, ``slow``, ``paused`` and ``_preview`` fields)."""

    session: Any
    view: Any
    widgets: Any
    gesture: Any
    trace: Any
    designer: bool
    slow: int
    paused: bool
    _preview: Any

    def _speed(self, index: int) -> None:
        if self.session is not None:
            self.session.speed = SPEED_NAMES[index]
            self._apply_clock()

    def _apply_clock(self) -> None:
        """The session's clock runs at its speed's rate times the slow motion
        factor, or not at all when paused (designer tools only; "instant" turns
        are not paced)."""
        if self.session is None or self.session.speed not in SPEEDS:
            return
        factor = SLOW_MOTION[self.slow] if self.designer else 1.0
        paused = self.paused and self.designer
        self.session.clock.speed = 0.0 if paused else SPEEDS[self.session.speed] * factor

    def _toggle_designer(self) -> None:
        self.designer = not self.designer
        self._apply_clock()
        if self.view is not None:
            self.view.set_designer(self.designer)
            if not self.designer:
                self.view.hide_forces()
        self.widgets.set_status("designer tools " + ("on" if self.designer else "off"))

    def _pause(self) -> None:
        if self.designer:
            self.paused = not self.paused
            self._apply_clock()

    def _single_step(self) -> None:
        """N: one physics step of a paused turn (designer), else in a replay the
        next recorded action."""
        if self.session is None:
            return
        if self.designer and self.paused:
            self.session.single_step()
        elif self.replaying:
            self.next_action()

    def _slow(self, change: int) -> None:
        if self.designer:
            self.slow = min(len(SLOW_MOTION) - 1, max(0, self.slow + change))
            self._apply_clock()

    def _what_if(self) -> None:
        """Designer: the verdict the held drop would get, computed off-thread."""
        if not self.designer or self.gesture.holding is None:
            return
        ok, reason = self.gesture.check(self.session.state)
        if not ok:
            self.widgets.set_status(f"what if: refused: {reason}", alert=True)
            return
        action = self.gesture.action()
        self._preview = (action, self.session.preview(action))
        self.widgets.set_status("what if: simulating the drop ...")

    def _check_preview(self) -> None:
        if self._preview is None or not self._preview[1].done():
            return
        action, future = self._preview
        self._preview = None
        try:
            verdict = future.result()
        except (GameError, WorldError) as exc:
            self.widgets.set_status(f"what if: {exc}", alert=True)
            return
        lines = game_text(self.session.state.name).verdict_lines(verdict)
        self.widgets.set_status("what if: " + "  ".join(lines))
        self.trace.write("preview", action=action_to_dict(action), verdict=verdict.to_dict())


__all__ = ["DesignerTools", "SLOW_MOTION"]
