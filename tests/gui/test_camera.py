"""OrbitCamera maths (no window): orbit keeps the distance, pan moves target and
eye together, zoom scales the distance within its limits, reset returns the
preset; and the pose it hands Panda3D looks at the target."""
import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d.gui.games import CameraPreset
from balance3d.gui.view.camera import DISTANCE_MAX, DISTANCE_MIN, PITCH_MAX, PITCH_MIN, \
    OrbitCamera

PRESET = CameraPreset(target=(0.1, -0.2, 0.03), distance=1.2, heading=0.0, pitch=45.0)


def test_preset_pose_looks_at_the_target_from_the_front():
    cam = OrbitCamera(PRESET)
    eye, quat = cam.pose()
    # heading 0 looks along +y, 45 deg down: the eye is behind (-y) and above
    expected = np.array(PRESET.target) + 1.2 * np.array([0.0, -math.cos(math.pi / 4),
                                                         math.sin(math.pi / 4)])
    assert np.allclose(eye, expected, atol=1e-12)
    # the camera's local +y (its view axis) points at the target
    view_axis = Rotation.from_quat(quat).apply([0.0, 1.0, 0.0])
    to_target = (np.array(PRESET.target) - eye) / 1.2
    assert np.allclose(view_axis, to_target, atol=1e-12)
    up = Rotation.from_quat(quat).apply([0.0, 0.0, 1.0])
    assert up[2] > 0.0   # not upside down


def test_orbit_keeps_the_distance_to_the_target():
    cam = OrbitCamera(PRESET)
    for dh, dp in [(30.0, 0.0), (0.0, 20.0), (-75.0, -30.0), (400.0, 5.0)]:
        before = cam.eye()
        cam.orbit(dh, dp)
        assert np.linalg.norm(cam.eye() - cam.target) == pytest.approx(1.2, abs=1e-12)
        assert np.allclose(cam.target, PRESET.target)
        assert not np.allclose(cam.eye(), before)


def test_orbit_a_quarter_turn_left_puts_the_eye_on_the_right():
    cam = OrbitCamera(CameraPreset((0.0, 0.0, 0.0), 1.0, 0.0, 30.0))
    cam.orbit(90.0, 0.0)   # now looking along -x: the eye sits on +x
    eye = cam.eye()
    assert eye[0] == pytest.approx(math.cos(math.radians(30.0)), abs=1e-12)
    assert eye[1] == pytest.approx(0.0, abs=1e-12)
    assert eye[2] == pytest.approx(0.5, abs=1e-12)


def test_orbit_pitch_stays_within_its_limits():
    cam = OrbitCamera(PRESET)
    cam.orbit(0.0, 500.0)
    assert cam.pitch == PITCH_MAX
    assert cam.eye()[2] > cam.target[2]
    cam.orbit(0.0, -500.0)
    assert cam.pitch == PITCH_MIN
    assert cam.eye()[2] > cam.target[2]   # never below the target's horizon


def test_pan_moves_target_and_eye_together_in_the_screen_plane():
    cam = OrbitCamera(PRESET)
    eye0, target0, forward0 = cam.eye(), cam.target.copy(), cam.forward()
    cam.pan(0.05, -0.02)
    shift = cam.target - target0
    assert np.allclose(cam.eye() - eye0, shift, atol=1e-12)
    assert np.linalg.norm(shift) == pytest.approx(math.hypot(0.05, 0.02), abs=1e-12)
    assert np.dot(shift, forward0) == pytest.approx(0.0, abs=1e-12)   # across the view
    assert np.allclose(cam.forward(), forward0)
    cam2 = OrbitCamera(PRESET)
    cam2.pan(0.05, 0.0)   # heading 0: the view's right is +x
    assert np.allclose(cam2.target - target0, [0.05, 0.0, 0.0], atol=1e-12)


