"""Tilted rules that a wrong judge could get past the other tests: each case is played
on the real physics and checked against the rules.

* *Tilted* means the beam rests with its other end **on the table**: a beam that
  comes to rest on neither end has not tilted.
* The penalty for returned blocks is paid **before** the coins for the drop: a
  player with no coin pays nothing, then receives the drop's coins.
* A block across the fulcrum line stays (frozen) only while a block that stays rests
  on it: a pile of crossing blocks goes back to the supply whole, at once.

Positions are given in the beam's frame: ``s`` m along the beam from its centre line,
``t`` m across it.  Every situation starts with the beam's +x end on the table, so
the high side is ``s < 0``.  Expected values come from the scene file's rules (the
literals below), not from the game's parser.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games import Drop
from balance3d.games.tilted import TiltedState
from balance3d.scene import load_scene, resolve_scene_path

ACROSS = math.pi / 2      # yaw of a block lying across the beam
#: Coins in the bundled Tilted scene and its penalty per returned block (rules).
COINS, PENALTY = 20, 1
#: m, the scene's end_rest_gap: an end this close to the table rests on it.
END_REST_GAP = 0.002
#: m, a static prop standing on the table under the beam's -x end: its top holds
#: that end about 19 mm above the table when the beam tips onto it.
PROP_SIZE = (0.04, 0.08, 0.02)
PROP_X = -0.27


def beam_point(state: TiltedState, s: float, t: float = 0.0) -> tuple[float, float]:
    """World (x, y) (m) of the beam's top-face point (s, t) (beam frame, m)."""
    world = state.world
    position, quat = world.pose("beam")
    half_thickness = world.part("beam").extents[2] / 2.0
    point = Rotation.from_quat(quat).apply((s, t, half_thickness)) + position
    return float(point[0]), float(point[1])


def drop(state: TiltedState, piece: str, s: float, t: float = 0.0, *, height: float = 0.002,
         yaw: float = 0.0, pose: str = "flat") -> Drop:
    """A drop of ``piece`` released ``height`` m above the beam point (s, t)."""
    x, y = beam_point(state, s, t)
    return Drop(piece, x, y, height, yaw=yaw, pose=pose)


def end_gaps(state: TiltedState) -> dict[int, float]:
    """Height (m) of each beam end's lowest corner above the table top (z = 0)."""
    world = state.world
    position, quat = world.pose("beam")
    length, width, thickness = np.asarray(world.part("beam").extents) / 2.0
    rotation = Rotation.from_quat(quat)
    gaps = {}
    for end in (+1, -1):
        corners = [(end * length, t, z) for t in (-width, width)
                   for z in (-thickness, thickness)]
        gaps[end] = float((rotation.apply(corners) + position)[:, 2].min())
    return gaps


def propped_scene(folder: Path):
    """The bundled Tilted scene with a static prop under the beam's -x end, and the
    beam starting on its +x end."""
    path = folder / "tilted-propped.toml"
    path.write_text(f"""\
[scene]
extends = "{resolve_scene_path('tilted').as_posix()}"
name = "tilted-propped"
description = "Tilted with a prop holding the -x end off the table."

[parts.prop]
kind = "box"
size = [{PROP_SIZE[0]}, {PROP_SIZE[1]}, {PROP_SIZE[2]}]
material = "wood"
static = true

[[bodies]]
name = "prop"
part = "prop"
position = [{PROP_X}, 0.0, {PROP_SIZE[2] / 2}]

[rules]
start_low_side = "+x"
""")
    return load_scene(path)


def test_a_beam_resting_on_neither_end_has_not_tilted(tmp_path):
    state = TiltedState.arranged(2, seed=0, scene=propped_scene(tmp_path), first=0,
                                 hands=[[1, 6], [1]])
    assert state.low_end == +1
    # A 1u block in section 2 of the empty beam tips it (see test_tilted_judge); here
    # the beam tips onto the prop instead of the table.
    verdict = state.apply(drop(state, "1u-1", -0.15, yaw=ACROSS))
    gaps = end_gaps(state)
    assert gaps[-1] > 5 * END_REST_GAP and gaps[+1] > 5 * END_REST_GAP, \
        "the beam must rest on neither end for this test to mean anything"
    assert gaps[-1] < gaps[+1]                          # it did tip towards -x
    assert not verdict.tilted and not verdict.beam_resting
    assert (verdict.low_end_before, verdict.low_end_after) == (+1, -1)
    assert verdict.coins_won == 0 and verdict.coins == [2, 2]
    assert verdict.bank == COINS - 4


def test_the_penalty_is_paid_before_the_coins_of_the_drop():
    """Seat 0 has no coin.  A 1u block lies across the fulcrum line with nothing on
    it, so it goes back to the supply after the drop (one penalty); its moment about
    the fulcrum is nil.  The drop's 6u block stays in section 2 and tips the beam:
    the 3u counterweight's moment (3 units x 0.25 m) is below the 6u block's
    (6 units x 0.15 m).  Penalty first: seat 0 pays nothing, then wins 2 coins."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[6], [3, 2, 1]],
                                 coins=[0, 2])
    state.stage([drop(state, "3u-2", 0.25, yaw=ACROSS), drop(state, "1u-2", 0.0, yaw=ACROSS)])
    assert state.low_end == +1 and state.on_beam == ["3u-2", "1u-2"]
    verdict = state.apply(drop(state, "6u-1", -0.15, yaw=ACROSS))
    assert verdict.tilted and verdict.low_end_after == -1
    assert verdict.returned == [{"piece": "1u-2", "reason": "lies across the fulcrum line"}]
    assert verdict.value == 2                            # section 2: 0.10 to 0.20 m
    assert verdict.penalty_due == PENALTY
    assert verdict.penalty_paid == 0                     # all seat 0 had: nothing
    assert verdict.coins_won == 2
    assert verdict.coins == [2, 2]
    assert verdict.bank == COINS - 2 - 2


def test_a_pile_of_crossing_blocks_goes_back_whole_at_once():
    """A 6u block lies along the beam across the fulcrum line; the drop puts a 1u
    block on it, also across the line.  Nothing that stays rests on either: both go
    back in the same removal, so physics settles once for the drop and once more
    after the removal, and nothing is left frozen."""
    state = TiltedState.arranged(2, seed=0, low_end=+1, first=0, hands=[[1, 2], [6, 3]])
    state.stage([drop(state, "3u-2", 0.20, yaw=ACROSS), drop(state, "6u-2", 0.0)])
    assert state.on_beam == ["3u-2", "6u-2"]
    verdict = state.apply(drop(state, "1u-1", -0.002, height=0.003))
    assert {r["piece"] for r in verdict.returned} == {"6u-2", "1u-1"}
    assert all(r["reason"] == "lies across the fulcrum line" for r in verdict.returned)
    assert verdict.settles == 2
    assert verdict.frozen == [] and state.frozen == []
    assert state.on_beam == ["3u-2"]
    assert {"6u-2", "1u-1"} <= set(state.supply)
    assert verdict.penalty_due == 2 * PENALTY and verdict.penalty_paid == 2
    assert verdict.coins == [0, 2]
