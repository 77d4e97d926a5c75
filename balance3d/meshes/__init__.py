"""Parts of the three games: explicit meshes, convex pieces, mass properties."""
from balance3d.meshes import builders
from balance3d.meshes.part import Material, Part, make_part
from balance3d.meshes.shapes import Box, Cylinder, Hull, Shape, Sphere

__all__ = ["Box", "Cylinder", "Hull", "Material", "Part", "Shape", "Sphere", "builders",
           "make_part"]
