"""Every bundled part's physics inputs (mesh, collision shapes and hull files, mass,
centre of mass, axes, inertia) and every body's start pose hash to the committed
``tests/golden/physics_inputs.json``, in this process and under other CPU kernels.

When an intended change moves them, ``python -m balance3d.cli models digest --write
tests/golden/physics_inputs.json`` rewrites the file (see the README)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from balance3d.commands.models import physics_digest
from balance3d.scene import list_scenes

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "physics_inputs.json"
def differences(expected: dict, actual: dict) -> list[str]:
    """One line per scene, part, body or input whose digest differs, is missing or
    is new."""
    out = []
    if expected.get("format") != actual.get("format"):
        out.append(f"format {expected.get('format')} != {actual.get('format')}")
    scenes_e, scenes_a = expected.get("scenes", {}), actual.get("scenes", {})
    for scene in sorted(set(scenes_e) | set(scenes_a)):
        if scene not in scenes_a or scene not in scenes_e:
            out.append(f"{scene}: {'missing' if scene not in scenes_a else 'new'} scene")
            continue
        for group in ("parts", "bodies"):
            e, a = scenes_e[scene][group], scenes_a[scene][group]
            for name in sorted(set(e) | set(a)):
                if name not in a or name not in e:
                    out.append(f"{scene} {group} {name}: {'missing' if name not in a else 'new'}")
                elif e[name] != a[name]:
                    keys = ([k for k in sorted(set(e[name]) | set(a[name]))
                             if e[name].get(k) != a[name].get(k)]
                            if group == "parts" else ["pose"])
                    out.append(f"{scene} {group} {name}: {', '.join(keys)} differ")
    return out


def test_differences_name_every_part_and_input():
    base = {"format": 1, "scenes": {"s": {"parts": {"p": {"mass": "a", "faces": "b"}},
                                          "bodies": {"b": "c"}}}}
    moved = json.loads(json.dumps(base))
    moved["scenes"]["s"]["parts"]["p"]["mass"] = "z"
    moved["scenes"]["s"]["bodies"]["b"] = "z"
    assert differences(base, base) == []
    assert differences(base, moved) == ["s parts p: mass differ", "s bodies b: pose differ"]


@pytest.mark.portable
def test_physics_inputs_match_the_committed_digest():
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert differences(expected, physics_digest(list_scenes())) == []


@pytest.mark.portable
def test_physics_inputs_do_not_follow_the_cpu_kernels(tmp_path, cpu_variants):
    """Mass properties by trimesh (numpy products through BLAS, whose kernels differ
    per CPU) gave the Tower's L letter other axes under another kernel, and the
    fulcrum another inertia without AVX-512: the digest, made in a fresh process
    under each kernel, is the same."""
    if not cpu_variants:
        pytest.skip("no other CPU to imitate on this architecture")
    here = physics_digest(list_scenes())
    for i, (_, variables) in enumerate(cpu_variants):
        out = tmp_path / f"digest{i}.json"
        env = dict(os.environ, PYTHONPATH=str(ROOT), **variables)
        done = subprocess.run([sys.executable, "-m", "balance3d.cli", "models", "digest",
                               "--write", str(out)], env=env, capture_output=True,
                              text=True, cwd=tmp_path)
        assert done.returncode == 0 and "cannot" not in done.stderr, (variables, done.stderr)
        assert differences(here, json.loads(out.read_text(encoding="utf-8"))) == [], variables
