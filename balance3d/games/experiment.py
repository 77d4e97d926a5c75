"""What one tuning experiment is: a grid of cases, each run many times from a seed.

An experiment belongs to a game (``Game.experiments`` names its classes, which live
in the game's package and build on this module; nothing here names a game, and
nothing here runs them).  A sweep (:mod:`balance3d.tune`) builds it once from its
``[experiment]`` options and the hand's :class:`Jitter`, asks it for its
:meth:`~Experiment.cases` in each swept scene, and calls :meth:`~Experiment.run`
once per case and repetition with a generator seeded for that run alone.  A run
returns its outcomes, each declared in :attr:`Experiment.outcomes` with how it is
summarised.
"""
from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

import numpy as np

from balance3d.physics.world import World
from balance3d.scene import Scene

#: Outcome kinds: ``"probability"`` outcomes are booleans (summarised as a rate with
#: a Wilson interval), ``"mean"`` outcomes are numbers (mean with a t interval).
OUTCOME_KINDS = ("probability", "mean")


class ExperimentError(ValueError):
    """An experiment name or option is wrong: the message names the key."""


@dataclass(frozen=True)
class Jitter:
    """How far a human hand misses a release it aims at: standard deviations of
    normal errors drawn from each run's generator.

    position : m, along each table axis (x and y) of the release point.
    yaw : rad, about the vertical of the released piece.
    height : m, of the release height; the absolute value of the draw is added, so
        a hand never releases lower than it aims.
    """

    position: float = 0.002
    yaw: float = math.radians(2.0)
    height: float = 0.003

    def __post_init__(self) -> None:
        for name in ("position", "yaw", "height"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) \
                    or not math.isfinite(value) or value < 0:
                raise ExperimentError(f"jitter.{name}: must be a number >= 0, got {value!r}")

    def draw(self, rng: np.random.Generator) -> tuple[float, float, float, float]:
        """One hand's miss: (dx m, dy m, dyaw rad, dheight m >= 0), in that order of
        draws from ``rng``."""
        dx, dy, dyaw, dh = rng.normal(0.0, 1.0, 4)
        return (float(dx * self.position), float(dy * self.position),
                float(dyaw * self.yaw), float(abs(dh) * self.height))


class Experiment(ABC):
    """One kind of tuning run of one game.

    Subclasses set :attr:`name`, :attr:`game`, :attr:`description` and
    :attr:`outcomes`, read their options in ``__init__`` (raising
    :class:`ExperimentError` naming ``experiment.KEY`` for a bad one) and implement
    :meth:`cases` and :meth:`run`.
    """

    #: The experiment's name in sweep files ("drops", "fields", ...).
    name: ClassVar[str]
    #: The registered game it plays.
    game: ClassVar[str]
    #: One line for ``balance3d tune --help`` and the docs.
    description: ClassVar[str]
    #: Outcome name -> kind (one of :data:`OUTCOME_KINDS`).
    outcomes: ClassVar[Mapping[str, str]]
    #: "mean" outcome name -> its unit ("m", "deg", "coins", "per drop"); every mean
    #: outcome has one (a "probability" outcome's unit is :data:`RATE_UNIT`).
    units: ClassVar[Mapping[str, str]] = {}
    #: Option name -> what it sets, its unit and default, for ``balance3d tune list``.
    option_docs: ClassVar[Mapping[str, str]] = {}

    def __init__(self, options: Mapping[str, Any], jitter: Jitter) -> None:
        self.options = dict(options)
        self.jitter = jitter

    @abstractmethod
    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        """The cases run in ``scene`` (e.g. every block size on every section), each a
        dict of JSON scalars; the same options and scene give the same list."""

    @abstractmethod
    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        """Run ``case`` once in ``scene``; every random draw (the hand's jitter, a
        game's seed) comes from ``rng``.  Returns a value for every outcome."""


#: Unit of a "probability" outcome's summary: the share of runs in which it held.
RATE_UNIT = "share of runs"


def outcome_units(experiment: type[Experiment] | Experiment) -> dict[str, str]:
    """Outcome name -> unit of ``experiment`` (a class or an instance), in outcome
    order: :data:`RATE_UNIT` for a probability, the declared unit for a mean
    (:class:`ExperimentError` naming a mean outcome without one)."""
    units = {}
    for name, kind in experiment.outcomes.items():
        if kind == "probability":
            units[name] = RATE_UNIT
        elif name in experiment.units:
            units[name] = experiment.units[name]
        else:
            raise ExperimentError(f"experiment {experiment.name}: outcome {name!r} "
                                  f"declares no unit")
    return units


#: Start worlds an experiment keeps in a worker (one per swept scene seen last).
KEPT_WORLDS = 8


class StartWorlds:
    """Each scene's World at its start, built once and restored on every use: an
    experiment's runs in one worker share it.  Keeps the worlds of the ``size`` scenes
    (by digest) seen last; an older one is dropped."""

    def __init__(self, size: int = KEPT_WORLDS) -> None:
        self.size = size
        self._worlds: dict[str, tuple[World, Any]] = {}

    def restored(self, scene: Scene) -> World:
        """``scene``'s World, restored to the scene's start poses."""
        if scene.digest not in self._worlds:
            if len(self._worlds) >= self.size:
                self._worlds.pop(next(iter(self._worlds)))
            world = scene.build_world()
            self._worlds[scene.digest] = (world, world.snapshot())
        world, start = self._worlds[scene.digest]
        world.restore(start)
        return world
