"""Poses as comparable values (no Panda3D): the view moves a node, and the window
reads a figure from the game again, only when a pose it depends on changed."""
from __future__ import annotations

from collections.abc import Sequence


def pose_key(position: Sequence[float], quat_xyzw: Sequence[float]) -> tuple[float, ...]:
    """A pose (``position`` (3,) m, ``quat_xyzw``) as one tuple of seven floats: two
    poses are the same exactly when their keys are equal."""
    return (*(float(v) for v in position), *(float(v) for v in quat_xyzw))
