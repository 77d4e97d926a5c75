"""Every outcome of every experiment has a unit (docs/tuning.md's outcome tables),
and the command line and the output folder show it."""
from __future__ import annotations

import json

import pytest

from balance3d.cli import main
from balance3d.games import game_names
from balance3d.tune.experiment import (RATE_UNIT, ExperimentError, experiment_class,
                                       experiment_names, outcome_units)


def test_every_outcome_of_every_experiment_has_a_unit():
    for game in game_names():
        for name in experiment_names(game):
            cls = experiment_class(game, name)
            units = outcome_units(cls)
            assert list(units) == list(cls.outcomes), (game, name)
            assert all(units.values()), (game, name, units)


@pytest.mark.parametrize("game, experiment, outcome, unit", [
    ("tilted", "drops", "rest_x", "m"), ("tilted", "drops", "tipped", RATE_UNIT),
    ("tilted", "games", "winner_score", "coins"),
    ("tribalance", "fields", "tilt_deg", "deg"), ("tribalance", "games", "mean_score", "points"),
    ("tower", "towers", "peak_height", "m"), ("tower", "games", "tallest", "m"),
])
def test_units_follow_the_outcome_tables(game, experiment, outcome, unit):
    assert outcome_units(experiment_class(game, experiment))[outcome] == unit


def test_a_mean_outcome_without_a_unit_is_named():
    class Bare:
        name = "bare"
        outcomes = {"ok": "probability", "distance": "mean"}
        units: dict[str, str] = {}

    with pytest.raises(ExperimentError, match="^experiment bare: outcome 'distance' "
                                              "declares no unit$"):
        outcome_units(Bare)


def test_list_shows_each_outcome_with_its_unit(capsys):
    assert main(["tune", "list", "tower"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "peak_height (mean, m)" in text and f"stood (probability, {RATE_UNIT})" in text


def test_the_output_folder_keeps_the_units(tmp_path, box_drop):
    sweep = tmp_path / "s.toml"
    sweep.write_text('[sweep]\nscene = "tilted"\nexperiment = "box_drop"\n')
    assert main(["tune", str(sweep), "--out", str(tmp_path / "o"), "--workers", "1",
                 "--quiet"]) == 0
    units = json.loads((tmp_path / "o" / "sweep.json").read_text())["units"]
    assert units == {"rest_height": "m", "right_of_aim": RATE_UNIT}
