"""Bullet collision shapes of parts: the one builder the World and a bare pybullet
loop (the benchmarks') share, so both simulate identical shapes.

Margins.  pybullet gives every piece of a new shape its default margin (0.001
engine units) and has no call that sets a shape's margin: ``changeDynamics`` sets
it through a body.  On a rigid body (the World's bodies: maximal coordinates) that
reaches the body's own shape only: the piece itself when the part is one piece
exactly at the part's origin, but otherwise (several pieces, or one placed off the
origin, be it by round-off) a compound made for that body, whose pieces keep the
default; a compound's own margin only pads its bounding box.  On a multibody it
sets the pieces of a compound too.

A hull piece needs the collision margin from the start: it is shrunk by it, and
Bullet adds its margin outside it.  So :func:`create_collision_shape` sets the
pieces' margin of every shape with a hull piece, before any body uses it, through
a fixed multibody made of the shape and removed again at once (the pieces are
shared by every body later built from the shape).  A box's or cylinder's margin
lies inside it, so its faces are right at any margin; inside a compound (a Tower
letter's boxes, a cylinder off its part's origin by round-off) it keeps pybullet's
default, which rounds its edges to 0.001 engine units instead of the collision
margin.  Giving those the collision margin too was measured to change the Tower
game's towers (see the README's known limits), so it is left as it was.
"""
from __future__ import annotations

import numpy as np

from balance3d.physics.quiet import quiet_output

with quiet_output():
    import pybullet

from balance3d.meshes import solids
from balance3d.meshes.part import Part
from balance3d.meshes.shapes import Box, Cylinder, Sphere
from balance3d.physics.errors import WorldError
from balance3d.physics.hulls import hull_obj_path, shrink_hull
from balance3d.physics.settings import PhysicsSettings

#: m, how far below the table the multibody that sets a new shape's margins stands
#: for its moment in the engine: out of reach of every body (a body below
#: ``-table_extent`` has left the table), so it meets nothing.
MARGIN_BODY_DEPTH = 1000.0


def collision_shape_args(part: Part, settings: PhysicsSettings) -> dict:
    """The engine's shape of ``part``: boxes, cylinders and spheres as Bullet's
    primitives (their margin lies inside them), convex hulls as mesh pieces shrunk
    by the collision margin (Bullet adds a hull's margin outside it, so the shrunk
    hull collides at the part's true surface).  With ``polyhedral_contacts``,
    boxes and hulls are unshrunk polyhedra with Bullet's polyhedral features.  A
    hull's file lists the piece's own vertices and faces (:mod:`hulls`), so these
    arguments and the files they name depend only on the part's bits.

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
                vertices, faces = solids.box(piece.half_extents)
            else:
                vertices, faces = np.asarray(piece.vertices, float), piece.faces
            if poly:
                flag = pybullet.URDF_INITIALIZE_SAT_FEATURES
            else:
                try:
                    vertices = shrink_hull(vertices, faces, s.collision_margin)
                except ValueError as exc:
                    raise WorldError(f"part {part.name!r}: {exc}") from None
            fname = hull_obj_path(vertices * c, faces)
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


def create_collision_shape(client_id: int, args: dict, settings: PhysicsSettings) -> int:
    """Build the shape ``args`` describes (:func:`collision_shape_args`) in pybullet
    client ``client_id``; when it has a hull piece, set every piece's margin to the
    collision margin (see the module docstring).  Returns pybullet's shape id,
    negative when pybullet could not build it.  The World's state is as before: the
    multibody that sets the margins is removed, and the next body built gets the id
    it would have had."""
    shape = pybullet.createCollisionShapeArray(**args, physicsClientId=client_id)
    if shape < 0 or pybullet.GEOM_MESH not in args["shapeTypes"]:
        return shape
    c = settings.length_scale
    holder = pybullet.createMultiBody(
        baseMass=0.0, baseCollisionShapeIndex=shape,
        basePosition=[0.0, 0.0, -MARGIN_BODY_DEPTH * c], useMaximalCoordinates=False,
        physicsClientId=client_id)
    pybullet.changeDynamics(holder, -1, collisionMargin=settings.collision_margin * c,
                            physicsClientId=client_id)
    pybullet.removeBody(holder, physicsClientId=client_id)
    return shape
