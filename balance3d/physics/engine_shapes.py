"""Bullet collision shapes of parts: the one builder the World and a bare pybullet
loop (the benchmarks') share, so both simulate identical shapes."""
from __future__ import annotations

import numpy as np

from balance3d.physics.quiet import quiet_output

with quiet_output():
    import pybullet

from balance3d.meshes.part import Part
from balance3d.meshes.shapes import Box, Cylinder, Sphere
from balance3d.physics.errors import WorldError
from balance3d.physics.hulls import hull_obj_path, shrink_hull
from balance3d.physics.settings import PhysicsSettings


def collision_shape_args(part: Part, settings: PhysicsSettings) -> dict:
    """The engine's shape of ``part``: boxes, cylinders and spheres as Bullet's
    primitives (their margin lies inside them), convex hulls as mesh pieces shrunk
    by the collision margin (Bullet adds a hull's margin outside it, so the shrunk
    hull collides at the part's true surface).  With ``polyhedral_contacts``,
    boxes and hulls are unshrunk polyhedra with Bullet's polyhedral features.

    Returns the keyword arguments of pybullet's ``createCollisionShapeArray`` (engine
    units), so the World and a bare pybullet loop build identical shapes.
    """
    s = settings
    c, poly = s.length_scale, s.polyhedral_contacts
    types, radii, halves, lengths, files, flags = [], [], [], [], [], []
    positions, orientations = [], []
    for piece in part.shapes:
        radius, half, length, fname, flag = 0.0, (0.0, 0.0, 0.0), 0.0, "", 0
        if isinstance(piece, Box) and not poly:
            types.append(pybullet.GEOM_BOX)
            half = tuple(h * c for h in piece.half_extents)
        elif isinstance(piece, Cylinder):
            types.append(pybullet.GEOM_CYLINDER)
            radius, length = piece.radius * c, piece.height * c
        elif isinstance(piece, Sphere):
            types.append(pybullet.GEOM_SPHERE)
            radius = piece.radius * c
        else:
            types.append(pybullet.GEOM_MESH)
            if isinstance(piece, Box):
                vertices = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1)
                                     for z in (-1, 1)], float) * piece.half_extents
            else:
                vertices = np.asarray(piece.vertices, float)
            if poly:
                flag = pybullet.URDF_INITIALIZE_SAT_FEATURES
            else:
                try:
                    vertices = shrink_hull(vertices, s.collision_margin)
                except ValueError as exc:
                    raise WorldError(f"part {part.name!r}: {exc}") from None
            fname = hull_obj_path(vertices * c)
        radii.append(radius)
        halves.append(half)
        lengths.append(length)
        files.append(fname)
        flags.append(flag)
        positions.append([v * c for v in piece.position])
        orientations.append(list(piece.orientation))
    return dict(
        shapeTypes=types, radii=radii, halfExtents=halves, lengths=lengths,
        fileNames=files, meshScales=[[1.0, 1.0, 1.0]] * len(types), flags=flags,
        collisionFramePositions=positions, collisionFrameOrientations=orientations)
