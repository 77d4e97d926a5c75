"""The 3D table: a Panda3D window that plays any registered game through the same
game API as bots and scripts.

This package is the only one that imports Panda3D; nothing else in balance3d
imports it, so ``import balance3d`` and every headless command work without a
display.  The parts that need no window (the session that plays the game, the drop
gesture, picking maths, the HUD's text, the fixed-step clock) import no Panda3D
either and are tested headless.  Each game adds its own part under
:mod:`balance3d.gui.games`.
"""
