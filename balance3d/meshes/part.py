"""Rigid parts: a watertight mesh, its convex collision pieces and its mass properties.

A :class:`Part` is pure data, built once from a *design* mesh (the frame a designer
draws in, e.g. a block's geometric centre) and a density.  Its *body frame* is the
principal frame of the mesh: origin at the centre of mass, axes along the principal
axes of inertia.  Everything a :class:`Part` stores is expressed in that body frame,
so a physics engine can take the inertia as a diagonal.  ``design_from_body`` maps
body-frame points back to the design frame (for export and for placing parts by
their design origin).

Units: metres, kilograms, kg m^2.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import trimesh

from balance3d import numerics
from balance3d.meshes.mass import mass_properties
from balance3d.meshes.shapes import Shape, transform_shape

#: Relative size of an off-diagonal inertia term (against the largest moment) below
#: which the design axes are taken as principal axes, so symmetric parts keep the
#: axes they were drawn with instead of an arbitrary eigenvector basis.
PRINCIPAL_AXIS_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Material:
    """Surface and bulk properties of a material.

    density : kg/m^3.  friction : Coulomb coefficient (Bullet multiplies the two
    bodies' coefficients).  restitution : 0..1.  rolling_friction,
    spinning_friction : Bullet's rolling/spinning resistance coefficients, metres.
    """

    name: str
    density: float
    friction: float
    restitution: float = 0.0
    rolling_friction: float = 0.0
    spinning_friction: float = 0.0


@dataclass(frozen=True, eq=False)
class Part:
    """A rigid part in its principal (body) frame.

    name : identifier used in scenes.  mesh : watertight trimesh, body frame, metres.
    shapes : convex collision pieces, body frame.  mass : kg.
    inertia : (3,) float, principal moments about the centre of mass, kg m^2.
    design_from_body : (4, 4) float, homogeneous transform body frame -> design frame.
    material : surface properties.  static : True for parts that never move
    (table, fulcrum, frame); their mass is still reported but the engine fixes them.
    """

    name: str
    mesh: trimesh.Trimesh
    shapes: tuple[Shape, ...]
    mass: float
    inertia: np.ndarray
    design_from_body: np.ndarray
    material: Material
    static: bool = False
    params: dict = field(default_factory=dict)

    @property
    def extents(self) -> np.ndarray:
        """(3,) float, metres: size of the mesh's axis-aligned box in the body frame."""
        vertices = np.asarray(self.mesh.vertices, dtype=float)
        return vertices.max(axis=0) - vertices.min(axis=0)

    @property
    def shapes_volume(self) -> float:
        """Sum of the convex collision pieces' volumes, m^3."""
        return float(sum(s.volume for s in self.shapes))

    def design_vertices(self) -> np.ndarray:
        """(n, 3) float, metres: the mesh's vertices in the design frame, computed in a
        fixed order (:mod:`balance3d.numerics`), the same bits on every machine."""
        rotation, origin = self.design_from_body[:3, :3], self.design_from_body[:3, 3]
        return numerics.matmul(np.asarray(self.mesh.vertices, dtype=float), rotation.T) + origin

    def design_mesh(self) -> trimesh.Trimesh:
        """The mesh in its design frame, as drawn (for export): a new mesh holding
        :meth:`design_vertices` and the body mesh's faces."""
        return trimesh.Trimesh(self.design_vertices(), np.array(self.mesh.faces),
                               process=False)


def make_part(
    name: str,
    mesh: trimesh.Trimesh,
    shapes: tuple[Shape, ...],
    material: Material,
    *,
    mass: float | None = None,
    static: bool = False,
    params: dict | None = None,
) -> Part:
    """Build a :class:`Part` from a design-frame mesh and collision pieces.

    The mass is ``mass`` when given (kg; the density is then mass / volume),
    otherwise ``material.density * volume``.  Volume, centre of mass and the full
    inertia tensor come from the mesh's vertices and faces by exactly summed
    polyhedral integrals (:mod:`balance3d.meshes.mass`); the body frame is the
    principal frame (:func:`principal_frame`).  Every result depends only on the
    bits of the mesh, not on the CPU or a library's version.
    """
    if not mesh.is_watertight:
        raise ValueError(f"part {name!r}: mesh is not watertight")
    vertices = np.array(mesh.vertices, dtype=float)
    faces = np.array(mesh.faces, dtype=np.int64)
    volume, centre, unit_tensor = mass_properties(vertices, faces)
    if not volume > 0.0:
        raise ValueError(f"part {name!r}: mesh volume must be positive, got {volume}")
    if mass is not None and not (math.isfinite(mass) and mass > 0.0):
        raise ValueError(f"part {name!r}: mass must be a positive number of kg, got {mass}")
    density = mass / volume if mass is not None else material.density
    moments, rotation = principal_frame(unit_tensor * density)
    body = numerics.matmul(vertices - centre, rotation.T)
    design_from_body = np.eye(4)
    design_from_body[:3, :3] = rotation.T
    design_from_body[:3, 3] = centre
    return Part(
        name=name,
        mesh=trimesh.Trimesh(body, faces, process=False),
        shapes=tuple(transform_shape(s, rotation, -centre) for s in shapes),
        mass=float(density * volume),
        inertia=moments,
        design_from_body=design_from_body,
        material=material,
        static=static,
        params=dict(params or {}),
    )


def principal_frame(tensor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Principal moments (3,) and the rotation (3, 3) whose rows are the principal
    axes (design coordinates) of the inertia ``tensor`` (3, 3), kg m^2.

    When every off-diagonal term is within :data:`PRINCIPAL_AXIS_TOLERANCE` of the
    largest term, the design axes are kept (moments: the diagonal, in design axis
    order); otherwise the axes come from :func:`balance3d.numerics.symmetric_eigen3`
    (moments ascending, a right-handed frame), turned half a turn about the first
    when need be so that the first and last axes each have their largest component
    positive (a flat part drawn in xy keeps +z as its last axis)."""
    tensor = np.asarray(tensor, dtype=float)
    largest = float(np.abs(tensor).max())
    off = max(abs(float(tensor[0, 1])), abs(float(tensor[0, 2])), abs(float(tensor[1, 2])))
    if off <= PRINCIPAL_AXIS_TOLERANCE * largest:
        return np.array([tensor[0, 0], tensor[1, 1], tensor[2, 2]]), np.eye(3)
    moments, vectors = numerics.symmetric_eigen3(tensor)
    last = vectors[:, 2]
    if last[max(range(3), key=lambda r: (abs(last[r]), -r))] < 0.0:
        vectors[:, 1:] = -vectors[:, 1:]
    return moments, np.ascontiguousarray(vectors.T)
