"""Physics settings: every engine parameter and threshold, named once, with its unit.

A scene's ``[physics]`` table overrides any field by name.  The defaults are the
values measured to pass ``tests/physics`` (see the README's "Physics settings").
"""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class PhysicsSettings:
    """Engine settings and the thresholds the World judges rest and contact by.

    Engine
        time_step : s, one fixed physics step.
        substeps : Bullet sub-steps per step (0 = none).
        solver_iterations : sequential-impulse iterations per step.
        length_scale : internal length unit per metre.  Bullet's tolerances (convex
            margin, contact slop, GJK epsilons) are tuned for bodies of about one unit;
            a scale of 10 simulates centimetre parts as decimetre ones.  Gravity,
            lengths and inertia are scaled and every value crossing the World's API is
            scaled back, so results are in SI whatever the scale.
        gravity : m/s^2, downwards.
        collision_margin : m, convex margin of every collision piece.
        contact_breaking_threshold : m, distance at which Bullet drops a cached contact.
        enable_sat : use separating-axis contact clipping for convex hulls (full
            contact manifolds in one step instead of one point per step).
        erp, contact_erp, friction_erp : Bullet's error-reduction parameters (0..1).
        global_cfm : Bullet's constraint force mixing (softness), dimensionless.
        use_split_impulse : split position correction from velocity (no energy added
            by penetration recovery).
    Rest
        rest_linear_speed : m/s, a body below this (and rest_angular_speed) is still.
        rest_angular_speed : rad/s.
        rest_time : s, every body must stay still this long for the world to be at rest.
        rest_check_interval : s, how often settle() samples speeds.
        settle_max_time : s, settle() gives up (and says so) after this much time.
    Contacts
        contact_distance : m, a contact point counts as touching when its signed
            distance is at most this (negative = penetration).
        contact_min_force : N, a touching contact carries load when its normal force
            is at least this.
        support_min_normal_z : the contact normal's upward component (cosine of its
            angle from vertical) above which a loaded contact is a support.
    Validity
        table_extent : m, a body whose centre is further than this from the origin
            horizontally, or below -table_extent, has left the table: invalid state.
    """

    time_step: float = 1.0 / 240.0
    substeps: int = 0
    solver_iterations: int = 50
    length_scale: float = 1.0
    gravity: float = 9.81
    collision_margin: float = 0.001
    contact_breaking_threshold: float = 0.02
    enable_sat: bool = False
    erp: float = 0.2
    contact_erp: float = 0.2
    friction_erp: float = 0.2
    global_cfm: float = 0.0
    use_split_impulse: bool = True
    rest_linear_speed: float = 0.005
    rest_angular_speed: float = 0.05
    rest_time: float = 0.25
    rest_check_interval: float = 1.0 / 60.0
    settle_max_time: float = 10.0
    contact_distance: float = 0.0005
    contact_min_force: float = 1e-4
    support_min_normal_z: float = 0.5
    table_extent: float = 2.0

    def __post_init__(self) -> None:
        positive = ("time_step", "solver_iterations", "length_scale", "rest_linear_speed",
                    "rest_angular_speed", "rest_time", "rest_check_interval",
                    "settle_max_time", "table_extent", "contact_breaking_threshold")
        for name in positive:
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"physics.{name} must be positive, got {value!r}")
        for name in ("substeps", "collision_margin", "gravity", "contact_min_force", "global_cfm"):
            value = getattr(self, name)
            if not value >= 0:
                raise ValueError(f"physics.{name} must be zero or positive, got {value!r}")
        for name in ("erp", "contact_erp", "friction_erp", "support_min_normal_z"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"physics.{name} must be within 0..1, got {value!r}")

    @classmethod
    def field_types(cls) -> dict[str, type]:
        """Name -> Python type of every setting (for scene validation)."""
        return {f.name: type(getattr(cls(), f.name)) for f in fields(cls)}

    def replace(self, **changes) -> "PhysicsSettings":
        """A copy with ``changes`` applied (validated)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return PhysicsSettings(**values)
