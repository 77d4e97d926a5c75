"""How a judged drop grows with the bodies on the table, for the ``scaling`` section
of ``python -m benchmarks``.

* **Tilted**: real states of seeded 4-player planner games
  (:func:`benchmarks.bench_games.planner_drop_states`, every drop of the games of
  SCALING_SEEDS), for each count of TILTED_BLOCKS the TILTED_STATES states whose
  numbers of blocks on the beam are nearest it, each judged with its recorded next
  drop (the point: their median count and median times).
* **Tower**: a 4-player table set up by hand (``TowerState.arranged`` and
  ``stage``): 1 to 4 towers of TOWER_PIECES pieces each (TOWER_LETTERS and logos of
  the seat's hand alternating, flat, centred, each released 2 mm above the tower and
  settled), then seat 0 drops a TOWER_PLAYED letter flat and centred onto its tower.

Each drop is judged ``repeats`` times with the physics caches emptied first (as a
game's first trial of a new state is) and its World built beforehand, untimed (as
between turns).  The figure per point is the median wall time and CPU time; the
fitted lines are ordinary least-squares fits of the median wall time and of the
median CPU time against the count (blocks on the beam, towers on the table), their
slopes in seconds per block (per tower).
"""
from __future__ import annotations

import json
import statistics
import time

import numpy as np

import balance3d
from balance3d.games import get_game
from balance3d.games.base import Drop, State
from balance3d.games.tower.rules import piece_part
from balance3d.games.tower.state import TowerState
from balance3d.physics import clear_caches
from benchmarks.bench_games import planner_drop_states

#: Seeds of the 4-player planner games whose states the Tilted points come from.
SCALING_SEEDS = (0, 1)
#: Blocks on the beam (besides the beam itself) of the Tilted points.
TILTED_BLOCKS = (0, 5, 10, 15, 20, 25)
#: States judged per Tilted point: those whose counts are nearest the point's.
TILTED_STATES = 3
#: Towers on the Tower table, and pieces in each.
TOWER_TOWERS, TOWER_PIECES = (1, 2, 3, 4), 20
#: The letters staged, alternating with logo plaques (an L dropped by its footprint's
#: centre leaves a plaque on it too little support), and the letter seat 0 then drops.
TOWER_LETTERS, TOWER_PLAYED = ("letter_H", "letter_T"), "letter_L"
#: m, a staged Tower piece is released this far above its tower.
TOWER_GAP = 0.002
#: Every drop of a game: more than any game of SCALING_SEEDS has.
ALL_DROPS = 10_000


def timed_drop(cls: type[State], saved: str, drop: Drop, scene) -> tuple[float, float]:
    """Wall and CPU time (s) of the judged ``drop`` from the ``saved`` state, its World
    built beforehand and the physics caches emptied first."""
    state = cls.from_dict(json.loads(saved), scene=scene)
    _ = state.world
    clear_caches()
    wall, cpu = time.perf_counter(), time.process_time()
    state.apply(drop)
    return time.perf_counter() - wall, time.process_time() - cpu


def point(count: int, saved: str, drop: Drop, repeats: int) -> dict:
    """The median wall and CPU times (s) of ``repeats`` judged runs of ``drop`` from
    ``saved``, with the ``count`` they stand for."""
    data = json.loads(saved)
    cls = get_game(data["game"]).state_class
    scene = balance3d.load_scene(data["scene"]["name"])
    runs = [timed_drop(cls, saved, drop, scene) for _ in range(repeats)]
    bodies = sum(1 for b in data["world"]["bodies"] if not b["static"])
    return {"count": count, "dynamic_bodies": bodies,
            "wall_s": statistics.median(r[0] for r in runs),
            "cpu_s": statistics.median(r[1] for r in runs)}


def fitted(points: list[dict], key: str = "wall_s") -> dict:
    """Least-squares line of the median time ``key`` (s) against the count: slope (s
    per unit of count), intercept (s), and the last point's time over the first's."""
    x = np.array([p["count"] for p in points], float)
    y = np.array([p[key] for p in points], float)
    slope, intercept = np.polyfit(x, y, 1)
    return {"slope_s": float(slope), "intercept_s": float(intercept),
            "growth": float(y[-1] / y[0])}


def tilted_points(repeats: int, blocks: tuple[int, ...] = TILTED_BLOCKS) -> list[dict]:
    """The Tilted points: for each count of ``blocks``, the TILTED_STATES states
    nearest it (their median times; the count is their median count)."""
    states = planner_drop_states(list(SCALING_SEEDS), ALL_DROPS)

    def on_beam(saved: str) -> int:
        return sum(1 for b in json.loads(saved)["world"]["bodies"] if not b["static"]) - 1

    counts = [on_beam(saved) for saved, _ in states]
    points = []
    for want in blocks:
        nearest = sorted(range(len(states)), key=lambda k: (abs(counts[k] - want), k))
        each = [point(counts[i], *states[i], repeats) for i in nearest[:TILTED_STATES]]
        points.append({key: statistics.median(p[key] for p in each) for key in each[0]})
        print(f"scaling: Tilted, {points[-1]['count']:g} blocks on the beam: "
              f"{points[-1]['wall_s']:.3f} s (CPU {points[-1]['cpu_s']:.3f} s)", flush=True)
    return points


def tower_table(towers: int, pieces: int = TOWER_PIECES) -> tuple[str, Drop]:
    """A 4-player Tower table with ``towers`` towers of ``pieces`` staged pieces (seats
    0 up), seat 0 to play a letter: the state as JSON and seat 0's next drop (a letter
    of its hand, flat and centred)."""
    state = TowerState.arranged(4, seed=0)
    for seat in range(towers):
        x, y = np.mean(state.world.vertices(state.base(seat))[:, :2], axis=0)
        hand = state.hand(seat)
        letters = [p for p in hand if piece_part(p) in TOWER_LETTERS]
        logos = [p for p in hand if piece_part(p) == "logo"]
        keep = next(p for p in hand if piece_part(p) == TOWER_PLAYED)
        order = [p for pair in zip(letters, logos) for p in pair]
        order += [p for p in letters + logos if p not in order]
        state.stage(seat, [Drop(p, float(x), float(y), TOWER_GAP) for p in order[:pieces]])
        if seat == 0:
            played = Drop(keep, float(x), float(y), TOWER_GAP)
    state.give_turn(0, "play 1", "letter")
    return json.dumps(state.to_dict()), played


def tower_points(repeats: int, towers: tuple[int, ...] = TOWER_TOWERS,
                 pieces: int = TOWER_PIECES) -> list[dict]:
    """The Tower points: 1 to 4 towers of ``pieces`` pieces."""
    points = []
    for n in towers:
        saved, drop = tower_table(n, pieces)
        points.append(point(n, saved, drop, repeats))
        print(f"scaling: Tower, {n} towers of {pieces}: {points[-1]['wall_s']:.3f} s "
              f"(CPU {points[-1]['cpu_s']:.3f} s)", flush=True)
    return points


def measure_scaling(repeats: int) -> dict:
    """Both games' points and fitted lines, ``repeats`` runs per point."""
    tilted, tower = tilted_points(repeats), tower_points(repeats)
    return {"repeats": repeats, "seeds": list(SCALING_SEEDS), "tower_pieces": TOWER_PIECES,
            **{game: {"points": points, "fit": fitted(points),
                      "cpu_fit": fitted(points, "cpu_s")}
               for game, points in (("tilted", tilted), ("tower", tower))}}
