"""Physics settings: every engine parameter and threshold, named once, with its unit.

A scene's ``[physics]`` table overrides any field by name.  The defaults are the
values measured to pass ``tests/physics`` (see the README's "Physics settings").
"""
from __future__ import annotations

from dataclasses import dataclass, fields

#: s, the shortest time step a scene may set: a settle of ``settle_max_time`` (10 s
#: by default) then takes at most a million steps.
MIN_TIME_STEP = 1e-5
#: s, the longest time step a scene may set: a piece at 1 m/s (a 5 cm fall) moves
#: 10 mm in one step, less than the thinnest piece of a bundled game (15 mm), so
#: contacts are not stepped over.
MAX_TIME_STEP = 0.01

#: Unit of each physics setting, for reports and plot labels (settings not listed:
#: dimensionless or flags).
PHYSICS_UNITS = {
    "time_step": "s",
    "length_scale": "units/m",
    "gravity": "m/s^2",
    "collision_margin": "m",
    "contact_breaking_threshold": "m",
    "linear_damping": "1/s",
    "angular_damping": "1/s",
    "split_impulse_penetration_threshold": "m",
    "rest_linear_speed": "m/s",
    "rest_angular_speed": "rad/s",
    "rest_time": "s",
    "rest_check_interval": "s",
    "settle_max_time": "s",
    "contact_distance": "m",
    "contact_min_force": "N",
    "weld_time": "s",
    "wake_speed": "m/s",
    "weld_patch_tolerance": "m",
    "table_extent": "m",
}


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
        collision_margin : m, convex margin of the collision pieces.  Bullet adds a
            hull's margin outside it, so the World shrinks hulls by it first: they
            touch at their true faces, with edges rounded to this radius.  A box's
            or cylinder's margin lies inside it; inside a compound it stays at
            pybullet's 0.001 engine units (see :mod:`balance3d.physics.engine_shapes`).
        contact_breaking_threshold : m, distance at which Bullet drops a cached contact.
        enable_sat : find the separating axis of two convex hulls by SAT instead of
            GJK (Bullet's ``enableSAT``).  Only used with ``polyhedral_contacts``.
        polyhedral_contacts : give every box and convex hull Bullet's polyhedral
            features (unshrunk), so that two of them meet by clipping face against
            face: the whole contact patch in the first step instead of one GJK point
            per step.  Measured worse here: the four manifold points Bullet keeps out
            of a round-ended face's clipped outline change every step, and a logo
            piece resting on the table rocks at up to 1.5 rad/s.
        linear_damping, angular_damping : fraction of every dynamic body's linear
            (angular) velocity Bullet removes per second, 0..1 (velocity times
            (1 - damping) ** seconds).  Damping moves no equilibrium; some angular
            damping stands in for the rolling losses that stop a plate rocking on a
            ball (rigid rolling contact dissipates nothing).
        erp, contact_erp, friction_erp : Bullet's error-reduction parameters (0..1).
        global_cfm : Bullet's constraint force mixing (softness), dimensionless.
        use_split_impulse : split position correction from velocity (no energy added
            by penetration recovery).
        split_impulse_penetration_threshold : m (zero or negative), Bullet uses the
            split impulse only for contacts deeper than this; shallower ones are
            pushed apart through their velocity (Baumgarte).  pybullet's -0.04 m is
            deeper than any contact between centimetre parts (so the split impulse is
            in effect off); 0 (always split) was measured to keep a woken beam from
            tipping at any load.
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
    Welding (see :mod:`balance3d.physics.welding`)
        weld : weld bodies at rest whose statics hold (fixed in the engine until
            disturbed).  Without it a tall stack sways down within a second.
        weld_time : s, a body must have stayed below the rest speeds this long before
            it may be welded (its statics are checked, so this only has to outlast
            a body passing through rest).
        wake_speed : m/s, a body approaching a welded one at least this fast is an
            impact: before the step, the welded structure wakes where it could not
            carry it.  A body whose centre of mass moves along a welded one at least
            this fast slides on it: it loads the welded body with kinetic friction.
        weld_patch_tolerance : m, a part's vertices within this distance of a contact
            plane belong to the contact patch used for the statics check.
    Validity
        table_extent : m, a body whose centre is further than this from the origin
            horizontally, or below -table_extent, has left the table: invalid state.
    """

    time_step: float = 1.0 / 240.0
    substeps: int = 0
    solver_iterations: int = 50
    length_scale: float = 1.0
    gravity: float = 9.81
    collision_margin: float = 0.0005
    contact_breaking_threshold: float = 0.02
    enable_sat: bool = False
    polyhedral_contacts: bool = False
    linear_damping: float = 0.0
    angular_damping: float = 0.5
    erp: float = 0.2
    contact_erp: float = 0.2
    friction_erp: float = 0.2
    global_cfm: float = 0.0
    use_split_impulse: bool = True
    split_impulse_penetration_threshold: float = -0.04
    rest_linear_speed: float = 0.005
    rest_angular_speed: float = 0.05
    rest_time: float = 0.25
    rest_check_interval: float = 1.0 / 60.0
    settle_max_time: float = 10.0
    contact_distance: float = 0.0005
    contact_min_force: float = 1e-4
    support_min_normal_z: float = 0.5
    weld: bool = True
    weld_time: float = 1.0 / 60.0
    wake_speed: float = 0.05
    weld_patch_tolerance: float = 0.0005
    table_extent: float = 2.0

    def __post_init__(self) -> None:
        positive = ("time_step", "solver_iterations", "length_scale", "rest_linear_speed",
                    "rest_angular_speed", "rest_time", "rest_check_interval",
                    "settle_max_time", "table_extent", "contact_breaking_threshold",
                    "weld_time", "wake_speed", "weld_patch_tolerance")
        for name in positive:
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"physics.{name} must be positive, got {value!r}")
        if not MIN_TIME_STEP <= self.time_step <= MAX_TIME_STEP:
            raise ValueError(f"physics.time_step must be within {MIN_TIME_STEP:g}.."
                             f"{MAX_TIME_STEP:g} s, got {self.time_step!r}")
        for name in ("substeps", "collision_margin", "gravity", "contact_min_force", "global_cfm"):
            value = getattr(self, name)
            if not value >= 0:
                raise ValueError(f"physics.{name} must be zero or positive, got {value!r}")
        if not self.split_impulse_penetration_threshold <= 0.0:
            raise ValueError("physics.split_impulse_penetration_threshold must be zero or "
                             f"negative, got {self.split_impulse_penetration_threshold!r}")
        for name in ("erp", "contact_erp", "friction_erp", "support_min_normal_z",
                     "linear_damping", "angular_damping"):
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
