"""Picking maths against geometry: camera rays, planes, rotated boxes, nearest pick."""
import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.gui.picking import camera_ray, pick, ray_box, ray_plane

#: A camera 1 m back and 0.5 m up, turned 30 deg about z and pitched 20 deg down.
CAM_POS = (0.3, -1.0, 0.5)
CAM_ROT = Rotation.from_euler("zx", [30.0, -20.0], degrees=True)
CAM_QUAT = tuple(CAM_ROT.as_quat())
FOV = (60.0, 40.0)


def test_centre_pixel_ray_is_the_cameras_forward_axis():
    origin, direction = camera_ray(CAM_POS, CAM_QUAT, FOV, (0.0, 0.0))
    assert origin == pytest.approx(CAM_POS)
    # Panda3D cameras look along their local +y
    assert direction == pytest.approx(CAM_ROT.apply([0.0, 1.0, 0.0]))
    assert np.linalg.norm(direction) == pytest.approx(1.0)


@pytest.mark.parametrize("ndc, half_angle", [((1.0, 0.0), 30.0), ((-1.0, 0.0), 30.0),
                                             ((0.0, 1.0), 20.0), ((0.0, -1.0), 20.0)])
def test_edge_pixels_make_half_the_field_of_view(ndc, half_angle):
    _, forward = camera_ray(CAM_POS, CAM_QUAT, FOV, (0.0, 0.0))
    _, ray = camera_ray(CAM_POS, CAM_QUAT, FOV, ndc)
    assert math.degrees(math.acos(forward @ ray)) == pytest.approx(half_angle)


def test_corner_pixel_direction_and_sides():
    _, ray = camera_ray(CAM_POS, CAM_QUAT, FOV, (1.0, 1.0))
    local = CAM_ROT.inv().apply(ray)
    # right (+x) and up (+z) in the camera frame, at tan(30 deg) and tan(20 deg) per unit ahead
    assert local[0] / local[1] == pytest.approx(math.tan(math.radians(30.0)))
    assert local[2] / local[1] == pytest.approx(math.tan(math.radians(20.0)))
    # its angle with the axis is atan(sqrt(tan^2 30 + tan^2 20))
    _, forward = camera_ray(CAM_POS, CAM_QUAT, FOV, (0.0, 0.0))
    expect = math.atan(math.hypot(math.tan(math.radians(30)), math.tan(math.radians(20))))
    assert math.acos(forward @ ray) == pytest.approx(expect)


def test_ray_plane_hits_the_table_where_similar_triangles_say():
    # from 0.5 m up, a ray going 2 m along x per 1 m down meets z = 0 at x = 1
    hit = ray_plane((0.0, 0.0, 0.5), (2.0, 0.0, -1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))
    assert hit == pytest.approx([1.0, 0.0, 0.0])
    # parallel: no hit; pointing away: no hit
    assert ray_plane((0, 0, 0.5), (1, 0, 0), (0, 0, 0), (0, 0, 1)) is None
    assert ray_plane((0, 0, 0.5), (0, 0, 1), (0, 0, 0), (0, 0, 1)) is None


def test_ray_box_on_a_rotated_box():
    # a 0.2 x 0.1 x 0.1 m box at (1, 0, 0) turned 90 deg about z: its long side now
    # runs along y, so along x it is 0.1 m thick (faces at x = 0.95 and 1.05)
    quat = Rotation.from_euler("z", 90, degrees=True).as_quat()
    half = (0.1, 0.05, 0.05)
    t = ray_box((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 0.0, 0.0), quat, half)
    assert t == pytest.approx(0.95)
    # 0.08 m beside the centre along y is still on the box (its half length is 0.1)
    assert ray_box((0.0, 0.08, 0.0), (1, 0, 0), (1, 0, 0), quat, half) == pytest.approx(0.95)
    # 0.12 m beside it misses; so does a ray just above its top (z = 0.05)
    assert ray_box((0.0, 0.12, 0.0), (1, 0, 0), (1, 0, 0), quat, half) is None
    assert ray_box((0.0, 0.0, 0.051), (1, 0, 0), (1, 0, 0), quat, half) is None
    # behind the ray's origin: no hit
    assert ray_box((2.0, 0.0, 0.0), (1, 0, 0), (1, 0, 0), quat, half) is None


