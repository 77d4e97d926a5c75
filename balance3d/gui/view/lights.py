"""The table's lights: a soft ambient light, a sun casting shadows and a fill light,
drawn by the view's own shader (:mod:`balance3d.gui.view.shading`).

White lights only, so a part's hue on screen is its colour's hue (the render tests
read colours back).  Nodes hidden from :data:`SHADOW_MASK` (overlays, the ghost)
cast no shadow.
"""
from __future__ import annotations

from panda3d.core import AmbientLight, BitMask32, ColorWriteAttrib, DirectionalLight, NodePath, \
    RenderState, ShaderAttrib

from balance3d.gui.view.shading import depth_shader, lit_shader

#: Camera mask of the sun's shadow camera: hide a node from it to cast no shadow.
SHADOW_MASK = BitMask32.bit(3)
#: Light levels, 0..1 (white).
AMBIENT, SUN, FILL = 0.32, 0.62, 0.18
#: deg, the sun's heading and pitch (from the front left, high up).
SUN_HPR = (-30.0, -60.0, 0.0)
#: deg, the fill light's heading and pitch (from the back right, lower).
FILL_HPR = (150.0, -35.0, 0.0)
#: m, side of the square the sun's shadow camera covers (the whole table) and its
#: near/far distances from the sun's position.
SHADOW_FILM, SHADOW_NEAR, SHADOW_FAR = 1.8, 0.1, 4.0
#: m, how far from the table's centre the sun's shadow camera sits.
SUN_DISTANCE = 2.0
#: Light priorities: the sun first (the shader's light 0, the one with shadows).
SUN_PRIORITY, FILL_PRIORITY = 2, 1
#: Priority of the shadow camera's depth-only shader over the nodes' own shaders.
DEPTH_PRIORITY = 1000
#: Shadow map size in texels (square) unless the view asks for another: 3.5 mm
#: per texel over the table.  Chosen from benchmarks/gui_fps.py (the full beam,
#: pieces moving, a 1280x720 window, Mesa's software OpenGL on 2 cores shared with
#: other jobs): 512 gave a median 38 fps, 1024 28 fps, 2048 13 fps; only 512 meets
#: the 30 fps target there.  1024 draws crisper shadow edges where the machine
#: allows (TableView's ``shadow_size``).
SHADOW_SIZE = 512


def add_lights(root: NodePath, *, shadows: bool, shadow_size: int = SHADOW_SIZE) -> list[NodePath]:
    """Light everything under ``root`` with per-pixel lighting and (when
    ``shadows``) the sun's shadows; the light nodes, parented to root."""
    ambient = AmbientLight("ambient")
    ambient.setColor((AMBIENT, AMBIENT, AMBIENT, 1.0))
    sun = DirectionalLight("sun")
    sun.setColor((SUN, SUN, SUN, 1.0))
    fill = DirectionalLight("fill")
    fill.setColor((FILL, FILL, FILL, 1.0))
    paths = [root.attachNewNode(ambient), root.attachNewNode(sun), root.attachNewNode(fill)]
    paths[1].setHpr(*SUN_HPR)
    paths[1].setPos(paths[1].getQuat().getForward() * -SUN_DISTANCE)
    paths[2].setHpr(*FILL_HPR)
    # the shader reads the sun as p3d_LightSource[0]: Panda3D lists lights by
    # priority, highest first (ties fall to an arbitrary order)
    sun.setPriority(SUN_PRIORITY)
    fill.setPriority(FILL_PRIORITY)
    if shadows:
        sun.setShadowCaster(True, int(shadow_size), int(shadow_size))
        sun.setCameraMask(SHADOW_MASK)
        sun.setInitialState(RenderState.make(
            ShaderAttrib.make(depth_shader(), DEPTH_PRIORITY),
            ColorWriteAttrib.make(ColorWriteAttrib.C_off), DEPTH_PRIORITY))
        lens = sun.getLens()
        lens.setFilmSize(SHADOW_FILM, SHADOW_FILM)
        lens.setNearFar(SHADOW_NEAR, SHADOW_FAR)
    for path in paths:
        root.setLight(path)
    root.setShader(lit_shader())
    root.setShaderInput("shadows", 1.0 if shadows else 0.0)
    return paths
