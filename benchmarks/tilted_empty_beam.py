"""Which single blocks tilt Tilted's empty beam, and from where: measured by the simulator.

For every block length (1u..6u, dropped flat), two yaws (along the beam and across
it) and each section (3, 2, 1; the block centred in the section on the high side),
one drop on the empty beam of the default scene: did it tilt the beam, and what
value did the judge give the block?  Blocks along the beam too long for section 1
are moved in until they end 1 mm short of the beam's end.  Then, for the 1u block,
the smallest distance from the centre line at which it tilts the empty beam
(bisection), and the beam's own dead band: the moment about the fulcrum contact
that holds its low end down.

    python benchmarks/tilted_empty_beam.py [--scene tilted-solo] [--height 0.002]

Prints a Markdown table (for the README).
"""
from __future__ import annotations

import argparse
import math

from balance3d.games.base import Drop
from balance3d.games.tilted import TiltedState
from balance3d.games.tilted.judge import BEAM, FULCRUM, BeamFrame

#: Low end of the beam in every measurement (the high side is -x).
LOW_END = +1
#: m, the default beam's half length and the block unit.
BEAM_HALF_LENGTH, UNIT = 0.30, 0.025
#: m, gap kept between a long block's end and the beam's end in section 1.
END_CLEARANCE = 0.001
#: Bisection steps for the 1u threshold (each halves a 0.1 m bracket).
BISECTION_STEPS = 12


def drop_on_empty(scene: str, length: int, s: float, yaw: float, height: float) -> dict:
    """Drop the ``length``-unit block flat, centred ``s`` m from the centre line on
    the high side of the empty beam; return the verdict as a dict."""
    state = TiltedState.arranged(1, variant="solo", scene=scene, low_end=LOW_END,
                                 hands=[[length]])
    frame = BeamFrame.of(state.world)
    x, y, _ = frame.to_world([(-LOW_END * s, 0.0, frame.half[2])])[0]
    piece = state.hand(0)[0]
    return state.apply(Drop(piece, float(x), float(y), height, yaw=yaw)).to_dict()


def dead_band(scene: str) -> tuple[float, float]:
    """(moment kg m, pivot x m): the beam's weight moment about its fulcrum contact
    that holds the low end on the table (divide by a block's mass for the lever arm
    it needs)."""
    state = TiltedState.arranged(1, variant="solo", scene=scene, low_end=LOW_END)
    world = state.fresh_world()
    world.step(1)
    points = [c.position_a if c.body_a == BEAM else c.position_b
              for c in world.contacts(BEAM, FULCRUM)]
    pivot_x = sum(p[0] for p in points) / len(points)
    com_x = world.pose(BEAM)[0][0]
    return world.part(BEAM).mass * abs(com_x - pivot_x), pivot_x


def threshold_1u(scene: str, height: float) -> float:
    """Smallest centre distance (m) from which a flat 1u block tilts the empty beam."""
    lo, hi = 0.0125 + 0.0005, 0.1125
    for _ in range(BISECTION_STEPS):
        mid = (lo + hi) / 2
        if drop_on_empty(scene, 1, mid, 0.0, height)["tilted"]:
            hi = mid
        else:
            lo = mid
    return hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", default="tilted-solo", help="a solo scene of Tilted")
    parser.add_argument("--height", type=float, default=0.002, help="release height, m")
    args = parser.parse_args()
    centres = {3: 0.05625, 2: 0.15, 1: 0.25}
    print(f"Empty beam, blocks dropped flat from {args.height * 1000:.0f} mm, centred in "
          f"each section of the high side: tilted? (value the judge gives)\n")
    print("| block | yaw | section 3 | section 2 | section 1 |")
    print("|---|---|---|---|---|")
    for length in range(1, 7):
        for yaw, label in ((0.0, "along"), (math.pi / 2, "across")):
            cells = []
            for section in (3, 2, 1):
                s = centres[section]
                if yaw == 0.0:      # keep it on the beam: placement rays miss an overhang
                    s = min(s, BEAM_HALF_LENGTH - length * UNIT / 2 - END_CLEARANCE)
                v = drop_on_empty(args.scene, length, s, yaw, args.height)
                if v["returned"]:
                    cells.append("returned: " + v["returned"][0]["reason"])
                else:
                    cells.append(f"{'tilts' if v['tilted'] else 'no tilt'} ({v['value']})")
            print(f"| {length}u | {label} | " + " | ".join(cells) + " |")
    moment, pivot = dead_band(args.scene)
    print(f"\nDead band of the empty beam: {moment * 1000:.3f} g m (the beam's weight moment "
          f"about its fulcrum contact at x = {pivot * 1000:.2f} mm).")
    start = threshold_1u(args.scene, args.height)
    print(f"A flat 1u block tilts the empty beam when centred {start * 1000:.1f} mm or more "
          f"from the centre line.")


if __name__ == "__main__":
    main()
