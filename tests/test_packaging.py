"""Packaging: the wheel carries the code, the scenes, the models and the ``balance3d``
command, and works installed (not from the checkout); the core imports no GUI."""
from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import balance3d

ROOT = Path(balance3d.__file__).resolve().parents[1]
#: What a source checkout has that a wheel build must not see or need.
NOT_SOURCE = shutil.ignore_patterns(".git", ".ci", "tests", "benchmarks", "build", "dist",
                                    "*.egg-info", "__pycache__", ".pytest_cache",
                                    ".benchmarks", "models-export")


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(args, capture_output=True, text=True, timeout=120, **kwargs)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the source tree (no build files in the checkout)."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "--quiet", "--wheel-dir", str(work / "dist"), str(source)])
    (built,) = (work / "dist").glob("balance3d-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed (without dependencies) into a folder of its own."""
    site = tmp_path_factory.mktemp("site")
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
          "--target", str(site), str(wheel)])
    return site


def _source_files(folder: str, pattern: str) -> list[str]:
    return sorted(p.relative_to(ROOT / folder).as_posix()
                  for p in (ROOT / folder).rglob(pattern) if "__pycache__" not in p.parts)


def test_wheel_holds_every_module_scene_and_model(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for module in _source_files("balance3d", "*.py"):
        assert f"balance3d/{module}" in names, f"module {module} missing from the wheel"
    scenes = _source_files("scenes", "*.toml")
    assert "tilted.toml" in scenes and "shared/common.toml" in scenes
    for scene in scenes:
        assert f"balance3d/data/scenes/{scene}" in names
    models = _source_files("models", "*.toml")
    assert "letters.toml" in models
    for model in models:
        assert f"balance3d/data/models/{model}" in names
    assert not any(n.startswith(("tests/", "benchmarks/", "scenes/", "models/")) for n in names)


def test_wheel_declares_the_console_script(wheel):
    with zipfile.ZipFile(wheel) as zf:
        (entry,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        parser = configparser.ConfigParser()
        parser.read_string(zf.read(entry).decode())
    assert dict(parser["console_scripts"]) == {"balance3d": "balance3d.cli:main"}


def test_installed_package_finds_its_data_from_any_folder(installed, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(installed))
    code = ("import balance3d, balance3d.resources as r, balance3d.scene as s; "
            "print(balance3d.__file__); print(r.scenes_dir()); print(r.models_dir()); "
            "print(','.join(s.list_scenes())); print(s.load_scene('tower').path)")
    lines = _run([sys.executable, "-c", code], cwd=tmp_path, env=env).stdout.splitlines()
    package = installed / "balance3d"
    assert lines[0] == str(package / "__init__.py")
    assert lines[1] == str(package / "data" / "scenes")
    assert lines[2] == str(package / "data" / "models")
    assert lines[3].split(",") == sorted(Path(n).stem for n in _source_files("scenes", "*.toml")
                                         if "/" not in n)
    assert lines[4] == str(package / "data" / "scenes" / "tower.toml")


def test_installed_console_script_runs(installed, tmp_path):
    script = installed / "bin" / "balance3d"
    assert script.is_file()
    env = dict(os.environ, PYTHONPATH=str(installed))
    out = _run([sys.executable, str(script), "scene", "show", "tribalance", "--json"],
               cwd=tmp_path, env=env).stdout
    assert f'"path": "{installed / "balance3d" / "data" / "scenes" / "tribalance.toml"}"' in out


def test_import_needs_no_gui_or_display(tmp_path):
    """The core, a world and the command-line parser load without Panda3D or a display."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    code = ("import sys, balance3d; "
            "from balance3d.scene import load_scene; load_scene('tilted').build_world().step(); "
            "from balance3d import cli; cli.build_parser(); "
            "gui = ('panda3d', 'direct', 'pandac', 'balance3d.gui'); "
            "print(sorted(m for m in sys.modules "
            "if any(m == g or m.startswith(g + '.') for g in gui)))")
    out = _run([sys.executable, "-c", code], cwd=tmp_path, env=env).stdout
    assert out.strip().splitlines()[-1] == "[]"
