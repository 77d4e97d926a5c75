"""A sweep's output folder: the sweep it holds, the runs finished so far, the tables.

Files (``DIR``): ``sweep.toml`` (a copy of the sweep file), ``sweep.json`` (the
sweep's name, description and outcome units, and the resolved sweep that decides the rows:
:meth:`Sweep.identity`, compared on resume; :func:`saved_sweep` reads it back),
``runs.jsonl`` (one JSON line per finished run, appended as runs finish),
``runs.parquet`` and optionally ``runs.csv`` (the table), ``summary.parquet`` and
``summary.csv``, ``timing.json`` (wall time and throughput of the last run).
"""
from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from balance3d.tune.experiment import Jitter, outcome_units
from balance3d.tune.sweep import Sweep

RUNS = "runs.jsonl"
IDENTITY = "sweep.json"
#: The file that marks a ``tune fit`` output folder (see :mod:`balance3d.tune.fit`);
#: a sweep refuses such a folder, and a fit refuses a sweep's.
FIT_IDENTITY = "fit_request.json"
#: Keys of ``sweep.json`` that name the sweep without deciding its rows (a resume
#: does not compare them).
_LABELS = ("name", "description", "units")


class OutputError(ValueError):
    """The output folder cannot take this sweep: the message names the folder."""


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Turn an :class:`OSError` raised while ``path`` is written (a full disk, a
    read-only file system, no permission) into :class:`OutputError` naming it."""
    try:
        yield
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _not_a_folder(out: Path) -> Path | None:
    """``out`` itself or the first of its parents that exists and is not a folder
    (a regular file), or None."""
    for place in (out, *out.parents):
        if place.exists():
            return None if place.is_dir() else place
    return None


def prepare(out: Path, sweep: Sweep) -> None:
    """Create ``out`` for ``sweep``, or check that it holds runs of this same sweep
    (:class:`OutputError` naming the folder and what differs, or the file that
    cannot be written)."""
    blocker = _not_a_folder(out)
    if blocker == out:
        raise OutputError(f"{out}: is a file, not a folder for a sweep's outputs")
    if blocker is not None:
        raise OutputError(f"{out}: {blocker} is a file, not a folder")
    if (out / FIT_IDENTITY).exists():
        raise OutputError(f"{out}: holds a fit's outputs ({FIT_IDENTITY}); give the sweep "
                          f"another --out folder")
    identity = sweep.identity()
    saved = out / IDENTITY
    if saved.is_file():
        old = {k: v for k, v in json.loads(saved.read_text()).items() if k not in _LABELS}
        if old != identity:
            differ = sorted(k for k in set(old) | set(identity) if old.get(k) != identity.get(k))
            raise OutputError(f"{out}: holds runs of another sweep (its {', '.join(differ)} "
                              f"differ); give another --out folder or remove it")
    elif (out / RUNS).exists():
        raise OutputError(f"{out}: holds {RUNS} without {IDENTITY}; give another --out "
                          f"folder or remove it")
    with _writing(out):
        out.mkdir(parents=True, exist_ok=True)
    labels = {"name": sweep.name, "description": sweep.description,
              "units": outcome_units(sweep.make_experiment())}
    with _writing(saved):
        saved.write_text(json.dumps({**labels, **identity}, indent=1) + "\n")
    copy = out / "sweep.toml"
    if sweep.source is not None and sweep.source.resolve() != copy.resolve():
        with _writing(copy):
            shutil.copyfile(sweep.source, copy)


def saved_sweep(out: Path) -> Sweep:
    """The sweep whose runs ``out`` holds, from its ``sweep.json`` (:class:`OutputError`
    naming the folder when there is none)."""
    path = out / IDENTITY
    if not path.is_file():
        raise OutputError(f"{out}: holds no sweep ({IDENTITY} is missing)")
    data = json.loads(path.read_text())
    source = out / "sweep.toml"
    return Sweep(name=data["name"], description=data["description"], scene=data["scene"],
                 game=data["game"], experiment=data["experiment"], options=data["options"],
                 jitter=Jitter(**data["jitter"]), repetitions=data["repetitions"],
                 seed=data["seed"], source=source if source.is_file() else None,
                 parameters={k: tuple(v) for k, v in data["parameters"].items()})


def read_runs(out: Path, name: str = RUNS) -> list[dict[str, Any]]:
    """The rows in ``out/runs.jsonl`` (or ``out/name``).  A last line cut short by a
    stop is dropped (and the file rewritten without it), so appending goes on
    cleanly."""
    path = out / name
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
        with _writing(path):
            path.write_text(kept)
    return rows


def appender(out: Path, name: str = RUNS) -> BinaryIO:
    """``out/runs.jsonl`` (or ``out/name``) opened for appending rows
    (:func:`append`), unbuffered: a row that cannot be written leaves nothing behind
    for closing to write again."""
    path = out / name
    with _writing(path):
        return open(path, "ab", buffering=0)


def append(stream: BinaryIO, row: dict[str, Any]) -> None:
    """Write ``row`` as one line to the file (:class:`OutputError` naming it when the
    file system refuses)."""
    data = memoryview((json.dumps(row) + "\n").encode("utf-8"))
    with _writing(Path(stream.name)):
        while data:
            data = data[stream.write(data):]


def write_tables(out: Path, runs, summary, csv: bool) -> None:
    """The run table (Parquet, and CSV when ``csv``) and the summary (both)."""
    tables = [(runs.to_parquet, "runs.parquet"), *([(runs.to_csv, "runs.csv")] if csv else []),
              (summary.to_parquet, "summary.parquet"), (summary.to_csv, "summary.csv")]
    for write, name in tables:
        with _writing(out / name):
            write(out / name, index=False)


def write_timing(out: Path, timing: dict[str, Any]) -> None:
    """``out/timing.json``."""
    path = out / "timing.json"
    with _writing(path):
        path.write_text(json.dumps(timing, indent=1) + "\n")
