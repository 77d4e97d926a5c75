"""The benchmark summary: ``summary.json``, ``summary.md`` and the README's table.

The summary holds one entry per section (:mod:`benchmarks.sections`), each with the
facts of its own measurement (date, load average, pinned CPU, budget) and its table
rows; a run of some sections replaces theirs and keeps the others'.  The README's
table sits between :data:`BEGIN` and :data:`END`; :func:`rewrite_readme` replaces
only the text between them.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.results_io import facts_text, markdown_table, write_text

#: The README's markers around the benchmark table.
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
#: Columns of the summary table.
HEADER = ("measure", "result", "target", "met")


class SummaryError(ValueError):
    """A README without its markers, or a summary file that is not one."""


def load_summary(path: Path) -> dict[str, Any]:
    """The summary at ``path``, or an empty one when there is no file yet."""
    if not path.exists():
        return {"sections": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SummaryError(f"{path}: not a readable benchmark summary ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), dict):
        raise SummaryError(f"{path}: not a benchmark summary (no 'sections' object)")
    return data


def merged(summary: dict[str, Any], machine: dict[str, Any], sections: dict[str, Any],
           order: list[str]) -> dict[str, Any]:
    """``summary`` with ``sections`` (name -> entry) put in, each entry keeping the
    ``machine`` it was measured on; sections in ``order``, unknown names last."""
    every = dict(summary["sections"])
    # through JSON, so a summary written now reads as one loaded from its file
    every.update(json.loads(json.dumps({name: {**entry, "machine": machine}
                                        for name, entry in sections.items()})))
    rank = {name: i for i, name in enumerate(order)}
    names = sorted(every, key=lambda n: (rank.get(n, len(order)), n))
    return {"sections": {name: every[name] for name in names}}


def _met(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "**no**")


def _cells(r: dict[str, Any]) -> list[str]:
    return [r["measure"], r["result"], r["target"], _met(r["met"])]


def markdown(summary: dict[str, Any]) -> str:
    """``summary.md``: a table per section, under its facts."""
    lines = ["# Benchmarks", "", "Written by `python -m benchmarks` (see the README).", ""]
    for name, entry in summary["sections"].items():
        lines += [f"## {entry['title']} (`{name}`)", "",
                  facts_text(entry["facts"], entry["machine"]) + f" Budget: {_budget(entry)}.",
                  "", markdown_table(HEADER, [_cells(r) for r in entry["rows"]]), ""]
    return "\n".join(lines)


def _budget(entry: dict[str, Any]) -> str:
    budget = entry["facts"]["budget"]
    return ", ".join(f"{k} {v}" for k, v in budget.items())


def readme_table(summary: dict[str, Any]) -> str:
    """The README's table: every section's rows, then one line per section saying
    when, on what and under which load it was measured."""
    rows = [_cells(r) for entry in summary["sections"].values() for r in entry["rows"]]
    notes = [f"- `{name}`: " + facts_text(entry["facts"], entry["machine"])
             + (" A `--quick` run." if entry["facts"].get("quick") else "")
             for name, entry in summary["sections"].items()]
    return "\n".join([markdown_table(HEADER, rows), "", *notes])


def _table_span(text: str, path: Path) -> tuple[int, int]:
    """Where the table goes in the README text read from ``path``: the offsets just
    after :data:`BEGIN` and at :data:`END` (:class:`SummaryError` naming the file and
    the marker when one is missing, repeated or out of order)."""
    for marker in (BEGIN, END):
        count = text.count(marker)
        if count != 1:
            raise SummaryError(f"{path}: the benchmark table's marker {marker!r} appears "
                               f"{count} times, not once (the table goes between {BEGIN!r} "
                               f"and {END!r})")
    start, stop = text.index(BEGIN) + len(BEGIN), text.index(END)
    if stop < start:
        raise SummaryError(f"{path}: the marker {END!r} comes before {BEGIN!r}")
    return start, stop


def check_readme(path: Path) -> None:
    """Raise :class:`SummaryError` (or OSError) unless the README at ``path`` has its
    table's markers, once each and in order."""
    _table_span(path.read_text(encoding="utf-8"), path)


def rewrite_readme(path: Path, table: str) -> None:
    """Put ``table`` between the markers of the README at ``path``, leaving every
    other byte as it was (:class:`SummaryError` as :func:`check_readme`)."""
    text = path.read_text(encoding="utf-8")
    start, stop = _table_span(text, path)
    write_text(path, text[:start] + "\n" + table.strip("\n") + "\n" + text[stop:])
