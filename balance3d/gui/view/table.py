"""The table view: the World's bodies and the trays' pieces as Panda3D nodes.

One node per body or piece name, placed at its *body-frame* pose (the frame
:meth:`balance3d.physics.World.pose` reports and a tray slot gives): a piece keeps
its node when it moves from a tray into the World.  Call :meth:`TableView.rebuild`
after every finished action (pieces changed place, bodies came or went) and
:meth:`TableView.set_poses` every frame while a turn runs: it moves only the nodes
whose pose changed since they were last placed (a still tower costs no transform
updates, and Panda3D keeps its cached bounds).

The ground (the table) is drawn after every other opaque body: software OpenGL
shades every pixel it draws, and drawn last the table's pixels hidden under the
mats, bases and pieces fail the depth test before they are shaded.  The picture is
the same (the marks float :data:`~balance3d.gui.view.marks.MARK_LIFT` above it).

A game's :class:`~balance3d.gui.games.GameTable` draws on the view through
:meth:`TableView.node` (a body's node: marks parented to it move with it),
:attr:`TableView.decor` (fixed marks on the table, rebuilt with the view) and
:meth:`TableView.overlay` / :meth:`TableView.clear_overlay` (its own overlays),
with the helpers of :mod:`balance3d.gui.view.marks`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from panda3d.core import CullBinEnums, CullBinManager, Filename, NodePath, Point2, Point3
from scipy.spatial.transform import Rotation

from balance3d.games.base import State
from balance3d.gui.games import game_table
from balance3d.gui.view.camera import OrbitCamera
from balance3d.gui.view.grain import apply_grain, is_wood
from balance3d.gui.view.lights import SHADOW_MASK, SHADOW_SIZE, add_lights
from balance3d.gui.view.marks import place
from balance3d.gui.view.meshes import part_node
from balance3d.gui.view.overlays import Overlays
from balance3d.gui.view.poses import pose_key
from balance3d.gui.view.shading import lit_shader
from balance3d.meshes.part import Part
from balance3d.physics.world import World

if TYPE_CHECKING:
    from direct.showbase.ShowBase import ShowBase

#: m, how far a body may sink into the ground's top and still lie on it.
GROUND_TOLERANCE = 0.001
#: RGBA behind the table.
BACKGROUND = (0.16, 0.17, 0.19, 1.0)
#: m, how far the held piece rises from its tray slot; colour scale that lights it.
HELD_LIFT, HELD_GLOW = 0.012, (1.6, 1.6, 1.45, 1.0)
#: Cull bin of the ground bodies and its draw order: after Panda3D's "opaque" bin
#: (20), before "transparent" (30, the ghost).
GROUND_BIN, GROUND_BIN_SORT = "ground", 25


def ground_bin() -> str:
    """The name of the cull bin drawn after the opaque bodies (made once)."""
    bins = CullBinManager.getGlobalPtr()
    if bins.findBin(GROUND_BIN) < 0:
        bins.addBin(GROUND_BIN, CullBinEnums.BT_unsorted, GROUND_BIN_SORT)
    return GROUND_BIN


def ground_bodies(world: World) -> list[str]:
    """Static bodies with nothing below them (their top at or below the lowest
    point of every other body: the table): they receive shadows but cast none,
    which spares the shadow map drawing them."""
    bottoms = {name: float(world.vertices(name)[:, 2].min()) for name in world.names}
    ground = []
    for name in world.names:
        if world.is_static(name):
            top = float(world.vertices(name)[:, 2].max())
            if all(top <= low + GROUND_TOLERANCE for other, low in bottoms.items()
                   if other != name):
                ground.append(name)
    return ground


class TableView:
    """The World's bodies and the trays as Panda3D nodes, synced from poses.

    base : the ShowBase to draw in.  state : the game to show.  shadows : the sun
    casts shadows (``shadow_size`` texels square).
    """

    def __init__(self, base: ShowBase, state: State, *, shadows: bool = True,
                 shadow_size: int = SHADOW_SIZE) -> None:
        self.base = base
        self.root = base.render.attachNewNode("table-view")
        self.table = game_table(state.name)
        self.camera = OrbitCamera(self.table.camera_preset(state))
        self.designer = False
        self.lights = add_lights(self.root, shadows=shadows, shadow_size=shadow_size)
        self.overlays = Overlays(self.root, SHADOW_MASK)
        self._bodies = self.root.attachNewNode("bodies")
        self._nodes: dict[str, NodePath] = {}
        self._placed: dict[str, tuple[float, ...]] = {}
        self.decor = self.root.attachNewNode("decor")
        self.state = state
        self._held: str | None = None
        base.setBackgroundColor(*BACKGROUND)
        self.camera.apply(base.camera, base.camLens)
        self.rebuild(state)

    # ------------------------------------------------------------------ bodies
    def rebuild(self, state: State) -> None:
        """Nodes for every World body (at its pose now) and every tray piece (at its
        slot), the game's decorations and overlays."""
        self.state = state
        self._held = None
        self._bodies.removeNode()
        self.decor.removeNode()
        self._bodies = self.root.attachNewNode("bodies")
        self.decor = self.root.attachNewNode("decor")
        self._nodes = {}
        self._placed = {}
        world = state.world
        for name in world.names:
            self._add(name, world.part(name), *world.pose(name))
        for name in ground_bodies(world):
            self._nodes[name].hide(SHADOW_MASK)
            self._nodes[name].setBin(ground_bin(), 0)
        for tray in self.table.trays(state):
            for piece, (pos, quat) in zip(tray.pieces, tray.slots):
                self._add(piece, self.table.piece_part(state, piece), pos, quat)
        self.table.decorate(self, state)
        self.table.update(self, state, self.designer)

    def _add(self, name: str, part: Part, position, quat) -> NodePath:
        path = self._bodies.attachNewNode(part_node(part, name))
        path.setColor(*self.table.colour(self.state, name))
        if is_wood(part.material.name):
            apply_grain(path)
            path.setShader(lit_shader(textured=True))
        path.setTag("piece", name)
        place(path, position, quat)
        self._nodes[name] = path
        self._placed[name] = pose_key(position, quat)
        return path

    def set_poses(self, poses: Mapping[str, tuple]) -> None:
        """Move each named node to its ``(position (3,) m, quaternion xyzw)`` when
        that differs from where it was last placed; a name without a node yet (a
        piece just dropped into the World) gets one.  Then the game's table updates
        its marks."""
        for name, (pos, quat) in poses.items():
            key = pose_key(pos, quat)
            path = self._nodes.get(name)
            if path is None:
                world = self.state.world
                part = world.part(name) if name in world.names \
                    else self.table.piece_part(self.state, name)
                self._add(name, part, pos, quat)
            elif self._placed.get(name) != key:
                place(path, pos, quat)
                self._placed[name] = key
        self.table.update(self, self.state, self.designer)

    def set_designer(self, on: bool) -> None:
        """Show (``on``) or hide the game's designer overlays (such as a centre of
        mass); contact-force arrows are shown by :meth:`show_forces`."""
        self.designer = bool(on)
        self.table.update(self, self.state, self.designer)

    def node(self, name: str) -> NodePath:
        """The node of body or piece ``name``."""
        try:
            return self._nodes[name]
        except KeyError:
            raise KeyError(f"the table view has no body or piece named {name!r}") from None

    @property
    def names(self) -> list[str]:
        """Names of every body and piece drawn."""
        return list(self._nodes)

    def pick_boxes(self, state: State) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Every tray piece as ``(centre (3,) m, quaternion xyzw, half extents (3,) m)``:
        the box bounding its mesh in its body frame, for picking."""
        boxes = {}
        for tray in self.table.trays(state):
            for piece, (pos, quat) in zip(tray.pieces, tray.slots):
                mesh = self.table.piece_part(state, piece).mesh
                lo, hi = mesh.bounds
                centre = np.asarray(pos, float) + Rotation.from_quat(quat).apply((lo + hi) / 2.0)
                boxes[piece] = (centre, np.asarray(quat, float), (hi - lo) / 2.0)
        return boxes

    # ------------------------------------------------------------------ overlays
    def show_ghost(self, part: Part, pose: tuple | None, legal: bool,
                   held: str | None = None) -> None:
        """The held piece, translucent, at ``pose`` (body frame: position (3,) m,
        quaternion xyzw), in the current seat's colour; grey when ``legal`` is
        False; None hides it.  The tray piece ``held`` (the one picked) rises
        :data:`HELD_LIFT` m from its slot and glows until :meth:`hide_ghost`."""
        seat = self.state.current_player
        colour = None if seat is None else self.table.seat_colour(self.state, seat)
        self.overlays.show_ghost(part, pose, legal, colour)
        if held != self._held:
            self._put_down()
            path = self._nodes.get(held) if held is not None else None
            if path is not None and held not in self.state.world.names:
                path.setZ(path.getZ() + HELD_LIFT)
                path.setColorScale(*HELD_GLOW)
                self._held = held

    def hide_ghost(self) -> None:
        """Hide the ghost; the held tray piece goes back to its slot, unlit."""
        self.overlays.hide_ghost()
        self._put_down()

    @property
    def held(self) -> str | None:
        """The tray piece shown lifted and lit as held, or None."""
        return self._held

    def _put_down(self) -> None:
        if self._held is not None and self._held in self._nodes:
            path = self._nodes[self._held]
            path.setZ(path.getZ() - HELD_LIFT)
            path.clearColorScale()
        self._held = None

    def show_marker(self, point: Sequence[float] | None) -> None:
        """A ring on the surface at ``point`` ((3,) m): where the held piece lands;
        None hides it."""
        self.overlays.show_marker(point)

    def hide_marker(self) -> None:
        self.overlays.hide_marker()

    def show_forces(self, contacts) -> None:
        """Designer: each contact's normal force as an arrow (World.contacts())."""
        self.overlays.show_forces(contacts)

    def hide_forces(self) -> None:
        self.overlays.hide_forces()

    def overlay(self, name: str) -> NodePath:
        """An empty node ``name`` for a game's own overlays (emptied on each call):
        unlit, casting no shadow, drawn over the bodies."""
        return self.overlays.layer(name)

    def find_overlay(self, name: str) -> NodePath | None:
        """The game's overlay ``name`` as it is (None when there is none)."""
        return self.overlays.find(name)

    def clear_overlay(self, name: str) -> None:
        """Remove the game's overlay ``name`` (nothing when there is none)."""
        self.overlays.clear(name)

    # ------------------------------------------------------------------ images
    def frame_size(self) -> tuple[int, int]:
        """(width, height) of the window or buffer, pixels."""
        return self.base.win.getXSize(), self.base.win.getYSize()

    def project(self, point3: Sequence[float]) -> tuple[float, float] | None:
        """Pixel (x right, y down) where world ``point3`` ((3,) m) appears, or None
        when it is behind the camera or outside the view."""
        cam = self.base.cam
        local = cam.getRelativePoint(self.base.render, Point3(*(float(v) for v in point3)))
        film = Point2()
        if not cam.node().getLens().project(local, film):
            return None
        width, height = self.frame_size()
        return (film[0] + 1.0) / 2.0 * width, (1.0 - film[1]) / 2.0 * height

    def render(self) -> None:
        """Draw the current frame (twice: the shadow map is drawn first)."""
        self.camera.apply(self.base.camera, self.base.camLens)
        for _ in range(2):
            self.base.graphicsEngine.renderFrame()

    def image(self) -> np.ndarray:
        """The current frame as (height, width, 3) uint8 RGB, row 0 at the top."""
        self.render()
        texture = self.base.win.getScreenshot()
        if texture is None:
            raise RuntimeError("the window gave no screenshot (is it open?)")
        width, height = texture.getXSize(), texture.getYSize()
        pixels = np.frombuffer(bytes(texture.getRamImageAs("RGB")), dtype=np.uint8)
        return pixels.reshape(height, width, 3)[::-1].copy()

    def screenshot(self, path: str | Path) -> None:
        """Save the current frame as an image file (PNG by its suffix)."""
        self.render()
        if not self.base.win.saveScreenshot(Filename.fromOsSpecific(str(path))):
            raise OSError(f"{path}: could not save the screenshot")

    def destroy(self) -> None:
        """Remove every node this view made."""
        for light in self.lights:
            self.root.clearLight(light)
        self.root.removeNode()



__all__ = ["TableView"]
