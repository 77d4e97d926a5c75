"""The tuning layer stands on the game layer, never the other way round: the games'
experiments (their base, options, jitter and whole bot games included) import
nothing from :mod:`balance3d.tune`, so a game can be played, and its experiments
built, without the tuning package."""
from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "balance3d" / "games"


def _imported(path: Path) -> list[str]:
    """Every module ``path`` imports, and every ``module.name`` it imports from one
    (a relative import as ``.name``: the package imports absolutely)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names += [module, *(f"{module}.{alias.name}" for alias in node.names)]
    return names


def test_nothing_under_games_imports_the_tuning_layer():
    imports = {str(f.relative_to(GAMES)): _imported(f) for f in sorted(GAMES.rglob("*.py"))}
    assert len(imports) > 20
    assert "balance3d.scene.Scene" in imports["tilted/experiments.py"]   # the scan sees them
    assert {f: [n for n in names if n.startswith(".")] for f, names in imports.items()
            if any(n.startswith(".") for n in names)} == {}
    assert {f: [n for n in names if n == "balance3d.tune" or n.startswith("balance3d.tune.")]
            for f, names in imports.items()
            if any(n == "balance3d.tune" or n.startswith("balance3d.tune.") for n in names)} \
        == {}
