"""The repository stands on its own: its documents point at nothing outside it, the
README links the rules, and the rules page gives the bundled scene's values."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from balance3d.scene import load_scene

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules" / "tilted.md"
#: Files a user or contributor reads: documents, code, scenes, models, benchmarks, tests.
READ = ["README.md", "docs", "balance3d", "scenes", "models", "benchmarks", "tests"]
#: Text that sends a reader outside the repository (built so this file does not match).
OUTSIDE = ["../" + "shared", "RULES" + ".md", "seeds" + "/", "/" + "work/"]


def _files():
    for name in READ:
        path = ROOT / name
        found = [path] if path.is_file() else sorted(path.rglob("*"))
        for f in found:
            if f.is_file() and f.suffix in {".md", ".py", ".toml", ".txt", ".json"}:
                yield f


def test_no_document_or_docstring_points_outside_the_repository():
    files = list(_files())
    assert RULES in files and ROOT / "balance3d" / "cli.py" in files
    hits = [f"{f.relative_to(ROOT)}: {word}" for f in files
            for word in OUTSIDE if word in f.read_text(encoding="utf-8")]
    assert hits == []


def test_the_readme_links_the_rules_and_every_local_link_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert "docs/rules/tilted.md" in links
    for link in links:
        if "://" not in link:
            assert (ROOT / link).exists(), link


def _default_table() -> dict[str, str]:
    """The rules page's table of rule keys: key -> default, as written."""
    text = RULES.read_text(encoding="utf-8")
    table = text[text.index("| key | default | meaning |"):]
    rows = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1]
    return rows


def test_the_rules_page_lists_every_rule_key_with_the_bundled_default():
    rules = load_scene("tilted").rules
    table = _default_table()
    assert set(table) == set(rules)
    for key, value in rules.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert re.match(rf"{re.escape(f'{value:g}')}( |$)", table[key]), (key, table[key])
        elif isinstance(value, str):
            assert table[key] == f'`"{value}"`'


@pytest.mark.parametrize("row, bounds", [
    ("| fulcrum section | 0 to 0.0125 m", (0.0, 0.0125, 0)),
    ("| section 3 | 0.0125 m to 0.10 m", (0.0125, 0.10, 3)),
    ("| section 2 | 0.10 m to 0.20 m", (0.10, 0.20, 2)),
    ("| section 1 | 0.20 m to the end, 0.30 m", (0.20, 0.30, 1)),
])
def test_the_rules_page_gives_the_bundled_sections(row, bounds):
    assert row in RULES.read_text(encoding="utf-8")
    assert tuple(bounds) in {tuple(s) for s in load_scene("tilted").rules["sections"]}
