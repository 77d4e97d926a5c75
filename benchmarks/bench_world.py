"""How fast the World steps, against a bare pybullet loop stepping the same bodies.

For every bundled scene, and for a column of 24 Tower logo pieces on a plinth (with
the shared settings of ``scenes/shared/common.toml``), this script measures in one run:

* **World steps/s** and **real-time factor**: wall-clock rate of ``World.step`` as the
  scene configures it (simulated steps per second; times ``time_step``: simulated
  seconds per wall-clock second).  With ``weld`` on, bodies at rest are welded, which
  makes resting stacks cheap, and the World runs its statics checks.
* **World, no welding** and **bare steps/s**: the World with ``weld`` off, and a
  pybullet client built by hand with raw pybullet calls (the same collision shapes,
  masses, inertia, surface properties and engine parameters, the bodies in the same
  order) stepped by a plain ``stepSimulation`` loop.  It must reproduce that World's
  poses bit for bit (column "same poses"), which shows it steps the same physics.
* **overhead %**: how much longer a World step (no welding) takes than a bare one.
* **settle**: ``World.settle()`` from the start until rest (or its cap), against
  ``World.step`` over as many steps: the cost of its rest-and-validity checks (one
  every ``rest_check_interval``); **per check** is that check timed directly (1000
  calls), as step-to-step noise in the heavy scenes is larger than a check.

* **scenes in motion**: the same three runners (welded World, World without welding,
  bare loop) over the first ``--motion-seconds`` after bodies are released in the
  air: blocks dropped on the Tilted beam (which tips under them) and a loose heap of
  blocks falling into a pile on the table.  The **welding overhead** is how much
  longer a welded World step takes than a bare one while bodies move (the overhead
  above is measured with welding off, and at rest welding makes steps cheaper).
* **restore of a 96-piece table**: four towers of 24 Tower logo pieces on the Tower
  scene's plinths, settled (every piece welded) and snapshotted;
  ``World.restore(snapshot)`` timed with the physics caches emptied first (cold)
  and full (warm), and the first step after it.  The snapshot keeps the welds, so
  the restore welds every piece again without solving statics; beside it, the same
  snapshot without its welds, whose first step welds every piece from scratch.
  Target: restore with its first step <= 20 ms, caches cold.

Figures are medians over ``--repeats`` repeats.  A stepping run simulates
``--seconds`` (more for light scenes, so that it lasts ``--min-wall`` seconds); the
runners of one repeat advance side by side in slices so that changes in the machine's
load hit all alike.  The column's drift is its top piece's sideways motion over
60 simulated seconds.  Targets: World overhead <= 10 %; the 24-piece column at
>= 5x real time on one core.

    python -m benchmarks.bench_world [--repeats 5] [--seconds 10] [--min-wall 0.25] \\
        [--motion-seconds 1.0] [--restore-only]

Writes ``benchmarks/results/world.json`` and ``benchmarks/results/world.md``.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from balance3d.physics.caches import clear_caches
from balance3d.physics.quiet import quiet_output
from balance3d.physics.settings import PhysicsSettings
from balance3d.physics.welding import WeldState
from balance3d.physics.engine_shapes import collision_shape_args, create_collision_shape
from balance3d.physics.world import PRIME_DISTANCE, PRIME_SPACING, World
from balance3d.resources import scenes_dir
from balance3d.scene import BodySpec, Scene, body_pose, list_scenes, load_scene, rpy_to_quat
from benchmarks.results_io import (RESULTS, facts_text, machine_facts, measuring,
                                   write_results)
from benchmarks.targets import COLUMN_RTF, RESTORE_S, WORLD_OVERHEAD_PCT

with quiet_output():
    import pybullet

#: Pieces in the column benchmark.
COLUMN_PIECES = 24
COLUMN_NAME = f"tower-column-{COLUMN_PIECES}"
#: Calls timed for the cost of one settle() check.
CHECK_CALLS = 1000
#: Steps of the bare loop timed to size the runs.
PROBE_STEPS = 100
#: Slices each run is cut into, the three runners taking turns (see measure()).
SLICES = 20
#: Simulated seconds the column stands for its drift figure (the issue's test: 60 s).
DRIFT_SECONDS = 60.0
#: Most settle() runs timed per repeat (light scenes come to rest in milliseconds).
MAX_SETTLE_ROUNDS = 100
#: Blocks dropped on the Tilted beam in the first scene in motion.
BEAM_DROPS = 8
#: Blocks of the heap that falls into a pile (a cube of this many per side).
PILE_SIDE = 3
#: Seed of the pile's jitter (positions and orientations).
PILE_SEED = 0
#: Towers and pieces per tower of the restored table.
TABLE_TOWERS, TABLE_PIECES = 4, 24
#: m, gap between stacked pieces of the restored table when they are released.
STACK_GAP = 1e-4


# ---------------------------------------------------------------------- scenes
def column_scene(folder: Path) -> Scene:
    """24 logo pieces (stadium 0.05 x 0.03 x 0.015 m, wood) stacked flat on a Tower
    plinth, as a scene file extending the shared settings (written to ``folder``)."""
    common = scenes_dir() / "shared" / "common.toml"
    lines = [
        "[scene]", f'extends = "{common.as_posix()}"', f'name = "{COLUMN_NAME}"',
        'game = "tower"',
        f'description = "{COLUMN_PIECES} logo pieces stacked on a plinth"', "",
        "[parts.base]", 'kind = "box"', "size = [0.10, 0.10, 0.02]", 'material = "wood"',
        "static = true", "",
        "[parts.logo]", 'kind = "stadium"', "length = 0.05", "width = 0.03",
        "thickness = 0.015", 'material = "wood"', "",
        "[[bodies]]", 'name = "base"', 'part = "base"', "position = [0.0, 0.0, 0.01]", "",
    ]
    for i in range(COLUMN_PIECES):
        z = 0.02 + 0.0075 + 0.015 * i
        lines += ["[[bodies]]", f'name = "logo_{i}"', 'part = "logo"',
                  f"position = [0.0, 0.0, {z!r}]", ""]
    path = folder / f"{COLUMN_NAME}.toml"
    path.write_text("\n".join(lines))
    return load_scene(path)


def beam_drops_scene() -> Scene:
    """The Tilted scene with :data:`BEAM_DROPS` blocks released at rest in the air
    above the beam, spread along it (0.04 to 0.25 m above its top, staggered)."""
    scene = load_scene("tilted")
    parts = scene.rules["block_parts"]
    bodies = [BodySpec(f"drop_{i}", parts[i % len(parts)],
                       (-0.25 + 0.5 * i / (BEAM_DROPS - 1), 0.0, 0.10 + 0.03 * i), (0.0, 0.0, 0.0))
              for i in range(BEAM_DROPS)]
    return replace(scene, name="tilted-beam-drops", bodies=scene.bodies + tuple(bodies))


def pile_scene() -> Scene:
    """A heap of ``PILE_SIDE ** 3`` 25 mm wooden cubes (Tilted's ``block_1``) released
    at rest on a jittered grid 1 to 10 cm above the table, each turned a little: they
    fall into a pile."""
    scene = load_scene("tilted")
    rng = np.random.default_rng(PILE_SEED)
    bodies = [b for b in scene.bodies if b.name == "table"]
    for i in range(PILE_SIDE ** 3):
        ix, iy, iz = i % PILE_SIDE, (i // PILE_SIDE) % PILE_SIDE, i // PILE_SIDE ** 2
        position = (0.03 * (ix - 1) + rng.uniform(-0.004, 0.004),
                    0.03 * (iy - 1) + rng.uniform(-0.004, 0.004),
                    0.025 + 0.035 * iz + rng.uniform(0.0, 0.005))
        bodies.append(BodySpec(f"cube_{i}", "block_1", position,
                               tuple(rng.uniform(-0.3, 0.3, 3).tolist())))
    return replace(scene, name=f"pile-{PILE_SIDE ** 3}-cubes", bodies=tuple(bodies))


# ---------------------------------------------------------------------- bare loop
@dataclass
class BareLoop:
    """A pybullet client built with raw calls, mirroring what World does."""

    client: int
    ids: list[int]

    def step(self, n: int) -> None:
        step, cid = pybullet.stepSimulation, self.client
        for _ in range(n):
            step(physicsClientId=cid)

    def poses(self) -> list[bytes]:
        out = []
        for body in self.ids:
            pos, orn = pybullet.getBasePositionAndOrientation(body, physicsClientId=self.client)
            out.append(np.asarray(pos).tobytes() + np.asarray(orn).tobytes())
        return out

    def close(self) -> None:
        pybullet.disconnect(physicsClientId=self.client)


def build_bare(scene: Scene, settings: PhysicsSettings) -> BareLoop:
    """The scene's bodies in a new DIRECT client, with raw pybullet calls only."""
    s, c = settings, settings.length_scale
    with quiet_output():
        cid = pybullet.connect(pybullet.DIRECT)
    pybullet.resetSimulation(physicsClientId=cid)
    pybullet.setGravity(0.0, 0.0, -s.gravity * c, physicsClientId=cid)
    pybullet.setPhysicsEngineParameter(
        fixedTimeStep=s.time_step, numSubSteps=s.substeps,
        numSolverIterations=s.solver_iterations, deterministicOverlappingPairs=1,
        contactBreakingThreshold=s.contact_breaking_threshold * c, enableSAT=int(s.enable_sat),
        erp=s.erp, contactERP=s.contact_erp, frictionERP=s.friction_erp,
        globalCFM=s.global_cfm, useSplitImpulse=int(s.use_split_impulse),
        splitImpulsePenetrationThreshold=s.split_impulse_penetration_threshold * c,
        physicsClientId=cid)
    shapes: dict[str, int] = {}
    ids, fresh = [], []
    for body in scene.bodies:
        part = scene.parts[body.part]
        if body.part not in shapes:
            shapes[body.part] = create_collision_shape(cid, collision_shape_args(part, s), s)
        pos, quat = body_pose(part, body.position, rpy_to_quat(body.rpy))
        uid = pybullet.createMultiBody(
            baseMass=0.0 if part.static else part.mass,
            baseCollisionShapeIndex=shapes[body.part],
            basePosition=[v * c for v in pos], baseOrientation=list(quat),
            useMaximalCoordinates=True, physicsClientId=cid)
        mat = part.material
        dynamics = dict(lateralFriction=mat.friction, restitution=mat.restitution,
                        rollingFriction=mat.rolling_friction * c,
                        spinningFriction=mat.spinning_friction * c,
                        collisionMargin=s.collision_margin * c)
        if not part.static:
            dynamics.update(mass=part.mass,
                            localInertiaDiagonal=[float(i) * c * c for i in part.inertia],
                            activationState=pybullet.ACTIVATION_STATE_DISABLE_SLEEPING,
                            linearDamping=s.linear_damping, angularDamping=s.angular_damping)
        pybullet.changeDynamics(uid, -1, physicsClientId=cid, **dynamics)
        if not part.static:
            fresh.append((uid, part, [v * c for v in pos], list(quat)))
        ids.append(uid)
    # World's inertia priming: one step with the dynamic bodies far out along x,
    # then back to their poses, at rest; each moved while massless, as World does
    def massless_move(uid: int, part, pos: list, quat: list, stop: bool) -> None:
        pybullet.changeDynamics(uid, -1, mass=0.0, physicsClientId=cid)
        pybullet.resetBasePositionAndOrientation(uid, pos, quat, physicsClientId=cid)
        if stop:
            pybullet.resetBaseVelocity(uid, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0],
                                       physicsClientId=cid)
        pybullet.changeDynamics(uid, -1, mass=part.mass,
                                localInertiaDiagonal=[float(i) * c * c for i in part.inertia],
                                physicsClientId=cid)

    for i, (uid, part, _, quat) in enumerate(fresh):
        massless_move(uid, part, [(PRIME_DISTANCE + i * PRIME_SPACING) * c, 0.0, 0.0], quat,
                      False)
    pybullet.stepSimulation(physicsClientId=cid)
    for uid, part, pos, quat in fresh:
        massless_move(uid, part, pos, quat, True)
    return BareLoop(cid, ids)