def test_ray_box_tilted_about_y_hits_the_slanted_face():
    # a cube of half side 0.05 at the origin turned 45 deg about y; a ray down the
    # z axis from 1 m meets its top edge at sqrt(2) * 0.05 m up
    quat = Rotation.from_euler("y", 45, degrees=True).as_quat()
    t = ray_box((0, 0, 1.0), (0, 0, -1.0), (0, 0, 0), quat, (0.05, 0.05, 0.05))
    assert t == pytest.approx(1.0 - math.sqrt(2) * 0.05)
    # 0.04 m to the side along x it meets the slanted face at z = sqrt(2)*0.05 - 0.04
    t = ray_box((0.04, 0, 1.0), (0, 0, -1.0), (0, 0, 0), quat, (0.05, 0.05, 0.05))
    assert t == pytest.approx(1.0 - (math.sqrt(2) * 0.05 - 0.04))


def test_pick_returns_the_nearest_box_on_the_ray():
    ident = (0.0, 0.0, 0.0, 1.0)
    boxes = {"far": ((0.0, 2.0, 0.0), ident, (0.1, 0.1, 0.1)),
             "near": ((0.0, 1.0, 0.0), ident, (0.1, 0.1, 0.1)),
             "aside": ((0.5, 0.5, 0.0), ident, (0.1, 0.1, 0.1))}
    assert pick((0, 0, 0), (0, 1, 0), boxes) == "near"
    del boxes["near"]
    assert pick((0, 0, 0), (0, 1, 0), boxes) == "far"
    assert pick((0, 0, 0), (0, -1, 0), boxes) is None


def test_pick_through_a_camera_pixel():
    # a camera at the origin looking along +y; a box 2 m ahead, 0.5 m to the right
    boxes = {"block": ((0.5, 2.0, 0.0), (0, 0, 0, 1), (0.05, 0.05, 0.05))}
    fov = (90.0, 90.0)          # tan(45 deg) = 1: ndc x = 0.25 looks 0.25 m right per m
    origin, ray = camera_ray((0, 0, 0), (0, 0, 0, 1), fov, (0.25, 0.0))
    assert pick(origin, ray, boxes) == "block"
    origin, ray = camera_ray((0, 0, 0), (0, 0, 0, 1), fov, (0.0, 0.0))
    assert pick(origin, ray, boxes) is None


def test_a_ray_from_above_meets_the_tilted_beams_top_face():
    from balance3d.games.tilted import TiltedState
    from balance3d.games.tilted.judge import BEAM, BeamFrame

    state = TiltedState.arranged(2, seed=0, low_end=+1)
    frame = BeamFrame.of(state.world)
    pos, quat = state.world.pose(BEAM)
    box = (pos, quat, frame.half)
    for s in (-0.25, -0.1, 0.05, 0.2):
        x, y, z = frame.to_world([(s, 0.01, frame.half[2])])[0]      # on the top face
        t = ray_box((x, y, 1.0), (0.0, 0.0, -1.0), *box)
        assert t == pytest.approx(1.0 - z, abs=1e-9)
        hit = ray_plane((x, y, 1.0), (0.0, 0.0, -1.0), frame.to_world([(0, 0, frame.half[2])])[0],
                        frame.rotation[:, 2])
        assert hit == pytest.approx([x, y, z], abs=1e-9)
    # beside the beam (2 mm beyond its half width) the ray misses it
    x, y, _ = frame.to_world([(0.1, frame.half[1] + 0.002, frame.half[2])])[0]
    assert ray_box((x, y, 1.0), (0.0, 0.0, -1.0), *box) is None
