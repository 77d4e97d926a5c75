"""The figures the docs quote from the example sweeps come out of
``docs/make_figures.py`` and must come out again, the same, on any machine: the
quickest sweep is rerun here and compared with the committed ``docs/figures.json``
(a physics, rules or seeding change that moves a quoted figure turns this red;
remake the file with ``python docs/make_figures.py`` and update the quoted text)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "docs" / "make_figures.py"
FIGURES = ROOT / "docs" / "figures.json"


def test_every_example_sweep_and_the_fit_have_committed_figures():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import make_figures
    finally:
        sys.path.remove(str(SCRIPT.parent))
    from balance3d.tune.sweep import bundled_sweeps

    saved = json.loads(FIGURES.read_text())
    expected = {n for n in bundled_sweeps() if n != make_figures.FIT_SWEEP}
    assert set(saved) == expected | {make_figures.FIT_NAME}


@pytest.mark.slow
def test_the_quickest_sweep_gives_the_committed_figures_again():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check", "--only",
                           "tribalance-plate-mass", "--workers", "2"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 checked, all the same" in done.stdout
