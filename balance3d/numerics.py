"""Arithmetic whose bits do not depend on the CPU, the BLAS or a library's version.

NumPy hands matrix products (``@``, ``np.dot``, ``np.linalg``, 1-D
``np.linalg.norm``) to its BLAS and LAPACK, whose kernels are chosen per CPU
(OpenBLAS: Haswell, SkylakeX, Zen, ...) and add in different orders, so the last
bits of a product differ from one machine to the next.  Its transcendental ufuncs
(``np.sin``, ``np.cos``, ``np.arctan2`` on arrays) have SIMD versions per
instruction set, and SciPy's rotations and hulls change with SciPy's version.  In a
simulation of towers near their limit a last-bit difference grows into another game,
so whatever feeds the engine or a judge is computed here instead:

- products and sums are elementwise NumPy operations (each one rounded by IEEE 754,
  the same on every machine) taken in a fixed order, or :func:`math.fsum`;
- angles go through Python's :mod:`math` (the C library's ``sin`` and ``cos``), one
  value at a time;
- square roots are IEEE 754's, correctly rounded everywhere.

Quaternions are ``(x, y, z, w)``, as pybullet and SciPy write them.  Arrays are
float64; shapes are given per function.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

#: Most cyclic sweeps :func:`symmetric_eigen3` makes; Jacobi's method on a 3 x 3
#: matrix reaches round-off in 4 to 6.
JACOBI_SWEEPS = 32


def dot(a, b) -> np.ndarray:
    """Sum over the last axis of ``a * b``, added from the first entry to the last:
    ``a`` (..., k), ``b`` (..., k) broadcast together; returns (...)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    total = a[..., 0] * b[..., 0]
    for i in range(1, a.shape[-1]):
        total = total + a[..., i] * b[..., i]
    return total


def matmul(a, b) -> np.ndarray:
    """``a @ b`` with the inner sum taken in a fixed order: ``a`` (..., n, k) or (k,),
    ``b`` (..., k, m) or (k,), as ``np.matmul`` broadcasts them."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    vector_a, vector_b = a.ndim == 1, b.ndim == 1
    if vector_a:
        a = a[None, :]
    if vector_b:
        b = b[:, None]
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: shapes {a.shape} and {b.shape} do not match")
    total = a[..., :, 0, None] * b[..., None, 0, :]
    for i in range(1, a.shape[-1]):
        total = total + a[..., :, i, None] * b[..., None, i, :]
    if vector_b:
        total = total[..., 0]
    if vector_a:
        total = total[..., 0, :] if not vector_b else total[..., 0]
    return total


def norm(a) -> np.ndarray:
    """Euclidean length over the last axis: ``a`` (..., k); returns (...)."""
    return np.sqrt(dot(a, a))


def cross(a, b) -> np.ndarray:
    """Cross product of ``a`` (..., 3) and ``b`` (..., 3); returns (..., 3)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return np.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                     a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                     a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], axis=-1)


def fsum_rows(values) -> np.ndarray:
    """Exactly rounded sums over the first axis of ``values`` (n, ...) with
    :func:`math.fsum`: the same bits whatever the order or the machine."""
    values = np.asarray(values, dtype=float)
    flat = values.reshape(values.shape[0], -1)
    return np.array([math.fsum(flat[:, j].tolist()) for j in range(flat.shape[1])]
                    ).reshape(values.shape[1:])


# ---------------------------------------------------------------------- rotations
def quat_normalized(q: Sequence[float]) -> np.ndarray:
    """(4,) unit quaternion along ``q`` (x, y, z, w)."""
    q = np.asarray(q, dtype=float)
    length = math.sqrt(math.fsum(float(v) * float(v) for v in q))
    if not length > 0.0:
        raise ValueError(f"a rotation needs a non-zero quaternion, got {q.tolist()}")
    return q / length


def quat_matrix(q: Sequence[float]) -> np.ndarray:
    """(3, 3) rotation matrix of the quaternion ``q`` (x, y, z, w; normalised here)."""
    x, y, z, w = (float(v) for v in quat_normalized(q))
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)]])


def rotate(q: Sequence[float], points) -> np.ndarray:
    """``points`` (..., 3) turned by the quaternion ``q``; returns (..., 3)."""
    return matmul(np.asarray(points, dtype=float), quat_matrix(q).T)


