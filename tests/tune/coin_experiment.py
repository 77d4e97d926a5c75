"""A physics-free experiment for the fit tests: a coin whose chance of heads is a
known logistic curve of the felt's friction, or a sharp step at a known value."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from scipy import special

from balance3d.scene import Scene
from balance3d.tune.experiment import Experiment

#: the friction at which heads comes up half the time.
MIDDLE = 0.5
#: the logistic's scale: the chance goes from 0.27 to 0.73 over 2 SCALE.
SCALE = 0.05
#: the friction above which the step experiment always gives heads (below, never).
STEP = 0.1585


class Coin(Experiment):
    """One toss: heads with chance expit((friction - MIDDLE) / SCALE) of the scene's
    felt friction (``step = true``: heads exactly when the friction exceeds STEP)."""

    name = "coin"
    game = "tilted"
    description = "toss a coin biased by the felt's friction"
    outcomes = {"heads": "probability", "friction": "mean"}
    units = {"friction": "1"}

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        return [{"side": "up"}]

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        friction = scene.materials["felt"].friction
        if self.options.get("step", False):
            heads = friction > STEP
        else:
            heads = rng.random() < special.expit((friction - MIDDLE) / SCALE)
        return {"heads": bool(heads), "friction": float(friction)}
