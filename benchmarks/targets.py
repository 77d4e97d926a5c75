"""The targets the benchmarks are held to, each named once with its unit (from the
issues that asked for them)."""
from __future__ import annotations

#: %, most a World step (welding off) may take longer than a bare pybullet step.
WORLD_OVERHEAD_PCT = 10.0
#: Least real-time factor of the 24-piece Tower column (simulated s per wall s).
COLUMN_RTF = 5.0
#: s, longest restore of the settled 96-piece Tower table with its first step, caches cold.
RESTORE_S = 0.020
#: Largest cold welded judged Tilted drop over the same drop with welding off (medians).
COLD_OVER_OFF = 1.3
#: Largest cold welded judged Tilted drop over the same drop with welding off, median
#: of the per-state ratios (the ``welding`` section).
WELDED_OVER_OFF = 1.1
#: Least steps per second while bodies move, welded over welding off (a fraction; the
#: ``welding`` section).
MOVING_RATE_RATIO = 0.8
#: s, longest median wall time of one judged move (Tilted drop, Tri-Ba-Lance
#: placement, Tower drop), per game, on one core.
JUDGE_S = {"tilted": 0.15, "tribalance": 0.15, "tower": 0.3}
#: Players of the whole planner game timed per game, and its longest wall time (s) on
#: one core.
PLANNER_GAME = {"tilted": (4, 60.0), "tribalance": (3, 60.0), "tower": (4, 120.0)}
#: s, most CPU time of that whole planner game, median over the seeds, where one is
#: set (Tower's planner was asked to think fast: 4 players within 20 CPU s).
PLANNER_GAME_CPU = {"tower": 20.0}
#: Least share of seeded games the planner wins against the random bot, per game.
PLANNER_WIN_RATE = {"tilted": 0.75, "tribalance": 0.8, "tower": 0.7}
#: Least parallel efficiency of a tune sweep on 2 cores: the wall time with one worker
#: over twice the wall time with two (a fraction).
TUNE_EFFICIENCY = 0.90
#: %, most an environment step (without the action mask) may take over ``State.apply``
#: of the same move (the ``envs`` section).
ENV_OVERHEAD_PCT = 5.0
