"""Tilted's tuning experiments, run directly (``cases`` and ``run``): option checks,
determinism, the rules' coins, and the tipping threshold against the mechanics of
the beam on its fulcrum."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from balance3d.games.base import run_to_end
from balance3d.games.tilted.judge import BeamFrame, resting_end
from balance3d.games.tilted.state import TiltedState
from balance3d.resources import scenes_dir
from balance3d.scene import load_scene
from balance3d.tune.experiment import ExperimentError, Jitter, make_experiment

STILL = Jitter(position=0.0, yaw=0.0, height=0.0)


def scene_with_block_density(tmp_path, density: float):
    """The bundled Tilted scene with the 1u block made of ``density`` kg/m^3."""
    path = tmp_path / f"tilted-{density:.0f}.toml"
    path.write_text(f'[scene]\nextends = "{scenes_dir() / "tilted.toml"}"\nname = "t"\n'
                    f'[parts.block_1]\ndensity = {density}\n')
    return load_scene(path)


def critical_block_mass(scene, s: float) -> float:
    """kg: the 1u block whose weight, resting flat at beam-frame ``s`` (m) on the
    high side of the beam lying on its low end, balances the beam's weight about the
    fulcrum's apex (moments about the apex line, beam tilted by asin(apex / L))."""
    L, _, T = (v / 2.0 for v in scene.data["parts"]["beam"]["size"])
    apex = scene.data["parts"]["fulcrum"]["height"]       # m, fulcrum body at z = 0
    side = scene.data["parts"]["block_1"]["size"][2]
    sin = apex / L                                        # low end's corner on the table
    cos = math.sqrt(1.0 - sin ** 2)
    beam = scene.parts["beam"].mass
    # the beam's centre of mass lies T above its contact with the apex, and leans to
    # the low side by T sin; the block's lies 2T + side/2 above that contact
    holding = beam * T * sin
    arm = s * cos - (2.0 * T + side / 2.0) * sin
    return holding / arm


def section_centre(scene, value: int) -> float:
    start, stop, _ = next(row for row in scene.rules["sections"] if row[2] == value)
    return (start + stop) / 2.0


def test_cases_are_every_block_on_every_valued_section():
    scene = load_scene("tilted")
    cases = make_experiment("tilted", "drops").cases(scene)
    values = sorted({row[2] for row in scene.rules["sections"] if row[2] != 0})
    assert len(cases) == 6 * len(values)
    assert {(c["block"], c["section"]) for c in cases} == \
        {(b, v) for b in range(1, 7) for v in values}


def test_a_block_tips_the_beam_above_the_mechanical_threshold_and_not_well_below(tmp_path):
    base = load_scene("tilted")
    s = section_centre(base, 3)
    critical = critical_block_mass(base, s)
    volume = base.parts["block_1"].mesh.volume
    drops = make_experiment("tilted", "drops", {"blocks": [1], "sections": [3]}, STILL)
    case = {"block": 1, "section": 3}
    heavy = drops.run(scene_with_block_density(tmp_path, 2.0 * critical / volume), case,
                      np.random.default_rng(0))
    # "well below": a dropped block lands on its edge on the sloping beam, and that
    # impact tips the beam from about half the static threshold
    light = drops.run(scene_with_block_density(tmp_path, 0.35 * critical / volume), case,
                      np.random.default_rng(0))
    assert heavy["tipped"] and heavy["stays"]
    assert not light["tipped"] and light["stays"]
    # by the rules a tipping drop that stays earns its section's value; none else
    assert heavy["coins"] == 3 and light["coins"] == 0
    # released at the section's centre, it rests within a block's length of it
    side = base.data["parts"]["block_1"]["size"][0]
    assert abs(heavy["rest_x"] - s) < side and abs(light["rest_x"] - s) < side


def test_a_block_laid_on_the_beam_tips_it_within_ten_percent_of_the_mechanics(tmp_path):
    # the statics alone, no drop: the block laid at rest on the high side, aligned
    # with the beam, and settled as the game settles a drop
    base = load_scene("tilted")
    s = section_centre(base, 3)
    critical = critical_block_mass(base, s)
    volume = base.parts["block_1"].mesh.volume
    side = base.data["parts"]["block_1"]["size"][2]
    ends = {}
    for factor in (0.9, 1.1):
        scene = scene_with_block_density(tmp_path, factor * critical / volume)
        state = TiltedState.arranged(1, variant="solo", scene=scene, low_end=-1)
        world = state.world
        frame = BeamFrame.of(world)
        position = frame.to_world([(s, 0.0, frame.half[2] + side / 2.0 + 1e-4)])[0]
        world.add("block", scene.parts["block_1"], tuple(position), tuple(world.pose("beam")[1]))
        run_to_end(state._settling(world))
        ends[factor] = resting_end(world, state.rules.end_rest_gap)
    assert ends == {0.9: -1, 1.1: +1}


