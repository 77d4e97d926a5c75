"""The notebook API: importable from balance3d.tune, lazily (no pandas, SALib or
Optuna at ``import balance3d``, nor when the functions are imported), without
clashing with the package's submodules; a plain function's sensitivity."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import balance3d
import balance3d.tune
heavy = {"pandas", "SALib", "optuna", "matplotlib", "statsmodels"}
loaded = lambda: sorted(m for m in sys.modules if m.split(".")[0] in heavy)
print(loaded())
from balance3d.tune import run_sweep, fit_target, search, sensitivity
import balance3d.tune.runner, balance3d.tune.fit, balance3d.tune.search_study
import balance3d.tune.sensitivity_study
from balance3d.tune import run_sweep as again, search as search_again
import balance3d.tune as tune
names = [f.__module__ + "." + f.__name__ for f in
         (run_sweep, fit_target, search, sensitivity, again, search_again,
          tune.sensitivity)]
print(names)
print(loaded())
"""


def test_the_api_is_lazy_and_its_names_are_functions_not_submodules():
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert done.returncode == 0, done.stderr
    first, names, last = done.stdout.splitlines()
    assert first == "[]" and last == "[]"
    assert eval(names) == [f"balance3d.tune.api.{n}" for n in (
        "run_sweep", "fit_target", "search", "sensitivity", "run_sweep", "search",
        "sensitivity")]


def test_an_unknown_name_is_an_attribute_error():
    import balance3d.tune

    with pytest.raises(AttributeError, match="has no attribute 'serch'"):
        balance3d.tune.serch  # noqa: B018


def test_sensitivity_of_a_plain_function_with_named_bounds():
    from balance3d.tune import sensitivity

    # y = a + 2 b on [0, 1]^2 (b also 0..1): variances 1/12 and 4/12, so S = 0.2, 0.8
    report = sensitivity(lambda x: x[:, 0] + 2.0 * x[:, 1],
                         bounds={"a": (0.0, 1.0), "b": (0.0, 1.0)}, n=512, seed=1)
    s1 = {r["parameter"]: r["S1"] for r in report["indices"]}
    assert s1["a"] == pytest.approx(0.2, abs=0.03) and s1["b"] == pytest.approx(0.8, abs=0.03)
    assert math.isnan(report["noise"]["noise_share"])
    with pytest.raises(ValueError, match="^bounds: a function's parameters need bounds"):
        sensitivity(lambda x: x[:, 0])
    assert np.isfinite(report["indices"][0]["ST"])
