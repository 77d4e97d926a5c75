"""Tower's tuning experiments: one tower built by drops until it has n pieces or
something falls (:class:`Towers`), and whole bot games (:class:`TowerGames`)."""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np

from balance3d.games.base import State, run_to_end
from balance3d.games.bot_games import BotGames
from balance3d.games.experiment import Experiment, Jitter, StartWorlds
from balance3d.games.experiment_options import check_keys, fail, int_list, is_number, number
from balance3d.games.experiments import jittered_drop, per_drop_rates
from balance3d.games.placement import release_pose
from balance3d.games.tower import physics
from balance3d.games.tower.judge import read_tower, top_piece
from balance3d.games.tower.planner import centre_of_mass_offset
from balance3d.games.tower.rules import TABLE, TowerRules
from balance3d.games.tower.state import TowerState
from balance3d.scene import Scene

#: The base a run builds on (seat 0's).
BASE = TowerState.base(0)
#: rad, the heading every drop aims at: each piece turned like the one below it.
AIM_YAW = 0.0
#: Pieces per tower (default of the ``pieces`` option): a player's 24 pieces.
DEFAULT_PIECES = 24


class Towers(Experiment):
    """One tower built on a base, drop by drop, until it has n pieces or a piece
    falls.

    Each drop releases the next piece at the rules' ``find_drop_height`` above what
    lies under it, its own centre of mass aimed over the centre of mass of the
    tower's top piece (the base's centre for the first piece), turned like the
    pieces below it (:data:`AIM_YAW`: its design x axis along the table's x), flat,
    or on edge for the pieces that stand.  The hand's jitter misses every release,
    and the next piece is aimed at where the last one came to rest.  After each drop the
    World settles as in the game (a piece below the table falls off it) and the
    tower is read by the game's judge: a piece that touches anything but its own
    tower and base, or lost its chain of supports to the base, fell.

    Options (defaults):
        pieces : tower size n, or a list of sizes, one case each (24).
        kinds : the piece parts dropped, cycled (the scene's letter parts, then its
            logo part: T, L, H, logo, T, ...).
        stand : which pieces stand on edge: a fraction 0..1 (spread evenly: piece i,
            0-based, stands when floor((i + 1) f) > floor(i f)) or a list of piece
            indices (none).

    Cases: ``{"pieces": n}``.  Outcomes:
        stood : all n pieces were dropped and none fell (probability).
        height : m, the highest point of the standing pieces above the base's top
            face at the end (mean).
        peak_height : m, the tower's height after the last drop in which nothing
            fell: how tall it stood before it collapsed (mean).
        pieces_before_fall : pieces dropped before the drop in which something fell
            (n when nothing fell) (mean).
    """

    name = "towers"
    game = "tower"
    description = "one tower built by drops until it has n pieces or a piece falls"
    outcomes = {"stood": "probability", "height": "mean", "peak_height": "mean",
                "pieces_before_fall": "mean"}
    units = {"height": "m", "peak_height": "m", "pieces_before_fall": "pieces"}
    option_docs = {
        "pieces": "tower size n, or a list of sizes (default 24)",
        "kinds": "piece parts dropped, cycled (default the letters, then the logo)",
        "stand": "pieces standing on edge: a fraction 0..1 or a list of indices "
                 "(default none)",
    }

    def __init__(self, options: Mapping[str, Any], jitter: Jitter) -> None:
        super().__init__(options, jitter)
        check_keys(options, ("pieces", "kinds", "stand"))
        self.sizes = int_list(options, "pieces", 1) or (DEFAULT_PIECES,)
        kinds = options.get("kinds")
        if kinds is not None and not (isinstance(kinds, list) and kinds
                                      and all(isinstance(k, str) for k in kinds)):
            raise fail("kinds", f"must be a list of part names, got {kinds!r}")
        self.kinds = None if kinds is None else tuple(kinds)
        stand = options.get("stand", 0.0)
        if is_number(stand):
            self.stand_fraction = number(options, "stand", 0.0, high=1.0)
            self.stand_indices: tuple[int, ...] = ()
        else:
            self.stand_fraction = 0.0
            self.stand_indices = int_list(options, "stand", 0) or ()
        self._worlds = StartWorlds()

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        rules = self._rules(scene)
        pieces = {*rules.letter_parts, rules.logo_part}
        for kind in self.kinds or ():
            if kind not in pieces:
                raise fail("kinds", f"{kind!r} is not a piece part of {scene.name} (pieces: "
                                    f"{', '.join(sorted(pieces))})")
        return [{"pieces": n} for n in self.sizes]

    def stands(self, index: int) -> bool:
        """Whether the piece dropped ``index``-th (0-based) stands on edge."""
        f = self.stand_fraction
        return index in self.stand_indices or math.floor((index + 1) * f) > math.floor(index * f)

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        rules = self._rules(scene)
        kinds = self.kinds or (*rules.letter_parts, rules.logo_part)
        world = self._worlds.restored(scene)
        floor = float(world.vertices(TABLE)[:, 2].max()) - rules.off_table_depth
        base_xy = np.mean(world.vertices(BASE)[:, :2], axis=0)
        n = int(case["pieces"])
        tower: list[str] = []
        fell, peak = False, 0.0
        for i in range(n):
            name = f"piece-{i}"
            part = scene.parts[kinds[i % len(kinds)]]
            top = top_piece(world, tower)
            spot = base_xy if top is None else physics.centre_of_mass(world, [top])[:2]
            pose = "edge" if self.stands(i) else "flat"
            dx, dy = centre_of_mass_offset(part, pose, AIM_YAW)
            drop = jittered_drop(self.jitter, rng, name, spot[0] - dx, spot[1] - dy,
                                 rules.find_drop_height, AIM_YAW, pose)
            position, orientation = release_pose(world, part, drop)
            world.drop(name, part, position, orientation)
            tower.append(name)
            run_to_end(physics.settling_on_table(world, floor))
            reading = read_tower(world, BASE, tower)
            if reading.fallen:
                fell = True
                break
            peak = max(peak, physics.tower_height(world, BASE, tower))
        standing = list(read_tower(world, BASE, tower).levels)
        return {"stood": not fell, "height": physics.tower_height(world, BASE, standing),
                "peak_height": peak, "pieces_before_fall": len(tower) - 1 if fell else n}

    def _rules(self, scene: Scene) -> TowerRules:
        return TowerState.game.rules(scene)


class TowerGames(BotGames):
    """Whole Tower games between bots (see :class:`~balance3d.games.bot_games.BotGames`
    for the options and the generic outcomes), with Tower's own:

        fall_rate : drops in which a piece fell, per drop (mean).
        knock_rate : drops that knocked another tower, per drop (mean).
        tallest : m, the tallest tower at the end (mean).
    """

    game = "tower"
    game_outcomes = {"fall_rate": "mean", "knock_rate": "mean", "tallest": "mean"}
    game_units = {"fall_rate": "per drop", "knock_rate": "per drop", "tallest": "m"}
    score_unit = "m"

    def scores_now(self, state: State) -> tuple[float, ...]:
        """Tower heights per seat, m."""
        return tuple(float(h) for h in state.heights)

    def statistics(self, state: State) -> dict[str, bool | int | float]:
        return {**per_drop_rates(state, "TowerDropVerdict", {
            "fall_rate": lambda v: bool(v["fallen"]), "knock_rate": lambda v: bool(v["knocked"])}),
            "tallest": float(max(state.heights))}
