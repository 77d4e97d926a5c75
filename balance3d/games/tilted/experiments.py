"""Tilted's tuning experiments: one judged drop of each block on each section of an
empty or loaded beam (:class:`Drops`), and whole bot games (:class:`TiltedGames`).

Both play by the game's own rules and judge (:class:`TiltedState`); lengths are
metres in the beam frame (x along the beam from its centre line, see
:mod:`~balance3d.games.tilted.judge`).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from balance3d.games.base import Drop, State
from balance3d.games.bot_games import BotGames
from balance3d.games.experiment import Experiment, ExperimentError, Jitter
from balance3d.games.experiment_options import (check_keys, choice, fail, int_list, number,
                                                table_list)
from balance3d.games.experiments import jittered_drop, per_drop_rates
from balance3d.games.tilted.judge import BeamFrame
from balance3d.games.tilted.rules import DIE_FACES, FIND_DROP_HEIGHT, piece_name
from balance3d.games.tilted.state import TiltedState
from balance3d.scene import Scene

#: The beam end (beam-frame x sign) resting on the table before a drop's load is
#: placed: load positions x < 0 lie on the low side.
LOW_END = -1
#: Base states kept per experiment (one per swept scene seen last).
BASE_CACHE = 8


class Drops(Experiment):
    """One drop of a block on a section of the beam, judged by the rules.

    The beam starts resting on its -x end (so x < 0 is its low side).  The load is
    released first, block by block, and settled; then the block is released flat,
    along the beam, over the centre of the section (half-way between its bounds) on
    the side that is high then, on the beam's centre line, at the release height.
    Every release is missed by the hand's jitter (position in x and y, yaw, height).

    Options (defaults):
        blocks : block lengths in u, 1..6 (all six).
        sections : section values to drop on (every non-zero value of the scene's
            ``rules.sections``; a value names the section nearest the centre that
            has it).
        load : blocks on the beam before the drop, ``[{block = 3, x = -0.15}, ...]``:
            length in u and the beam-frame x (m) of its release point, released
            like the drop (flat, along the beam, jittered) and settled in turn
            (none).  A load that tips the beam makes its other side the high one.
        side : where the block is dropped: "high", the only side the rules allow.
        height : m, release height above the surface under the block (0.01, the
            game's own search height; at most the rules' ``max_drop_height``).

    Cases: ``{"block": length u, "section": value}``.  Outcomes:
        tipped : the drop tipped the beam onto its other end (probability).
        stays : the block stays on the beam, judged as the drop settled (probability).
        coins : coins the drop earns by the rules (mean).
        rest_x : m, beam-frame x of the block's centre where it came to rest (on
            the beam, or where it lay when judged if it went back), positive
            towards the end that was high at release (mean).
    """

    name = "drops"
    game = "tilted"
    description = "one judged drop of each block on each section of an empty or loaded beam"
    outcomes = {"tipped": "probability", "stays": "probability", "coins": "mean",
                "rest_x": "mean"}
    units = {"coins": "coins", "rest_x": "m"}
    option_docs = {
        "blocks": "block lengths in u, 1..6 (default all six)",
        "sections": "section values dropped on (default every non-zero one)",
        "load": "blocks placed first, [{block = u, x = m beam frame}]; x < 0 is the low "
                "side (default none)",
        "side": "\"high\", the only side the rules allow (default)",
        "height": "m, release height (default 0.01)",
    }

    def __init__(self, options: Mapping[str, Any], jitter: Jitter) -> None:
        super().__init__(options, jitter)
        check_keys(options, ("blocks", "sections", "load", "side", "height"))
        self.blocks = int_list(options, "blocks", 1, DIE_FACES) or tuple(range(1, DIE_FACES + 1))
        self.sections = int_list(options, "sections", 1)
        self.load = table_list(options, "load", {"block": "int", "x": "number"})
        for i, item in enumerate(self.load):
            if not 1 <= item["block"] <= DIE_FACES:
                raise fail(f"load[{i}].block", f"must be a length 1..{DIE_FACES} u, "
                                               f"got {item['block']}")
        choice(options, "side", "high", ("high",))
        self.height = number(options, "height", FIND_DROP_HEIGHT, low=1e-6, unit="m")
        self._bases: dict[str, TiltedState] = {}

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        rules = TiltedState.game.rules(scene)
        values = [s.value for s in rules.sections if s.value != 0]
        sections = self.sections or tuple(dict.fromkeys(values))
        for value in sections:
            if value not in values:
                raise fail("sections", f"{scene.name} has no section worth {value} "
                                       f"(sections: {', '.join(map(str, dict.fromkeys(values)))})")
        if self.height > rules.max_drop_height:
            raise fail("height", f"{self.height} m is above the rules' max_drop_height "
                                 f"({rules.max_drop_height} m)")
        per_length: dict[int, int] = {}
        for i, item in enumerate(self.load):
            per_length[item["block"]] = per_length.get(item["block"], 0) + 1
            if per_length[item["block"]] > rules.sets - 1:
                raise fail(f"load[{i}]", f"more {item['block']}u blocks than the supply's "
                                         f"{rules.sets - 1}")
        return [{"block": b, "section": s} for b in self.blocks for s in sections]

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        state = self._base(scene).clone()
        rules = state.rules
        if self.load:
            frame = BeamFrame.of(state.world)
            used: dict[int, int] = {}
            drops = []
            for item in self.load:
                used[item["block"]] = used.get(item["block"], 1) + 1
                piece = piece_name(item["block"], used[item["block"]])
                drops.append(self._release(frame, piece, item["x"], rng))
            state.stage(drops)
        frame = BeamFrame.of(state.world)
        high = -state.low_end
        section = next(s for s in rules.sections if s.value == case["section"])
        piece = piece_name(int(case["block"]), 1)
        drop = self._release(frame, piece, high * (section.start + section.stop) / 2.0, rng)
        legal, reason = state.is_legal(drop)
        if not legal:
            raise ExperimentError(f"experiment: the drop of case {dict(case)} is not legal: "
                                  f"{reason}")
        turn = state.begin(drop)
        last = state.world.pose(piece)[0]
        while not turn.done:
            turn.advance()
            if piece in state.world.names:
                last = state.world.pose(piece)[0]
        verdict = turn.verdict
        x = float(BeamFrame.of(state.world).to_beam(last)[0, 0])
        return {"tipped": bool(verdict.tilted), "stays": verdict.value is not None,
                "coins": int(verdict.coins_won), "rest_x": high * x}

    def _release(self, frame: BeamFrame, piece: str, x: float,
                 rng: np.random.Generator) -> Drop:
        """The hand's drop of ``piece`` aimed at beam-frame ``x`` (m) on the beam's
        centre line, flat and along the beam, missed by one draw of the jitter."""
        wx, wy, _ = frame.to_world([(x, 0.0, frame.half[2])])[0]
        yaw = math.atan2(frame.rotation[1, 0], frame.rotation[0, 0])
        return jittered_drop(self.jitter, rng, piece, wx, wy, self.height, yaw, "flat")

    def _base(self, scene: Scene) -> TiltedState:
        """A one-player game of ``scene`` with the beam on its :data:`LOW_END` and
        the player holding a block of every length; kept per scene digest."""
        if scene.digest not in self._bases:
            if len(self._bases) >= BASE_CACHE:
                self._bases.pop(next(iter(self._bases)))
            self._bases[scene.digest] = TiltedState.arranged(1, variant="solo", scene=scene,
                                                             low_end=LOW_END)
        return self._bases[scene.digest]


class TiltedGames(BotGames):
    """Whole Tilted games between bots (see :class:`~balance3d.games.bot_games.BotGames`
    for the options and the generic outcomes), with Tilted's own outcomes:

        tilt_rate : drops that tipped the beam, per drop (mean).
        returned_rate : blocks sent back to the supply, per drop (mean).
        coins_per_drop : coins the bank paid for drops, per drop (mean).
    """

    game = "tilted"
    game_outcomes = {"tilt_rate": "mean", "returned_rate": "mean", "coins_per_drop": "mean"}
    game_units = {"tilt_rate": "per drop", "returned_rate": "per drop",
                  "coins_per_drop": "coins per drop"}
    score_unit = "coins"

    def scores_now(self, state: State) -> tuple[float, ...]:
        """Coins per seat."""
        return tuple(float(c) for c in state.scores)

    def statistics(self, state: State) -> dict[str, bool | int | float]:
        return per_drop_rates(state, "TiltedVerdict", {
            "tilt_rate": lambda v: v["tilted"], "returned_rate": lambda v: len(v["returned"]),
            "coins_per_drop": lambda v: v["coins_won"]})
