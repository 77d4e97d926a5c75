"""``tune compare``: per-cell differences of two sweeps with hand-worked intervals
and tests, Holm's step-down adjustment across cells, and sweeps whose cases differ
refused in one line."""
from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy import stats

from balance3d.cli import main
from balance3d.tune.compare import CompareError, compare_runs
from balance3d.tune.runner import run_sweep
from balance3d.tune.sweep import load_sweep


def runs(cells: dict[tuple[int, str], list[float]], outcome: str) -> pd.DataFrame:
    """A run table: (combination, part) -> the outcome of each run."""
    rows = []
    for case, ((combination, part), values) in enumerate(cells.items()):
        rows += [{"combination": combination, "case": case, "repetition": r,
                  "case.part": part, f"out.{outcome}": v} for r, v in enumerate(values)]
    return pd.DataFrame.from_records(rows)


def test_a_rate_difference_has_the_agresti_caffo_interval():
    a = runs({(0, "x"): [1.0] * 2 + [0.0] * 8}, "hit")
    b = runs({(0, "x"): [1.0] * 8 + [0.0] * 2}, "hit")
    row = compare_runs(a, b, {"hit": "probability"}).iloc[0]
    assert row["difference"] == pytest.approx(0.6)
    # Agresti-Caffo: one success and one failure added to each: 9/12 - 3/12 = 0.5,
    # se = sqrt(2 x 0.75 x 0.25 / 12) = 0.1768, 0.5 -/+ 1.96 se
    se = math.sqrt(2 * 0.75 * 0.25 / 12)
    z = stats.norm.ppf(0.975)
    assert (row["low"], row["high"]) == pytest.approx((0.5 - z * se, 0.5 + z * se), abs=1e-9)
    assert row["p"] < 0.05 and row["differs"]


def test_a_mean_difference_has_welchs_test_and_interval():
    a = runs({(0, "x"): [1.0, 2.0, 3.0, 4.0]}, "h")
    b = runs({(0, "x"): [2.0, 2.5, 9.0]}, "h")
    row = compare_runs(a, b, {"h": "mean"}).iloc[0]
    # by hand: means 2.5 and 4.5, variances 5/3 and 15.25, se^2 = 15.25/3 + (5/3)/4 = 5.5
    se, t = math.sqrt(5.5), 2.0 / math.sqrt(5.5)
    df = 5.5 ** 2 / ((15.25 / 3) ** 2 / 2 + (5 / 12) ** 2 / 3)  # Welch-Satterthwaite
    assert row["difference"] == pytest.approx(2.0)
    assert row["p"] == pytest.approx(2 * stats.t.sf(t, df), rel=1e-9)
    half = stats.t.ppf(0.975, df) * se
    assert (row["low"], row["high"]) == pytest.approx((2.0 - half, 2.0 + half), rel=1e-9)
    assert not row["differs"]


def test_holm_adjusts_the_p_values_of_one_outcome_across_its_cells():
    cells_a = {(0, "x"): [0.0] * 10, (0, "y"): [0.0] * 10, (1, "x"): [0.0] * 10,
               (1, "y"): [1.0] * 10}
    cells_b = {(0, "x"): [1.0] * 6 + [0.0] * 4, (0, "y"): [1.0] * 4 + [0.0] * 6,
               (1, "x"): [1.0] * 9 + [0.0], (1, "y"): [1.0] * 10}
    table = compare_runs(runs(cells_a, "hit"), runs(cells_b, "hit"), {"hit": "probability"})
    p = list(table["p"])
    order = sorted(range(4), key=lambda i: p[i])
    expected, running = [0.0] * 4, 0.0
    for rank, i in enumerate(order):  # Holm: (m - rank) p, made non-decreasing, <= 1
        running = max(running, min(1.0, (4 - rank) * p[i]))
        expected[i] = running
    assert list(table["p_holm"]) == pytest.approx(expected, rel=1e-12)
    assert list(table["differs"]) == [e < 0.05 for e in expected]
    # 0 of 10 against 4 of 10 is below 0.05 alone, not after Holm's factor of 2
    assert table.loc[1, "p"] < 0.05 and not table.loc[1, "differs"]
    assert table.loc[3, "difference"] == 0.0 and table.loc[3, "p"] == pytest.approx(1.0)


def test_cells_that_differ_are_refused_naming_one():
    a = runs({(0, "x"): [1.0], (0, "y"): [1.0]}, "hit")
    b = runs({(0, "x"): [1.0], (0, "z"): [0.0]}, "hit")
    with pytest.raises(CompareError, match=r"^A and B are not over the same cases: "
                                           r"combination=0 part=y is in A, not in B$"):
        compare_runs(a, b, {"hit": "probability"})


SWEEP = """\
[sweep]
scene = "tilted"
experiment = "box_drop"
repetitions = 2
seed = {seed}

[experiment]
parts = {parts}
"""


def _sweep(tmp_path, name: str, seed: int, parts: str) -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(SWEEP.format(seed=seed, parts=parts))
    run_sweep(load_sweep(path), out=tmp_path / name, workers=1, progress=False)
    return str(tmp_path / name)


def test_the_command_compares_two_sweeps_and_refuses_other_cases(tmp_path, box_drop,
                                                                 capsys):
    a = _sweep(tmp_path, "a", 1, '["block_1", "block_2"]')
    b = _sweep(tmp_path, "b", 2, '["block_1", "block_2"]')
    out = tmp_path / "cmp"
    assert main(["tune", "compare", a, b, "--out", str(out)]) == 0
    table = pd.read_csv(out / "compare.csv")
    assert len(table) == 2 * 2  # two cells, two outcomes
    assert sorted(p.name for p in out.glob("*.png")) == ["compare_rest_height.png",
                                                         "compare_right_of_aim.png"]
    assert "cells differ" in capsys.readouterr().out
    c = _sweep(tmp_path, "c", 1, '["block_1"]')
    assert main(["tune", "compare", a, c]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "are not over the same cases" in err
    assert main(["tune", "compare", a, str(tmp_path / "nothing")]) == 2
    assert capsys.readouterr().err.endswith("nothing: no such sweep output folder\n")
