"""Mass properties of closed triangle meshes by polyhedral integrals.

Each triangle and the origin span a tetrahedron; a closed, outward-wound mesh's
volume, first and second moments are the sums of its tetrahedra's signed ones.  The
terms come from elementwise products in a fixed order and the sums from
:func:`math.fsum` (exactly rounded), so the results depend only on the input bits:
not on the CPU, the BLAS, nor on any mesh library's version.

Units: metres; the tensor is per unit density (m^5; times kg/m^3 gives kg m^2).
"""
from __future__ import annotations

import math

import numpy as np

from balance3d import numerics


def _corners(vertices: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, ...]:
    v = np.asarray(vertices, dtype=float)
    t = np.asarray(triangles, dtype=np.int64)
    return v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]


def volume(vertices: np.ndarray, triangles: np.ndarray) -> float:
    """Volume (m^3) enclosed by the closed, outward-wound ``triangles`` ((m, 3)
    indices into ``vertices`` (n, 3))."""
    a, b, c = _corners(vertices, triangles)
    return math.fsum(numerics.dot(a, numerics.cross(b, c)).tolist()) / 6.0


def mass_properties(vertices: np.ndarray, triangles: np.ndarray
                    ) -> tuple[float, np.ndarray, np.ndarray]:
    """Volume (m^3), centre of volume (3,) m, and inertia tensor about that centre
    per unit density ((3, 3), m^5) of a closed, outward-wound triangle mesh.

    The second moments are taken with the vertices moved to the centre first, so
    no large parallel-axis terms cancel."""
    a, b, c = _corners(vertices, triangles)
    six = numerics.dot(a, numerics.cross(b, c))          # 6 x each tetrahedron's volume
    total = math.fsum(six.tolist()) / 6.0
    centre = numerics.fsum_rows(six[:, None] * ((a + b) + c)) / (24.0 * total)
    a, b, c = a - centre, b - centre, c - centre
    six = numerics.dot(a, numerics.cross(b, c))
    s = (a + b) + c
    pairs = ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))
    terms = np.stack([six * (((a[:, i] * a[:, j] + b[:, i] * b[:, j]) + c[:, i] * c[:, j])
                             + s[:, i] * s[:, j]) for i, j in pairs], axis=1)
    xx, yy, zz, xy, xz, yz = (numerics.fsum_rows(terms) / 120.0).tolist()
    tensor = np.array([[yy + zz, -xy, -xz],
                       [-xy, xx + zz, -yz],
                       [-xz, -yz, xx + yy]])
    return total, centre, tensor
