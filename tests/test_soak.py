"""The soak (benchmarks/soak.py): a short run over every configuration, and its
invariant checks failing on states that break the rules."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

from balance3d.games import Place, load_state, new_game
from benchmarks import soak
from benchmarks.soak_checks import InvariantError, check_tilted, check_tower, check_tribalance

#: Every game x variant x player count the games declare (docs/rules/*.md).
EXPECTED_CONFIGS = {"tilted/basic/2p", "tilted/basic/3p", "tilted/basic/4p", "tilted/solo/1p",
                    "tilted/advanced/2p", "tilted/advanced/3p", "tilted/advanced/4p",
                    "tower/basic/2p", "tower/basic/3p", "tower/basic/4p",
                    "tribalance/basic/2p", "tribalance/basic/3p"}


def saved(state):
    return json.loads(state.to_json())


def test_configurations_are_every_game_variant_and_count():
    assert {str(c) for c in soak.configurations()} == EXPECTED_CONFIGS


def test_one_game_of_every_configuration_passes():
    """CI's small N: one random-seated game per configuration, every invariant
    checked after every action, games saved and loaded on the way."""
    out = io.StringIO()
    assert soak.soak(len(EXPECTED_CONFIGS), seed=0, planner_share=0.0, out=out) == 12
    lines = out.getvalue().splitlines()
    games = [line for line in lines if line.startswith("game ")]
    assert {line.split()[2] for line in games} == EXPECTED_CONFIGS
    assert any(line.startswith("peak RSS after 10 games:") for line in lines)
    trips = sum(int(line.split(" save/load")[0].split()[-1]) for line in games)
    assert trips > 0, "no game was saved and loaded"


def game_lines(text):
    """The soak's game lines without their seconds and peak RSS, which vary."""
    return [line.split(" save/load")[0] for line in text.splitlines()
            if line.startswith("game ")]


def test_games_are_the_same_in_a_pool_of_processes():
    """Each game seeds its own seats and save turns, so two processes sharing the
    games play each exactly as one process does (a soak generator shared across
    games would give the second process other seats and save turns), and each
    process reports its own peak RSS."""
    alone, pooled = io.StringIO(), io.StringIO()
    soak.soak(4, seed=3, planner_share=0.5, out=alone)
    soak.soak(4, seed=3, planner_share=0.5, out=pooled, workers=2)
    assert game_lines(pooled.getvalue()) == game_lines(alone.getvalue())
    assert len(game_lines(alone.getvalue())) == 4
    finals = [line for line in pooled.getvalue().splitlines()
              if line.startswith("peak RSS after") and " of process " in line]
    # a process that started late may have found no game left
    assert 1 <= len(finals) <= 2 and sum(int(line.split()[3]) for line in finals) == 4


def test_an_endless_game_is_reported(monkeypatch):
    monkeypatch.setattr(soak, "ACTION_CAP", 3)
    config = soak.Config("tilted", "basic", 2)
    rng = np.random.default_rng(0)
    with pytest.raises(InvariantError, match="not over after 3 actions"):
        soak.soak_game(config, 0, ["random", "random"], rng)


def test_tilted_checks_coins_and_blocks():
    state = new_game("tilted", players=3, seed=1)
    start = saved(state)
    check_tilted(state, start, start)
    lost_coin = saved(state)
    lost_coin["game_state"]["bank"] -= 1
    with pytest.raises(InvariantError, match="coins"):
        check_tilted(state, lost_coin, start)
    twice = saved(state)
    twice["game_state"]["hands"][0].append(twice["game_state"]["supply"][0])
    with pytest.raises(InvariantError, match="in two places"):
        check_tilted(state, twice, start)
    lost_block = saved(state)
    lost_block["game_state"]["supply"].pop()
    with pytest.raises(InvariantError, match="missing"):
        check_tilted(state, lost_block, start)


def test_tribalance_scores_come_from_the_positions():
    """Weight 1 on field 0 (number 1, docs/rules/tribalance.md): the placed piece
    scores 1; a state whose bookkeeping puts it on another field is caught by
    the position of its body."""
    state = new_game("tribalance", players=2, seed=0)
    start = saved(state)
    fields = state.rules.fields
    ones = [i for i, f in enumerate(fields) if f.number == 1]
    state.apply(Place("1w-p1.1", ones[0]))
    now = saved(state)
    check_tribalance(state, now, start)
    assert state.scores[0] == 1 - (35 - 1)
    moved = saved(state)
    wrong = next(i for i, f in enumerate(fields) if f.number == 5)
    moved["game_state"]["placed"] = {"1w-p1.1": wrong}
    liar = load_state(moved)
    with pytest.raises(InvariantError, match="scores from the positions"):
        check_tribalance(liar, saved(liar), start)
    stolen = saved(state)
    stolen["game_state"]["hands"][1].append("2w-p1.1")
    stolen["game_state"]["hands"][0].remove("2w-p1.1")
    with pytest.raises(InvariantError, match="holds others' pieces"):
        check_tribalance(state, stolen, start)


def test_tower_checks_pieces_and_the_deck():
    state = new_game("tower", players=2, seed=0)
    start = saved(state)
    check_tower(state, start, start)
    turned = saved(state)
    deck = turned["game_state"]["deck"]
    turned["game_state"]["deck"] = deck[3:] + deck[:3]
    check_tower(state, turned, start)
    shuffled = saved(state)
    deck = shuffled["game_state"]["deck"]
    k = next(i for i in range(1, len(deck)) if deck[i] != deck[0])
    deck[0], deck[k] = deck[k], deck[0]
    with pytest.raises(InvariantError, match="turned round"):
        check_tower(state, shuffled, start)
    gone = saved(state)
    gone["game_state"]["hands"][0].pop()
    with pytest.raises(InvariantError, match="missing"):
        check_tower(state, gone, start)
    ghost = saved(state)
    ghost["game_state"]["removed"].append(ghost["game_state"]["hands"][1][0])
    with pytest.raises(InvariantError, match="in two places"):
        check_tower(state, ghost, start)
