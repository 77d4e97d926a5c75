"""Tuning: run experiments over swept scene values and read how the games play.

A game names its experiments (``Game.experiments``: name -> ``"module:Class"``),
each an :class:`~balance3d.tune.experiment.Experiment`.  Nothing here names a game.
"""
