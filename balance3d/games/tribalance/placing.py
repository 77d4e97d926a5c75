"""The physics of a placement: where a piece is released, settling until the plate
is still, and reading the settled World (see the package docstring, "Placing" and
"Judging")."""
from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass

from balance3d import numerics
from balance3d.games.placement import design_vertices
from balance3d.games.tribalance import judge
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.rules import PLATE, TribalanceRules
from balance3d.meshes.part import Part
from balance3d.physics.world import World
from balance3d.scene import body_pose


def release_pose(frame: PlateFrame, part: Part, x: float, y: float,
                 gap: float) -> tuple[tuple, tuple]:
    """Body-frame ``(position (3,) m, quaternion xyzw)`` of ``part`` lowered onto the
    plate point ``(x, y)`` (plate frame, m): its axis along the plate's normal, its
    underside ``gap`` m above the top face."""
    lo = float(design_vertices(part)[:, 2].min())
    origin = frame.top_point(x, y) + frame.normal * (gap - lo)
    quat = numerics.quat_from_matrix(frame.rotation)
    return body_pose(part, tuple(origin.tolist()), tuple(quat.tolist()))


@dataclass(frozen=True)
class Settled:
    """How a settle ended: ``time`` (s simulated) and ``timed_out`` (the scene's
    ``settle_max_time`` was reached before the plate was still)."""

    time: float
    timed_out: bool


def settle_still(world: World, rules: TribalanceRules) -> Generator[None, None, Settled]:
    """Step until the plate is still and nothing slides, or until the scene's
    ``settle_max_time``; yields after every time step.

    Still: the plate's orientation has stayed within ``rules.still_angle`` of where
    it was for ``rules.hold_time`` (turning by less than that angle changes its tilt
    by less than it), and every dynamic body moves slower than the scene's
    ``rest_linear_speed``.  ``World.settling`` is not used: it can end while the
    plate still rocks slowly, and it waits for the pieces' spin to die down too,
    which Bullet keeps up on a tilted plate (a cylinder's contact with a plate
    jitters at 0.05 to 0.9 rad/s without the piece going anywhere)."""
    settings = world.settings
    step = settings.time_step
    max_steps = max(1, round(settings.settle_max_time / step))
    hold = max(1, round(rules.hold_time / step))
    # |q . q_ref| = cos(half the angle turned between the two orientations)
    limit = math.cos(rules.still_angle / 2)
    plate = world.body_id(PLATE)
    rx, ry, rz, rw = world.engine_orientation(plate)
    steady = steps = 0
    while steps < max_steps:
        world.step()
        steps += 1
        yield
        # Python floats, added first to last as numerics.dot adds them: the same bits,
        # without numpy's per-call cost (this runs after every step)
        x, y, z, w = world.engine_orientation(plate)
        if abs(x * rx + y * ry + z * rz + w * rw) >= limit:
            steady += 1
        else:
            (rx, ry, rz, rw), steady = (x, y, z, w), 0
        if steady >= hold and _sliding_stopped(world):
            return Settled(steps * step, False)
    return Settled(steps * step, True)


def _sliding_stopped(world: World) -> bool:
    """True when every dynamic body moves slower than ``rest_linear_speed``."""
    top = world.settings.rest_linear_speed
    return all(numerics.norm3(world.velocity(n)[0]) < top for n in world.dynamic_names)


@dataclass(frozen=True)
class Reading:
    """The judge's reading of a settled World: the plate's ``tilt`` and its
    ``direction`` (rad, see :func:`judge.tilt`), ``frame`` (the corners and sides
    resting on the frame) and ``on_plate`` (the pieces still on it)."""

    tilt: float
    direction: float
    frame: list[dict]
    on_plate: set[str]


def read(world: World, rules: TribalanceRules, side: float, pieces: list[str]) -> Reading:
    """What the judge reads in ``world`` about the plate and ``pieces``."""
    frame = PlateFrame.of(world, side)
    angle, direction = judge.tilt(frame)
    resting = judge.frame_contacts(world, frame, rules.corner_zone,
                                   min_force=rules.frame_min_force,
                                   rest_gap=rules.frame_rest_gap)
    return Reading(angle, direction, resting,
                   judge.on_plate(world, pieces, rules.on_plate_distance))
