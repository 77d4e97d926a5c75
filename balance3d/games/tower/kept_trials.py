"""A drop tried to its end in a trial copy, kept so that playing it adopts the result.

A planner tries a drop in a trial copy (:func:`balance3d.bots.trials.try_action`)
and plays it for real when it stands: the same physics again, from the same
snapshot, to the same verdict bit for bit (a trial copy plays on exactly as the
state would).  A trial run to its verdict can be kept instead
(:meth:`~balance3d.games.tower.state.TowerState.keep_trial`): what the copy ended
with (its snapshot, game, generator, clock and events).  Applying the same drop on
the state, still exactly as the copy was made from it, then adopts that instead of
playing it again.  The state's World becomes the copy's, restored from the new
snapshot and read since exactly as the state's own would have been, when the trial
machinery can trade it for the state's old one (``trade``); else the state's own
World is restored from the new snapshot when next read.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from balance3d.games.base import Action, Event, Verdict
from balance3d.physics.bodies import Snapshot
from balance3d.physics.world import World

if TYPE_CHECKING:
    from balance3d.games.tower.state import TowerState


def _start_key(state: TowerState) -> str:
    """What a drop's outcome depends on besides the snapshot and the drop: the turn
    counter, the generator's state and the game's state, as JSON text."""
    return json.dumps([state.turn, state.rng.bit_generator.state, state._state_dict()],
                      sort_keys=True)


@dataclass(frozen=True)
class KeptTrial:
    """``action`` played to ``verdict`` from the state whose snapshot is ``start``
    (this very object) and whose :func:`_start_key` is ``start_key``; the state it
    ended in: ``turn``, generator state ``rng``, game state ``game`` (JSON text),
    the ``events`` logged, the between-turns ``snapshot`` and its readings
    ``landed`` (see ``TurnsMixin._on_snapshot``)."""

    action: Action
    start: Snapshot
    start_key: str
    verdict: Verdict
    turn: int
    rng: dict[str, Any]
    game: str
    events: tuple[Event, ...]
    snapshot: Snapshot
    landed: tuple | None
    trade: Callable[[World], World | None] | None = None

    @classmethod
    def of(cls, state: TowerState, action: Action, copy: TowerState, verdict: Verdict,
           trade: Callable[[World], World | None] | None = None) -> "KeptTrial":
        """The trial of ``action`` that ``copy``, a trial copy of ``state`` (which
        has not changed since), played to ``verdict``; ``trade`` (see the class)."""
        return cls(action, state._snapshot, _start_key(state), verdict, copy.turn,
                   copy.rng.bit_generator.state, json.dumps(copy._state_dict()),
                   tuple(copy.events), copy._snapshot, copy._landed, trade)

    def fits(self, state: TowerState, action: Action) -> bool:
        """Whether playing ``action`` on ``state`` now is this trial: the same
        action from the same snapshot and the same game, turn and generator."""
        return (action == self.action and state._snapshot is self.start
                and _start_key(state) == self.start_key)

    def adopt(self, state: TowerState) -> Verdict:
        """Put ``state`` where the trial ended (its World traded for the copy's, or
        to be restored from the new snapshot when next read); the trial's verdict."""
        state.turn = self.turn
        state.rng.bit_generator.state = self.rng
        state._load_state_dict(json.loads(self.game))
        state.events.extend(self.events)
        state._snapshot = self.snapshot
        state._landed = self.landed
        if state._world is None:
            return self.verdict
        traded = self.trade(state._world) if self.trade is not None else None
        if traded is not None:
            state._world = traded
        else:
            state._spare, state._world = state._world, None
        return self.verdict


__all__ = ["KeptTrial"]
