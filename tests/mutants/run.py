"""Mutation check: does the test suite catch each deliberate bug kept in this folder?

Every ``*.patch`` here is a small bug in ``git diff`` format against the repository,
headed by comment lines that say what it breaks and which tests must catch it::

    # mutant: the penalty is paid after the drop's coins
    # tests: tests/games/test_tilted_catchers.py

For each patch in turn the script copies the repository's files (tracked and
untracked, not ignored) to a temporary folder, applies the patch there and runs the
patch's tests in that copy.  The working tree is never modified.  It first runs every
selected test once on an unpatched copy: a catch only counts when the same tests pass
without the bug.

Results, one line per patch, with the files it touches:

``caught``    the tests failed on the bug;
``survived``  the tests passed: the bug went unnoticed;
``stale``     the patch no longer applies (the code it changes has moved: make it
              again against the current tree, keeping it as small);
``error``     the tests could not run (collection error, no test selected, timeout).

To make a patch again after the code moved: make the same one- or two-line change in
the working tree, ``git diff > tests/mutants/NAME.patch``, undo the change
(``git checkout -- FILE``), and put the two header lines back on top.

Exit status 0 when every patch was caught, 1 otherwise, 2 when the unpatched tests
fail or no patch was found.  This is not part of the normal test run (pytest does not
collect it).  Run it from anywhere::

    python tests/mutants/run.py                # every patch
    python tests/mutants/run.py 04 06a         # patches whose names start so
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: s, longest a patch's test run may take before it counts as an error.
TEST_TIMEOUT = 1800
#: pytest's exit statuses: all passed, some failed.
PYTEST_PASSED, PYTEST_FAILED = 0, 1


@dataclass(frozen=True)
class Mutant:
    """One patch: its file, what it breaks, the tests that must catch it and the
    repository files it changes."""

    path: Path
    what: str
    tests: tuple[str, ...]
    touches: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.path.stem


def read_mutant(path: Path) -> Mutant:
    """Parse a patch's header (``# mutant:`` and ``# tests:`` lines) and the files its
    diff changes; raises ValueError naming the patch when a header line is missing."""
    what, tests, touches = None, None, []
    for line in path.read_text().splitlines():
        if line.startswith("# mutant:"):
            what = line.partition(":")[2].strip()
        elif line.startswith("# tests:"):
            tests = tuple(line.partition(":")[2].split())
        elif line.startswith("+++ b/"):
            touches.append(line[len("+++ b/"):])
    if not what or not tests:
        raise ValueError(f"{path.name}: needs '# mutant: ...' and '# tests: ...' header lines")
    if not touches:
        raise ValueError(f"{path.name}: changes no file (not a git diff?)")
    return Mutant(path, what, tests, tuple(touches))


def repository_root() -> Path:
    out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=HERE,
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def copy_tree(root: Path, target: Path) -> None:
    """Copy the repository's tracked and untracked (not ignored) files to ``target``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=root, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = root / name
        if not source.is_file():          # deleted in the working tree
            continue
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest)


def apply(patch: Path, tree: Path) -> bool:
    """Apply ``patch`` in ``tree`` (a plain folder); False when it does not apply."""
    check = subprocess.run(["git", "apply", "--check", str(patch)], cwd=tree,
                           capture_output=True, text=True)
    if check.returncode != 0:
        return False
    subprocess.run(["git", "apply", str(patch)], cwd=tree, capture_output=True, check=True)
    return True


def run_tests(tree: Path, tests: tuple[str, ...]) -> int:
    """pytest's exit status for ``tests`` run in ``tree`` (its own package first on
    the path); -1 on timeout."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    try:
        return subprocess.run(command, cwd=tree, env=env, capture_output=True,
                              timeout=TEST_TIMEOUT).returncode
    except subprocess.TimeoutExpired:
        return -1


def judge(mutant: Mutant, root: Path) -> str:
    """Run one mutant in a fresh copy of the repository; its result word."""
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.name}-") as tmp:
        tree = Path(tmp)
        copy_tree(root, tree)
        if not apply(mutant.path, tree):
            return "stale"
        status = run_tests(tree, mutant.tests)
    if status == PYTEST_FAILED:
        return "caught"
    if status == PYTEST_PASSED:
        return "survived"
    return "error"


def baseline(root: Path, tests: list[str]) -> int:
    """pytest's exit status for ``tests`` on an unpatched copy."""
    with tempfile.TemporaryDirectory(prefix="mutant-baseline-") as tmp:
        copy_tree(root, Path(tmp))
        return run_tests(Path(tmp), tuple(tests))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Apply each deliberate bug in "
                                     "tests/mutants/ to a copy of the repository and "
                                     "report whether its tests catch it.")
    parser.add_argument("only", nargs="*", metavar="PREFIX",
                        help="run only the patches whose names start with one of these")
    args = parser.parse_args(argv)
    root = repository_root()
    patches = sorted(HERE.glob("*.patch"))
    if args.only:
        patches = [p for p in patches if any(p.name.startswith(o) for o in args.only)]
    if not patches:
        print("no patch found", file=sys.stderr)
        return 2
    try:
        mutants = [read_mutant(p) for p in patches]
    except ValueError as exc:
        print(f"mutants: {exc}", file=sys.stderr)
        return 2
    selected = sorted({t for m in mutants for t in m.tests})
    started = time.monotonic()
    status = baseline(root, selected)
    if status != PYTEST_PASSED:
        print(f"mutants: the tests fail without any bug (pytest exit {status}): "
              f"{' '.join(selected)}", file=sys.stderr)
        return 2
    print(f"baseline: {len(selected)} test file(s) pass unpatched "
          f"({time.monotonic() - started:.0f} s)")
    width = max(len(m.name) for m in mutants)
    print(f"{'patch':<{width}}  {'result':<8}  {'s':>4}  touches -> tests")
    results = []
    for mutant in mutants:
        started = time.monotonic()
        result = judge(mutant, root)
        results.append(result)
        print(f"{mutant.name:<{width}}  {result:<8}  {time.monotonic() - started:4.0f}  "
              f"{', '.join(mutant.touches)} -> {' '.join(mutant.tests)}", flush=True)
        print(f"{'':<{width}}  {mutant.what}", flush=True)
    caught = results.count("caught")
    print(f"{caught} of {len(results)} caught" + "".join(
        f", {results.count(word)} {word}" for word in ("survived", "stale", "error")
        if word in results))
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
