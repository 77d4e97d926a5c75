"""Contact-patch geometry without the engine: a flat face touches over an area, a
curved surface only along its exact lowest locus (a sphere at a point, a cylinder's
side along a line), so statics built on the patch cannot hold a round body against
rolling."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.meshes import builders
from balance3d.meshes.part import Material, make_part
from balance3d.physics.patches import (CYLINDER_PATCH_SEGMENTS, MAX_PATCH_POINTS,
                                       contact_patch, piece_geometry)
from balance3d.physics.statics import StaticsBody, StaticsContact, solve_statics, tangents

WOOD = Material("wood", 650.0, 0.5, 0.1)
RADIUS, LENGTH = 0.02, 0.06        # m, the test cylinder and sphere
SLAB = (0.8, 0.3, 0.02)            # m, a slab the round parts rest on
#: m, the weld patch tolerance the games use (scenes/shared/common.toml).
TOLERANCE = 0.0005
G = 9.81
#: m, patch coordinates are exact up to round-off.
EXACT = 1e-9


def patch_on_slab(part, rotation: Rotation, theta: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Corners ((k, 3) m) and normal of the patch where ``part`` (turned by
    ``rotation``) rests on top of the slab, the whole scene tilted by ``theta``
    (rad, about y); also the part's centre (3,) m."""
    tilt = Rotation.from_euler("y", theta)
    normal = tilt.apply((0.0, 0.0, 1.0))
    half_height = float(np.abs(rotation.apply(part.mesh.vertices))[:, 2].max())
    centre = tilt.apply((0.0, 0.0, half_height))
    slab_centre = tilt.apply((0.0, 0.0, -SLAB[2] / 2))
    slab = make_part("slab", *builders.box(SLAB), WOOD, static=True)
    origin = tilt.apply((0.0, 0.0, 0.0))
    frame = np.stack(tangents(normal))
    corners = contact_patch(piece_geometry(part), (centre, (tilt * rotation).as_matrix()),
                            piece_geometry(slab), (slab_centre, tilt.as_matrix()),
                            origin, normal, frame, TOLERANCE)
    return corners, centre


def holds(part, corners: np.ndarray, centre: np.ndarray, theta: float) -> bool:
    """Whether statics hold ``part`` at ``centre`` on the tilted slab's ``corners``."""
    normal = Rotation.from_euler("y", theta).apply((0.0, 0.0, 1.0))
    contacts = [StaticsContact(0, -1, tuple(c), tuple(normal), WOOD.friction ** 2)
                for c in corners]
    return solve_statics([StaticsBody(part.mass, tuple(centre))], contacts, G) is not None


def lying_cylinder():
    """The test cylinder and the rotation that lays it on its side (axis along y)."""
    return (make_part("cylinder", *builders.cylinder(RADIUS, LENGTH), WOOD),
            Rotation.from_euler("x", 90.0, degrees=True))


def test_a_cylinder_on_its_side_touches_along_one_line_under_its_axis():
    cylinder, lay = lying_cylinder()
    corners, centre = patch_on_slab(cylinder, lay)
    assert len(corners) == 2                      # the two ends of one generator
    assert np.abs(corners[:, 0]).max() <= EXACT   # straight under the axis (x = 0)
    assert np.abs(corners[:, 2]).max() <= EXACT   # on the slab's top face
    assert sorted(corners[:, 1]) == pytest.approx([-LENGTH / 2, LENGTH / 2], abs=EXACT)


@pytest.mark.parametrize("degrees", [0.5, 2.0, 11.0])
def test_a_cylinder_on_its_side_on_a_slope_is_not_held(degrees):
    """The line contact gives gravity's pull along the slope a moment arm of one
    radius about the line and the contact forces none: no statics, at any slope."""
    cylinder, lay = lying_cylinder()
    theta = math.radians(degrees)
    corners, centre = patch_on_slab(cylinder, lay, theta)
    assert len(corners) == 2
    assert not holds(cylinder, corners, centre, theta)


def test_a_cylinder_on_its_side_on_level_ground_is_held():
    """The centre of mass straight above the contact line: an exact balance."""
    cylinder, lay = lying_cylinder()
    corners, centre = patch_on_slab(cylinder, lay)
    assert holds(cylinder, corners, centre, 0.0)


def test_a_standing_cylinder_touches_with_its_cap_disc():
    cylinder = make_part("cylinder", *builders.cylinder(RADIUS, LENGTH), WOOD)
    corners, _ = patch_on_slab(cylinder, Rotation.identity())
    assert len(corners) == min(CYLINDER_PATCH_SEGMENTS, MAX_PATCH_POINTS)
    # an inscribed polygon of the cap's rim
    assert np.linalg.norm(corners[:, :2], axis=1) == pytest.approx(RADIUS, abs=EXACT)
    assert np.abs(corners[:, 2]).max() <= EXACT


def test_a_standing_cylinder_on_a_gentle_slope_is_held():
    """On its cap, friction mu^2 = 0.25 > tan(5 deg) and the centre of mass lies
    over the disc (tan 5 deg x 30 mm < 20 mm): it stays."""
    cylinder = make_part("cylinder", *builders.cylinder(RADIUS, LENGTH), WOOD)
    theta = math.radians(5.0)
    corners, centre = patch_on_slab(cylinder, Rotation.identity(), theta)
    assert holds(cylinder, corners, centre, theta)


def test_a_cylinder_leaning_on_its_rim_touches_at_one_point():
    """Tilted 30 degrees, the cylinder meets the slab with the lowest point of one
    rim only: horizontally R cos 30 - L/2 sin 30 from its centre (the rim's lowest
    point lies R cos 30 beyond the lower cap's centre, which lies L/2 sin 30 back)."""
    cylinder = make_part("cylinder", *builders.cylinder(RADIUS, LENGTH), WOOD)
    tilt = math.radians(30.0)
    corners, centre = patch_on_slab(cylinder, Rotation.from_euler("y", tilt))
    assert len(corners) == 1
    reach = RADIUS * math.cos(tilt) - LENGTH / 2 * math.sin(tilt)
    assert np.linalg.norm(corners[0, :2] - centre[:2]) == pytest.approx(reach, abs=1e-6)


def test_a_sphere_touches_at_the_point_below_its_centre():
    sphere = make_part("sphere", *builders.sphere(RADIUS), WOOD)
    theta = math.radians(3.0)
    corners, centre = patch_on_slab(sphere, Rotation.identity(), theta)
    normal = Rotation.from_euler("y", theta).apply((0.0, 0.0, 1.0))
    assert len(corners) == 1
    assert corners[0] == pytest.approx(centre - RADIUS * normal, abs=EXACT)
    assert not holds(sphere, corners, centre, theta)


def test_a_box_touches_with_its_whole_face_and_is_held_below_the_friction_angle():
    box = make_part("box", *builders.box((0.06, 0.04, 0.015)), WOOD)
    theta = math.radians(10.0)                    # tan 10 deg < mu^2 = 0.25
    corners, centre = patch_on_slab(box, Rotation.identity(), theta)
    assert len(corners) == 4
    flat = Rotation.from_euler("y", theta).inv().apply(corners)
    assert sorted(np.abs(flat[:, 0])) == pytest.approx([0.03] * 4, abs=EXACT)
    assert sorted(np.abs(flat[:, 1])) == pytest.approx([0.02] * 4, abs=EXACT)
    assert holds(box, corners, centre, theta)
