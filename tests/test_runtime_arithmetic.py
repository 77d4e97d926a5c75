"""The modules that feed the engine, the judges, the rules and the bots' choices
compute through :mod:`balance3d.numerics` and :mod:`balance3d.planar`, never
through numpy's BLAS and LAPACK (``@``, ``np.dot``, ``np.linalg``), its SIMD
transcendental ufuncs, SciPy's rotations or GEOS's hulls and overlays: those give
different last bits on other CPUs or library versions, and a record would then
replay into another game.  A source scan: a new use turns this red.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "balance3d"

#: The run-time modules scanned (globs under balance3d/).
RUNTIME_GLOBS = (
    "numerics.py", "planar.py",
    "physics/world.py", "physics/welding.py", "physics/statics.py", "physics/impacts.py",
    "physics/patches.py", "physics/weld_state.py", "physics/bodies.py",
    "physics/weld_*.py", "physics/impact_check.py", "physics/load_samples.py",
    "physics/engine_contacts.py",
    "games/*.py", "games/*/judge.py", "games/*/rules.py", "games/*/state.py",
    "games/*/turns.py", "games/*/planner.py", "games/*/verdicts.py", "games/*/cards.py",
    "games/*/auction.py", "games/tower/physics.py", "games/tilted/drops.py",
    "games/tribalance/placing.py", "bots/*.py",
)

#: numpy functions that go through BLAS or LAPACK, or have per-CPU SIMD variants
#: of transcendental functions.
NUMPY_FORBIDDEN = frozenset({
    "dot", "vdot", "inner", "outer", "matmul", "tensordot", "einsum", "cov", "corrcoef",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh", "cosh", "tanh",
    "exp", "expm1", "log", "log1p", "log2", "log10", "power", "hypot", "deg2rad",
    "rad2deg", "radians", "degrees",
})

#: (module under balance3d/, what) -> why it may stay.
ALLOWED = {
    ("games/tower/judge.py", "import shapely"):
        "base_outline hands planar.convex_hull's corners to its callers (the window, "
        "the tests) as a shapely Polygon; no GEOS arithmetic makes them",
    ("games/tower/state.py", "import shapely"):
        "the release-point test is GEOS's point-in-polygon predicate, which decides "
        "with exact orientation tests: its answer follows from the coordinates' bits",
}


def runtime_modules() -> list[Path]:
    """The scanned files, sorted."""
    found = {p for pattern in RUNTIME_GLOBS for p in ROOT.glob(pattern)}
    return sorted(found)


def _dotted(node: ast.AST) -> str:
    """``np.linalg.norm`` for the attribute chain of a node, '' when it is not one."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def findings(source: str) -> list[tuple[int, str]]:
    """(line, what) of every BLAS, LAPACK, SIMD-ufunc, SciPy-rotation or shapely
    use in the Python ``source``, in line order."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.MatMult):
            out.append((node.lineno, "@"))
        elif isinstance(node, ast.Attribute):
            name = _dotted(node)
            head, _, rest = name.partition(".")
            if head in ("np", "numpy") and (rest.startswith("linalg")
                                            or rest in NUMPY_FORBIDDEN):
                out.append((node.lineno, name))
            elif node.attr == "dot" and head not in ("numerics", "np", "numpy"):
                out.append((node.lineno, ".dot"))
        elif isinstance(node, ast.Name) and node.id == "Rotation":
            out.append((node.lineno, "Rotation"))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            for name in names:
                if name.split(".")[0] == "shapely":
                    out.append((node.lineno, "import shapely"))
                elif name.startswith("scipy.spatial") or name == "scipy.linalg":
                    out.append((node.lineno, f"import {name}"))
    return sorted(set(out))


@pytest.mark.parametrize("path", runtime_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_runtime_module_computes_with_fixed_order_arithmetic(path: Path) -> None:
    module = str(path.relative_to(ROOT))
    bad = [f"line {line}: {what}" for line, what in findings(path.read_text())
           if (module, what) not in ALLOWED]
    assert not bad, (f"balance3d/{module} uses CPU- or version-dependent arithmetic "
                     f"(use balance3d.numerics or balance3d.planar): {'; '.join(bad)}")


def test_every_allowance_is_still_needed() -> None:
    used = {(str(p.relative_to(ROOT)), what) for p in runtime_modules()
            for _, what in findings(p.read_text())}
    assert set(ALLOWED) <= used, f"allowances no longer needed: {sorted(set(ALLOWED) - used)}"


def test_the_globs_cover_the_engine_and_the_judges() -> None:
    names = {str(p.relative_to(ROOT)) for p in runtime_modules()}
    expected = {"physics/welding.py", "physics/statics.py", "physics/patches.py",
                "physics/impacts.py", "games/tilted/judge.py", "games/tower/judge.py",
                "games/tribalance/judge.py", "games/placement.py", "bots/random_bot.py",
                "games/tower/planner.py"}
    assert expected <= names, f"not scanned: {sorted(expected - names)}"


@pytest.mark.parametrize("source, what", [
    ("x = a @ b\n", "@"),
    ("x @= b\n", "@"),
    ("x = np.dot(a, b)\n", "np.dot"),
    ("x = a.dot(b)\n", ".dot"),
    ("x = np.linalg.norm(a)\n", "np.linalg.norm"),
    ("x = np.arctan2(a, b)\n", "np.arctan2"),
    ("x = np.einsum('ij,ij->i', a, b)\n", "np.einsum"),
    ("from scipy.spatial.transform import Rotation\n", "import scipy.spatial.transform"),
    ("r = Rotation.from_quat(q)\n", "Rotation"),
    ("import shapely.geometry as sg\n", "import shapely"),
])
def test_the_scan_finds_each_kind_of_use(source: str, what: str) -> None:
    assert what in {w for _, w in findings(source)}


def test_the_scan_passes_decorators_and_fixed_order_calls() -> None:
    source = ("@dataclass\nclass A:\n    pass\n"
              "x = numerics.dot(a, b) + numerics.matmul(a, b)[0] + math.sin(y)\n"
              "z = np.sqrt(np.maximum(a, 0.0)).sum()\n")
    assert findings(source) == []
