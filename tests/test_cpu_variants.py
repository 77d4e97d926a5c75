"""``scripts/cpu_variants.py``: the settings under which ``scripts/test`` reruns the
portable tests, and that each one really switches off what it names."""
from __future__ import annotations

import importlib.util
import os
import platform
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "cpu_variants.py"
spec = importlib.util.spec_from_file_location("cpu_variants", SCRIPT)
cpu_variants = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cpu_variants)

AVX512_FLAGS = {"avx", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"}


def fake_cpu(monkeypatch, machine: str, flags: set[str], dispatch: list[str],
             native: str | None) -> None:
    monkeypatch.setattr(cpu_variants.platform, "machine", lambda: machine)
    monkeypatch.setattr(cpu_variants, "cpu_flags", lambda: flags)
    monkeypatch.setattr(cpu_variants, "numpy_dispatch", lambda: dispatch)
    monkeypatch.setattr(cpu_variants, "openblas_family", lambda: native)
    # a build that runs Zen on Haswell's kernels, as numpy's OpenBLAS does
    monkeypatch.setattr(cpu_variants, "family_under",
                        lambda coretype: "Haswell" if coretype == "Zen" else coretype)


def test_an_avx512_cpu_with_numpy_1_names_gets_every_other_kernel_family(monkeypatch):
    fake_cpu(monkeypatch, "x86_64", AVX512_FLAGS | {"sse4_2"},
             ["SSE41", "AVX2", "AVX512F", "AVX512_SKX"], "SkylakeX")
    assert cpu_variants.variants() == [
        ("numpy without AVX-512", "NPY_DISABLE_CPU_FEATURES", "AVX512F AVX512_SKX"),
        ("numpy at its baseline", "NPY_DISABLE_CPU_FEATURES", "SSE41 AVX2 AVX512F AVX512_SKX"),
        ("OpenBLAS Sandybridge kernels", "OPENBLAS_CORETYPE", "Sandybridge"),
        ("OpenBLAS Haswell kernels", "OPENBLAS_CORETYPE", "Haswell"),
    ]


def test_an_avx2_cpu_runs_no_avx512_kernels_and_not_its_own_family(monkeypatch):
    fake_cpu(monkeypatch, "x86_64", {"avx", "avx2", "fma"}, ["X86_V3"], "Zen")
    assert cpu_variants.variants() == [
        ("numpy at its baseline", "NPY_DISABLE_CPU_FEATURES", "X86_V3"),
        ("OpenBLAS Sandybridge kernels", "OPENBLAS_CORETYPE", "Sandybridge"),
        ("OpenBLAS Haswell kernels", "OPENBLAS_CORETYPE", "Haswell"),
    ]


def test_another_architecture_gets_no_variant(monkeypatch):
    fake_cpu(monkeypatch, "aarch64", {"asimd"}, ["ASIMDHP"], "NEOVERSEN1")
    assert cpu_variants.variants() == []


def probe(setting: str) -> list[str]:
    """[numpy's dispatch targets in use, OpenBLAS's family] in a Python run with
    ``setting`` ("NAME=value") in its environment."""
    name, value = setting.split("=", 1)
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import cpu_variants as c; "
            "print(' '.join(c.numpy_dispatch())); print(c.openblas_family())")
    done = subprocess.run([sys.executable, "-c", code, str(SCRIPT.parent)],
                          env=dict(os.environ, **{name: value}), capture_output=True,
                          text=True, timeout=120, check=True)
    return done.stdout.splitlines()


def test_each_variant_on_this_machine_switches_off_what_it_names():
    found = cpu_variants.variants()
    if platform.machine() == "x86_64":
        assert any(variable == "OPENBLAS_CORETYPE" for _, variable, _ in found)
    for _, variable, value in found:
        dispatch, family = probe(f"{variable}={value}")
        if variable == "NPY_DISABLE_CPU_FEATURES":
            assert not set(value.split()) & set(dispatch.split()), (value, dispatch)
        else:
            assert family.lower() == value.lower()
