"""Frames per second of the 3D table with a full table, in a real window.

Two scenes (``--game``).  Tilted: a 4-player game with every block staged on the
beam but one (29 blocks in three layers; the blocks that slide off stay on the
table), and seat 0 dropping its last block from the highest release over the high
end.  Tower: four towers of 24 pieces (letters and logos alternating, laid flat and
centred, each settled before the next; seat 0's tower one short) and seat 0
dropping its last piece 30 mm above its tower.  Each frame
runs the turn's physics with the World's fixed time step, paced by the window's
own clock (:class:`~balance3d.gui.clock.PhysicsClock`: the steps the wall time
since the last frame owes, at most ``--budget`` per frame while the view is within
a second of the clock, every step down to that second beyond it; the time owed and
not yet run is how far the view is *behind*), syncs the poses to the view, writes
the HUD's seat lines and prompt (as the window does every frame) and draws the
frame.  When the turn ends a
fresh copy of the staged game starts it again, so pieces keep moving.

Reported per shadow-map size, over ``--runs`` runs of ``--seconds`` s each: the
median frames per second, the process's CPU time per frame (every thread, Mesa's
rasteriser threads included; the X server's is not), split into the view's part
(syncing the poses, the HUD's text and drawing: per frame) and the physics' part (per step, as the
steps per frame follow the frame rate), and whether physics kept real time
(simulated time against wall time, and the most the view was behind the clock
after a frame's steps).  The load average at the start is printed and saved: on a shared machine
the frame rate follows the CPU left to the benchmark, while the CPU times change
less.  Needs a display: run under Xvfb with Mesa's software OpenGL, e.g.

    xvfb-run -s "-screen 0 1280x800x24" python -m benchmarks.gui_fps

(from the root of a checkout).  Writes
``benchmarks/results/gui_fps.json`` and ``gui_fps.md`` (``gui_fps_tower.*`` for the
Tower table).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from benchmarks.results_io import (facts_text, machine_facts, markdown_table, measuring,
                                   write_results)

#: Window size, pixels.
WIDTH, HEIGHT = 1280, 720
#: m, block cross-section, the gap left between staged blocks and the half length
#: of the beam used for them.
UNIT, GAP, REACH = 0.025, 0.004, 0.29
#: m, beam-frame y of the two rows of blocks on the beam.
ROWS_Y = (-0.0135, 0.0135)
#: m, release clearance of the staged blocks and of the measured drop.
STAGE_HEIGHT, DROP_HEIGHT = 0.002, 0.15
#: m, release clearance of the measured drop on a Tower tower.
TOWER_DROP_HEIGHT = 0.03


def full_beam():
    """The 4-player game with 29 blocks staged on the beam; seat 0 to drop its 1u."""
    from balance3d.games.base import Drop
    from balance3d.games.tilted import TiltedState, piece_length

    state = TiltedState.arranged(4, seed=0, hands=[[1], [], [], []], first=0, low_end=+1)
    pieces = sorted(state.supply, key=lambda p: -piece_length(p))
    rows, row, used = [], [], 0.0
    for piece in pieces:
        length = piece_length(piece) * UNIT
        if used + length > 2 * REACH:
            rows.append(row)
            row, used = [], 0.0
        row.append((piece, -REACH + used + length / 2.0))
        used += length + GAP
    rows.append(row)
    state.stage([Drop(piece, x, ROWS_Y[i % 2], STAGE_HEIGHT)
                 for i, row in enumerate(rows) for piece, x in row])
    spot = state.legal_release()
    return state, Drop(spot.piece, spot.x, spot.y, DROP_HEIGHT, spot.yaw, spot.pose)


def four_towers():
    """A 4-player Tower game with four 24-piece towers but one piece, seat 0 to drop
    its last piece on its tower."""
    from balance3d.games.base import Drop
    from balance3d.games.tower import TowerState

    state = TowerState.arranged(4, seed=0)
    last = None
    for seat in range(4):
        hand = state.hand(seat)
        letters = [p for p in hand if state.piece_part(p).name.startswith("letter")]
        logos = [p for p in hand if p not in letters]
        order = [p for pair in zip(letters, logos) for p in pair]
        if seat == 0:
            last, order = order[-1], order[:-1]
        x, y, _ = state.world.pose(state.base(seat))[0]
        state.stage(seat, [Drop(p, *centred(state, p, x, y), STAGE_HEIGHT) for p in order])
    state.give_turn(0, "play 1", "letter or logo")
    x, y, _ = state.world.pose(state.base(0))[0]
    drop = Drop(last, *centred(state, last, x, y), TOWER_DROP_HEIGHT)
    ok, reason = state.is_legal(drop)
    if not ok:
        raise RuntimeError(f"the measured drop is illegal: {reason}")
    return state, drop


def centred(state, piece: str, x: float, y: float) -> tuple[float, float]:
    """The drop point (bounding-box centre, m) that puts ``piece``, laid flat, with its
    centre of mass over (x, y)."""
    mesh = state.piece_part(piece).design_mesh()
    offset = mesh.bounds.mean(axis=0) - mesh.center_mass
    return float(x + offset[0]), float(y + offset[1])


#: --game -> the builder of its staged game and measured drop.
SCENES = {"tilted": full_beam, "tower": four_towers}


def open_window(size: tuple[int, int]):
    """A ShowBase with an on-screen window of ``size`` pixels (no vertical sync)."""
    from panda3d.core import loadPrcFileData

    loadPrcFileData("gui-fps", f"win-size {size[0]} {size[1]}\nsync-video false\n"
                               "audio-library-name null\nwindow-title balance3d fps\n")
    from direct.showbase.ShowBase import ShowBase

    base = ShowBase()
    base.disableMouse()
    return base


def show_hud(widgets, state) -> None:
    """The HUD's seat lines and prompt for ``state``, as the window writes them."""
    from balance3d.gui.games import game_text

    text = game_text(state.name)
    widgets.show_hud(state.name, [text.seat_line(state, s) for s in range(len(state.players))],
                     text.prompt(state), [], [])


