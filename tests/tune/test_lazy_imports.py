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


#: A one-run sweep of Tilted's drops.
ONE_RUN = """\
[sweep]
scene = "tilted"
experiment = "drops"

[experiment]
blocks = [1]
sections = [1]
"""

STARTUP = """
import sys
from balance3d.tune import engines

EARLY = ("pandas", "statsmodels", "matplotlib", "scipy", "pydantic", "trimesh", "pybullet",
         "balance3d.physics", "balance3d.scene", "balance3d.games")
LATE = ("pandas", "statsmodels", "matplotlib", "scipy.stats", "tqdm.auto")


def loaded(names):
    return sorted(n for n in names if n in sys.modules)


warm = engines.LocalPool.warm
run_local = engines.run_local


def warm_recorded(self, count):
    print("pool:", loaded(EARLY))
    warm(self, count)


def run_local_recorded(*args):
    for i, row in enumerate(run_local(*args)):
        if i == 0:
            print("first row:", loaded(LATE))
        yield row


engines.LocalPool.warm = warm_recorded
engines.run_local = run_local_recorded
from balance3d.cli import main
sys.exit(main(["tune", sys.argv[1], "--out", sys.argv[2], "--workers", "1", "--quiet"]))
"""


def test_the_tune_command_starts_its_pool_before_its_heavy_imports(tmp_path):
    """The pool starts (the fork server's imports in their own process) before this
    process imports the scene, the physics, trimesh, scipy or pydantic to check the
    sweep; and the first run comes back before pandas, statsmodels, matplotlib or
    scipy.stats is imported, which only the tables and plots need."""
    sweep = tmp_path / "one-run.toml"
    sweep.write_text(ONE_RUN, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", STARTUP, str(sweep), str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["pool: []", "first row: []"]
    assert (tmp_path / "out" / "runs.parquet").is_file()


def test_the_command_line_of_one_command_imports_no_other_command():
    """A command named first builds its own parser only: ``tune`` loads neither the
    other commands' modules nor the games they describe."""
    program = ("import sys\nfrom balance3d.cli import build_parser\n"
               "build_parser('tune')\n"
               "print(sorted(m for m in sys.modules if m.startswith(('balance3d.commands.',"
               " 'balance3d.games', 'balance3d.physics', 'trimesh', 'pandas'))))")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(sorted(
        f"balance3d.commands.{m}" for m in ("tune", "tune_analysis", "tune_compare",
                                            "tune_search", "tune_sensitivity",
                                            "tune_study_args")))]
