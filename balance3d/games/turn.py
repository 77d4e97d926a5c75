"""Running turns: an action played one physics step at a time."""
from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import numpy as np

from balance3d.games.actions import Action, action_to_dict

if TYPE_CHECKING:
    from balance3d.games.base import State, Verdict


class Turn:
    """One action being played: :meth:`State.begin` makes it, the caller advances it
    (:meth:`advance` by time steps, :meth:`advance_time` by simulated seconds) and
    reads :meth:`poses` between steps; :attr:`verdict` is None until it is
    :attr:`done`.  Each step is computed when it is asked for.  :meth:`cancel`
    abandons it; an error raised by a step (a :class:`WorldError`) ends it too, with
    the state as it was before the action."""

    def __init__(self, state: State, action: Action) -> None:
        self.state = state
        self.action = action
        self.player = state.current_player
        self.number = state.turn
        self.verdict: Verdict | None = None
        self._steps = state._run(action)
        self._next()

    @property
    def done(self) -> bool:
        """True once the action has ended (its verdict is known)."""
        return self.verdict is not None

    def _next(self) -> None:
        try:
            next(self._steps)
        except StopIteration as end:
            self._finish(end.value)
        except BaseException:
            self.state._turn = None
            raise

    def _finish(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.state._turn = None
        self.state.history.append({"turn": self.number, "player": self.player,
                                   "action": action_to_dict(self.action),
                                   "verdict": verdict.to_dict()})

    def advance(self, steps: int = 1) -> Verdict | None:
        """Run up to ``steps`` physics time steps (fewer when the action ends first);
        returns the verdict once done, else None."""
        for _ in range(steps):
            if self.done:
                break
            self._next()
        return self.verdict

    def advance_time(self, seconds: float) -> Verdict | None:
        """Run ``seconds`` of simulated time (rounded to whole time steps)."""
        step = self.state.world.settings.time_step
        return self.advance(max(0, round(seconds / step)))

    def cancel(self) -> None:
        """Abandon the turn before its end: the World goes back to its state before
        the action, nothing is judged or recorded, and the state takes actions
        again."""
        if self.done:
            return
        self._steps.close()
        self.state._turn = None
        self.state.fresh_world()

    def run(self) -> Verdict:
        """Run to the end; the verdict."""
        while not self.done:
            self._next()
        return self.verdict

    def poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Every body's pose now: name -> (position (3,) m, quaternion xyzw (4,))."""
        world = self.state.world
        return {name: world.pose(name) for name in world.names}


def run_to_end(steps: Generator[Any, None, Any]) -> Any:
    """Run a generator of steps (such as :meth:`World.settling`) to its end; its
    return value."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value
