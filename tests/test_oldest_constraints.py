"""``scripts/oldest_constraints.py``: the pins of the oldest environment that
``scripts/test`` builds, one ``name==lower`` line per direct dependency."""
from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "oldest_constraints.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True,
                          text=True, timeout=60)


def write_pyproject(folder: Path, dependencies: list[str]) -> Path:
    path = folder / "pyproject.toml"
    listed = ", ".join(json.dumps(d) for d in dependencies)
    path.write_text(f"[project]\nname = 'x'\ndependencies = [{listed}]\n")
    return path


def test_each_dependency_is_pinned_at_its_lower_bound_in_the_order_given(tmp_path):
    pyproject = write_pyproject(tmp_path, [
        "pybullet==3.2.7", "numpy>=1.24", "Mapbox_Earcut >= 1.0.1", "highspy>=1.12,<1.13",
        "trimesh[easy]>=4.0 ; python_version >= '3.11'", "scipy<2,~=1.10", "panda3d>=1.10"])
    done = run(str(pyproject), "--without", "Panda3D")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "pybullet==3.2.7", "numpy==1.24", "mapbox-earcut==1.0.1", "highspy==1.12",
        "trimesh==4.0", "scipy==1.10"]


def test_a_dependency_without_a_lower_bound_or_an_unknown_name_is_refused(tmp_path):
    pyproject = write_pyproject(tmp_path, ["numpy>=1.24", "wheel<1"])
    done = run(str(pyproject))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("oldest_constraints: error: 'wheel<1': no lower bound "
                           "(>=, == or ~=)\n")
    pyproject = write_pyproject(tmp_path, ["numpy>=1.24"])
    done = run(str(pyproject), "--without", "scipy")
    assert done.returncode == 2
    assert done.stderr == (f"oldest_constraints: error: --without scipy: not a "
                           f"dependency in {pyproject}\n")


def test_the_projects_pins_are_its_declared_lower_bounds():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = []
    for text in declared["dependencies"]:
        requirement = Requirement(text)
        lower = [s.version for s in requirement.specifier if s.operator in (">=", "==", "~=")]
        assert len(lower) == 1, f"{text}: one lower bound"
        expected.append(f"{canonicalize_name(requirement.name)}=={lower[0]}")
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected
    assert any(line.startswith("numpy==") for line in expected)
    python = [s.version for s in SpecifierSet(declared["requires-python"])
              if s.operator == ">="]
    assert run("--python").stdout == f"{python[0]}\n"
