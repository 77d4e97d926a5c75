"""Tri-Ba-Lance's tuning experiments, run directly (``cases`` and ``run``): option
checks, determinism, and validity against the rolling balance of the plate on its
ball (the mechanics of tests/physics/test_plate.py: a plate of mass M, thickness t
on a ball of radius R tilts by theta = m d / (M (R - t/2) + m (R - y_m)) under a
piece of mass m at d from its centre, its centre of mass y_m above the underside,
and its rim reaching h from the centre comes down by
R (1 - cos theta) + (h - R theta) sin theta)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
from scipy.optimize import brentq

from balance3d.resources import scenes_dir
from balance3d.scene import load_scene
from balance3d.tune.experiment import ExperimentError, Jitter, make_experiment

STILL = Jitter(position=0.0, yaw=0.0, height=0.0)


def scene_with_plate_density(tmp_path, density: float):
    """The bundled Tri-Ba-Lance scene with its plate of ``density`` kg/m^3."""
    path = tmp_path / f"tribalance-{density:.0f}.toml"
    path.write_text(f'[scene]\nextends = "{scenes_dir() / "tribalance.toml"}"\nname = "t"\n'
                    f'[parts.plate]\ndensity = {density}\n')
    return load_scene(path)


def critical_plate_mass(scene, weight: int, field_id: int) -> float:
    """kg: the plate mass at which a lone weight-``weight`` piece on the field
    ``field_id`` (which lies towards a corner) tilts the plate just onto the frame."""
    parts = {b.name: scene.parts[b.part] for b in scene.bodies}
    positions = {b.name: np.asarray(b.position, float) for b in scene.bodies}
    side = float(scene.data["parts"]["plate"]["side"])
    t = float(parts["plate"].extents[2])
    radius = float(parts["ball"].extents[0]) / 2.0
    gap = float(positions["plate"][2] - t / 2.0 - positions["frame"][2])
    reach = side / math.sqrt(3.0)                      # a corner, from the centre
    theta = brentq(lambda th: radius * (1 - math.cos(th))
                   + (reach - radius * th) * math.sin(th) - gap, 1e-6, 0.5)
    piece = scene.parts[scene.rules["piece_parts"][weight - 1]]
    x, y, _ = scene.rules["fields"][field_id]
    d = math.hypot(x, y)
    y_m = t + float(piece.extents[2]) / 2.0
    return piece.mass * (d - theta * (radius - y_m)) / (theta * (radius - t / 2.0))


def test_cases_are_every_weight_on_one_field_of_each_number():
    scene = load_scene("tribalance")
    cases = make_experiment("tribalance", "fields").cases(scene)
    numbers = sorted({row[2] for row in scene.rules["fields"]})
    assert {(c["weight"], c["field"]) for c in cases} == \
        {(w, n) for w in range(1, 6) for n in numbers}
    for c in cases:
        assert scene.rules["fields"][c["field_id"]][2] == c["field"]


def test_a_piece_past_the_frame_threshold_is_invalid_and_below_it_valid(tmp_path):
    base = load_scene("tribalance")
    field_id = 7                                       # numbered 3, on the +y corner's line
    assert base.rules["fields"][field_id][0] == 0.0 and base.rules["fields"][field_id][2] == 3
    critical = critical_plate_mass(base, 3, field_id)
    volume = base.parts["plate"].mesh.volume
    fields = make_experiment("tribalance", "fields", {"weights": [3], "field_ids": [field_id]},
                             STILL)
    (case,) = fields.cases(base)
    # the plate 10% heavier and 10% lighter than the mass that just reaches the frame
    heavy = fields.run(scene_with_plate_density(tmp_path, 1.1 * critical / volume), case,
                       np.random.default_rng(0))
    light = fields.run(scene_with_plate_density(tmp_path, 0.9 * critical / volume), case,
                       np.random.default_rng(0))
    assert heavy["valid"] and not light["valid"]
    assert not heavy["slid_off"] and not light["slid_off"]
    assert heavy["tilt_deg"] < light["tilt_deg"]


def test_a_load_on_the_opposite_side_brings_the_plate_back_off_the_frame():
    scene = load_scene("tribalance")
    alone = make_experiment("tribalance", "fields", {"weights": [5], "field_ids": [7]}, STILL)
    (case,) = alone.cases(scene)
    assert not alone.run(scene, case, np.random.default_rng(0))["valid"]
    # field 10 lies at (0, -0.090): a weight-5 piece there cancels the moment of the
    # one at (0, 0.090)
    assert scene.rules["fields"][10][:2] == [0.0, -scene.rules["fields"][7][1]]
    balanced = make_experiment("tribalance", "fields", {"weights": [5], "field_ids": [7],
                                                        "load": [{"weight": 5, "field_id": 10}]},
                               STILL)
    out = balanced.run(scene, case, np.random.default_rng(0))
    assert out["valid"] and not out["slid_off"]


def test_the_same_generator_gives_the_same_outcomes():
    scene = load_scene("tribalance")
    fields = make_experiment("tribalance", "fields", {"weights": [2], "fields": [3]},
                             Jitter(position=0.004))
    (case,) = fields.cases(scene)
    first = fields.run(scene, case, np.random.default_rng(3))
    assert fields.run(scene, case, np.random.default_rng(3)) == first
    assert fields.run(scene, case, np.random.default_rng(4))["tilt_deg"] != first["tilt_deg"]
    assert set(first) == set(fields.outcomes)


@pytest.mark.parametrize("options,key", [
    ({"weights": [6]}, "weights"), ({"fields": [2], "field_ids": [3]}, "field_ids"),
    ({"load": [{"weight": 2}]}, "load[0]"), ({"load": [{"weight": 7, "field_id": 1}]},
                                             "load[0].weight"), ({"size": 1}, "size"),
])
def test_bad_options_name_the_key(options, key):
    with pytest.raises(ExperimentError, match=rf"^experiment\.{re.escape(key)}: "):
        make_experiment("tribalance", "fields", options)


@pytest.mark.parametrize("options,key", [
    ({"fields": [9]}, "fields"), ({"field_ids": [28]}, "field_ids"),
    ({"field_ids": [4], "load": [{"weight": 1, "field_id": 4}]}, "field_ids"),
    ({"load": [{"weight": 1, "field_id": 4}, {"weight": 2, "field_id": 4}]}, "load[1].field_id"),
])
def test_options_the_scene_cannot_serve_name_the_key(options, key):
    with pytest.raises(ExperimentError, match=rf"^experiment\.{re.escape(key)}: "):
        make_experiment("tribalance", "fields", options).cases(load_scene("tribalance"))


def test_bot_games_report_the_game_and_its_invalid_rate():
    scene = load_scene("tribalance")
    games = make_experiment("tribalance", "games", {"bots": "random"})
    (case,) = games.cases(scene)
    out = games.run(scene, case, np.random.default_rng(1))
    assert set(out) == set(games.outcomes) and "invalid_rate" in out
    for name, kind in games.outcomes.items():  # the runner's check: bools, finite numbers
        assert isinstance(out[name], bool) if kind == "probability" else \
            not isinstance(out[name], bool) and math.isfinite(out[name]), name
    assert out["finished"] and 0.0 <= out["invalid_rate"] <= 1.0
    # the mean of the two seats' scores cannot exceed the winner's
    assert out["mean_score"] <= out["winner_score"]
    # the share of the 26 pieces on the plate at the end, and whether that is all
    assert 0.0 <= out["placed_share"] <= 1.0
    assert out["all_placed"] == (out["placed_share"] == 1.0)
    assert round(26 * out["placed_share"], 9).is_integer()
