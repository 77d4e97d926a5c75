"""Wood grain: a procedural, tileable texture from a fixed seed (the same on every
machine and run), laid on every part whose material is wood (see :func:`is_wood`).

The texture only darkens (grey levels in [1 - GRAIN_DEPTH, 1]), so a part keeps
its colour's hue and the grain shows as darker late-wood lines running along the
part's x axis (texture coordinates are the body frame's metres, see
:mod:`balance3d.gui.view.meshes`).
"""
from __future__ import annotations

from functools import cache

import numpy as np
from panda3d.core import NodePath, SamplerState, Texture, TextureStage

#: Seed of the grain's generator.
GRAIN_SEED = 20_241_130
#: Texels along each side of the (square) texture.
GRAIN_TEXELS = 256
#: m, the side of the square one texture tile covers on a part.
GRAIN_TILE = 0.25
#: Growth rings per tile, and how much a ring line darkens (0..1).
GRAIN_RINGS, GRAIN_DEPTH = 24, 0.25
#: Random waves that bend the rings: how many, and their strength (in rings).
GRAIN_WAVES, GRAIN_WARP = 5, 0.6
#: Material name that gets the grain, alone or as the end of a name ("beam_wood").
WOOD = "wood"


def is_wood(material: str) -> bool:
    """True for the material names that get the grain: "wood" and "..._wood"."""
    return material == WOOD or material.endswith("_" + WOOD)


def grain_levels(seed: int = GRAIN_SEED, texels: int = GRAIN_TEXELS) -> np.ndarray:
    """(texels, texels) float grey levels in [1 - GRAIN_DEPTH, 1], indexed [v, u]
    (row 0 is v = 0); periodic in both directions, so the texture tiles."""
    rng = np.random.Generator(np.random.PCG64(seed))
    u, v = np.meshgrid(np.arange(texels) / texels, np.arange(texels) / texels)
    warp = np.zeros_like(u)
    for _ in range(GRAIN_WAVES):
        ku, kv = rng.integers(1, 4), rng.integers(0, 3)
        warp += rng.uniform(0.3, 1.0) * np.sin(2 * np.pi * (ku * u + kv * v)
                                               + rng.uniform(0, 2 * np.pi))
    warp *= GRAIN_WARP / GRAIN_WAVES
    rings = (0.5 + 0.5 * np.sin(2 * np.pi * (GRAIN_RINGS * v + warp))) ** 2
    return 1.0 - GRAIN_DEPTH * rings


@cache
def grain_texture() -> Texture:
    """The grain as a repeating, mipmapped RGB texture."""
    levels = np.round(grain_levels() * 255.0).astype(np.uint8)
    texture = Texture("wood-grain")
    texture.setup2dTexture(GRAIN_TEXELS, GRAIN_TEXELS, Texture.T_unsigned_byte, Texture.F_rgb)
    texture.setRamImage(np.repeat(levels[:, :, None], 3, axis=2).tobytes())
    texture.setWrapU(SamplerState.WM_repeat)
    texture.setWrapV(SamplerState.WM_repeat)
    texture.setMinfilter(SamplerState.FT_linear_mipmap_linear)
    texture.setMagfilter(SamplerState.FT_linear)
    return texture


def apply_grain(path: NodePath) -> None:
    """Lay the grain on ``path``, one tile per ``GRAIN_TILE`` metres."""
    path.setTexture(grain_texture())
    path.setTexScale(TextureStage.getDefault(), 1.0 / GRAIN_TILE, 1.0 / GRAIN_TILE)