def world_poses(world: World) -> list[bytes]:
    """The World's poses in engine units, as raw bytes (for the bit-for-bit check)."""
    out = []
    for name in world.names:
        pos, orn = world.client.getBasePositionAndOrientation(world.body_id(name))
        out.append(np.asarray(pos).tobytes() + np.asarray(orn).tobytes())
    return out


# ---------------------------------------------------------------------- measuring
def _world(scene: Scene, settings: PhysicsSettings) -> World:
    """The scene's bodies in a World with ``settings``."""
    world = World(settings)
    for body in scene.bodies:
        part = scene.parts[body.part]
        world.add(body.name, part, *body_pose(part, body.position, rpy_to_quat(body.rpy)))
    return world


def measure(scene: Scene, seconds: float, repeats: int, min_wall: float) -> dict:
    """Median rates of the World (as the scene configures it, and with welding off),
    the bare loop and World.settle on ``scene``.

    A stepping run simulates ``seconds``, or longer when that would take less than
    ``min_wall`` seconds of wall-clock time (light scenes step in microseconds, and
    millisecond runs are all timer noise).  Each repeat builds the runners afresh and
    advances them side by side in ``SLICES`` slices, in a rotating order, so that a
    change in the machine's load hits all alike; overheads are medians of per-repeat
    ratios.  settle() runs once per repeat from the start, until rest or its cap, and
    is compared with World.step over as many steps."""
    s = scene.physics
    plain = s.replace(weld=False)
    probe = build_bare(scene, s)
    start = time.perf_counter()
    probe.step(PROBE_STEPS)
    step_cost = (time.perf_counter() - start) / PROBE_STEPS
    probe.close()
    steps = max(1, round(seconds / s.time_step), math.ceil(min_wall / step_cost))
    per_slice = math.ceil(steps / SLICES)
    steps = per_slice * SLICES
    rates: dict[str, list[float]] = {"world": [], "plain": [], "bare": []}
    overheads, settle_overheads, per_check = [], [], []
    same, timed_out, settle_steps, rounds = True, False, None, 1
    for repeat in range(repeats):
        world, plain_world, bare = scene.build_world(), _world(scene, plain), build_bare(scene, s)
        timed, same_now = race(world, plain_world, bare, per_slice, repeat)
        same = same and same_now
        for sim in (world, plain_world, bare):
            sim.close()
        for kind in rates:
            rates[kind].append(steps / timed[kind])
        overheads.append((timed["plain"] / timed["bare"] - 1.0) * 100.0)

        if settle_steps is None:  # the first settle tells how long one lasts
            with scene.build_world() as first:
                report = first.settle()
            settle_steps, timed_out = report.steps, report.timed_out
            rounds = max(1, min(MAX_SETTLE_ROUNDS,
                                math.ceil(min_wall / (settle_steps * step_cost))))
        timed = {"settle": 0.0, "step": 0.0}
        for i in range(rounds):
            settler, stepper = scene.build_world(), scene.build_world()
            runs = [("settle", settler.settle), ("step", lambda: stepper.step(settle_steps))]
            for kind, run in (runs if (repeat + i) % 2 == 0 else runs[::-1]):
                start = time.perf_counter()
                run()
                timed[kind] += time.perf_counter() - start
            assert settler.time == stepper.time, "settle() is not deterministic"
            if i == rounds - 1:
                start = time.perf_counter()
                for _ in range(CHECK_CALLS):
                    settler._scan()  # what settle() does at every check
                per_check.append((time.perf_counter() - start) / CHECK_CALLS)
            settler.close()
            stepper.close()
        settle_overheads.append((timed["settle"] / timed["step"] - 1.0) * 100.0)

    median = statistics.median
    return {
        "scene": scene.name,
        "bodies": len(scene.bodies),
        "dynamic_bodies": sum(not scene.parts[b.part].static for b in scene.bodies),
        "time_step_s": s.time_step,
        "substeps": s.substeps,
        "solver_iterations": s.solver_iterations,
        "length_scale": s.length_scale,
        "weld": s.weld,
        "steps": steps,
        "simulated_seconds": steps * s.time_step,
        "world_steps_per_s": median(rates["world"]),
        "real_time_factor": median(rates["world"]) * s.time_step,
        "plain_world_steps_per_s": median(rates["plain"]),
        "bare_steps_per_s": median(rates["bare"]),
        "overhead_pct": median(overheads),
        "settle_simulated_s": settle_steps * s.time_step,
        "settle_rounds": rounds,
        "settle_timed_out": timed_out,
        "settle_overhead_pct": median(settle_overheads),
        "settle_check_us": median(per_check) * 1e6,
        "same_poses_as_bare": same,
    }


