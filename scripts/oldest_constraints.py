"""Write pip constraints that pin every direct dependency to its lowest admitted version.

Reads ``[project].dependencies`` of a pyproject.toml and prints one ``name==lower``
line per dependency, the lower bound being the version of its ``>=`` (or ``==``,
``~=``) clause.  ``--without NAME`` leaves a dependency out (the oldest environment
leaves out what no portable test needs).  A dependency without a lower bound is an
error: the oldest admitted version would be undefined.  ``--python`` prints the
lower bound of ``requires-python`` instead (the oldest environment's Python).

Usage: python scripts/oldest_constraints.py [PYPROJECT] [--without NAME ...] [--python]
Exit status 0, or 2 with one line on stderr naming what is wrong.
"""
from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Collection
from pathlib import Path

#: A requirement: name, optional [extras], version clauses, optional ; marker.
REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?"
                         r"\s*(?P<clauses>[^;]*)(;.*)?$")
#: A version clause whose version is the lowest the requirement admits.
LOWER = re.compile(r"^(>=|==|~=)\s*(?P<version>[0-9][A-Za-z0-9.+!-]*)$")


class ConstraintError(ValueError):
    """A dependency whose oldest admitted version cannot be told."""


def normalise(name: str) -> str:
    """The package name as pip compares it (PEP 503): lower case, runs of -_. as -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lower_bound(requirement: str) -> tuple[str, str]:
    """(normalised name, lowest admitted version) of one requirement string."""
    match = REQUIREMENT.match(requirement)
    if match is None:
        raise ConstraintError(f"{requirement!r}: not a requirement")
    versions = [m.group("version") for clause in match.group("clauses").split(",")
                if (m := LOWER.match(clause.strip()))]
    if not versions:
        raise ConstraintError(f"{requirement!r}: no lower bound (>=, == or ~=)")
    return normalise(match.group("name")), versions[0]


def read_project(pyproject: Path) -> dict:
    """The [project] table of ``pyproject`` (empty if it has none)."""
    try:
        return tomllib.loads(pyproject.read_text()).get("project", {})
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConstraintError(f"{pyproject}: {error}") from None


def oldest_constraints(pyproject: Path, without: Collection[str] = ()) -> list[str]:
    """``name==lower`` lines for the direct dependencies of ``pyproject``, in its order,
    leaving out the names in ``without``."""
    declared = read_project(pyproject)
    requirements = declared.get("dependencies")
    if not isinstance(requirements, list):
        raise ConstraintError(f"{pyproject}: no [project].dependencies list")
    bounds = [lower_bound(requirement) for requirement in requirements]
    skip = {normalise(name) for name in without}
    unknown = skip - {name for name, _ in bounds}
    if unknown:
        raise ConstraintError(f"--without {', '.join(sorted(unknown))}: not a dependency "
                              f"in {pyproject}")
    return [f"{name}=={version}" for name, version in bounds if name not in skip]


def oldest_python(pyproject: Path) -> str:
    """The lowest Python version that ``pyproject``'s requires-python admits ("3.11")."""
    declared = read_project(pyproject)
    requires = declared.get("requires-python")
    if not isinstance(requires, str):
        raise ConstraintError(f"{pyproject}: no [project].requires-python")
    return lower_bound(f"python{requires}")[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pyproject", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1] / "pyproject.toml")
    parser.add_argument("--without", action="append", default=[], metavar="NAME",
                        help="leave this dependency out (repeatable)")
    parser.add_argument("--python", action="store_true",
                        help="print the lower bound of requires-python instead")
    args = parser.parse_args(argv)
    try:
        if args.python:
            lines = [oldest_python(args.pyproject)]
        else:
            lines = oldest_constraints(args.pyproject, set(args.without))
    except ConstraintError as error:
        print(f"oldest_constraints: error: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
