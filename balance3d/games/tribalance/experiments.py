"""Tri-Ba-Lance's tuning experiments: one piece placed on each field of an empty or
loaded plate, judged as the game judges a placement (:class:`Fields`), and whole
bot games (:class:`TribalanceGames`)."""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from balance3d.games.base import State, run_to_end
from balance3d.games.bot_games import BotGames, rate, verdicts
from balance3d.games.experiment import Experiment, Jitter, StartWorlds
from balance3d.games.experiment_options import check_keys, fail, int_list, table_list
from balance3d.games.tribalance.judge import PlateFrame
from balance3d.games.tribalance.placing import read, release_pose, settle_still
from balance3d.games.tribalance.rules import PLATE, WEIGHTS, TribalanceRules
from balance3d.games.tribalance.state import TribalanceState
from balance3d.physics.world import World
from balance3d.scene import Scene

#: Body name of the piece a run places (its load pieces are "load-0", "load-1", ...).
PIECE = "piece"


class Fields(Experiment):
    """One piece placed on a field of the plate, judged as the game judges a
    placement.

    A run starts from the scene's start (the plate level on the ball), places the
    load's pieces one by one, each settled until the plate is still, then places
    the piece and settles until still.  A placement lowers the piece upright onto
    its field's centre, its underside ``rules.release_gap`` above the plate, as the
    game does, missed by the hand's jitter: position along the plate's own x and y,
    height added to the gap (pieces are round: the yaw is drawn, not used).

    Options (defaults):
        weights : piece weights, 1..5 (all five).
        fields : field numbers to place on (every number the scene's fields have);
            each number stands for its first field by index that the load leaves
            free (the fields of a number lie at the same distance from the centre,
            towards the same kind of plate corner or side).
        field_ids : field indices (0-based, ``rules.fields`` order) instead of
            ``fields``.
        load : pieces on the plate before the placement, ``[{weight = 2,
            field_id = 4}, ...]`` (none).

    Cases: ``{"weight": w, "field": number, "field_id": index}``.  Outcomes:
        valid : the plate does not rest on the frame once still (probability).
        tilt_deg : the still plate's tilt, degrees (mean).
        slid_off : some piece (the placed one or the load) left the plate
            (probability).
    """

    name = "fields"
    game = "tribalance"
    description = "one piece placed on each field of an empty or loaded plate"
    outcomes = {"valid": "probability", "tilt_deg": "mean", "slid_off": "probability"}
    units = {"tilt_deg": "deg"}
    option_docs = {
        "weights": "piece weights 1..5 (default all five)",
        "fields": "field numbers, each its first free field (default every number)",
        "field_ids": "field indices instead of numbers",
        "load": "pieces placed first, [{weight = w, field_id = i}] (default none)",
    }

    def __init__(self, options: Mapping[str, Any], jitter: Jitter) -> None:
        super().__init__(options, jitter)
        check_keys(options, ("weights", "fields", "field_ids", "load"))
        self.weights = int_list(options, "weights", WEIGHTS[0], WEIGHTS[-1]) or WEIGHTS
        if "fields" in options and "field_ids" in options:
            raise fail("field_ids", "give fields (numbers) or field_ids (indices), not both")
        self.numbers = int_list(options, "fields", 1)
        self.field_ids = int_list(options, "field_ids", 0)
        self.load = table_list(options, "load", {"weight": "int", "field_id": "int"})
        for i, item in enumerate(self.load):
            if item["weight"] not in WEIGHTS:
                raise fail(f"load[{i}].weight", f"must be 1..5, got {item['weight']}")
        self._worlds = StartWorlds()

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        fields = self._rules(scene).fields
        taken = set()
        for i, item in enumerate(self.load):
            if not 0 <= item["field_id"] < len(fields):
                raise fail(f"load[{i}].field_id", f"{scene.name} has fields 0.."
                                                  f"{len(fields) - 1}, not {item['field_id']}")
            if item["field_id"] in taken:
                raise fail(f"load[{i}].field_id", f"field {item['field_id']} is loaded twice")
            taken.add(item["field_id"])
        if self.field_ids is not None:
            for index in self.field_ids:
                if not 0 <= index < len(fields) or index in taken:
                    raise fail("field_ids", f"{index} is not a free field of {scene.name} "
                                            f"(fields 0..{len(fields) - 1}, loaded: "
                                            f"{sorted(taken) or 'none'})")
            chosen = list(self.field_ids)
        else:
            numbers = list(dict.fromkeys(f.number for f in fields))
            chosen = []
            for number in self.numbers or sorted(numbers):
                free = [i for i, f in enumerate(fields) if f.number == number and i not in taken]
                if not free:
                    raise fail("fields", f"{scene.name} has no free field numbered {number} "
                                         f"(numbers: {', '.join(map(str, sorted(numbers)))})")
                chosen.append(free[0])
        return [{"weight": w, "field": fields[i].number, "field_id": i}
                for w in self.weights for i in chosen]

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        rules = self._rules(scene)
        world = self._worlds.restored(scene)
        side = float(scene.data["parts"][world.part(PLATE).name]["side"])
        on_board = []
        for i, item in enumerate(self.load):
            on_board.append(self._place(world, scene, rules, side, f"load-{i}",
                                        item["weight"], item["field_id"], rng))
            run_to_end(settle_still(world, rules))
        on_board.append(self._place(world, scene, rules, side, PIECE, int(case["weight"]),
                                    int(case["field_id"]), rng))
        run_to_end(settle_still(world, rules))
        judged = read(world, rules, side, on_board)
        return {"valid": not judged.frame, "tilt_deg": math.degrees(judged.tilt),
                "slid_off": any(p not in judged.on_plate for p in on_board)}

    def _place(self, world: World, scene: Scene, rules: TribalanceRules, side: float,
               name: str, weight: int, field_id: int, rng: np.random.Generator) -> str:
        """Release the weight-``weight`` piece ``name`` on field ``field_id`` as the
        game does, missed by one draw of the jitter; its name."""
        dx, dy, _, dh = self.jitter.draw(rng)
        field = rules.fields[field_id]
        part = scene.parts[rules.piece_parts[weight - 1]]
        pos, quat = release_pose(PlateFrame.of(world, side), part, field.x + dx, field.y + dy,
                                 rules.release_gap + dh)
        world.drop(name, part, pos, quat)
        return name

    def _rules(self, scene: Scene) -> TribalanceRules:
        return TribalanceState.game.rules(scene)