def _interleaved(runs: list, repeat: int) -> dict[str, float]:
    """Wall time of each named run, called ``SLICES`` times side by side in a
    rotating order (so a change in the machine's load hits all alike)."""
    timed = {kind: 0.0 for kind, _ in runs}
    for i in range(SLICES):
        k = (repeat + i) % len(runs)
        for kind, run in runs[k:] + runs[:k]:
            start = time.perf_counter()
            run()
            timed[kind] += time.perf_counter() - start
    return timed


def race(world: World, plain: World, bare: BareLoop, per_slice: int,
         repeat: int) -> tuple[dict[str, float], bool]:
    """The welded World, the World without welding and the bare loop stepped side by
    side in ``SLICES`` slices of ``per_slice`` steps (:func:`_interleaved`): the wall
    time of each (s, keys ``world``, ``plain``, ``bare``), and whether the two
    unwelded runners ended in the same poses, bit for bit."""
    timed = _interleaved([("world", lambda: world.step(per_slice)),
                          ("plain", lambda: plain.step(per_slice)),
                          ("bare", lambda: bare.step(per_slice))], repeat)
    return timed, world_poses(plain) == bare.poses()


def measure_motion(scene: Scene, seconds: float, repeats: int, min_wall: float) -> dict:
    """Median rates of the welded World, the World without welding and the bare loop
    over the first ``seconds`` of ``scene`` (bodies falling, landing, settling), and
    the welded World's overhead over the bare loop (median of per-repeat ratios).
    Each repeat runs the window from fresh builds as many times as it takes the bare
    loop ``min_wall`` seconds, the three runners interleaved (see measure())."""
    s = scene.physics
    per_slice = max(1, math.ceil(round(seconds / s.time_step) / SLICES))
    steps = per_slice * SLICES
    rates: dict[str, list[float]] = {"world": [], "plain": [], "bare": []}
    weld_overheads, plain_overheads = [], []
    same, welded, moving = True, 0, False
    probe = build_bare(scene, s)
    start = time.perf_counter()
    probe.step(steps)
    rounds = max(1, min(MAX_SETTLE_ROUNDS, math.ceil(min_wall / (time.perf_counter() - start))))
    probe.close()
    for repeat in range(repeats):
        timed = {kind: 0.0 for kind in rates}
        for i in range(rounds):
            world, plain_world = scene.build_world(), _world(scene, s.replace(weld=False))
            bare = build_bare(scene, s)
            runs, same_now = race(world, plain_world, bare, per_slice, repeat + i)
            for kind in timed:
                timed[kind] += runs[kind]
            same = same and same_now
            welded, moving = len(world.welded_names), not world.at_rest()
            for sim in (world, plain_world, bare):
                sim.close()
        for kind in rates:
            rates[kind].append(steps * rounds / timed[kind])
        weld_overheads.append((timed["world"] / timed["bare"] - 1.0) * 100.0)
        plain_overheads.append((timed["plain"] / timed["bare"] - 1.0) * 100.0)
    median = statistics.median
    return {
        "scene": scene.name,
        "bodies": len(scene.bodies),
        "dynamic_bodies": sum(not scene.parts[b.part].static for b in scene.bodies),
        "steps": steps,
        "simulated_seconds": steps * s.time_step,
        "rounds": rounds,
        "world_steps_per_s": median(rates["world"]),
        "plain_world_steps_per_s": median(rates["plain"]),
        "bare_steps_per_s": median(rates["bare"]),
        "weld_overhead_pct": median(weld_overheads),
        "plain_overhead_pct": median(plain_overheads),
        "welded_at_end": welded,
        "moving_at_end": moving,
        "same_poses_as_bare": same,
    }


