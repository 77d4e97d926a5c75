"""Trying an action in a throw-away copy of a game: a planner's look-ahead.

:func:`try_action` plays an action in a copy of the state to its verdict and drops
the copy; the state is left unchanged.  The copy is :meth:`State.trial_copy`: it
plays on exactly as ``state.clone()`` would (physics is deterministic, so the
verdict is the one the real action will get), but it is not built through JSON, and
it plays in a scratch World that each thread keeps for the scene it last tried
(restored from the state's snapshot at every trial), so a trial builds no pybullet
client and no collision shapes.  A bot object holds no World (bots are copied for
undo).
"""
from __future__ import annotations

import threading

from balance3d.games.base import Action, State, Verdict
from balance3d.physics.world import World

#: Per thread: the scene whose scratch World is kept (``scene``) and that World.
_THREAD = threading.local()


def scratch_world(state: State) -> World:
    """This thread's scratch World for ``state``'s scene (one at a time: a state of
    another scene replaces it).  Whatever it holds is restored away by the next
    :meth:`State.trial_copy`."""
    if getattr(_THREAD, "scene", None) is not state.scene:
        _THREAD.world = World(state.scene.physics)
        _THREAD.scene = state.scene
    return _THREAD.world


def try_action(state: State, action: Action) -> Verdict:
    """The verdict ``action`` gets when played to its end in a copy of ``state``
    (``state`` unchanged); raises what :meth:`State.apply` raises."""
    return state.trial_copy(scratch_world(state)).apply(action)


__all__ = ["scratch_world", "try_action"]
