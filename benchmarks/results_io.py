"""Where benchmark figures go, and the facts of the machine that measured them.

Every benchmark writes ``benchmarks/results/NAME.json`` (the figures and the
machine's facts) and ``NAME.md`` (a Markdown table for people) through
:func:`write_results`.  :func:`measuring` wraps one measurement: it notes the date
and the system load average before and after (other processes on a shared machine
slow the timings down), pins the process to one core when the figure is a one-core
figure, and gives the CPU back afterwards.
"""
from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

#: The folder the benchmarks write to.
RESULTS = Path(__file__).resolve().parent / "results"
#: s, longest wait for ``git`` to name the measured commit.
GIT_TIMEOUT_S = 10.0
#: s, how long the CPUs' busy time is sampled to pick the one to pin to.
BUSY_SAMPLE_S = 0.5


def load_average() -> list[float] | None:
    """The system's 1, 5 and 15 minute load averages (runnable processes), or None
    where the system does not tell."""
    if not hasattr(os, "getloadavg"):
        return None
    return [round(v, 2) for v in os.getloadavg()]


def cpu_model() -> str:
    """The CPU's model name (from ``/proc/cpuinfo`` where there is one)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str | None:
    """The short hash of the checked-out commit, or None outside a git checkout."""
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=Path(__file__).parent, timeout=GIT_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def machine_facts() -> dict[str, Any]:
    """What the figures were measured on: CPU model, cores, operating system,
    Python, pybullet and balance3d versions, and the commit."""
    import balance3d

    return {"cpu": cpu_model(), "cores": os.cpu_count(),
            "system": platform.platform(terse=True), "python": platform.python_version(),
            "pybullet": importlib.metadata.version("pybullet"),
            "balance3d": balance3d.__version__, "commit": _commit()}


def _busy_ticks() -> dict[int, int]:
    """Per CPU, the clock ticks it has spent busy (not idle or waiting on I/O) since
    boot, from ``/proc/stat``; empty where there is no such file."""
    ticks = {}
    try:
        lines = Path("/proc/stat").read_text().splitlines()
    except OSError:
        return ticks
    for line in lines:
        name, *fields = line.split()
        if name.startswith("cpu") and name[3:].isdigit():
            values = [int(v) for v in fields]
            ticks[int(name[3:])] = sum(values) - values[3] - values[4]
    return ticks


def least_busy_cpu(allowed: set[int]) -> int:
    """The CPU of ``allowed`` that was least busy over the last
    :data:`BUSY_SAMPLE_S` (the lowest one where the system does not tell): on a
    shared machine, pinning every benchmark to the same CPU would stack them up."""
    before = _busy_ticks()
    time.sleep(BUSY_SAMPLE_S)
    after = _busy_ticks()
    known = [cpu for cpu in sorted(allowed) if cpu in before and cpu in after]
    if not known:
        return min(allowed)
    return min(known, key=lambda cpu: after[cpu] - before[cpu])


def pin_to_one_core() -> int | None:
    """Pin this process to its least busy allowed CPU; that CPU, or None where the
    system cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = least_busy_cpu(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


@contextmanager
def measuring(one_core: bool) -> Iterator[dict[str, Any]]:
    """Facts of one measurement, filled in around it: ``date`` (UTC),
    ``load_average_before`` and ``_after`` (1, 5 and 15 min), ``pinned_cpu`` (the
    CPU when ``one_core`` pinned the process to one, else None) and ``wall_s``
    (s).  The process gets its CPUs back afterwards."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    facts: dict[str, Any] = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load_average_before": load_average(),
        "pinned_cpu": pin_to_one_core() if one_core else None}
    start = time.perf_counter()
    try:
        yield facts
    finally:
        facts["wall_s"] = round(time.perf_counter() - start, 1)
        facts["load_average_after"] = load_average()
        if allowed is not None:
            os.sched_setaffinity(0, allowed)


def facts_text(facts: dict[str, Any], machine: dict[str, Any]) -> str:
    """One sentence: when, on what and under which load a measurement was made."""
    before, after = facts.get("load_average_before"), facts.get("load_average_after")
    load = (f"load average {before[0]:g} before, {after[0]:g} after"
            if before and after else "load average unknown")
    cores = (f"one core (CPU {facts['pinned_cpu']})" if facts.get("pinned_cpu") is not None
             else f"{machine['cores']} cores")
    commit = f" ({machine['commit']})" if machine.get("commit") else ""
    return (f"Measured {facts['date']} on {machine['cpu']}, {cores}, {load}; Python "
            f"{machine['python']}, pybullet {machine['pybullet']}, balance3d "
            f"{machine['balance3d']}{commit}.")


def spread(values: Sequence[float]) -> dict[str, float]:
    """Count, median, 90th percentile (linear interpolation) and maximum of
    ``values`` (s)."""
    return {"count": len(values), "median_s": statistics.median(values),
            "p90_s": float(np.percentile(values, 90)), "max_s": max(values)}


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                   align: str = "") -> str:
    """A Markdown table; ``align`` holds one letter per column (``l``, ``r`` or
    ``c``; left where missing)."""
    marks = {"l": "---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(marks[align[i] if i < len(align) else "l"]
                            for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (through ``path.tmp``): a reader sees
    the old file or the new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_results(name: str, data: dict[str, Any], markdown: str,
                  out: Path = RESULTS) -> tuple[Path, Path]:
    """Write ``out/NAME.json`` (``data`` with the machine's facts under
    ``machine``) and ``out/NAME.md`` (``markdown``); the two paths."""
    paths = out / f"{name}.json", out / f"{name}.md"
    write_text(paths[0], json.dumps({"machine": machine_facts(), **data}, indent=2) + "\n")
    write_text(paths[1], markdown if markdown.endswith("\n") else markdown + "\n")
    return paths
