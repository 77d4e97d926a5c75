"""Tune throughput: one fixed sweep of Tilted's drops run with one worker, with two,
with every core and on a local Ray instance, and the local pool's start-up apart.

The command's start-up (:func:`command_startup`): ``balance3d tune`` started afresh
on a one-run sweep with the local engine, from the process's start to the first run
row in ``runs.jsonl``, less that run's own time in a warm worker: the imports, the
sweep's checks and the pool's start before the first run (the median of
:data:`STARTUP_REPEATS`, against :data:`STARTUP_TARGET_S`).  Run alone, with
another checkout's start-up beside it, started alternately::

    python -m benchmarks.bench_tune [--before DIR] [--repeats N]

The parallel efficiency is the wall time with one worker over twice the wall time
with two, both measured in the same call (a few such pairs, the median kept), with
the load average before and after each run and the machine's CPU use beside it
(other jobs on the machine take CPU time from the workers).
Every engine must give the same rows: the figures say whether they did.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from balance3d.tune import engines
from balance3d.tune.runner import run_sweep
from balance3d.tune.sweep import Sweep, load_sweep
from benchmarks.results_io import (facts_text, machine_facts, markdown_table, measuring,
                                   write_results)

#: The measured sweep: two block densities x three block sizes x two sections of the
#: empty Tilted beam; its repetitions come from the benchmark budget.
SWEEP_TOML = """\
[sweep]
name = "bench-drops"
scene = "tilted"
experiment = "drops"
repetitions = {repetitions}
seed = 1

[parameters]
"materials.block_wood.density" = [500.0, 800.0]

