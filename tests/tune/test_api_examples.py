"""The worked examples of docs/tuning.md's "The notebook API", one per game, run as
written (tiny budgets), each checked against what its study asks for."""
from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "tuning.md"


def examples() -> dict[str, str]:
    """Game -> the code of its example (the python block after '**GAME: ...**')."""
    section = DOC.read_text(encoding="utf-8").split("## The notebook API", 1)[1]
    found = re.findall(r"\*\*([A-Za-z-]+): [^*]+\*\*\s+```python\n(.*?)```", section,
                       flags=re.S)
    return dict(found)


def test_there_is_one_example_per_game():
    assert sorted(examples()) == ["Tilted", "Tower", "Tri-Ba-Lance"]


def run(game: str) -> dict:
    names: dict = {}
    exec(compile(examples()[game], f"{DOC}:{game}", "exec"), names)
    return names


def test_the_tilted_search_example(capsys):
    names = run("Tilted")
    table, best = names["report"]["table"], names["report"]["best"]
    assert list(table["trial"]) == [0, 1] and len(table.columns) > 4
    assert 200.0 <= best["values"]["materials.block_wood.density"] <= 700.0
    assert 0.2 <= best["values"]["materials.block_wood.friction"] <= 0.6
    assert best["loss"] == min(table["loss"])
    assert "materials.block_wood.density" in capsys.readouterr().out


def test_the_tribalance_sensitivity_example():
    report = run("Tri-Ba-Lance")["report"]
    # N(2D+2) points with N = 2 and D = 3 parameters, 2 runs each
    assert report["points"] == 2 * 8 and report["runs"] == 2 * 8 * 2
    assert [r["parameter"] for r in report["indices"]] == [
        "materials.plate_wood.density", "bodies[name=frame].position[2]",
        "materials.piece_wood.friction"]


def test_the_tower_sweep_example():
    rows = run("Tower")["rows"]
    # the file's three frictions, one tower each, of 3 pieces (the options given)
    assert list(rows["param.materials.piece_wood.friction"]) == [0.3, 0.5, 0.7]
    assert list(rows["case.pieces"]) == [3, 3, 3]
    assert rows["out.pieces_before_fall"].between(0, 3).all()
    assert (rows["out.peak_height"] >= 0).all()
