"""List the CPU variants under which the portable tests run again on this machine.

Each variant imitates another x86-64 machine by switching off code paths that this
one would take: numpy's widest SIMD paths (``NPY_DISABLE_CPU_FEATURES``, with the
feature names of the installed numpy, which differ between numpy 1.x and 2.x), or
OpenBLAS's kernels for this CPU (``OPENBLAS_CORETYPE``, another kernel family that
this CPU can run, judged from the flags in /proc/cpuinfo, and that OpenBLAS really
switches to: a build may map a family onto another's kernels, Zen onto Haswell's).

Prints one variant a line: ``label<TAB>NAME=value``.  Prints nothing on a CPU that is
not x86-64 (the OpenBLAS family names and numpy's feature names below are x86's).
"""
from __future__ import annotations

import ctypes
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

#: OpenBLAS kernel families to imitate, and the /proc/cpuinfo flags each needs
#: (Sandybridge's AVX kernels differ from the AVX2 families' on every AVX2 machine).
OPENBLAS_FAMILIES = {
    "Sandybridge": {"avx"},
    "Haswell": {"avx2", "fma"},
    "Zen": {"avx2", "fma"},
    "SkylakeX": {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"},
}
#: numpy's names of its AVX-512 dispatch targets (1.x: AVX512F, AVX512_SKX, ...;
#: 2.x: X86_V4, AVX512_ICL, AVX512_SPR).
AVX512 = re.compile(r"^(AVX512.*|X86_V4)$")
#: The names of the function that tells OpenBLAS's chosen kernel family, by build.
CORENAME_SYMBOLS = ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename",
                    "openblas_get_corename64_", "openblas_get_corename")


def cpu_flags() -> set[str]:
    """The feature flags of the first processor in /proc/cpuinfo (empty if unreadable)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    match = re.search(r"^flags\s*:(.*)$", text, re.MULTILINE)
    return set(match.group(1).split()) if match else set()


def numpy_dispatch() -> list[str]:
    """The SIMD targets above numpy's baseline that numpy uses on this CPU."""
    try:
        from numpy._core import _multiarray_umath as umath   # numpy 2.x
    except ImportError:
        from numpy.core import _multiarray_umath as umath    # numpy 1.x
    found = umath.__cpu_features__
    return [name for name in umath.__cpu_dispatch__ if found.get(name)]


def openblas_family() -> str | None:
    """The kernel family OpenBLAS (as loaded by numpy) chose here, or None if unknown."""
    np.dot(np.ones((2, 2)), np.ones((2, 2)))           # makes sure the library is loaded
    maps = Path("/proc/self/maps").read_text().splitlines()
    paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    for path in sorted(paths):
        library = ctypes.CDLL(path)
        for symbol in CORENAME_SYMBOLS:
            function = getattr(library, symbol, None)
            if function is not None:
                function.restype = ctypes.c_char_p
                return function().decode().strip()
    return None


def family_under(coretype: str) -> str | None:
    """The kernel family OpenBLAS chooses in a Python run with OPENBLAS_CORETYPE set."""
    done = subprocess.run([sys.executable, __file__, "--family"], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ,
                                                           OPENBLAS_CORETYPE=coretype))
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def variants() -> list[tuple[str, str, str]]:
    """(label, variable, value) of each variant to run on this machine."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    found = []
    dispatch = numpy_dispatch()
    avx512 = [name for name in dispatch if AVX512.match(name)]
    if avx512:
        found.append(("numpy without AVX-512", "NPY_DISABLE_CPU_FEATURES", " ".join(avx512)))
    if dispatch:
        found.append(("numpy at its baseline", "NPY_DISABLE_CPU_FEATURES", " ".join(dispatch)))
    flags, seen = cpu_flags(), {(openblas_family() or "").lower()}
    for family, needs in OPENBLAS_FAMILIES.items():
        chosen = family_under(family) if needs <= flags else None
        if chosen is not None and chosen.lower() not in seen:
            seen.add(chosen.lower())
            found.append((f"OpenBLAS {family} kernels", "OPENBLAS_CORETYPE", family))
    return found


if __name__ == "__main__":
    if sys.argv[1:] == ["--family"]:
        print(openblas_family() or "")
        sys.exit(0)
    for label, variable, value in variants():
        print(f"{label}\t{variable}={value}")
