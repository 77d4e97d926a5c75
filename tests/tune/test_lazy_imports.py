"""balance3d, its command line and the tune modules import without tune's libraries
(pandas, pyarrow, tqdm, matplotlib, statsmodels, pydantic, ray): those are optional extras."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
BLOCKED = {"pandas", "pyarrow", "tqdm", "matplotlib", "statsmodels", "pydantic", "ray"}

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked {name}", name=name)

sys.meta_path.insert(0, Block())
import balance3d
import balance3d.tune.sweep, balance3d.tune.runner, balance3d.tune.summary
import balance3d.tune.engines, balance3d.tune.worker, balance3d.tune.outputs
from balance3d.cli import build_parser, main
build_parser()
assert main(["tune", "list"]) == 0
print(sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED))
"""


def test_balance3d_imports_without_the_tune_libraries():
    done = subprocess.run([sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_sweep_without_the_tune_libraries_names_the_extra(tmp_path):
    program = PROGRAM.split("import balance3d\n")[0] + (
        "from balance3d.cli import main\n"
        f"sys.exit(main(['tune', 'x.toml', '--out', {str(tmp_path / 'o')!r}]))\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert done.returncode == 2
    assert done.stderr == "balance3d tune: error: tune needs pandas: install balance3d[tune]\n"
