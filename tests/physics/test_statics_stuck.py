"""A statics program that HiGHS's dual simplex cannot finish is still decided.

The program in ``data/stuck_statics.json`` was met in a judged Tilted drop: a welded
pile of 29 bodies under the measured loads of moving blocks (191 contacts).  HiGHS's
primal simplex, its interior-point method and its dual simplex after presolve all
find it infeasible; its dual simplex without presolve (the solver's default here)
ran 1,938 iterations (1.3 s) and stopped with the status "unknown".
"""
from __future__ import annotations

import json
from pathlib import Path

import highspy

from balance3d.physics import statics
from balance3d.physics.caches import caches_enabled
from balance3d.physics.statics import StaticsBody, StaticsContact, solve_statics

DATA = Path(__file__).parent / "data" / "stuck_statics.json"


def load_program() -> tuple[list[StaticsBody], list[StaticsContact], float]:
    data = json.loads(DATA.read_text())
    bodies = [StaticsBody(b["mass"], tuple(b["com"]),
                          tuple((tuple(p), tuple(f)) for p, f in b["loads"]))
              for b in data["bodies"]]
    contacts = [StaticsContact(c["body"], c["other"], tuple(c["position"]),
                               tuple(c["normal"]), c["friction"], c["pair"],
                               c["supporting"], c["normal_force"])
                for c in data["contacts"]]
    return bodies, contacts, data["gravity"]


def test_the_stuck_program_is_found_infeasible_within_the_iteration_limit():
    bodies, contacts, gravity = load_program()
    assert (len(bodies), len(contacts)) == (29, 191)
    with caches_enabled(False):
        assert solve_statics(bodies, contacts, gravity) is None
        highs = statics._highs()
        assert highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible
        assert highs.getInfo().simplex_iteration_count <= (
            statics.SIMPLEX_ITERATIONS_PER_ROW * highs.getNumRow())