def tower_table(scene: Scene) -> World:
    """The Tower scene with :data:`TABLE_TOWERS` towers of :data:`TABLE_PIECES` logo
    pieces (flat, centred on the plinths), settled: every piece welded at rest."""
    world = scene.build_world()
    logo = scene.parts[scene.rules["logo_part"]]
    thickness = float(logo.extents[2])
    for t in range(TABLE_TOWERS):
        base = f"base_{t}"
        x, y, _ = world.pose(base)[0]
        top = float(world.vertices(base)[:, 2].max())
        for i in range(TABLE_PIECES):
            z = top + thickness * (i + 0.5) + STACK_GAP * (i + 1)
            world.add(f"logo_{t}_{i}", logo, *body_pose(logo, (x, y, z), (0.0, 0.0, 0.0, 1.0)))
    world.settle()
    return world


def measure_restore(repeats: int) -> dict:
    """Median wall time of ``World.restore`` of the settled 96-piece Tower table, and
    of the first step after it, with the physics caches emptied before each restore
    (cold) and left full (warm): the snapshot with its welds, and (``scratch_``) the
    same snapshot without them, whose first step welds every body at rest again."""
    scene = load_scene("tower")
    world = tower_table(scene)
    snapshot = world.snapshot()
    scratch = replace(snapshot, welds=WeldState())
    pieces, welded = len(world.dynamic_names), len(world.welded_names)
    timed: dict[str, list[float]] = {f"{how}{kind}_{temp}": []
                                     for how in ("", "scratch_")
                                     for kind in ("restore", "first_step")
                                     for temp in ("cold", "warm")}
    for repeat in range(repeats):
        for temp in (("cold", "warm") if repeat % 2 == 0 else ("warm", "cold")):
            for how, snap in (("", snapshot), ("scratch_", scratch)):
                if temp == "cold":
                    clear_caches()
                start = time.perf_counter()
                world.restore(snap)
                restored = time.perf_counter()
                world.step(1)
                timed[f"{how}restore_{temp}"].append(restored - start)
                timed[f"{how}first_step_{temp}"].append(time.perf_counter() - restored)
                assert len(world.welded_names) == welded, "the restored table is not welded"
    world.close()
    median = {k: statistics.median(v) for k, v in timed.items()}
    total_cold = median["restore_cold"] + median["first_step_cold"]
    return {
        "scratch_total_cold_s": median["scratch_restore_cold"]
        + median["scratch_first_step_cold"],
        "scratch_total_warm_s": median["scratch_restore_warm"]
        + median["scratch_first_step_warm"],
        "pieces": pieces,
        "welded": welded,
        "restore_cold_s": median["restore_cold"],
        "first_step_cold_s": median["first_step_cold"],
        "restore_warm_s": median["restore_warm"],
        "first_step_warm_s": median["first_step_warm"],
        "total_cold_s": total_cold,
        "total_warm_s": median["restore_warm"] + median["first_step_warm"],
        "target_s": RESTORE_S,
        "met": total_cold <= RESTORE_S,
    }


