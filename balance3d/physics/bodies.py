"""What the World keeps of a body, and what a snapshot keeps of it: plain records.

Positions in metres, orientations as unit quaternions (x, y, z, w), velocities in
m/s and rad/s unless a field says otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

from balance3d.meshes.part import Part
from balance3d.physics.weld_state import WeldState

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


@dataclass(eq=False)
class Body:
    """The World's record of one body: its ``name``, engine id ``uid``, the ``part``
    it was built from, whether it is ``static`` (fixed for good), whether it is
    ``welded`` right now (fixed in the engine until disturbed, see
    :mod:`balance3d.physics.welding`), and its creation ``index`` (bodies sort by it
    in creation order).  Read it; only the World changes it."""

    name: str
    uid: int
    part: Part
    static: bool
    index: int
    welded: bool = False


@dataclass(frozen=True)
class Fresh:
    """A dynamic body to prime (see ``World._prime_inertia``) and release at its
    pose (m, quaternion) with its velocity (engine units: ``length_scale`` times
    m/s, and rad/s)."""

    body: Body
    position: Vec3
    orientation: Quat
    linear_velocity: Vec3
    angular_velocity: Vec3


@dataclass(frozen=True)
class BodyState:
    """A body as a snapshot keeps it: part, static flag, pose and velocity (SI)."""

    name: str
    part: Part
    static: bool
    position: Vec3
    orientation: Quat
    linear_velocity: Vec3
    angular_velocity: Vec3


@dataclass(frozen=True)
class Snapshot:
    """Immutable state of a World: its bodies in creation order, its clock (s) and
    its welds (empty: a restore welds what rests from scratch)."""

    bodies: tuple[BodyState, ...]
    time: float
    welds: WeldState = WeldState()


def creation_runs(bodies: tuple[BodyState, ...]) -> list[list[BodyState]]:
    """``bodies`` cut, in order, into runs that one engine call can build: dynamic
    bodies of one part in a row (Bullet builds a batch with one orientation, which
    priming corrects), and every static body alone."""
    runs: list[list[BodyState]] = []
    for b in bodies:
        last = runs[-1][0] if runs else None
        if last is not None and not b.static and not last.static and b.part is last.part:
            runs[-1].append(b)
        else:
            runs.append([b])
    return runs