def one_run(base, widgets, staged, drop, shadow_size: int, seconds: float,
            budget: int) -> dict:
    """Frames for ``seconds`` of wall time with the turn's physics running."""
    from balance3d.gui.clock import PhysicsClock
    from balance3d.gui.view.table import TableView

    state = staged.clone()
    view = TableView(base, state, shadows=True, shadow_size=shadow_size)
    view.render()
    step = state.world.settings.time_step
    clock = PhysicsClock(step, max_steps_per_frame=budget)
    turn = state.begin(drop)
    frames = moving = steps_run = restarts = 0
    paused = physics_cpu = view_cpu = 0.0
    start = last = time.perf_counter()
    cpu_start = time.process_time()
    while True:
        now = time.perf_counter()
        if now - start - paused >= seconds:
            break
        frame_dt, last = now - last, now
        if turn.done:
            # a fresh copy of the staged game: the clock stops meanwhile, as it
            # would between two turns in play
            state = staged.clone()
            view.state = state
            turn = state.begin(drop)
            restarts += 1
            last = time.perf_counter()
            paused += last - now
            clock.carry = frame_dt = 0.0
        run = clock.steps_due(frame_dt)
        tick = time.process_time()
        turn.advance(run)
        poses = turn.poses()
        tock = time.process_time()
        view.set_poses(poses)
        show_hud(widgets, state)
        base.graphicsEngine.renderFrame()
        physics_cpu += tock - tick
        view_cpu += time.process_time() - tock
        steps_run += run
        moving += run > 0
        frames += 1
    wall = time.perf_counter() - start - paused
    cpu = time.process_time() - cpu_start
    if not turn.done:
        turn.cancel()
    view.destroy()
    return {"fps": frames / wall, "frames": frames, "frames_with_physics": moving,
            "wall_s": wall, "simulated_s": steps_run * step, "behind_s": clock.most_behind,
            "turns_restarted": restarts, "cpu_ms_per_frame": 1000.0 * cpu / max(frames, 1),
            "view_cpu_ms_per_frame": 1000.0 * view_cpu / max(frames, 1),
            "physics_cpu_ms_per_step": 1000.0 * physics_cpu / max(steps_run, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(SCENES), default="tilted",
                        help="the full table measured (default tilted)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0, help="wall seconds per run")
    parser.add_argument("--shadow-sizes", type=int, nargs="+", default=[512, 1024, 2048])
    parser.add_argument("--budget", type=int, default=16,
                        help="most physics steps per frame (16 keeps 240 steps/s at 15 fps)")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        print("gui_fps: no display (DISPLAY is unset); run it under Xvfb: "
              "xvfb-run -s \"-screen 0 1280x800x24\" python -m benchmarks.gui_fps",
              file=sys.stderr)
        return 2
    staged, drop = SCENES[args.game]()
    pieces = len(staged.world.dynamic_names)
    base = open_window((WIDTH, HEIGHT))
    gsg = base.win.getGsg()
    renderer = f"{gsg.getDriverVendor()} {gsg.getDriverRenderer()} {gsg.getDriverVersion()}"
    from balance3d.gui.widgets import Widgets

    widgets = Widgets(base, lambda action: None)
    figures = {}
    with measuring(one_core=False) as facts:
        print(f"renderer: {renderer}; load average {facts['load_average_before']} on "
              f"{os.cpu_count()} CPUs; window {base.win.getXSize()}x{base.win.getYSize()}; "
              f"{pieces} pieces on the table; drop {drop}")
        for size in args.shadow_sizes:
            runs = [one_run(base, widgets, staged, drop, size, args.seconds, args.budget)
                    for _ in range(args.runs)]
            fps = statistics.median(r["fps"] for r in runs)
            ratio = sum(r["simulated_s"] for r in runs) / sum(r["wall_s"] for r in runs)
            behind = max(r["behind_s"] for r in runs)
            cpu = statistics.median(r["cpu_ms_per_frame"] for r in runs)
            view_cpu = statistics.median(r["view_cpu_ms_per_frame"] for r in runs)
            step_cpu = statistics.median(r["physics_cpu_ms_per_step"] for r in runs)
            figures[size] = {"median_fps": fps, "physics_over_wall": ratio,
                             "max_behind_s": behind, "median_cpu_ms_per_frame": cpu,
                             "median_view_cpu_ms_per_frame": view_cpu,
                             "median_physics_cpu_ms_per_step": step_cpu, "runs": runs}
            each = ", ".join(f"{r['fps']:.1f}" for r in runs)
            print(f"shadow map {size}x{size}: median {fps:.1f} fps over {args.runs} runs "
                  f"({each}); {cpu:.1f} ms of CPU per frame (all threads), of which the "
                  f"view {view_cpu:.1f} ms, and {step_cpu:.2f} ms per physics step; "
                  f"physics {ratio:.3f} s per wall s, at most {behind:.3f} s behind the clock")
    meta = {"renderer": renderer, "window": [WIDTH, HEIGHT],
            "budget_steps_per_frame": args.budget, "seconds_per_run": args.seconds,
            "game": args.game, "pieces": pieces + 1}
    table = markdown_table(
        ["shadow map", "median fps", "CPU ms per frame", "view CPU ms per frame",
         "physics CPU ms per step", "physics s per wall s", "most behind (s)"],
        [[f"{s}x{s}", f"{f['median_fps']:.1f}", f"{f['median_cpu_ms_per_frame']:.1f}",
          f"{f['median_view_cpu_ms_per_frame']:.1f}",
          f"{f['median_physics_cpu_ms_per_step']:.2f}",
          f"{f['physics_over_wall']:.3f}", f"{f['max_behind_s']:.3f}"]
         for s, f in figures.items()])
    what = {"tilted": "Full beam", "tower": "Four towers"}[args.game]
    write_results("gui_fps" if args.game == "tilted" else f"gui_fps_{args.game}",
                  {"facts": facts, "meta": meta, "figures": figures},
                  f"{what} ({meta['pieces']} pieces of a 4-player game), {WIDTH}x{HEIGHT}, "
                  f"shadows on, pieces moving; {renderer}.  "
                  f"{facts_text(facts, machine_facts())}\n\n{table}")
    base.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
