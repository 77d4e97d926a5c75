"""Tuning: run experiments over swept scene values and read how the games play.

A game names its experiments (``Game.experiments``: name -> ``"module:Class"``),
each an :class:`~balance3d.games.experiment.Experiment`.  Nothing here names a game.

The notebook API (:mod:`balance3d.tune.api`) is importable from here:
``from balance3d.tune import run_sweep, fit_target, search, sensitivity``.  Those
names are loaded on first use, so ``import balance3d`` imports none of the tune
libraries; no submodule bears any of them.
"""
from __future__ import annotations

from typing import Any

#: The API's functions, loaded from :mod:`balance3d.tune.api` when first asked for.
API = ("run_sweep", "fit_target", "search", "sensitivity")
__all__ = list(API)


def __getattr__(name: str) -> Any:
    if name in API:
        from balance3d.tune import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