def test_zoom_scales_the_distance_within_limits():
    cam = OrbitCamera(PRESET)
    forward = cam.forward()
    cam.zoom(0.5)
    assert cam.distance == pytest.approx(0.6)
    assert np.allclose(cam.eye(), np.array(PRESET.target) - 0.6 * forward)
    cam.zoom(1e-6)
    assert cam.distance == DISTANCE_MIN
    cam.zoom(1e6)
    assert cam.distance == DISTANCE_MAX
    with pytest.raises(ValueError, match="zoom factor"):
        cam.zoom(0.0)


def test_reset_returns_the_preset():
    cam = OrbitCamera(PRESET)
    start = cam.pose()
    cam.orbit(40.0, 10.0)
    cam.pan(0.1, 0.1)
    cam.zoom(2.0)
    cam.reset()
    eye, quat = cam.pose()
    assert np.allclose(eye, start[0]) and np.allclose(quat, start[1])
    assert cam.distance == 1.2 and cam.heading == 0.0 and cam.pitch == 45.0


def test_apply_gives_panda3d_the_same_pose_as_look_at():
    from panda3d.core import NodePath, Point3

    cam = OrbitCamera(PRESET)
    cam.orbit(-35.0, 12.0)
    node = NodePath("camera")
    cam.apply(node)
    reference = NodePath("reference")
    reference.setPos(*cam.eye())
    reference.lookAt(Point3(*PRESET.target))
    assert np.allclose(node.getPos(), reference.getPos(), atol=1e-6)
    assert node.getQuat().isSameDirection(reference.getQuat())
    assert np.allclose(node.getQuat().getForward(), reference.getQuat().getForward(), atol=1e-6)


def test_fit_frames_a_line_across_the_view_in_the_right_half_worked_by_hand():
    from balance3d.gui.view.camera import FIT_FILL, FOV

    cam = OrbitCamera(CameraPreset(target=(0.0, 0.0, 0.0), distance=2.0, heading=0.0,
                                   pitch=45.0))
    aspect = 16 / 9
    a = 0.2
    points = np.array([[-a, 0.0, 0.0], [a, 0.0, 0.0]])
    # free: the right half of the film (x 0..1), all its height
    cam.fit(points, (0.0, 1.0, -1.0, 1.0), aspect)
    # the line spans FIT_FILL of the half's width at the target's depth d:
    # 2a / (d tan_h) = FIT_FILL, with tan_h = tan(FOV / 2) * aspect (the height has FOV)
    tan_h = math.tan(math.radians(FOV / 2)) * aspect
    d = 2 * a / (FIT_FILL * tan_h)
    assert cam.distance == pytest.approx(d, rel=1e-4)
    # its middle (x = 0) shows at film x 0.5: the target moved -0.5 d tan_h along x
    assert cam.target == pytest.approx([-0.5 * d * tan_h, 0.0, 0.0], abs=1e-5)
    assert (cam.heading, cam.pitch) == (0.0, 45.0)
    # reset returns to the fit, not to the preset
    cam.zoom(0.5)
    cam.reset()
    assert cam.distance == pytest.approx(d, rel=1e-4) and cam.at_reset()


def test_fit_keeps_every_point_inside_the_free_rectangle():
    from balance3d.gui.view.camera import FIT_FILL

    rng = np.random.default_rng(3)
    points = rng.uniform([-0.3, -0.2, 0.0], [0.3, 0.25, 0.12], size=(200, 3))
    for free, aspect in (((-0.5, 1.0, -0.7, 0.8), 16 / 9), ((-0.4, 1.0, -0.6, 0.85), 4 / 3),
                         ((-0.6, 1.0, -0.7, 0.82), 2560 / 1080)):
        cam = OrbitCamera(PRESET)
        cam.fit(points, free, aspect)
        film, depth = cam.film(points, aspect)
        assert depth.min() > 0
        lo, hi = film.min(axis=0), film.max(axis=0)
        x0, x1, y0, y1 = free
        assert lo[0] >= x0 and hi[0] <= x1 and lo[1] >= y0 and hi[1] <= y1
        share = max((hi[0] - lo[0]) / (x1 - x0), (hi[1] - lo[1]) / (y1 - y0))
        assert share == pytest.approx(FIT_FILL, abs=0.01)
