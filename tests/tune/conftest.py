"""Fixtures of the tune tests: the box-drop experiment registered on Tilted."""
from __future__ import annotations

import pytest

from balance3d.games import get_game


@pytest.fixture
def box_drop(monkeypatch):
    """Register ``box_drop`` (tests/tune/box_drop_experiment.py) as a Tilted experiment."""
    monkeypatch.setitem(get_game("tilted").experiments, "box_drop",
                        "box_drop_experiment:BoxDrop")
    return "box_drop"


@pytest.fixture
def coin(monkeypatch):
    """Register ``coin`` (tests/tune/coin_experiment.py) as a Tilted experiment."""
    monkeypatch.setitem(get_game("tilted").experiments, "coin", "coin_experiment:Coin")
    return "coin"
