"""What the preset camera frames: the table's pieces, trays, fields and mats, fitted
into the part of the window the layout's regions leave free.

:func:`table_points` gathers the corners of everything a player must see (every
body of the World but the table top itself, and every tray piece);
:func:`free_film` turns the layout's free rectangle into the camera's film
coordinates; :func:`frame_table` fits the view's camera to both.
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games.base import State
from balance3d.gui.layout import Layout, Rect
from balance3d.gui.view.table import ground_bodies

#: The eight corners of a unit box, (8, 3), in units of its half extents.
_CORNERS = np.array(list(itertools.product((-1.0, 1.0), repeat=3)))


def table_points(state: State, boxes: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
                 marks: list[tuple[np.ndarray, np.ndarray]] = ()) -> np.ndarray:
    """(n, 3) m: the corners of the bounding box of every World body but the ground
    (the table top, which fills the view), and of every tray piece's box in
    ``boxes`` (piece -> (centre (3,) m, quaternion xyzw, half extents (3,) m), as
    :meth:`~balance3d.gui.view.table.TableView.pick_boxes` gives them), and of
    each ``(low (3,) m, high (3,) m)`` box in ``marks`` (the mats, labels and fields
    the game draws on the table)."""
    world = state.world
    ground = set(ground_bodies(world))
    points = []
    for name in world.names:
        if name in ground:
            continue
        vertices = world.vertices(name)
        lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        points.append((lo + hi) / 2.0 + _CORNERS * (hi - lo) / 2.0)
    for centre, quat, half in boxes.values():
        points.append(np.asarray(centre) + Rotation.from_quat(quat).apply(_CORNERS * half))
    for lo, hi in marks:
        lo, hi = np.asarray(lo, float), np.asarray(hi, float)
        points.append((lo + hi) / 2.0 + _CORNERS * (hi - lo) / 2.0)
    return np.concatenate(points) if points else np.zeros((0, 3))


def mark_boxes(view: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """World bounding boxes ``(low (3,) m, high (3,) m)`` of each of the fixed marks
    the game drew on ``view`` (the children of its ``decor`` node)."""
    boxes = []
    for child in view.decor.getChildren():
        bounds = child.getTightBounds(view.base.render)
        if bounds is not None:
            boxes.append((np.array(bounds[0]), np.array(bounds[1])))
    return boxes


def free_film(rect: Rect, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """Film coordinates (x0, x1, y0, y1; -1..1 across the window, y up) of a pixel
    rectangle of a window of ``size`` (width, height) px."""
    width, height = size
    return (rect.x / width * 2.0 - 1.0, rect.right / width * 2.0 - 1.0,
            1.0 - rect.bottom / height * 2.0, 1.0 - rect.y / height * 2.0)


def frame_table(view: Any, state: State, lay: Layout) -> None:
    """Fit ``view``'s camera (an :class:`~balance3d.gui.view.camera.OrbitCamera`)
    so that the table's points lie in ``lay.free``, and put it there."""
    points = table_points(state, view.pick_boxes(state), mark_boxes(view))
    if len(points) == 0:
        return
    width, height = lay.size
    view.camera.fit(points, free_film(lay.free, lay.size), width / height)
    view.camera.reset()


__all__ = ["frame_table", "free_film", "table_points"]
