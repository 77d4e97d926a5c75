"""How fast the World steps Tower towers, against a bare pybullet loop on the same bodies.

Towers are built the game's way on the Tower scene's plinths: each piece (letters T,
L, H and logo plaques in turn, laid flat and centred) released 2 mm above the top of
the tower and settled before the next.  The built towers become a scene (the Tower
scene's table and plinths plus every piece at the pose it came to rest in), measured
three ways, side by side in slices (``bench_world``'s interleaving):

* **World steps/s** and **real-time factor**: ``World.step`` with the scene's
  settings (welding on: a standing tower is welded, so its steps are cheap; the first
  step welds every piece from scratch, inside the timing).
* **World, no welding** and **bare steps/s**: the World with ``weld`` off, and a
  pybullet client built with raw calls stepping the same bodies (``bench_world``'s
  bare loop); **same poses** says the two stepped bit for bit alike.  Unwelded, a tower
  sways and falls within the run, so these rates are those of a collapsing tower.
  Each World is built as ``World.restore`` builds one (every piece primed in one
  step, as the bare loop does); a World built by adding the pieces one at a time
  primes each alone, and those extra steps touch the contact caches of the pieces
  already there, so it does not step bit for bit like the bare loop.
* **build per piece**: wall time of one piece's drop and settle while building
  (median over the pieces), and the largest change of a tower's height over 60
  simulated seconds afterwards.

Rows: one 24-piece tower, and four of them (96 pieces, the full Tower table).
Figures are medians over ``--repeats`` repeats.

    python -m benchmarks.towers [--repeats 5] [--seconds 10]

Writes ``benchmarks/results/towers.json`` and ``benchmarks/results/towers.md``.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation

from balance3d.games.tower.physics import release_position, tower_height
from balance3d.physics.bodies import BodyState, Snapshot
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.world import World
from balance3d.scene import BodySpec, Scene, body_pose, load_scene, rpy_to_quat
from benchmarks.bench_world import SLICES, build_bare, race
from benchmarks.results_io import (RESULTS, facts_text, machine_facts, measuring,
                                   write_results)

#: Pieces per tower.
PIECES = 24
#: m, each piece is released this far above the top of its tower.
DROP_GAP = 0.002
#: Simulated seconds the built towers stand for the height-change figure (the tests' minute).
STAND_SECONDS = 60.0


def built_towers(bases: list[str]) -> tuple[Scene, list[float], float]:
    """The Tower scene with PIECES pieces built by drops on each of ``bases``;
    also the wall time (s) of each piece's drop and settle, and the largest change
    (m) of a tower's height over STAND_SECONDS afterwards."""
    scene = load_scene("tower")
    world = scene.build_world()
    logo = scene.rules["logo_part"]
    letters = scene.rules["letter_parts"]
    per_piece, towers = [], {}
    for base in bases:
        xy = next(spec.position[:2] for spec in scene.bodies if spec.name == base)
        towers[base] = []
        for i in range(PIECES):
            name = letters[(i // 2) % len(letters)] if i % 2 == 0 else logo
            part = scene.parts[name]
            body = f"{base}/{i}"
            start = time.perf_counter()
            world.drop(body, part, release_position(world, part, xy, (0, 0, 0, 1), DROP_GAP))
            world.settle()
            per_piece.append(time.perf_counter() - start)
            towers[base].append((body, name))
    heights = {base: tower_height(world, base, [b for b, _ in pieces])
               for base, pieces in towers.items()}
    specs = []
    for pieces in towers.values():
        for body, name in pieces:
            part = scene.parts[name]
            position, orientation = world.pose(body)
            design = Rotation.from_quat(orientation) * Rotation.from_matrix(
                np.linalg.inv(part.design_from_body)[:3, :3])
            origin = position + Rotation.from_quat(orientation).apply(
                np.linalg.inv(part.design_from_body)[:3, 3])
            specs.append(BodySpec(body, name, tuple(origin.tolist()),
                                  tuple(design.as_euler("xyz").tolist())))
    world.step(round(STAND_SECONDS / world.settings.time_step))
    change = max(abs(tower_height(world, base, [b for b, _ in pieces]) - heights[base])
                for base, pieces in towers.items())
    world.close()
    label = f"{len(bases)} x {PIECES}-piece tower" + ("s" if len(bases) > 1 else "")
    return replace(scene, name=label, bodies=scene.bodies + tuple(specs)), per_piece, change


def restored_world(scene: Scene, settings: PhysicsSettings) -> World:
    """The scene's bodies, at rest, in a World built by :meth:`World.restore`."""
    states = []
    for spec in scene.bodies:
        part = scene.parts[spec.part]
        position, orientation = body_pose(part, spec.position, rpy_to_quat(spec.rpy))
        states.append(BodyState(spec.name, part, part.static, position, orientation,
                                (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)))
    return World.from_snapshot(Snapshot(tuple(states), 0.0), settings)


def measure(scene: Scene, seconds: float, repeats: int) -> dict:
    """Median steps per second of the welded World, the World without welding and
    the bare loop on ``scene``, each run simulating ``seconds``, advanced side by
    side in SLICES slices; and whether the unwelded World and the bare loop ended
    with the same poses, bit for bit, in every repeat."""
    s = scene.physics
    per_slice = max(1, math.ceil(seconds / s.time_step / SLICES))
    steps = per_slice * SLICES
    rates: dict[str, list[float]] = {"world": [], "plain": [], "bare": []}
    overheads, same = [], True
    for repeat in range(repeats):
        world, plain = restored_world(scene, s), restored_world(scene, s.replace(weld=False))
        bare = build_bare(scene, s)
        timed, same_now = race(world, plain, bare, per_slice, repeat)
        same = same and same_now
        for sim in (world, plain, bare):
            sim.close()
        for kind in rates:
            rates[kind].append(steps / timed[kind])
        overheads.append((timed["plain"] / timed["bare"] - 1.0) * 100.0)
    median = statistics.median
    return {
        "scene": scene.name,
        "bodies": len(scene.bodies),
        "dynamic_bodies": sum(not scene.parts[b.part].static for b in scene.bodies),
        "steps": steps,
        "simulated_seconds": steps * s.time_step,
        "world_steps_per_s": median(rates["world"]),
        "real_time_factor": median(rates["world"]) * s.time_step,
        "plain_world_steps_per_s": median(rates["plain"]),
        "bare_steps_per_s": median(rates["bare"]),
        "bare_real_time_factor": median(rates["bare"]) * s.time_step,
        "overhead_pct": median(overheads),
        "same_poses_as_bare": same,
    }


def markdown(results: dict, machine: dict) -> str:
    """The results as a Markdown table, under the facts of the ``machine``."""
    lines = [
        "# Tower benchmarks", "",
        f"{facts_text(results['facts'], machine)} Medians of {results['repeats']} repeats "
        "(`python -m benchmarks.towers`).", "",
        "| towers | bodies (dynamic) | World steps/s | real-time factor | World, no welding "
        "steps/s | bare steps/s | bare real-time factor | overhead vs bare (no welding) | "
        "same poses | build per piece | height change in 60 s |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for r in results["rows"]:
        lines.append(
            f"| {r['scene']} | {r['bodies']} ({r['dynamic_bodies']}) | "
            f"{r['world_steps_per_s']:,.0f} | {r['real_time_factor']:,.0f}x | "
            f"{r['plain_world_steps_per_s']:,.0f} | {r['bare_steps_per_s']:,.0f} | "
            f"{r['bare_real_time_factor']:,.1f}x | "
            f"{r['overhead_pct']:+.1f} % | {'yes' if r['same_poses_as_bare'] else 'NO'} | "
            f"{r['build_per_piece_s'] * 1e3:.1f} ms | {r['height_change_mm']:.2f} mm |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="simulated seconds per run (at least)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    args = parser.parse_args(argv)
    if args.repeats < 1 or not args.seconds > 0:
        parser.error("--repeats must be >= 1 and --seconds > 0")
    rows = []
    with measuring(one_core=True) as facts:
        for bases in (["base_1"], ["base_0", "base_1", "base_2", "base_3"]):
            scene, per_piece, change = built_towers(bases)
            row = measure(scene, args.seconds, args.repeats)
            row.update(build_per_piece_s=statistics.median(per_piece),
                       height_change_mm=change * 1e3)
            rows.append(row)
            print(f"{row['scene']:>22}: World {row['world_steps_per_s']:9.0f} steps/s "
                  f"({row['real_time_factor']:7.1f}x real time); no welding "
                  f"{row['plain_world_steps_per_s']:7.0f}, bare {row['bare_steps_per_s']:7.0f} "
                  f"({row['overhead_pct']:+.1f} %), same poses {row['same_poses_as_bare']}; "
                  f"build {row['build_per_piece_s'] * 1e3:.1f} ms/piece; height change "
                  f"{row['height_change_mm']:.2f} mm", flush=True)
    results = {"facts": facts, "repeats": args.repeats, "simulated_seconds": args.seconds,
               "rows": rows}
    paths = write_results("towers", results, markdown(results, machine_facts()), args.out)
    print(f"wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
