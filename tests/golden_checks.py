"""The two checks every golden record gets: ``replay --verify --from-start --strict``
reproduces it byte for byte, and ``replay --verify --strict`` re-judges every turn
identically from its kept state."""
from __future__ import annotations

from pathlib import Path

from balance3d import cli
from balance3d import play as playing
from balance3d import record as rec


def replays_byte_for_byte(golden: Path) -> None:
    """AssertionError unless replaying ``golden`` from its start gives its bytes."""
    assert cli.main(["replay", str(golden), "--verify", "--from-start", "--strict",
                     "--quiet"]) == 0
    record = rec.load_record(golden)
    assert record.keeps_states
    replayed = playing.replay(record, playing.record_scene(record)).record()
    assert rec.dumps(replayed) == golden.read_text()


def judged_identically_turn_by_turn(golden: Path, capsys) -> None:
    """AssertionError unless every turn of ``golden``, judged again from its kept
    state, gives its verdict and state (``capsys``: pytest's fixture, to read the
    command's summary)."""
    assert cli.main(["replay", str(golden), "--verify", "--strict", "--quiet"]) == 0
    n = len(rec.load_record(golden).actions)
    assert capsys.readouterr().out.endswith(
        f"verify: {n} turns: {n} identical, 0 within tolerance, 0 different\n")