def column_drift(scene: Scene, seconds: float) -> float:
    """Sideways motion of the column's top piece after ``seconds``, m."""
    with scene.build_world() as world:
        top = scene.bodies[-1].name
        start = world.pose(top)[0]
        world.step(max(1, round(seconds / scene.physics.time_step)))
        return float(np.hypot(*(world.pose(top)[0] - start)[:2]))


# ---------------------------------------------------------------------- report
def _settings_text(row: dict) -> str:
    return (f"time step {row['time_step_s']:.6g} s, {row['substeps']} substeps, "
            f"{row['solver_iterations']} solver iterations, length scale "
            f"{row['length_scale']:g}, welding {'on' if row['weld'] else 'off'}")


def restore_text(r: dict) -> str:
    """The restore figures as a sentence and a table."""
    return "\n".join([
        f"{r['pieces']} logo pieces in {TABLE_TOWERS} towers on the Tower plinths, all "
        f"{r['welded']} welded at rest; `World.restore(snapshot)`, then the first step. "
        "The snapshot keeps the welds: the restore welds every piece again without "
        "solving statics.  The last column restores the same snapshot without its "
        "welds (its first step welds every piece from scratch).  Median of the "
        "repeats.", "",
        "| caches | restore | first step | total | target | without welds: total |",
        "|---|---:|---:|---:|---|---:|",
        f"| cold (emptied first) | {r['restore_cold_s'] * 1e3:.1f} ms "
        f"| {r['first_step_cold_s'] * 1e3:.1f} ms | {r['total_cold_s'] * 1e3:.1f} ms "
        f"| <= {r['target_s'] * 1e3:.0f} ms: {'met' if r['met'] else 'NOT met'} "
        f"| {r['scratch_total_cold_s'] * 1e3:.1f} ms |",
        f"| warm | {r['restore_warm_s'] * 1e3:.1f} ms | {r['first_step_warm_s'] * 1e3:.1f} ms "
        f"| {r['total_warm_s'] * 1e3:.1f} ms | | {r['scratch_total_warm_s'] * 1e3:.1f} ms |"])


