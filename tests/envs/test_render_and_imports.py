"""Drawing: PettingZoo's render test in a subprocess (it opens the window, and
Panda3D allows one base per process) under the window tests' Xvfb; and no Panda3D
at all without a render mode."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _gui_fixtures():
    spec = importlib.util.spec_from_file_location("gui_conftest",
                                                  ROOT / "tests" / "gui" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


xvfb = _gui_fixtures().xvfb

RENDER = """
import numpy as np
from pettingzoo.test import render_test
from balance3d.envs import tilted_v0
frames = []
def env_fn(render_mode=None):
    return tilted_v0.env(render_mode=render_mode, max_cycles=2, grid_points=2, grid_yaws=1)
def seen(frame):
    frames.append(frame)
    return frame.shape == (360, 640, 3) and frame.std() > 0
render_test(env_fn, custom_tests={"rgb_array": seen})
assert len(frames) == 5
print("render ok")
"""

NO_PANDA = """
import sys
import balance3d.envs as envs
from balance3d.games import game_names
for game in game_names():
    env = getattr(envs, game + "_v0").env(max_cycles=2, grid_points=1, grid_yaws=1)
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(int(obs["action_mask"].argmax()))
    assert env.render() is None
    env.close()
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("panda3d", "direct"))
print("panda3d modules:", loaded)
"""


def _run(code, env=None):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def test_pettingzoo_render_test_passes_in_a_subprocess(xvfb):
    done = _run(RENDER, {"DISPLAY": xvfb})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "render ok" in done.stdout


def test_without_a_render_mode_panda3d_is_never_imported():
    done = _run(NO_PANDA)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "panda3d modules: []" in done.stdout