class TribalanceGames(BotGames):
    """Whole Tri-Ba-Lance games between bots (see
    :class:`~balance3d.games.bot_games.BotGames` for the options and the generic
    outcomes), with Tri-Ba-Lance's own:

        invalid_rate : placements that left the plate on the frame, per placement
            (mean).
        slid_off_rate : pieces that slid off the plate, per placement (mean).
        passes : passes (mean).
        placed_share : pieces on the plate at the end, per piece in play (mean).
        all_placed : every piece in play is on the plate at the end (probability).
    """

    game = "tribalance"
    game_outcomes = {"invalid_rate": "mean", "slid_off_rate": "mean", "passes": "mean",
                     "placed_share": "mean", "all_placed": "probability"}
    game_units = {"invalid_rate": "per placement", "slid_off_rate": "per placement",
                  "passes": "passes", "placed_share": "of the pieces"}
    score_unit = "points"

    def scores_now(self, state: State) -> tuple[float, ...]:
        """Points per seat, as the end would count them now."""
        return tuple(float(s) for s in state.scores)

    def statistics(self, state: State) -> dict[str, bool | int | float]:
        places = verdicts(state, "TribalanceVerdict")
        held = sum(len(state.hand(seat)) for seat in range(len(state.players)))
        return {"invalid_rate": rate(sum(not v["valid"] for v in places), len(places)),
                "slid_off_rate": rate(sum(len(v["slid_off"]) for v in places), len(places)),
                "passes": len(verdicts(state, "TribalancePassVerdict")),
                "placed_share": rate(len(state.placed), len(state.placed) + held),
                "all_placed": held == 0}