def markdown(results: dict, machine: dict) -> str:
    """The results as Markdown tables, under the facts of the ``machine``."""
    rows = ["| scene | bodies (dynamic) | World steps/s | real-time factor "
            "| World, no welding, steps/s | bare steps/s | overhead % "
            "| settle: simulated s | settle overhead % | per check | same poses |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|"]
    for r in results["scenes"]:
        rows.append(
            f"| {r['scene']} | {r['bodies']} ({r['dynamic_bodies']}) "
            f"| {r['world_steps_per_s']:,.0f} | {r['real_time_factor']:.1f}x "
            f"| {r['plain_world_steps_per_s']:,.0f} | {r['bare_steps_per_s']:,.0f} "
            f"| {r['overhead_pct']:+.1f} "
            f"| {r['settle_simulated_s']:.2f}{' (cap)' if r['settle_timed_out'] else ''} "
            f"| {r['settle_overhead_pct']:+.1f} | {r['settle_check_us']:.0f} µs "
            f"| {'yes' if r['same_poses_as_bare'] else 'NO'} |")
    t = results["targets"]
    lines = [
        "# World benchmark", "",
        f"{facts_text(results['facts'], machine)} Median of {results['repeats']} repeats; "
        f"stepping runs of at least {results['simulated_seconds']} simulated s and "
        f"{results['min_wall_seconds']} wall-clock s (`python -m benchmarks.bench_world`).  "
        "Other processes share the cores: absolute rates vary with the load, the "
        "interleaved ratios much less.", "",
        "World steps/s and the real-time factor are the World as the scene configures it "
        "(welding bodies at rest when the scene says so).  The overhead compares the World "
        "with welding off against a bare pybullet loop stepping the same bodies with the "
        "same engine settings (same poses: bit for bit).  settle() runs from the start "
        "until rest (or its cap) and is compared with World.step over as many steps; "
        "\"per check\" is the cost of one of its rest-and-validity checks.", "",
        *rows, "",
        f"- World overhead over the bare loop <= {t['overhead_pct']:.0f} %: "
        f"{'met' if t['overhead_met'] else 'NOT met'} (worst {t['worst_overhead_pct']:+.1f} %, "
        f"{t['worst_overhead_scene']}).",
        f"- {COLUMN_NAME} >= {t['column_rtf']:.0f}x real time: "
        f"{'met' if t['column_met'] else 'NOT met'} ({t['column_real_time_factor']:.1f}x; its "
        f"top piece moved {t['column_top_drift_mm']:.2f} mm sideways in "
        f"{t['column_drift_seconds']:g} simulated s).",
        "",
        f"## Scenes in motion (first {results['motion_seconds']:g} simulated s after release)",
        "",
        "The three runners as above, interleaved, from bodies released at rest in the air "
        "until the window ends (the window run again from fresh builds until each runner "
        "has stepped for at least the minimum wall-clock time).  Welding overhead: a "
        "welded World step against a bare one while bodies fall, land and settle "
        "(welding off: the overhead above).",
        "",
        "| scene | bodies (dynamic) | welded World steps/s | World, no welding, steps/s "
        "| bare steps/s | welding overhead % | no-welding overhead % | welded at the end "
        "| same poses |",
        "|---|---:|---:|---:|---:|---:|---:|---:|:---:|",
        *[f"| {r['scene']} | {r['bodies']} ({r['dynamic_bodies']}) "
          f"| {r['world_steps_per_s']:,.0f} | {r['plain_world_steps_per_s']:,.0f} "
          f"| {r['bare_steps_per_s']:,.0f} | {r['weld_overhead_pct']:+.1f} "
          f"| {r['plain_overhead_pct']:+.1f} "
          f"| {r['welded_at_end']}{' (still moving)' if r['moving_at_end'] else ''} "
          f"| {'yes' if r['same_poses_as_bare'] else 'NO'} |" for r in results["motion"]],
        "",
        "## Restoring a 96-piece table at rest",
        "",
        restore_text(results["restore"]),
        "",
        "Engine settings (from the scene files): "
        + "; ".join(sorted({_settings_text(r) for r in results["scenes"]})) + ".",
    ]
    return "\n".join(lines) + "\n"


