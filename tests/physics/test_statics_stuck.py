"""Statics programs that HiGHS's dual simplex cannot finish are still decided.

The program in ``data/stuck_statics.json`` was met in a judged Tilted drop: a welded
pile of 29 bodies under the measured loads of moving blocks (191 contacts).  HiGHS's
primal simplex, its interior-point method and its dual simplex after presolve all
find it infeasible; its dual simplex without presolve (the solver's default here)
ran 1,938 iterations (1.3 s) and stopped with the status "unknown".

The program in ``data/stuck_tower_statics.json`` was met building the flat Tower of
tests/physics/test_towers.py 0.2 mm off its plinth's axis: 18 welded pieces and a
letter come to rest on them (150 contacts), every upper part's centre of mass at
least 12 mm inside its support.  HiGHS's dual simplex needs 410 iterations (3.1 per
row) with presolve and without, over the iteration limit; its primal simplex
finds the forces in 179.  Read as "cannot hold", it woke 16 welded pieces, and
the tower fell.

The program in ``data/stuck_pile_statics.json`` was met while a dropped block slid on
a welded Tilted pile of 20 bodies (121 contacts).  HiGHS's interior-point method
finds it infeasible; its dual simplex stops with the status "unknown" with presolve
and without, and its presolve reduces nothing, so the try with presolve is the
try without it again and is not made.
"""
from __future__ import annotations

import json
from pathlib import Path

import highspy
import numpy as np

from balance3d.physics import statics
from balance3d.physics.caches import caches_enabled
from balance3d.physics.statics import StaticsBody, StaticsContact, solve_statics, unbalanced

DATA = Path(__file__).parent / "data" / "stuck_statics.json"
TOWER = Path(__file__).parent / "data" / "stuck_tower_statics.json"
PILE = Path(__file__).parent / "data" / "stuck_pile_statics.json"
#: HiGHS's simplex strategy for the primal simplex.
PRIMAL_SIMPLEX = 4


def load_program(path: Path = DATA) -> tuple[list[StaticsBody], list[StaticsContact], float]:
    data = json.loads(path.read_text())
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


def test_the_stuck_tower_program_is_found_to_hold_by_the_primal_simplex():
    bodies, contacts, gravity = load_program(TOWER)
    assert (len(bodies), len(contacts)) == (19, 150)
    with caches_enabled(False):
        forces = solve_statics(bodies, contacts, gravity)
        highs = statics._highs()
        assert highs.getOptionValue("simplex_strategy")[1] == PRIMAL_SIMPLEX
        assert highs.getInfo().simplex_iteration_count <= (
            statics.SIMPLEX_ITERATIONS_PER_ROW * highs.getNumRow())
    assert forces is not None
    # the forces hold every body, pushing (not pulling) along each normal, inside the
    # friction cone
    owner = np.array([c.body for c in contacts])
    points = np.array([c.position for c in contacts], float)
    holding = np.concatenate([forces, -forces[[c.other >= 0 for c in contacts]]])
    where = np.concatenate([points, points[[c.other >= 0 for c in contacts]]])
    who = np.concatenate([owner, [c.other for c in contacts if c.other >= 0]]).astype(int)
    assert not unbalanced(bodies, where, holding, who, gravity).any()
    normals = np.array([c.normal for c in contacts], float)
    push = np.einsum("ij,ij->i", forces, normals)
    slide = np.linalg.norm(forces - push[:, None] * normals, axis=1)
    weight = max(b.mass for b in bodies) * gravity
    assert (push >= -statics.SOLUTION_TOLERANCE * weight).all()
    assert (slide <= np.array([c.friction for c in contacts]) * push
            + statics.SOLUTION_TOLERANCE * weight).all()


def test_a_stuck_program_that_presolve_leaves_alone_is_not_tried_twice_by_the_dual(monkeypatch):
    bodies, contacts, gravity = load_program(PILE)
    assert (len(bodies), len(contacts)) == (20, 121)
    runs = []
    run = highspy.Highs.run

    def counted(self):
        status = run(self)
        runs.append((self.getOptionValue("presolve")[1],
                     self.getOptionValue("simplex_strategy")[1], self.getModelStatus()))
        return status

    monkeypatch.setattr(highspy.Highs, "run", counted)
    with caches_enabled(False):
        assert solve_statics(bodies, contacts, gravity) is None
        model = statics._highs().getLp()
    stuck = highspy.HighsModelStatus.kUnknown
    # the dual simplex without presolve, then the primal simplex: both stuck
    assert runs == [("off", 1, stuck), ("off", PRIMAL_SIMPLEX, stuck)]
    # the same program: presolve reduces nothing, and the interior-point method
    # decides it, infeasible ("cannot hold", as read)
    monkeypatch.setattr(highspy.Highs, "run", run)
    check = highspy.Highs()
    check.setOptionValue("output_flag", False)
    check.passModel(model)
    check.setOptionValue("presolve", "on")
    check.presolve()
    assert check.getModelPresolveStatus() == highspy.HighsPresolveStatus.kNotReduced
    check.clear()
    check.setOptionValue("output_flag", False)
    check.passModel(model)
    check.setOptionValue("solver", "ipm")
    check.setOptionValue("primal_feasibility_tolerance", statics.FEASIBILITY_TOLERANCE)
    check.run()
    assert check.getModelStatus() == highspy.HighsModelStatus.kInfeasible


def test_a_stuck_program_that_presolve_reduces_is_decided_by_the_try_with_presolve():
    """The Tilted pile of ``data/stuck_statics.json``: its presolve reduces it, so the
    try with presolve is made after the stuck one without, and it decides."""
    bodies, contacts, gravity = load_program()
    with caches_enabled(False):
        assert solve_statics(bodies, contacts, gravity) is None
        highs = statics._highs()
        assert highs.getOptionValue("presolve")[1] == "on"
        assert highs.getOptionValue("simplex_strategy")[1] == 1
        assert highs.getModelStatus() == highspy.HighsModelStatus.kInfeasible
