"""Fixed-step pacing of physics on screen (dm_control ``viewer/runtime.py``): the
physics always advances by whole, fixed time steps; the wall time between frames
(times a speed) only says how many steps are due, at most a per-frame budget.

The step never changes with the frame rate, so a turn shown on screen ends in
exactly the verdict it has headless; only *when* steps run depends on the clock.
"""
from __future__ import annotations

import math

#: Steps run at most per frame: 1/10 s of simulated time at the usual 1/240 s step,
#: so a slow frame (a shader compile, a window drag) does not freeze the window while
#: physics catches up.  Time owed beyond it is dropped and counted in ``behind``.
MAX_STEPS_PER_FRAME = 24

#: s, tolerance on owed time when counting whole steps, so that floating-point sums
#: of frame times (three frames of 1/720 s owe one 1/240 s step) are not one short.
_STEP_EPSILON = 1e-9


class PhysicsClock:
    """dm_control-style fixed-step pacing: each frame, run as many fixed physics steps
    as the wall time (times the speed) owes, at most a per-frame budget.

    time_step : s, the physics time step (the World's, never varied).
    speed : simulated seconds per wall second: 1 real time, <1 slow motion, >1 fast,
        0 paused.
    max_steps_per_frame : the per-frame budget of steps.
    """

    def __init__(self, time_step: float, *, speed: float = 1.0,
                 max_steps_per_frame: int = MAX_STEPS_PER_FRAME) -> None:
        if not (math.isfinite(time_step) and time_step > 0):
            raise ValueError(f"time_step must be a positive number of seconds, got {time_step}")
        if not (isinstance(max_steps_per_frame, int) and max_steps_per_frame >= 1):
            raise ValueError(f"max_steps_per_frame must be a whole number >= 1, "
                             f"got {max_steps_per_frame!r}")
        self.time_step = float(time_step)
        self.max_steps_per_frame = max_steps_per_frame
        self._speed = 0.0
        self.speed = speed
        #: s of simulated time owed but not yet stepped (always below one time step).
        self.carry = 0.0
        #: s of simulated time dropped since the clock was made (or :meth:`reset`)
        #: because the per-frame budget was hit: 0 while physics keeps the clock.
        self.behind = 0.0
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
    def paused(self) -> bool:
        """True when the speed is 0."""
        return self._speed == 0.0

    def steps_due(self, frame_dt: float) -> int:
        """Steps to run now, ``frame_dt`` wall seconds after the last frame: the owed
        simulated time (``frame_dt * speed`` plus the carried fraction) in whole time
        steps, at most ``max_steps_per_frame``; the fraction of a step is carried to
        the next frame and any time beyond the budget is dropped into
        :attr:`behind`.  Paused: 0, and nothing is owed."""
        if not (math.isfinite(frame_dt) and frame_dt >= 0):
            raise ValueError(f"frame_dt must be a number of seconds >= 0, got {frame_dt}")
        if self.paused:
            return 0
        owed = self.carry + frame_dt * self._speed
        steps = int(math.floor(owed / self.time_step + _STEP_EPSILON / self.time_step))
        self.carry = max(0.0, owed - steps * self.time_step)
        if steps > self.max_steps_per_frame:
            self.behind += (steps - self.max_steps_per_frame) * self.time_step
            steps = self.max_steps_per_frame
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
        """Forget the owed fraction and the counts (a new turn starts on the clock)."""
        self.carry = 0.0
        self.behind = 0.0
        self.simulated = 0.0
