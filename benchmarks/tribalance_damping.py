"""What the Tri-Ba-Lance plate's damping changes: verdicts and settle times.

A fixed set of placements is judged at several dampings (the scene's angular and
linear damping set to the same value), with the settle cap raised to
``--cap`` s so that no placement is judged before it is still:

* each weight alone on one field of each kind of the bundled scene (seat 0 of a
  2-player game holding it, the plate empty): a kind is the fields at one distance
  from the centre and one angle from the nearest corner, which the plate's
  symmetries (turns by 120 degrees, mirrors through a corner) carry onto each other,
  so a lone piece gets one verdict on all of them; ``--every-field`` takes them all;
* every placement of the golden record's game (3 players, random bots, seed 3),
  each judged from the state before it.

The lowest damping (``--reference``, 0.1 /s) is the reference.  For each damping
the run reports the placements whose verdict (valid, and the corners and sides on
the frame) differs from the reference's, the settle time (median and maximum, s
simulated) and the placements that hit the cap, and names the largest damping
whose verdicts all match.

    python -m benchmarks.tribalance_damping [--dampings 0.1 0.5 0.9 1.0] [--cap 60]

(from the root of a checkout).  Writes ``benchmarks/results/tribalance_damping.json``
and ``.md``.
"""
from __future__ import annotations

import argparse
import math
import statistics

from balance3d.bots import make_bot
from balance3d.games import Place, new_game
from balance3d.games.tribalance import TribalanceState
from balance3d.scene import load_scene
from benchmarks.results_io import facts_text, machine_facts, measuring, write_results

GAME = "tribalance"
#: The golden record's game: seats, bots and seed.
GOLDEN_PLAYERS, GOLDEN_BOT, GOLDEN_SEED = 3, "random", 3


def field_kinds(fields: list[list[float]]) -> list[int]:
    """The first field of each kind (distance from the centre, and angle from the
    nearest corner direction, to 1 mm and 1 degree: the scene's coordinates are
    rounded to 0.1 mm), in the scene's order."""
    seen, first = set(), []
    for i, (x, y, _) in enumerate(fields):
        angle = math.degrees(math.atan2(y, x)) - 90.0           # corner 0 on +y
        off = abs((angle + 60.0) % 120.0 - 60.0) if math.hypot(x, y) > 1e-4 else 0.0
        kind = (round(math.hypot(x, y), 3), round(off))
        if kind not in seen:
            seen.add(kind)
            first.append(i)
    return first


def placements(every_field: bool = False) -> list[tuple[str, TribalanceState, Place]]:
    """``(label, state before, placement)`` of the fixed set, in the bundled scene."""
    out = []
    scene = load_scene(GAME)
    fields = scene.rules["fields"]
    for field in range(len(fields)) if every_field else field_kinds(fields):
        for weight in (1, 2, 3, 4, 5):
            state = TribalanceState.arranged(2, hands=[[weight], [1]], first=0)
            out.append((f"weight {weight} alone on field {field}", state,
                        Place(state.hand(0)[0], field)))
    state = new_game(GAME, players=GOLDEN_PLAYERS, seed=GOLDEN_SEED,
                     bots=[GOLDEN_BOT] * GOLDEN_PLAYERS)
    bots = [make_bot(GOLDEN_BOT, GOLDEN_SEED, seat, game=GAME)
            for seat in range(GOLDEN_PLAYERS)]
    while not state.is_over:
        action = bots[state.current_player].choose(state)
        if isinstance(action, Place):
            out.append((f"golden game turn {state.turn}: {action.piece} on field "
                        f"{action.field}", state.clone(), action))
        state.apply(action)
    return out


def judged(state: TribalanceState, place: Place, damping: float, cap: float) -> dict:
    """The verdict of ``place`` from ``state`` with both dampings ``damping`` (1/s)
    and the settle cap ``cap`` (s)."""
    scene = load_scene(GAME, overrides={"physics.angular_damping": damping,
                                        "physics.linear_damping": damping,
                                        "physics.settle_max_time": cap})
    copy = TribalanceState.from_table(scene, state.players, state.seed, state.variant,
                                      state.table_dict(), state.history,
                                      [e.to_dict() for e in state.events])
    verdict = copy.apply(place)
    return {"valid": verdict.valid, "frame": verdict.frame_contacts,
            "tilt_deg": verdict.tilt_deg, "settle_s": verdict.settle_time,
            "capped": verdict.settle_timed_out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dampings", type=float, nargs="+",
                        default=[0.1, 0.5, 0.9, 1.0])
    parser.add_argument("--cap", type=float, default=60.0)
    parser.add_argument("--every-field", action="store_true")
    args = parser.parse_args(argv)
    dampings = sorted(args.dampings)
    # settle times are simulated seconds, which the machine's load does not change:
    # the run needs no core of its own
    with measuring(one_core=False) as facts:
        cases = placements(args.every_field)
        runs = {}
        for d in dampings:
            runs[d] = [judged(state, place, d, args.cap) for _, state, place in cases]
            print(f"damping {d:g} /s: {sum(r['valid'] for r in runs[d])} of {len(cases)} "
                  f"valid", flush=True)
    reference = runs[dampings[0]]
    rows = {}
    for d in dampings:
        differ = [label for (label, _, _), got, ref in zip(cases, runs[d], reference)
                  if (got["valid"], got["frame"]) != (ref["valid"], ref["frame"])]
        settle = [r["settle_s"] for r in runs[d]]
        rows[d] = {"differ": differ, "valid": sum(r["valid"] for r in runs[d]),
                   "settle_median_s": statistics.median(settle), "settle_max_s": max(settle),
                   "capped": sum(r["capped"] for r in runs[d])}
    same = [d for d in dampings if not rows[d]["differ"]]
    keep = max(d for d in same if all(d2 in same for d2 in dampings if d2 <= d))
    lines = [f"{len(cases)} placements; reference damping {dampings[0]:g} /s, cap "
             f"{args.cap:g} s; largest damping with the reference's verdicts (and every "
             f"lower one too): {keep:g} /s", "",
             "| damping (1/s) | valid | verdicts unlike the reference's | settle median (max), "
             "s simulated | capped |", "|---|---|---|---|---|"]
    for d, row in rows.items():
        differ = "; ".join(row["differ"]) or "none"
        lines.append(f"| {d:g} | {row['valid']} | {len(row['differ'])}: {differ} | "
                     f"{row['settle_median_s']:.2f} ({row['settle_max_s']:.2f}) | "
                     f"{row['capped']} |")
    lines += ["", facts_text(facts, machine_facts())]
    write_results("tribalance_damping",
                  {"facts": facts, "cap_s": args.cap, "reference": dampings[0], "keep": keep,
                   "cases": [label for label, _, _ in cases],
                   "runs": {str(d): runs[d] for d in dampings},
                   "rows": {str(d): rows[d] for d in dampings}}, "\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
