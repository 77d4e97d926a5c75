"""A tiny generic experiment for the tune tests: drop one box of the scene onto the
bare table beside the game's bodies and let it settle."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from balance3d.scene import Scene, rpy_to_quat
from balance3d.tune.experiment import Experiment, ExperimentError

#: m, where the box is aimed: on the table, clear of the beam and the fulcrum.
AIM = (0.0, 0.20)
#: m, height of the box's centre above the table top at release.
RELEASE_HEIGHT = 0.05


class BoxDrop(Experiment):
    """Drop each part named in option ``parts`` (boxes) flat onto the table."""

    name = "box_drop"
    game = "tilted"
    description = "drop one box onto the bare table and let it settle"
    outcomes = {"rest_height": "mean", "right_of_aim": "probability"}
    units = {"rest_height": "m"}
    option_docs = {"parts": "the box parts dropped, one case each (default [\"block_1\"])"}

    def __init__(self, options, jitter) -> None:
        super().__init__(options, jitter)
        extra = sorted(set(self.options) - {"parts"})
        if extra:
            raise ExperimentError(f"experiment.{extra[0]}: unknown option (known: parts)")
        parts = self.options.get("parts", ["block_1"])
        if not isinstance(parts, list) or not parts:
            raise ExperimentError(f"experiment.parts: must be a list of part names, "
                                  f"got {parts!r}")
        self.parts = parts

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        for part in self.parts:
            if part not in scene.parts:
                raise ExperimentError(f"experiment.parts: no part {part!r} in the scene")
        return [{"part": part} for part in self.parts]

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        dx, dy, dyaw, dh = self.jitter.draw(rng)
        world = scene.build_world()
        try:
            part = scene.parts[case["part"]]
            world.drop("box", part, (AIM[0] + dx, AIM[1] + dy, RELEASE_HEIGHT + dh),
                       rpy_to_quat((0.0, 0.0, dyaw)))
            world.settle()
            position, _ = world.pose("box")
        finally:
            world.close()
        return {"rest_height": float(position[2]), "right_of_aim": bool(position[0] > AIM[0])}