def quat_multiply(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    """(4,) the rotation ``b`` followed by ``a`` (Hamilton product ``a b``)."""
    ax, ay, az, aw = (float(v) for v in a)
    bx, by, bz, bw = (float(v) for v in b)
    return np.array([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz])


def quat_conjugate(q: Sequence[float]) -> np.ndarray:
    """(4,) the inverse rotation of the unit quaternion ``q``."""
    x, y, z, w = (float(v) for v in q)
    return np.array([-x, -y, -z, w])


def quat_from_matrix(m) -> np.ndarray:
    """(4,) unit quaternion (x, y, z, w, with w >= 0) of the rotation matrix ``m``
    (3, 3), by Shepperd's method (the largest of the four squared components is
    taken from the diagonal, the others from the off-diagonal terms)."""
    m = np.asarray(m, dtype=float)
    d0, d1, d2 = float(m[0, 0]), float(m[1, 1]), float(m[2, 2])
    trace = d0 + d1 + d2
    choice = max(range(4), key=lambda i: (d0, d1, d2, trace)[i])
    if choice == 3:
        q = [float(m[2, 1] - m[1, 2]), float(m[0, 2] - m[2, 0]),
             float(m[1, 0] - m[0, 1]), 1.0 + trace]
    else:
        i = choice
        j, k = (i + 1) % 3, (i + 2) % 3
        q = [0.0, 0.0, 0.0, float(m[k, j] - m[j, k])]
        q[i] = 1.0 - trace + 2.0 * float(m[i, i])
        q[j] = float(m[j, i] + m[i, j])
        q[k] = float(m[k, i] + m[i, k])
    q = quat_normalized(q)
    return -q if q[3] < 0.0 else q


def quat_from_rpy(rpy: Sequence[float]) -> np.ndarray:
    """(4,) quaternion of roll-pitch-yaw ``rpy`` (3,) radians, turned about the fixed
    x axis, then y, then z."""
    roll, pitch, yaw = (0.5 * float(v) for v in rpy)
    qx = (math.sin(roll), 0.0, 0.0, math.cos(roll))
    qy = (0.0, math.sin(pitch), 0.0, math.cos(pitch))
    qz = (0.0, 0.0, math.sin(yaw), math.cos(yaw))
    return quat_multiply(qz, quat_multiply(qy, qx))


# ---------------------------------------------------------------------- eigen
def symmetric_eigen3(tensor) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (3,) ascending and eigenvectors (3, 3), one per column, of the
    symmetric ``tensor`` (3, 3), by cyclic Jacobi rotations in Python floats.

    The vectors form a right-handed frame (determinant +1); each one's component of
    largest magnitude is positive, except the last, whose sign makes the frame
    right-handed.  The result depends only on the input's bits."""
    a = [[float(tensor[i][j]) for j in range(3)] for i in range(3)]
    for i in range(3):
        for j in range(i):
            if a[i][j] != a[j][i]:
                a[i][j] = a[j][i] = 0.5 * (a[i][j] + a[j][i])
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _ in range(JACOBI_SWEEPS):
        if a[0][1] == 0.0 and a[0][2] == 0.0 and a[1][2] == 0.0:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if a[p][q] == 0.0:
                continue
            theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
            t = 1.0 / (abs(theta) + math.sqrt(theta * theta + 1.0))
            if theta < 0.0:
                t = -t
            c = 1.0 / math.sqrt(t * t + 1.0)
            s = t * c
            _jacobi_rotate(a, v, p, q, c, s, t)
    order = sorted(range(3), key=lambda i: (a[i][i], i))
    values = np.array([a[i][i] for i in order])
    vectors = np.array([[v[r][i] for i in order] for r in range(3)])
    for col in range(2):
        biggest = max(range(3), key=lambda r: (abs(vectors[r, col]), -r))
        if vectors[biggest, col] < 0.0:
            vectors[:, col] = -vectors[:, col]
    last = cross(vectors[:, 0], vectors[:, 1])
    if dot(last, vectors[:, 2]) < 0.0:
        vectors[:, 2] = -vectors[:, 2]
    return values, vectors


def _jacobi_rotate(a: list[list[float]], v: list[list[float]], p: int, q: int,
                   c: float, s: float, t: float) -> None:
    """One Jacobi rotation in the (p, q) plane that zeroes ``a[p][q]``, applied to
    the symmetric ``a`` and accumulated in the columns of ``v`` (both in place)."""
    apq = a[p][q]
    a[p][p] -= t * apq
    a[q][q] += t * apq
    a[p][q] = a[q][p] = 0.0
    r = 3 - p - q
    arp, arq = a[r][p], a[r][q]
    a[r][p] = a[p][r] = c * arp - s * arq
    a[r][q] = a[q][r] = s * arp + c * arq
    for row in v:
        vp, vq = row[p], row[q]
        row[p] = c * vp - s * vq
        row[q] = s * vp + c * vq


# ---------------------------------------------------------------------- 3-vectors
def dot3(a: Sequence[float], b: Sequence[float]) -> float:
    """``a . b`` of two 3-vectors, in Python floats: the same sum, in the same
    order, as :func:`dot`, at a fraction of its cost on one vector."""
    return float(a[0]) * float(b[0]) + float(a[1]) * float(b[1]) + float(a[2]) * float(b[2])


def norm3(a: Sequence[float]) -> float:
    """Euclidean length of the 3-vector ``a``: the same bits as :func:`norm`."""
    return math.sqrt(dot3(a, a))


def transform_points(matrix, points) -> np.ndarray:
    """``points`` (n, 3) moved by the homogeneous transform ``matrix`` (4, 4): its
    rotation part by :func:`matmul`, then its translation added."""
    matrix = np.asarray(matrix, dtype=float)
    return matmul(np.asarray(points, dtype=float), matrix[:3, :3].T) + matrix[:3, 3]


def unit_circle(n: int) -> np.ndarray:
    """(n, 2) the cosine and sine of the angles 2 pi k / n, k = 0 .. n - 1, each
    from :mod:`math`."""
    angles = [2.0 * math.pi * k / n for k in range(n)]
    return np.array([[math.cos(a), math.sin(a)] for a in angles]).reshape(n, 2)


__all__ = ["JACOBI_SWEEPS", "cross", "dot", "dot3", "fsum_rows", "matmul", "norm",
           "norm3", "quat_conjugate", "quat_from_matrix", "quat_from_rpy", "quat_matrix",
           "quat_multiply", "quat_normalized", "rotate", "symmetric_eigen3",
           "transform_points", "unit_circle"]
