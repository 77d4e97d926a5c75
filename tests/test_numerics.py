"""balance3d.numerics: the products, rotations and eigenvectors that feed the engine
and the judges agree with NumPy and SciPy to round-off, and their bits follow only
from their inputs: a fixed order of operations, whatever the BLAS kernel."""
from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from balance3d import numerics as nm

RNG = np.random.default_rng(11)


def test_dot_adds_in_order_from_the_first_entry():
    a, b = RNG.normal(size=(6, 5)), RNG.normal(size=(6, 5))
    expected = [0.0] * 6
    for row in range(6):
        total = a[row, 0] * b[row, 0]
        for i in range(1, 5):
            total = total + a[row, i] * b[row, i]
        expected[row] = total
    assert nm.dot(a, b).tolist() == expected


def test_matmul_matches_numpy_for_every_shape_it_takes():
    m, v = RNG.normal(size=(3, 3)), RNG.normal(size=3)
    stack, right = RNG.normal(size=(4, 3, 2)), RNG.normal(size=(2, 5))
    assert np.allclose(nm.matmul(stack, right), stack @ right, rtol=1e-14, atol=1e-15)
    assert np.allclose(nm.matmul(m, v), m @ v, rtol=1e-14, atol=1e-15)
    assert np.allclose(nm.matmul(v, m), v @ m, rtol=1e-14, atol=1e-15)
    assert math.isclose(float(nm.matmul(v, v)), float(v @ v), rel_tol=1e-14)
    with pytest.raises(ValueError, match="do not match"):
        nm.matmul(m, RNG.normal(size=(2, 2)))


def test_norm_and_cross_are_the_textbook_ones():
    a, b = np.array([3.0, 4.0, 12.0]), np.array([1.0, 0.0, 0.0])
    assert float(nm.norm(a)) == 13.0
    assert nm.cross(b, np.array([0.0, 1.0, 0.0])).tolist() == [0.0, 0.0, 1.0]
    pairs = RNG.normal(size=(2, 10, 3))
    assert np.allclose(nm.cross(*pairs), np.cross(*pairs), rtol=1e-14, atol=1e-15)


def test_fsum_rows_is_exact_where_plain_sums_round():
    values = np.array([[1e16, 1.0], [1.0, -1e16], [-1e16, 1e16]])
    assert nm.fsum_rows(values).tolist() == [1.0, 1.0]


def test_rotations_agree_with_scipy():
    for _ in range(50):
        q = RNG.normal(size=4)
        points = RNG.normal(size=(7, 3))
        assert np.allclose(nm.quat_matrix(q), Rotation.from_quat(q).as_matrix(), atol=1e-14)
        assert np.allclose(nm.rotate(q, points), Rotation.from_quat(q).apply(points),
                           atol=1e-14)
        unit = q / np.linalg.norm(q)
        back = nm.quat_from_matrix(nm.quat_matrix(q))
        assert np.allclose(back, unit if unit[3] >= 0 else -unit, atol=1e-14)
        rpy = RNG.uniform(-math.pi, math.pi, 3)
        ours, theirs = nm.quat_from_rpy(rpy), Rotation.from_euler("xyz", rpy).as_quat()
        assert np.allclose(ours, theirs, atol=1e-15) or np.allclose(ours, -theirs, atol=1e-15)
        a, b = RNG.normal(size=4), RNG.normal(size=4)
        a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
        composed = (Rotation.from_quat(a) * Rotation.from_quat(b)).as_matrix()
        assert np.allclose(nm.quat_matrix(nm.quat_multiply(a, b)), composed, atol=1e-14)
        assert np.allclose(nm.quat_matrix(nm.quat_conjugate(a)),
                           Rotation.from_quat(a).inv().as_matrix(), atol=1e-14)


def test_a_zero_quaternion_is_refused():
    with pytest.raises(ValueError, match="non-zero quaternion"):
        nm.quat_matrix([0.0, 0.0, 0.0, 0.0])


def test_symmetric_eigen3_diagonalises_in_a_right_handed_frame():
    for _ in range(100):
        a = RNG.normal(size=(3, 3))
        tensor = a @ a.T
        values, vectors = nm.symmetric_eigen3(tensor)
        assert np.allclose(values, np.linalg.eigvalsh(tensor), rtol=1e-12, atol=1e-13)
        assert np.allclose(vectors @ np.diag(values) @ vectors.T, tensor, atol=1e-12)
        assert np.allclose(vectors.T @ vectors, np.eye(3), atol=1e-14)
        assert math.isclose(np.linalg.det(vectors), 1.0, rel_tol=1e-12)
        for col in range(2):
            column = vectors[:, col]
            assert column[np.argmax(np.abs(column))] > 0.0


def test_symmetric_eigen3_keeps_a_diagonal_tensor_on_its_axes():
    values, vectors = nm.symmetric_eigen3(np.diag([3.0, 1.0, 2.0]))
    assert values.tolist() == [1.0, 2.0, 3.0]
    assert vectors.tolist() == [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


_PROBE = """
import hashlib, numpy as np
from balance3d import numerics as nm
rng = np.random.default_rng(5)
a, b = rng.normal(size=(64, 3, 3)), rng.normal(size=(64, 3, 3))
t = nm.matmul(a, a.transpose(0, 2, 1))
parts = [nm.matmul(a, b), nm.dot(a, b), nm.norm(a)] + [
    np.concatenate([v.ravel() for v in nm.symmetric_eigen3(m)]) for m in t]
print(hashlib.sha256(b"".join(np.ascontiguousarray(p).tobytes() for p in parts)).hexdigest())
"""


def test_the_bits_do_not_follow_the_blas_kernel_or_numpy_simd(cpu_variants):
    if not cpu_variants:
        pytest.skip("no other CPU to imitate on this architecture")
    outputs = {}
    for label, variables in [("this CPU", {}), *cpu_variants]:
        env = dict(os.environ, **variables)
        done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                              text=True, check=True)
        outputs[label] = done.stdout.strip()
    assert len(set(outputs.values())) == 1, outputs
