"""Trimesh parts as Panda3D geometry: one flat-shaded ``Geom`` per part, cached.

Every triangle gets its own three vertices carrying the face's normal, so box edges
stay hard under lighting.  Texture coordinates are a box projection in metres
(each face takes the two world axes across it), so a tiling texture such as the wood
grain keeps its scale on parts of every size.  The geometry is in the part's *body*
frame (:attr:`balance3d.meshes.part.Part.mesh`), the frame the World reports poses
in, so a node placed at ``World.pose(name)`` shows the body where physics has it.
"""
from __future__ import annotations

import numpy as np
import trimesh
from panda3d.core import Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat

from balance3d.meshes.part import Part

#: Geoms by part (parts are compared by identity), built once.
_CACHE: dict[Part, Geom] = {}


def mesh_geom(mesh: trimesh.Trimesh) -> Geom:
    """A flat-shaded ``Geom`` of ``mesh`` (metres): positions, face normals and
    box-projected texture coordinates (metres)."""
    faces = np.asarray(mesh.faces, dtype=np.int64)
    corners = np.asarray(mesh.vertices, dtype=np.float64)[faces].reshape(-1, 3)
    normals = np.repeat(np.asarray(mesh.face_normals, dtype=np.float64), 3, axis=0)
    axis = np.abs(normals).argmax(axis=1)
    across = np.array([[1, 2], [0, 2], [0, 1]])[axis]
    uv = np.take_along_axis(corners, across, axis=1)
    rows = np.hstack([corners, normals, uv]).astype(np.float32)
    data = GeomVertexData("part", GeomVertexFormat.getV3n3t2(), Geom.UHStatic)
    data.uncleanSetNumRows(len(rows))
    view = memoryview(data.modifyArray(0)).cast("B")
    view[:] = rows.tobytes()
    triangles = GeomTriangles(Geom.UHStatic)
    triangles.addConsecutiveVertices(0, len(rows))
    triangles.closePrimitive()
    geom = Geom(data)
    geom.addPrimitive(triangles)
    return geom


def part_geom(part: Part) -> Geom:
    """The cached ``Geom`` of ``part``'s body-frame mesh."""
    geom = _CACHE.get(part)
    if geom is None:
        geom = _CACHE[part] = mesh_geom(part.mesh)
    return geom


def part_node(part: Part, name: str) -> GeomNode:
    """A new ``GeomNode`` called ``name`` sharing ``part``'s cached geometry."""
    node = GeomNode(name)
    node.addGeom(part_geom(part))
    return node


def mesh_node(mesh: trimesh.Trimesh, name: str) -> GeomNode:
    """A new ``GeomNode`` called ``name`` holding ``mesh`` (not cached: overlays)."""
    node = GeomNode(name)
    node.addGeom(mesh_geom(mesh))
    return node
