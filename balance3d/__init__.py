"""balance3d: a true-3D physics simulator for balance and stacking table games.

The core (meshes, physics, scenes, games, bots, command line) needs no display; the
Panda3D front end in :mod:`balance3d.gui` is imported only when asked for.
"""
__version__ = "0.1.0"