def measure_scenes(seconds: float, repeats: int, min_wall: float) -> tuple[list[dict], float]:
    """:func:`measure` of every bundled scene and of the 24-piece column (last),
    each printed as it is done; and the column's drift (m) over
    :data:`DRIFT_SECONDS`."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scenes = [load_scene(name) for name in list_scenes()] + [column_scene(Path(tmp))]
        for scene in scenes:
            row = measure(scene, seconds, repeats, min_wall)
            rows.append(row)
            print(f"{row['scene']:>16}: World {row['world_steps_per_s']:8.0f} steps/s "
                  f"({row['real_time_factor']:6.1f}x real time); no welding "
                  f"{row['plain_world_steps_per_s']:8.0f}, bare {row['bare_steps_per_s']:8.0f}, "
                  f"overhead {row['overhead_pct']:+5.1f} %; settle "
                  f"{row['settle_overhead_pct']:+5.1f} %", flush=True)
        return rows, column_drift(scenes[-1], DRIFT_SECONDS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="simulated seconds per run (at least)")
    parser.add_argument("--min-wall", type=float, default=0.25,
                        help="wall-clock seconds per run (at least)")
    parser.add_argument("--motion-seconds", type=float, default=0.5,
                        help="simulated seconds of the scenes in motion, from release")
    parser.add_argument("--out", type=Path, default=RESULTS, help="results folder")
    parser.add_argument("--restore-only", action="store_true",
                        help="measure and print only the restore figures (no results written)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or not args.seconds > 0 or not args.motion_seconds > 0:
        parser.error("--repeats must be >= 1, --seconds and --motion-seconds > 0")
    if args.restore_only:
        print(restore_text(measure_restore(args.repeats)))
        return 0

    with measuring(one_core=True) as facts:
        results_rows, drift = measure_scenes(args.seconds, args.repeats, args.min_wall)
        motion = []
        for scene in (beam_drops_scene(), pile_scene()):
            row = measure_motion(scene, args.motion_seconds, args.repeats, args.min_wall)
            motion.append(row)
            print(f"{row['scene']:>16}: in motion, welded World "
                  f"{row['world_steps_per_s']:8.0f} steps/s, no welding "
                  f"{row['plain_world_steps_per_s']:8.0f}, bare {row['bare_steps_per_s']:8.0f}; "
                  f"welding overhead {row['weld_overhead_pct']:+6.1f} %", flush=True)
        restore = measure_restore(args.repeats)
        print(f"restore of the {restore['pieces']}-piece table: "
              f"{restore['total_cold_s'] * 1e3:.1f} ms cold "
              f"({restore['restore_cold_s'] * 1e3:.1f} ms restore, "
              f"{restore['first_step_cold_s'] * 1e3:.1f} ms first step), "
              f"{restore['total_warm_s'] * 1e3:.1f} ms warm; without its welds "
              f"{restore['scratch_total_cold_s'] * 1e3:.1f} ms cold", flush=True)

    worst = max(results_rows, key=lambda r: r["overhead_pct"])
    column = results_rows[-1]
    results = {
        "facts": facts,
        "repeats": args.repeats,
        "simulated_seconds": args.seconds,
        "min_wall_seconds": args.min_wall,
        "scenes": results_rows,
        "motion_seconds": args.motion_seconds,
        "motion": motion,
        "restore": restore,
        "targets": {
            "overhead_pct": WORLD_OVERHEAD_PCT,
            "worst_overhead_pct": worst["overhead_pct"],
            "worst_overhead_scene": worst["scene"],
            "overhead_met": worst["overhead_pct"] <= WORLD_OVERHEAD_PCT,
            "column_rtf": COLUMN_RTF,
            "column_real_time_factor": column["real_time_factor"],
            "column_met": column["real_time_factor"] >= COLUMN_RTF,
            "column_top_drift_mm": drift * 1000.0,
            "column_drift_seconds": DRIFT_SECONDS,
        },
    }
    paths = write_results("world", results, markdown(results, machine_facts()), args.out)
    print(f"wrote {paths[0]} and {paths[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
