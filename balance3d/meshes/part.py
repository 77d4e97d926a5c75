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

from dataclasses import dataclass, field

import numpy as np
import trimesh

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
        return self.mesh.extents

    @property
    def shapes_volume(self) -> float:
        """Sum of the convex collision pieces' volumes, m^3."""
        return float(sum(s.volume for s in self.shapes))

    def design_mesh(self) -> trimesh.Trimesh:
        """The mesh in its design frame, as drawn (for export)."""
        return self.mesh.copy().apply_transform(self.design_from_body)


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
    otherwise ``material.density * volume``.  Centre of mass and the full inertia
    tensor come from the mesh (trimesh's mass properties); the body frame is the
    principal frame.
    """
    if not mesh.is_watertight:
        raise ValueError(f"part {name!r}: mesh is not watertight")
    volume = float(mesh.volume)
    if not volume > 0.0:
        raise ValueError(f"part {name!r}: mesh volume must be positive, got {volume}")
    if mass is not None and not (np.isfinite(mass) and mass > 0.0):
        raise ValueError(f"part {name!r}: mass must be a positive number of kg, got {mass}")
    density = mass / volume if mass is not None else material.density
    props = trimesh.Trimesh(mesh.vertices, mesh.faces, process=False)
    props.density = density
    com = np.asarray(props.center_mass, dtype=float)
    tensor = np.asarray(props.moment_inertia, dtype=float)
    off = tensor - np.diag(np.diag(tensor))
    if np.abs(off).max() <= PRINCIPAL_AXIS_TOLERANCE * np.abs(tensor).max():
        rotation = np.eye(3)
        moments = np.diag(tensor).copy()
    else:
        moments, vectors = np.linalg.eigh(tensor)
        if np.linalg.det(vectors) < 0:
            vectors[:, 2] = -vectors[:, 2]
        rotation = vectors.T
    body_from_design = np.eye(4)
    body_from_design[:3, :3] = rotation
    body_from_design[:3, 3] = -rotation @ com
    body_mesh = mesh.copy().apply_transform(body_from_design)
    body_shapes = tuple(transform_shape(s, body_from_design) for s in shapes)
    return Part(
        name=name,
        mesh=body_mesh,
        shapes=body_shapes,
        mass=float(density * volume),
        inertia=moments,
        design_from_body=np.linalg.inv(body_from_design),
        material=material,
        static=static,
        params=dict(params or {}),
    )
