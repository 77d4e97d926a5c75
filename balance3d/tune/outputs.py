"""A sweep's output folder: the sweep it holds, the runs finished so far, the tables.

Files (``DIR``): ``sweep.toml`` (a copy of the sweep file), ``sweep.json`` (the
resolved sweep that decides the rows: :meth:`Sweep.identity`, compared on resume),
``runs.jsonl`` (one JSON line per finished run, appended as runs finish),
``runs.parquet`` and optionally ``runs.csv`` (the table), ``summary.parquet`` and
``summary.csv``, ``timing.json`` (wall time and throughput of the last run).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, TextIO

from balance3d.tune.sweep import Sweep

RUNS = "runs.jsonl"
IDENTITY = "sweep.json"


class OutputError(ValueError):
    """The output folder cannot take this sweep: the message names the folder."""


def prepare(out: Path, sweep: Sweep) -> None:
    """Create ``out`` for ``sweep``, or check that it holds runs of this same sweep
    (:class:`OutputError` naming the folder and what differs)."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: is a file, not a folder for a sweep's outputs")
    identity = sweep.identity()
    saved = out / IDENTITY
    if saved.is_file():
        old = json.loads(saved.read_text())
        if old != identity:
            differ = sorted(k for k in set(old) | set(identity) if old.get(k) != identity.get(k))
            raise OutputError(f"{out}: holds runs of another sweep (its {', '.join(differ)} "
                              f"differ); give another --out folder or remove it")
    elif (out / RUNS).exists():
        raise OutputError(f"{out}: holds {RUNS} without {IDENTITY}; give another --out "
                          f"folder or remove it")
    out.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(identity, indent=1) + "\n")
    if sweep.source is not None and sweep.source.resolve() != (out / "sweep.toml").resolve():
        shutil.copyfile(sweep.source, out / "sweep.toml")


def read_runs(out: Path) -> list[dict[str, Any]]:
    """The rows in ``out/runs.jsonl``.  A last line cut short by a stop is dropped
    (and the file rewritten without it), so appending goes on cleanly."""
    path = out / RUNS
    if not path.is_file():
        return []
    text = path.read_text()
    lines = text.splitlines()
    rows = []
    for i, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if i != len(lines) - 1:
                raise OutputError(f"{path}: line {i + 1} is not a JSON row") from None
    kept = "".join(json.dumps(row) + "\n" for row in rows)
    if kept != text:
        path.write_text(kept)
    return rows


def appender(out: Path) -> TextIO:
    """``out/runs.jsonl`` opened for appending rows (:func:`append`)."""
    return open(out / RUNS, "a", encoding="utf-8")


def append(stream: TextIO, row: dict[str, Any]) -> None:
    """Write ``row`` as one line and flush it to the file."""
    stream.write(json.dumps(row) + "\n")
    stream.flush()


def write_tables(out: Path, runs, summary, csv: bool) -> None:
    """The run table (Parquet, and CSV when ``csv``) and the summary (both)."""
    runs.to_parquet(out / "runs.parquet", index=False)
    if csv:
        runs.to_csv(out / "runs.csv", index=False)
    summary.to_parquet(out / "summary.parquet", index=False)
    summary.to_csv(out / "summary.csv", index=False)


def write_timing(out: Path, timing: dict[str, Any]) -> None:
    """``out/timing.json``."""
    (out / "timing.json").write_text(json.dumps(timing, indent=1) + "\n")
