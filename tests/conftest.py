"""Fixtures every test folder shares."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_CPU_VARIANTS = Path(__file__).resolve().parents[1] / "scripts" / "cpu_variants.py"


@pytest.fixture(scope="session")
def cpu_variants() -> list[tuple[str, dict[str, str]]]:
    """The other CPUs this machine can imitate, as (label, environment variables):
    numpy without its widest SIMD paths and other OpenBLAS kernel families that
    OpenBLAS really switches to (``scripts/cpu_variants.py``, which
    ``scripts/test`` also uses); empty on a CPU that is not x86-64."""
    spec = importlib.util.spec_from_file_location("cpu_variants", _CPU_VARIANTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [(label, {name: value}) for label, name, value in module.variants()]
