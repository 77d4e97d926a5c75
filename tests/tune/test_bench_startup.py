"""The start-up benchmark's report (``python -m benchmarks.bench_tune``): each
checkout's median start-up against the 3 s target, the two sides in one table."""
from __future__ import annotations

from benchmarks.bench_tune import STARTUP_TARGET_S, startup_markdown


def _figures(after: float, before: float | None) -> dict:
    figures = {"root": "/after", "first_row_s": [after + 0.1] * 5, "run_s": 0.1,
               "startup_s": after, "command_cpu_s": 1.25, "target_s": STARTUP_TARGET_S,
               "load_average": [0.5, 0.4, 0.3], "load_average_after": [1.0, 0.5, 0.3]}
    if before is not None:
        figures["before"] = {"root": "/before", "first_row_s": [before + 0.1] * 5,
                             "startup_s": before, "command_cpu_s": None}
    return figures


def test_the_target_is_three_seconds_and_each_side_is_judged_against_it():
    assert STARTUP_TARGET_S == 3.0
    lines = "\n".join(startup_markdown(_figures(2.9, 3.1))).splitlines()
    rows = [line for line in lines if line.startswith("| after") or line.startswith("| before")]
    assert rows == ["| after | /after | 2.90 | 1.25 | 3.00, 3.00, 3.00, 3.00, 3.00 | <= 3 | yes |",
                    "| before | /before | 3.10 |  | 3.20, 3.20, 3.20, 3.20, 3.20 | <= 3 | no |"]
    assert "started alternately" in lines[0] and "load average 0.5 before, 1 after" in lines[0]


def test_one_checkout_alone_is_one_row():
    lines = "\n".join(startup_markdown(_figures(3.0, None))).splitlines()
    assert [line for line in lines if line.startswith("| this checkout")] == \
        ["| this checkout | /after | 3.00 | 1.25 | 3.10, 3.10, 3.10, 3.10, 3.10 | <= 3 | yes |"]
    assert "alternately" not in lines[0] and "median of 5 starts" in lines[0]
