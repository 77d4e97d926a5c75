"""``balance3d scene``: list the bundled scenes, show one resolved scene.

``scene list`` prints every bundled scene with its game, variant, body count and
description.  ``scene show NAME|PATH`` prints the resolved scene (after ``extends``):
physics settings with their units, materials, parts with their dimensions and masses,
every body with its part, mass and start pose, and the game's rules, checked as a
game in the scene would check them; ``--json`` prints the same as JSON.
"""
from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

from balance3d.commands import plain
from balance3d.physics.settings import PHYSICS_UNITS


def add_parser(subparsers) -> None:
    """Register ``scene list`` and ``scene show``."""
    parser = subparsers.add_parser("scene", help="list the bundled scenes or show one",
                                   description=plain(__doc__.split("\n\n")[1]))
    sub = parser.add_subparsers(dest="scene_command", metavar="ACTION")
    sub.required = True
    listing = sub.add_parser("list", help="bundled scenes with game, variant and description",
                             description="Print every bundled scene with its game, variant, "
                                         "body count and description.")
    listing.set_defaults(run=run)
    show = sub.add_parser("show", help="the resolved scene: bodies, parts, physics, rules",
                          description="Print the resolved scene (after 'extends'): physics "
                                      "settings with their units, materials, parts with their "
                                      "dimensions and masses, every body with its part, mass "
                                      "and start pose, and the game's rules.")
    show.add_argument("scene", metavar="NAME|PATH", help="bundled scene name or .toml file")
    show.add_argument("--json", action="store_true", help="print the summary as JSON")
    show.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``scene list`` or ``scene show``; returns the exit status."""
    from balance3d.games import get_game
    from balance3d.scene import list_scenes, load_scene

    if args.scene_command == "list":
        rows = []
        for name in list_scenes():
            scene = load_scene(name)
            rows.append([name, scene.game, scene.variant, str(len(scene.bodies)),
                         scene.description])
        print(format_table(["scene", "game", "variant", "bodies", "description"], rows,
                           "lllrl"))
        return 0
    scene = load_scene(args.scene)
    get_game(scene.game).rules(scene)
    summary = scene.summary()
    if args.json:
        print(json.dumps(summary, indent=2, default=str))
    else:
        print(format_summary(summary))
    return 0


# ---------------------------------------------------------------------- formatting
def fmt(value: Any) -> str:
    """A value as short text: floats to 6 significant digits, lists joined by x."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return " x ".join(fmt(v) for v in value)
    return str(value)


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> str:
    """Rows of text under ``headers`` in aligned columns; ``align`` has one ``l`` or
    ``r`` per column.  The last column is not padded."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        out = []
        for i, (cell, width) in enumerate(zip(cells, widths)):
            last = i == len(widths) - 1
            if align[i] == "r":
                out.append(cell.rjust(width))
            else:
                out.append(cell if last else cell.ljust(width))
        return "  ".join(out).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths])]
                     + [line(r) for r in rows])


def format_summary(summary: dict[str, Any]) -> str:
    """The text report of ``balance3d scene show``."""
    out = [f"Scene {summary['name']}: game {summary['game']}, variant {summary['variant']}"]
    if summary["description"]:
        out.append(f"  {summary['description']}")
    out += [f"  file    {summary['path']}", f"  digest  {summary['digest']}", ""]

    out.append("Physics")
    rows = [[k, fmt(v), PHYSICS_UNITS.get(k, "")] for k, v in summary["physics"].items()]
    out += ["  " + line for line in format_table(["setting", "value", "unit"], rows,
                                                 "lrl").splitlines()]
    out.append("")

    out.append("Materials")
    keys = ["density", "friction", "restitution", "rolling_friction", "spinning_friction"]
    rows = [[name] + [fmt(float(spec.get(k, 0.0))) for k in keys]
            for name, spec in summary["materials"].items()]
    headers = ["material", "density kg/m^3", "friction", "restitution", "rolling m",
               "spinning m"]
    out += ["  " + line for line in format_table(headers, rows, "lrrrrr").splitlines()]
    out.append("")

    out.append("Parts (dimensions in m)")
    rows = [[name, p["kind"], p["material"], fmt(p["static"]), fmt(p["mass_kg"]),
             fmt(p["extents_m"]),
             ", ".join(f"{k} {fmt(v)}" for k, v in p["dimensions"].items())]
            for name, p in summary["parts"].items()]
    headers = ["part", "kind", "material", "static", "mass kg", "extents m", "dimensions"]
    out += ["  " + line for line in format_table(headers, rows, "llllrll").splitlines()]
    out.append("")

    out.append("Bodies (pose of the part's design origin)")
    rows = []
    for b in summary["bodies"]:
        x, y, z = b["position_m"]
        roll, pitch, yaw = b["rpy_rad"]
        rows.append([b["name"], b["part"], fmt(b["static"]), fmt(b["mass_kg"]),
                     f"{x:.4f}", f"{y:.4f}", f"{z:.4f}",
                     f"{roll:.4f}", f"{pitch:.4f}", f"{yaw:.4f}"])
    headers = ["body", "part", "static", "mass kg", "x m", "y m", "z m", "roll rad",
               "pitch rad", "yaw rad"]
    out += ["  " + line for line in format_table(headers, rows, "lllrrrrrrr").splitlines()]

    if summary["rules"]:
        out += ["", "Rules"]
        width = max(len(k) for k in summary["rules"])
        for key, value in summary["rules"].items():
            out.append(f"  {key.ljust(width)}  {json.dumps(value, default=str)}")
    return "\n".join(out)
