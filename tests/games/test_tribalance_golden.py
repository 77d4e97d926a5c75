"""Tri-Ba-Lance's golden record and determinism.

The golden record ``tests/golden/tribalance_random_seed3.json`` is a whole 3-player
game of the random bot: valid and invalid placements on inner and corner fields,
ending in a round without a valid turn.  ``replay --verify --from-start --strict``
must reproduce it byte for byte, and ``replay --verify --strict`` must re-judge every
turn identically from its kept state.  It changes, deliberately, whenever the
bundled Tri-Ba-Lance scene (physics settings included), the rules or the record
format change: check with ``balance3d replay
tests/golden/tribalance_random_seed3.json --verify --ignore-scene-change`` which
turns changed, then regenerate it with::

    python -m balance3d.cli simulate tribalance --players 3 --bots random --seed 3 \\
        --record tests/golden/tribalance_random_seed3.json --force

and review the diff before committing it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden_checks import judged_identically_turn_by_turn, replays_byte_for_byte

from balance3d import cli

pytestmark = pytest.mark.portable

GOLDEN = Path(__file__).parents[1] / "golden" / "tribalance_random_seed3.json"


def test_golden_record_replays_byte_for_byte():
    replays_byte_for_byte(GOLDEN)


def test_golden_record_is_judged_identically_turn_by_turn_from_its_kept_states(capsys):
    judged_identically_turn_by_turn(GOLDEN, capsys)


def test_golden_record_holds_what_it_is_kept_for():
    record = json.loads(GOLDEN.read_text())
    verdicts = [t["verdict"] for t in record["turns"]]
    assert any(v["valid"] for v in verdicts) and not all(v["valid"] for v in verdicts)
    assert record["outcome"]["termination"] == "no_valid_round"
    # the last full round (3 players) had no valid turn
    assert not any(v["valid"] for v in verdicts[-3:])


def test_the_same_seed_and_bots_give_the_same_record_byte_for_byte(tmp_path):
    game = ["simulate", "tribalance", "--players", "2", "--bots", "random", "--seed", "4",
            "--quiet"]
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        assert cli.main(game + ["--record", str(path)]) == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()
