"""The rules tables: each ``docs/rules/<game>.md`` ends with a table of its rules,
each row naming the hand-written tests that check it (``tests/FILE.py::test_name``).
A row naming no test, or a test that does not exist, fails here."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from balance3d.games import game_names

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
#: The heading of the table in each rules page.
HEADING = "## Rules and their tests"
#: A test named in a row: ``tests/path.py::test_name`` in backticks.
NODE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def table_rows(page: Path) -> list[tuple[str, str]]:
    """(rule, tests cell) of every row of ``page``'s rules table."""
    text = page.read_text()
    assert HEADING in text, f"{page.name}: no '{HEADING}' section"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    assert lines[:2] == ["| rule | test |", "|---|---|"], f"{page.name}: table header"
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        assert len(cells) == 2, f"{page.name}: row with {len(cells)} cells: {line}"
        rows.append((cells[0], cells[1]))
    return rows


def defined_tests(path: Path) -> set[str]:
    """Names of the module-level test functions in the test file ``path``."""
    tree = ast.parse(path.read_text())
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_game_has_a_rules_page():
    assert sorted(p.stem for p in RULES.glob("*.md")) == game_names()


@pytest.mark.parametrize("game", game_names())
def test_every_rule_names_tests_that_exist(game):
    rows = table_rows(RULES / f"{game}.md")
    assert len(rows) >= 10, f"{game}: only {len(rows)} rules in the table"
    for rule, cell in rows:
        nodes = NODE.findall(cell)
        assert rule and nodes, f"{game}.md: the rule {rule!r} names no test"
        assert len(nodes) == cell.count("`") // 2, f"{game}.md: {cell!r} is not test ids"
        for file, name in nodes:
            path = ROOT / file
            assert path.is_file(), f"{game}.md: {rule!r}: no file {file}"
            assert name in defined_tests(path), f"{game}.md: {rule!r}: no test {file}::{name}"


def test_a_row_without_a_test_or_with_a_missing_one_is_caught(tmp_path):
    """The checks above on hand-made pages: an empty tests cell, and a test name
    that no file defines."""
    page = tmp_path / "page.md"
    page.write_text(f"# x\n\n{HEADING}\n\n| rule | test |\n|---|---|\n| a rule |  |\n")
    [(rule, cell)] = table_rows(page)
    assert rule == "a rule" and NODE.findall(cell) == []
    assert "test_no_such_test" not in defined_tests(Path(__file__))
    assert "test_a_row_without_a_test_or_with_a_missing_one_is_caught" in defined_tests(
        Path(__file__))
