"""Fixed-step pacing of physics on screen (dm_control ``viewer/runtime.py``): the
physics always advances by whole, fixed time steps; the wall time between frames
(times a speed) only says how many steps are due.

The step never changes with the frame rate, so a turn shown on screen ends in
exactly the verdict it has headless; only *when* steps run depends on the clock.

When frames come too slowly for the physics to keep the clock, the clock **drops
frames**: no simulated time is ever skipped or dropped, the time owed is carried,
and a frame that finds the view more than :data:`MAX_BEHIND` behind the clock runs
every step needed to come back within it before the next frame is drawn (fewer
frames are drawn of that stretch of the turn).  Below that bound a frame runs at
most its per-frame budget, so a short hitch is caught up over a few smooth frames.
The view is therefore never more than :data:`MAX_BEHIND` (plus one step) behind
the clock after a frame's steps, on any machine fast enough to simulate in real
time; the steps run, and so the verdict and the record, are the same at any pace.
"""
from __future__ import annotations

import math

#: Steps run at most per frame while the view is within :data:`MAX_BEHIND` of the
#: clock: 1/10 s of simulated time at the usual 1/240 s step, so a slow frame (a
#: shader compile, a window drag) is caught up over several frames, not in one.
MAX_STEPS_PER_FRAME = 24
#: s of simulated time the view may lag behind the clock; beyond it a frame runs
#: every step owed down to this lag (frames are dropped, simulated time never is).
MAX_BEHIND = 1.0

#: s, tolerance on owed time when counting whole steps, so that floating-point sums
#: of frame times (three frames of 1/720 s owe one 1/240 s step) are not one short.
_STEP_EPSILON = 1e-9


class PhysicsClock:
    """dm_control-style fixed-step pacing: each frame, run the fixed physics steps
    the wall time (times the speed) owes, at most a per-frame budget while the view
    is within ``max_behind`` of the clock, and every step down to that lag beyond it
    (see the module: frames are dropped, simulated time never is).

    time_step : s, the physics time step (the World's, never varied).
    speed : simulated seconds per wall second: 1 real time, <1 slow motion, >1 fast,
        0 paused.
    max_steps_per_frame : the per-frame budget of steps.
    max_behind : s of simulated time the view may lag behind the clock.
    """

    def __init__(self, time_step: float, *, speed: float = 1.0,
                 max_steps_per_frame: int = MAX_STEPS_PER_FRAME,
                 max_behind: float = MAX_BEHIND) -> None:
        if not (math.isfinite(time_step) and time_step > 0):
            raise ValueError(f"time_step must be a positive number of seconds, got {time_step}")
        if not (isinstance(max_steps_per_frame, int) and max_steps_per_frame >= 1):
            raise ValueError(f"max_steps_per_frame must be a whole number >= 1, "
                             f"got {max_steps_per_frame!r}")
        if not (math.isfinite(max_behind) and max_behind >= 0):
            raise ValueError(f"max_behind must be a number of seconds >= 0, got {max_behind}")
        self.time_step = float(time_step)
        self.max_steps_per_frame = max_steps_per_frame
        self.max_behind = float(max_behind)
        self._speed = 0.0
        self.speed = speed
        #: s of simulated time owed but not yet stepped: how far the view is behind
        #: the clock (below one step while physics keeps up; a turn begins at 0).
        self.carry = 0.0
        #: s, the most :attr:`behind` was after a frame's steps since the clock was
        #: made (or :meth:`reset`).
        self.most_behind = 0.0
        #: s of simulated time run since the clock was made (or :meth:`reset`).
        self.simulated = 0.0

    @property
    def speed(self) -> float:
        """Simulated seconds per wall second (0 = paused)."""
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"speed must be a number >= 0 (0 pauses), got {value}")
        self._speed = float(value)

    @property
    def behind(self) -> float:
        """s of simulated time the view is behind the clock now (the time owed)."""
        return self.carry

    @property
    def paused(self) -> bool:
        """True when the speed is 0."""
        return self._speed == 0.0

    def steps_due(self, frame_dt: float) -> int:
        """Steps to run now, ``frame_dt`` wall seconds after the last frame: the owed
        simulated time (``frame_dt * speed`` plus what was carried) in whole time
        steps, at most ``max_steps_per_frame`` unless more is needed to leave at
        most ``max_behind`` owed; what is not run now is carried to the next frame
        (:attr:`behind`).  Paused: 0, and nothing more is owed."""
        if not (math.isfinite(frame_dt) and frame_dt >= 0):
            raise ValueError(f"frame_dt must be a number of seconds >= 0, got {frame_dt}")
        if self.paused:
            return 0
        owed = self.carry + frame_dt * self._speed
        due = _whole_steps(owed, self.time_step)
        steps = min(due, self.max_steps_per_frame)
        if owed - steps * self.time_step > self.max_behind:
            steps = due - _whole_steps(self.max_behind, self.time_step)
        self.carry = max(0.0, owed - steps * self.time_step)
        self.most_behind = max(self.most_behind, self.carry)
        self.simulated += steps * self.time_step
        return steps

    def single_step(self) -> int:
        """Steps to run for one "single step" request: 1 when paused, else 0 (a
        running clock already steps)."""
        if not self.paused:
            return 0
        self.simulated += self.time_step
        return 1

    def reset(self) -> None:
        """Forget the owed time and the counts."""
        self.carry = 0.0
        self.most_behind = 0.0
        self.simulated = 0.0


def _whole_steps(seconds: float, time_step: float) -> int:
    """How many whole ``time_step`` s steps ``seconds`` s hold (within
    :data:`_STEP_EPSILON`)."""
    return int(math.floor((seconds + _STEP_EPSILON) / time_step))