[experiment]
blocks = [1, 2, 3]
sections = [1, 2]
"""
#: The checkout's root: Ray's workers import balance3d from it.
ROOT = Path(__file__).resolve().parents[1]
#: The one-run sweep whose start-up is timed, and the times it is started.
STARTUP_TOML = SWEEP_TOML.format(repetitions=1).replace(
    '"materials.block_wood.density" = [500.0, 800.0]', '"materials.block_wood.density" = [500.0]'
).replace("blocks = [1, 2, 3]\nsections = [1, 2]", "blocks = [1]\nsections = [1]")
STARTUP_REPEATS = 5
#: s, the most the command's start-up may take before its first run (the local
#: engine, the idle machine, warm caches: the median of :data:`STARTUP_REPEATS`).
STARTUP_TARGET_S = 3.0
#: s, between two looks for the first row.
POLL_S = 0.01


def process_cpu_s(pid: int) -> float | None:
    """s, the CPU time (user and system) the process ``pid`` has used so far, from
    ``/proc/PID/stat``; None where the system does not tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_row(root: Path, sweep_file: Path, out: Path) -> tuple[float, float | None]:
    """s, from starting ``balance3d tune`` of the checkout at ``root`` on
    ``sweep_file`` (local engine, 1 worker, output ``out``) until the first row is
    in ``out/runs.jsonl``, and the CPU s the command's own process (not its
    workers) had used by then (None where the system does not tell); the command is
    then waited for."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "balance3d.cli", "tune", str(sweep_file), "--out", str(out),
         "--workers", "1", "--quiet"], cwd=root, stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(root)})
    runs = out / "runs.jsonl"
    while not (runs.is_file() and runs.stat().st_size) and child.poll() is None:
        time.sleep(POLL_S)
    seconds = time.perf_counter() - started
    cpu = process_cpu_s(child.pid)
    if child.wait():
        raise RuntimeError(f"balance3d tune of {root} failed (status {child.returncode})")
    return seconds, cpu


def command_startup(repeats: int = STARTUP_REPEATS, before: Path | None = None
                    ) -> dict[str, Any]:
    """s, the command's start-up before its first run (see the module's docstring):
    each start's time to its first row, the run's own time, their median
    difference, the CPU s the command's own process had used at its first row
    (median), and the load average before and after.  With ``before`` (another
    checkout's root) its command is started too, alternately with this one's, so
    that both see the same load; each side is started once first, uncounted, so
    that every counted start finds its files in the caches."""
    sides = {"after": ROOT, **({"before": before} if before is not None else {})}
    firsts: dict[str, list[float]] = {side: [] for side in sides}
    cpus: dict[str, list[float | None]] = {side: [] for side in sides}
    loads = [load()]
    with tempfile.TemporaryDirectory() as folder:
        sweep_file = Path(folder) / "startup.toml"
        sweep_file.write_text(STARTUP_TOML, encoding="utf-8")
        for i in range(-1, repeats):
            for side, root in sides.items():
                seconds, cpu = first_row(root, sweep_file, Path(folder) / f"{side}{i}")
                if i >= 0:
                    firsts[side].append(seconds)
                    cpus[side].append(cpu)
        loads.append(load())
        sweep = load_sweep(sweep_file)
    from balance3d.tune.runner import plan
    from balance3d.tune.worker import run_task

    task = plan(sweep)[0]
    run_task(task)                          # warm: the scene loaded, the world built once
    began = time.perf_counter()
    run_task(task)
    run_s = time.perf_counter() - began
    figures: dict[str, Any] = {}
    for side, root in sides.items():
        known = [v for v in cpus[side] if v is not None]
        figures[side] = {"root": "this checkout" if root == ROOT else root.name, "first_row_s": [round(v, 3) for v in firsts[side]],
                         "startup_s": round(statistics.median(firsts[side]) - run_s, 3),
                         "command_cpu_s": round(statistics.median(known), 3) if known else None}
    return {**figures.pop("after"), "run_s": round(run_s, 3), "target_s": STARTUP_TARGET_S,
            "load_average": loads[0], "load_average_after": loads[1], **figures}


def bench_sweep(repetitions: int) -> Sweep:
    """The measured sweep with ``repetitions`` runs per combination and case."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench-drops.toml"
        path.write_text(SWEEP_TOML.format(repetitions=repetitions), encoding="utf-8")
        return load_sweep(path)


def load() -> list[float]:
    """The 1, 5 and 15 minute load averages, rounded."""
    return [round(v, 2) for v in os.getloadavg()]


def cpu_ticks() -> tuple[int, int] | None:
    """The machine's busy and total clock ticks over every CPU since boot (from
    ``/proc/stat``: busy is all but idle and I/O wait), or None where there is no
    such file."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            ticks = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def pool_start(workers: int) -> float:
    """s, from asking for a local pool of ``workers`` processes (started as a sweep's
    are) until every one of them has started and answered one task."""
    context = engines.pool_context()
    barrier = context.Barrier(workers)
    started = time.perf_counter()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=barrier.wait) as pool:
        list(pool.map(abs, range(workers)))
    return time.perf_counter() - started


def timed_run(sweep: Sweep, **engine: Any) -> tuple[Any, dict[str, Any]]:
    """Run ``sweep`` on ``engine`` (run_sweep's keywords): its rows, and its wall
    time (s), runs per second, the load average before and after and how busy the
    machine's CPUs were meanwhile (%, every process counted, this run's included)."""
    before, ticks = load(), cpu_ticks()
    started = time.perf_counter()
    rows = run_sweep(sweep, progress=False, **engine)
    wall = time.perf_counter() - started
    after = cpu_ticks()
    busy = (round(100.0 * (after[0] - ticks[0]) / max(1, after[1] - ticks[1]), 1)
            if ticks and after else None)
    return rows, {"runs": len(rows), "wall_s": round(wall, 3),
                  # 4 significant digits: a slow run's rate keeps its precision
                  "runs_per_s": float(f"{len(rows) / wall:.4g}"),
                  "load_average_before": before, "load_average_after": load(),
                  "machine_busy_pct": busy}


def ray_run(sweep: Sweep, cpus: int) -> tuple[Any, dict[str, Any]] | None:
    """The sweep on a Ray instance started here with ``cpus`` CPUs (its start-up
    timed apart), or None without Ray."""
    try:
        import ray
    except ImportError:
        return None
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    previous = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    try:
        started = time.perf_counter()
        ray.init(address="local", num_cpus=cpus, include_dashboard=False,
                 log_to_driver=False)
        start_s = time.perf_counter() - started
        try:
            rows, figures = timed_run(sweep, engine="ray")
        finally:
            ray.shutdown()
    finally:
        if previous is None:
            os.environ.pop("PYTHONPATH")
        else:
            os.environ["PYTHONPATH"] = previous
    return rows, {**figures, "cpus": cpus, "start_s": round(start_s, 3)}


def measure_tune(repetitions: int, pairs: int) -> dict[str, Any]:
    """Every tune figure of the measured sweep (see the module's docstring): the
    1-worker and 2-worker runs ``pairs`` times, one right after the other, and the
    efficiency of each pair; ``one_worker``, ``two_workers`` and ``efficiency`` are
    the pair whose efficiency is the median (the lower of the middle two for an even
    count)."""
    sweep = bench_sweep(repetitions)
    cores = engines.default_workers()
    figures: dict[str, Any] = {"sweep": SWEEP_TOML.format(repetitions=repetitions),
                               "cores": cores}
    # the first pool of a process also starts the fork server (its imports once)
    figures["first_pool_start_s"] = round(pool_start(1), 3)
    figures["pool_start_s"] = {str(n): round(pool_start(n), 3)
                              for n in sorted({1, 2, cores})}
    one = None
    same = True
    figures["pairs"] = []
    for _ in range(pairs):
        rows, alone = timed_run(sweep, workers=1)
        print(f"tune, 1 worker: {alone}", flush=True)
        two, both = timed_run(sweep, workers=2)
        print(f"tune, 2 workers: {both}", flush=True)
        one = rows if one is None else one
        same = same and one.equals(rows) and one.equals(two)
        figures["pairs"].append({"one_worker": alone, "two_workers": both,
                                 "efficiency": round(alone["wall_s"]
                                                     / (2 * both["wall_s"]), 3)})
    middle = sorted(figures["pairs"], key=lambda p: p["efficiency"])[(pairs - 1) // 2]
    figures.update(middle)
    if cores != 2:
        every, figures["all_cores"] = timed_run(sweep, workers=cores)
        same = same and one.equals(every)
    else:
        figures["all_cores"] = figures["two_workers"]
    figures["same_rows"] = same
    figures["command_startup"] = command_startup()
    print(f"tune, the command's start-up: {figures['command_startup']}", flush=True)
    remote = ray_run(sweep, cores)
    if remote is not None:
        rows, figures["ray"] = remote
        figures["ray"]["same_rows"] = bool(rows.equals(one))
        print(f"tune, Ray: {figures['ray']}", flush=True)
    else:
        figures["ray"] = None
    return figures


def startup_markdown(figures: dict[str, Any]) -> list[str]:
    """The start-up's figures as Markdown lines: a table of the sides measured."""
    rows = []
    for side in ("after", "before"):
        if side == "before" and side not in figures:
            continue
        shown = figures if side == "after" else figures[side]
        met = "yes" if shown["startup_s"] <= figures["target_s"] else "no"
        cpu = shown.get("command_cpu_s")
        rows.append([side if "before" in figures else "this checkout", shown["root"],
                     f"{shown['startup_s']:.2f}", "" if cpu is None else f"{cpu:.2f}",
                     ", ".join(f"{v:.2f}" for v in shown["first_row_s"]),
                     f"<= {figures['target_s']:g}", met])
    before, after = figures["load_average"], figures["load_average_after"]
    return [f"`balance3d tune` on a one-run Tilted sweep (local engine, 1 worker): s from "
            f"the command's start to its first run, the run's own {figures['run_s']:.2f} s "
            f"taken off (median of {len(figures['first_row_s'])} starts"
            + (", the two checkouts started alternately" if "before" in figures else "")
            + f"; load average {before[0]:g} before, {after[0]:g} after); its own CPU: "
            f"the CPU time the command's process (not its workers) had used by its first "
            f"row, which the load barely moves (median).", "",
            markdown_table(["checkout", "root", "start-up (s)", "its own CPU (s)",
                            "first row (s)", "target", "met"], rows, "llrrrll")]


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.bench_tune [--before DIR] [--repeats N]``: the command's
    start-up alone, written to ``benchmarks/results/tune_startup.json`` and ``.md``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_tune",
                                     description="the tune command's start-up before its "
                                                 "first run")
    parser.add_argument("--before", type=Path,
                        help="another checkout's root, started alternately with this one")
    parser.add_argument("--repeats", type=int, default=STARTUP_REPEATS,
                        help=f"counted starts per checkout (default {STARTUP_REPEATS})")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats: must be at least 1, got {args.repeats}")
    before = args.before.resolve() if args.before is not None else None
    with measuring(one_core=False) as facts:
        figures = command_startup(args.repeats, before)
    lines = [*startup_markdown(figures), "", facts_text(facts, machine_facts())]
    write_results("tune_startup", {"facts": facts, "startup": figures}, "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
