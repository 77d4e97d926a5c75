"""The experiments a sweep runs: each game's, found by name through its registry
entry (``Game.experiments``: name -> ``"module:Class"``).

The experiment interface itself (:class:`Experiment`, :class:`Jitter`,
:class:`ExperimentError`, the outcome kinds and units) belongs to the game layer,
:mod:`balance3d.games.experiment`, where each game's experiments are written; it is
importable from here too, as the tuning API's own.
"""
from __future__ import annotations

import importlib
from typing import Any, Mapping

from balance3d.games import get_game
from balance3d.games.experiment import (KEPT_WORLDS, OUTCOME_KINDS, RATE_UNIT, Experiment,
                                        ExperimentError, Jitter, StartWorlds, outcome_units)


def experiment_names(game: str) -> list[str]:
    """Names of the experiments of the registered ``game``, sorted."""
    return sorted(get_game(game).experiments)


def experiment_class(game: str, name: str) -> type[Experiment]:
    """The class of the experiment ``name`` of ``game`` (:class:`ExperimentError`
    naming the known experiments for an unknown name)."""
    known = get_game(game).experiments
    if name not in known:
        raise ExperimentError(f"sweep.experiment: {game} has no experiment {name!r} "
                              f"(known: {', '.join(sorted(known)) or 'none'})")
    module, _, attr = known[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def make_experiment(game: str, name: str, options: Mapping[str, Any] | None = None,
                    jitter: Jitter | None = None) -> Experiment:
    """The experiment ``name`` of ``game`` built from its options
    (:class:`ExperimentError` naming the known experiments for an unknown name)."""
    return experiment_class(game, name)(options or {}, jitter or Jitter())


__all__ = ["KEPT_WORLDS", "OUTCOME_KINDS", "RATE_UNIT", "Experiment", "ExperimentError",
           "Jitter", "StartWorlds", "experiment_class", "experiment_names", "make_experiment",
           "outcome_units"]