def test_a_dropped_block_tips_the_beam_from_about_half_the_static_threshold(tmp_path):
    base = load_scene("tilted")
    critical = critical_block_mass(base, section_centre(base, 3))
    volume = base.parts["block_1"].mesh.volume
    drops = make_experiment("tilted", "drops", {"blocks": [1], "sections": [3]}, STILL)
    tipped = {factor: drops.run(scene_with_block_density(tmp_path, factor * critical / volume),
                                {"block": 1, "section": 3}, np.random.default_rng(0))["tipped"]
              for factor in (0.45, 0.65)}
    assert tipped == {0.45: False, 0.65: True}


def test_a_block_across_the_fulcrum_line_goes_back_and_earns_nothing():
    scene = load_scene("tilted")
    s = section_centre(scene, 3)
    length = scene.data["parts"]["block_6"]["size"][0]
    assert s - length / 2.0 < 0.0      # centred on section 3, a 6u block covers the line
    drops = make_experiment("tilted", "drops", {"blocks": [6], "sections": [3]}, STILL)
    out = drops.run(scene, {"block": 6, "section": 3}, np.random.default_rng(0))
    assert not out["stays"] and out["coins"] == 0


def test_a_load_on_the_low_side_holds_a_light_drop():
    scene = load_scene("tilted")
    case = {"block": 1, "section": 3}
    empty = make_experiment("tilted", "drops", {"blocks": [1], "sections": [3]}, STILL)
    loaded = make_experiment("tilted", "drops", {"blocks": [1], "sections": [3],
                                                 "load": [{"block": 6, "x": -0.2}]}, STILL)
    assert empty.run(scene, case, np.random.default_rng(0))["tipped"]
    # the 6u block's moment at 0.2 m (0.06 kg) dwarfs a 1u block's at 0.056 m (0.01 kg)
    assert not loaded.run(scene, case, np.random.default_rng(0))["tipped"]


def test_the_same_generator_gives_the_same_outcomes_and_jitter_moves_the_block():
    scene = load_scene("tilted")
    drops = make_experiment("tilted", "drops", {"blocks": [2], "sections": [2]},
                            Jitter(position=0.004))
    case = {"block": 2, "section": 2}
    first = drops.run(scene, case, np.random.default_rng(5))
    assert drops.run(scene, case, np.random.default_rng(5)) == first
    assert drops.run(scene, case, np.random.default_rng(6))["rest_x"] != first["rest_x"]
    assert set(first) == set(drops.outcomes)


@pytest.mark.parametrize("options,key", [
    ({"blocks": [0]}, "blocks"), ({"blocks": "2"}, "blocks"), ({"blocks": [2, 2]}, "blocks"),
    ({"side": "low"}, "side"), ({"height": -0.01}, "height"), ({"colour": 1}, "colour"),
    ({"load": [{"block": 3}]}, "load[0]"), ({"load": [{"block": 9, "x": 0.1}]}, "load[0].block"),
    ({"load": [{"block": 3, "x": "left"}]}, "load[0].x"),
])
def test_bad_options_name_the_key(options, key):
    with pytest.raises(ExperimentError, match=rf"^experiment\.{re.escape(key)}: "):
        make_experiment("tilted", "drops", options)


@pytest.mark.parametrize("options,key", [
    ({"sections": [7]}, "sections"), ({"height": 0.5}, "height"),
    ({"load": [{"block": 2, "x": -0.1}] * 5}, "load[4]"),
])
def test_options_the_scene_cannot_serve_name_the_key(options, key):
    drops = make_experiment("tilted", "drops", options)
    with pytest.raises(ExperimentError, match=rf"^experiment\.{re.escape(key)}: "):
        drops.cases(load_scene("tilted"))


def test_bot_games_report_the_game_and_tilted_statistics():
    scene = load_scene("tilted")
    games = make_experiment("tilted", "games", {"bots": "random", "max_turns": 3})
    (case,) = games.cases(scene)
    out = games.run(scene, case, np.random.default_rng(2))
    assert set(out) == set(games.outcomes)
    assert {"tilt_rate", "returned_rate", "coins_per_drop"} <= set(games.outcomes)
    # stopped by the cap: three turns, three drops, no outcome yet
    assert out["turns"] == 3 and out["finished"] is False
    assert math.isnan(out["winner_score"]) and out["first_seat_wins"] is False
    assert 0.0 <= out["tilt_rate"] <= 1.0
    assert out == games.run(scene, case, np.random.default_rng(2))


def test_bot_games_options_are_checked():
    with pytest.raises(ExperimentError, match=r"^experiment\.bots: 'nobody' does not play"):
        make_experiment("tilted", "games", {"bots": "nobody"})
    with pytest.raises(ExperimentError, match=r"^experiment\.bots: must be a bot name or a "
                                              r"list of 3"):
        make_experiment("tilted", "games", {"players": 3, "bots": ["random"]})
    games = make_experiment("tilted", "games", {"players": 5})
    with pytest.raises(ExperimentError, match=r"^experiment\.players: tilted \(basic\) plays "
                                              r"with 2, 3, 4"):
        games.cases(load_scene("tilted"))
