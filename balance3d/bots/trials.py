"""Trying an action in a throw-away copy of a game: a planner's look-ahead.

:func:`try_action` plays an action in a copy of the state to its verdict and drops
the copy; the state is left unchanged.  The copy is :meth:`State.trial_copy`: it
plays on exactly as ``state.clone()`` would (physics is deterministic, so the
verdict is the one the real action will get), but it is not built through JSON, and
it plays in a scratch World that each thread keeps for the scene it last tried
(restored from the state's snapshot at every trial), so a trial builds no pybullet
client and no collision shapes.  A bot object holds no World (bots are copied for
undo).

A trial may end before the action does: with ``read``, :func:`try_action` asks
that reading of the copy's World after every ``rest_check_interval`` of simulated
time while the action runs, and the first answer that is not None ends the trial
(the copy, its turn unfinished, is dropped).  A planner passes a reading that
settles its own question as soon as the World does: a piece lying on the table has
fallen, however long the rest of the table takes to settle; a table on which every
body is welded, and stays so over a whole check, moves no more, so its judge's
reading is the one the action would end with.  A reading only reads the World, so
a trial it does not end gets exactly the verdict it gets without one.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from balance3d.games.base import Action, State, Verdict
from balance3d.physics.world import World, WorldError

#: What a trial's reading answers.
Answer = TypeVar("Answer")
#: Per thread: the scene whose scratch World is kept (``scene``), that World, a
#: token of its last hand-out (``lent``: see :func:`_trade`) and the last trial not
#: kept (``last``: see :func:`keep_last_trial`).
_THREAD = threading.local()


def scratch_world(state: State) -> World:
    """This thread's scratch World for ``state``'s scene (one at a time: a state of
    another scene replaces it).  Whatever it holds is restored away by the next
    :meth:`State.trial_copy`."""
    if getattr(_THREAD, "scene", None) is not state.scene:
        _THREAD.world = World(state.scene.physics)
        _THREAD.scene = state.scene
    _THREAD.lent, _THREAD.last = object(), None
    return _THREAD.world


def _untouched(lent: object, world: World) -> bool:
    """Whether this thread's scratch World is still ``world`` as the trial that got
    it as ``lent`` left it (handed out to nothing since)."""
    return getattr(_THREAD, "lent", None) is lent and _THREAD.world is world


def _trade(lent: object, world: World, theirs: World) -> World | None:
    """``world``, given away for ``theirs`` (a World of the same scene), which
    becomes this thread's scratch World, when :func:`_untouched`; None (nothing
    traded) otherwise."""
    if not _untouched(lent, world):
        return None
    _THREAD.world, _THREAD.lent = theirs, None
    return world


class _Trial:
    """A trial copy's turn, as its trial left it, that may be kept (see
    :func:`try_action`)."""

    def __init__(self, state: State, action: Action, copy: State, turn, lent: object,
                 world: World) -> None:
        self.state, self.action, self.copy, self.turn = state, action, copy, turn
        self.lent, self.world = lent, world

    def keep(self) -> bool:
        """Run the copy's turn on to its verdict and hand the copy to the state;
        whether it was (not when the scratch World has been handed out since, nor
        when the turn raises :class:`WorldError`, which the action itself then
        meets)."""
        if not _untouched(self.lent, self.world):
            return False
        try:
            verdict = self.turn.run()
        except WorldError:
            return False
        self.state.keep_trial(self.action, self.copy, verdict,
                              lambda theirs: _trade(self.lent, self.world, theirs))
        return True


def try_action(state: State, action: Action,
               read: Callable[[World], Answer | None] | None = None,
               keep: Callable[[Verdict | Answer], bool] | None = None) -> Verdict | Answer:
    """The verdict ``action`` gets when played to its end in a copy of ``state``
    (``state`` unchanged), or the first answer of ``read`` (World -> an answer, or
    None to go on: see the module) that is not None; raises what
    :meth:`State.apply` raises.  With ``keep``, a state that keeps trials
    (one with a ``keep_trial(action, copy, verdict, trade)`` method) is handed the copy
    played to its verdict when ``keep(answer)`` says so (an early answer's turn is
    run on to its end first, unless that raises :class:`WorldError`, which the
    action itself then meets): the action played next on the state adopts it, and
    may take the copy's World for its own, giving this thread its old one as the
    scratch World (:func:`_trade`), on this thread and while no trial has used the
    scratch World since.  A trial not kept may still be, until the next trial
    begins: :func:`keep_last_trial`."""
    world = scratch_world(state)
    lent = _THREAD.lent
    copy = state.trial_copy(world)
    turn = copy.begin(action)
    answer = None
    if read is not None:
        settings = copy.world.settings
        chunk = max(1, round(settings.rest_check_interval / settings.time_step))
        while answer is None and turn.advance(chunk) is None:
            answer = read(copy.world)
    if answer is None:
        answer = turn.run()
    trial = _Trial(state, action, copy, turn, lent, world)
    if keep is not None and keep(answer):
        trial.keep()
    else:
        _THREAD.last = trial
    return answer


def keep_last_trial(state: State, action: Action) -> bool:
    """Keep this thread's last trial not kept (as ``keep`` does in
    :func:`try_action`) when it tried ``action`` on ``state`` (unchanged since) and
    no trial has begun since: for a planner that plays an action whose trial it
    ended early.  Whether it was kept."""
    trial, _THREAD.last = getattr(_THREAD, "last", None), None
    if trial is None or trial.state is not state or trial.action != action:
        return False
    return trial.keep()


__all__ = ["keep_last_trial", "scratch_world", "try_action"]
