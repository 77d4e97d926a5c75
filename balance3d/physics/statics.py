"""Rigid-body statics: can a set of bodies stay at rest on their contacts?

The World welds bodies that have come to rest (see :mod:`balance3d.physics.welding`)
and must only weld what rigid-body statics says can stay at rest.  This module
answers that question as a linear program: find contact forces, each inside its
Coulomb friction cone, with non-negative normal components, that balance every
body's weight and the known loads on it -- force and torque about its centre of
mass.  The cone is replaced by an inscribed pyramid of :data:`FRICTION_CONE_SIDES`
sides, so friction is under-estimated (never over-estimated): what the program calls
feasible really can stay at rest.

Among the feasible force sets the program picks the one that maximises the smallest
normal force carried by any supporting pair of bodies, so that a body resting on two
supports is reported as resting on both (a vertex solution would load one and leave
the other at zero), and among those the one with the least total force.

Units: metres, kilograms, newtons.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import highspy
import numpy as np

from balance3d import numerics
from balance3d.physics.caches import cache

#: Sides of the pyramid that stands in for each friction cone.  Inscribed, so the
#: friction available is under-estimated by at most 1 - cos(pi / sides) (7.6 % for 8).
FRICTION_CONE_SIDES = 8
#: (FRICTION_CONE_SIDES, 2): cosine and sine of each pyramid edge's angle about the
#: normal, from :mod:`math` (numpy's array ``sin``/``cos`` differ by SIMD path).
_CONE_CIRCLE = numerics.unit_circle(FRICTION_CONE_SIDES)
#: HiGHS primal feasibility tolerance on the equilibrium equations, which are scaled
#: to the heaviest body's weight (forces) and the longest lever arm (torques).
FEASIBILITY_TOLERANCE = 1e-9
#: Weight of the total-force term against the spread term in the objective
#: (dimensionless, both in units of the heaviest weight): small, it only breaks ties.
TOTAL_FORCE_WEIGHT = 1e-3
#: A solution HiGHS calls optimal is still rejected when it misses a bound or a
#: constraint by more than this (units of the heaviest weight): the check, and the
#: value, that scipy's ``linprog`` applies to HiGHS's answers.
SOLUTION_TOLERANCE = 10.0 * FEASIBILITY_TOLERANCE ** 0.5
#: Programs whose solutions each thread remembers (least recently used dropped
#: first; :mod:`balance3d.physics.caches` switches and empties them).  A World solves
#: the same program again and again (a welded group whose contacts and loads have
#: not changed); the program is deterministic (HiGHS is cleared before each one), so
#: a remembered answer is the answer, bit for bit.  An entry holds about 2.5 kB
#: (its key's bits and the solution), so a thread's cache at most about 2.5 MB.
STATICS_CACHE_SIZE = 1024
#: Simplex iterations per row of the program after which HiGHS is taken to be
#: stuck.  The 234 statics programs of 32 judged Tilted drops that HiGHS's dual
#: simplex decided took at most 2.5 per row; two that it could not decide (status
#: unknown, read as "cannot hold") ran 3.2 and 8.9 per row, the second for 1.3 s.
#: A stuck program is solved again by each of :data:`SIMPLEX_ATTEMPTS` in turn, and
#: only when every one is stuck does it count as "cannot hold".
SIMPLEX_ITERATIONS_PER_ROW = 3
#: How HiGHS tries a statics program, in order, each try within the iteration limit
#: above: (presolve, simplex strategy: 1 dual, 4 primal).  The dual simplex without
#: presolve decides nearly every program fastest.  With presolve it decided the
#: Tilted program it could not decide without (16 ms against 1.3 s).  The primal
#: simplex decides a flat Tower of 19 pieces built 0.2 mm off its plinth's axis,
#: where the dual simplex needs 3.1 iterations per row with presolve or without
#: (primal: 1.3); read as "cannot hold", that woke 16 welded pieces, which fell.
#: A try with presolve whose presolve reduces nothing is the try without it, made
#: already: it is left out (a stuck 20-body Tilted pile under a sliding block spent
#: 43 of its 93 ms CPU so, stuck again, before the primal simplex).
SIMPLEX_ATTEMPTS = (("off", 1), ("on", 1), ("off", 4))


def _highs_options() -> highspy.HighsOptions:
    """HiGHS's options for the statics program: silent, dual simplex, no presolve
    (it costs more than it saves on these small problems; see
    :data:`SIMPLEX_ATTEMPTS` for when the others are used)."""
    options = highspy.HighsOptions()
    options.output_flag = False
    options.log_to_console = False
    options.presolve = "off"
    options.simplex_strategy = 1          # dual simplex
    options.primal_feasibility_tolerance = FEASIBILITY_TOLERANCE
    return options


def _attempt_options(presolve: str, strategy: int) -> highspy.HighsOptions:
    """:func:`_highs_options` for one of :data:`SIMPLEX_ATTEMPTS`."""
    options = _highs_options()
    options.presolve = presolve
    options.simplex_strategy = strategy
    return options


#: HiGHS's options for each try of :data:`SIMPLEX_ATTEMPTS` (made once: setting an
#: option by name costs more than passing a whole set).
_ATTEMPT_OPTIONS = {attempt: _attempt_options(*attempt) for attempt in SIMPLEX_ATTEMPTS}
_STUCK = (highspy.HighsModelStatus.kIterationLimit, highspy.HighsModelStatus.kUnknown)
_THREAD = threading.local()


def _program_key(gravity: float, bodies: list, arrays: tuple) -> tuple:
    """A key naming the statics program exactly: the bits of every input it is built
    from (so 0.0 and -0.0 differ, as they could in the answer)."""
    loads = tuple(np.array(b.loads, float).tobytes() if b.loads else b"" for b in bodies)
    return (np.float64(gravity).tobytes(), loads) + tuple(a.tobytes() for a in arrays)


def _highs() -> highspy.Highs:
    """This thread's HiGHS instance (building one costs more than a small solve)."""
    if not hasattr(_THREAD, "highs"):
        _THREAD.highs = highspy.Highs()
    return _THREAD.highs


def _solve_lp(cost: np.ndarray, matrix: tuple[np.ndarray, np.ndarray, np.ndarray],
              row_lower: np.ndarray, row_upper: np.ndarray,
              col_upper: np.ndarray) -> np.ndarray | None:
    """Minimise ``cost @ x`` subject to ``row_lower <= A @ x <= row_upper`` and
    ``0 <= x <= col_upper`` with HiGHS; None when it finds no acceptable optimum.

    ``matrix`` is A as (values, rows, columns) with no repeated (row, column); the
    program is passed to HiGHS directly (column-wise, rows sorted in each column),
    as scipy's ``linprog(method="highs")`` would pass it, without its input checks."""
    values, rows, cols = matrix
    n_col, n_row = len(cost), len(row_lower)
    # column by column, rows ascending in each: one sort of a key unique per entry
    order = np.argsort(cols * max(n_row, 1) + rows, kind="stable")
    start = np.zeros(n_col + 1, np.int32)
    np.cumsum(np.bincount(cols, minlength=n_col), out=start[1:])
    index, entries = rows[order].astype(np.int32), values[order]
    lower, integrality = np.zeros(n_col), np.zeros(n_col, np.int32)
    highs = _highs()

    def load(presolve: str, strategy: int) -> bool:
        highs.clear()      # a fresh solver: no basis or state from an earlier program
        highs.passOptions(_ATTEMPT_OPTIONS[presolve, strategy])
        highs.setOptionValue("simplex_iteration_limit",
                             SIMPLEX_ITERATIONS_PER_ROW * max(n_row, 1))
        return highs.passModel(
            n_col, n_row, len(values), int(highspy.MatrixFormat.kColwise),
            int(highspy.ObjSense.kMinimize), 0.0, cost, lower, col_upper,
            row_lower, row_upper, start, index, entries,
            integrality) != highspy.HighsStatus.kError

    tried: set[tuple[str, int]] = set()
    status = None
    for presolve, strategy in SIMPLEX_ATTEMPTS:
        if not load(presolve, strategy):
            return None
        if presolve == "on" and ("off", strategy) in tried:
            # a presolve that reduces nothing leaves the run without presolve, which
            # was already made and was stuck: do not make it again
            if highs.presolve() == highspy.HighsStatus.kError:
                return None
            if highs.getModelPresolveStatus() == highspy.HighsPresolveStatus.kNotReduced:
                continue
            if not load(presolve, strategy):
                return None
        if highs.run() == highspy.HighsStatus.kError:
            return None
        tried.add((presolve, strategy))
        status = highs.getModelStatus()
        if status not in _STUCK:
            break
    if status != highspy.HighsModelStatus.kOptimal:
        return None
    solution = highs.getSolution()
    x, row_value = np.array(solution.col_value), np.array(solution.row_value)
    tol = SOLUTION_TOLERANCE
    if not (np.all(x >= -tol) and np.all(x <= col_upper + tol)
            and np.all(row_value >= row_lower - tol) and np.all(row_value <= row_upper + tol)):
        return None
    return x


@dataclass(frozen=True)
class StaticsBody:
    """A body of the problem: ``mass`` kg, centre of mass ``com`` (3,) m, and known
    ``loads``: ((3,) point m, (3,) force N) pairs acting on it."""

    mass: float
    com: tuple[float, float, float]
    loads: tuple = ()


@dataclass(frozen=True)
class StaticsContact:
    """One contact point pushing body ``body`` (index into the problem's bodies).

    other : index of the body on the other side when it is in the problem (it then
        feels the opposite force), or -1 when the other side is a support (a static
        or welded body outside the problem).
    position : (3,) m.  normal : (3,) unit vector along which the other side pushes
    ``body``.  friction : Coulomb coefficient.  pair : label of the pair of bodies.
    supporting : whether the pair takes part in load spreading (a support contact).
    """

    body: int
    other: int
    position: tuple[float, float, float]
    normal: tuple[float, float, float]
    friction: float
    pair: int = 0
    supporting: bool = True
    normal_force: float | None = None


def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product of 3-vectors ``a`` and ``b`` ((3,) or (n, 3), broadcast): the
    same products and differences as ``np.cross`` (so the same bits), without its
    axis handling, which costs more than the arithmetic on these small arrays."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def tangents(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors completing ``normal`` (3,) to a right-handed frame."""
    helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    t1 = cross(normal, helper)
    t1 /= numerics.norm3(t1)
    return t1, cross(normal, t1)


def solve_statics(bodies: list[StaticsBody], contacts: list[StaticsContact],
                  gravity: float) -> np.ndarray | None:
    """Contact forces that hold ``bodies`` at rest, or None when none exist.

    gravity : m/s^2 along -z.  Returns (len(contacts), 3) float, N: the force each
    contact applies to its ``body`` (the ``other`` body feels the opposite), a fresh
    array; a program solved recently (:data:`STATICS_CACHE_SIZE`) is not solved
    again while the caches are on."""
    n_bodies, n_contacts = len(bodies), len(contacts)
    if n_bodies == 0:
        return np.zeros((n_contacts, 3))
    if n_contacts == 0:
        return None
    masses = np.array([b.mass for b in bodies], float)
    coms = np.array([b.com for b in bodies], float)
    owner = np.array([c.body for c in contacts])
    other = np.array([c.other for c in contacts])
    points = np.array([c.position for c in contacts], float)
    normals = np.array([c.normal for c in contacts], float)
    mu = np.array([c.friction for c in contacts], float)
    known = np.array([c.normal_force is not None for c in contacts])
    fixed_n = np.array([c.normal_force or 0.0 for c in contacts], float)
    pair_of = np.array([c.pair for c in contacts])
    supporting = np.array([c.supporting for c in contacts])
    solutions = cache("statics", STATICS_CACHE_SIZE)
    if solutions is not None:
        key = _program_key(gravity, bodies, (masses, coms, owner, other, points, normals, mu,
                                             known, fixed_n, pair_of, supporting))
        if key in solutions:
            remembered = solutions.get(key)
            return None if remembered is None else remembered.copy()
    normals /= numerics.norm(normals)[:, None]

    # friction pyramid generators: (n_contacts, sides, 3)
    sides = FRICTION_CONE_SIDES
    cos, sin = _CONE_CIRCLE[:, 0], _CONE_CIRCLE[:, 1]
    helper = np.where(np.abs(normals[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    t1 = cross(normals, helper)
    t1 /= numerics.norm(t1)[:, None]
    t2 = cross(normals, t1)
    weight_unit = max(float(masses.max()) * gravity, 1e-12)
    # a known normal force enters as a load; its friction generators then have
    # magnitude mu * N (in weight units) and their weights sum to at most one
    base = np.where(known[:, None], 0.0, normals)
    radius = np.where(known, mu * fixed_n / weight_unit, mu)
    gens = (base[:, None, :]
            + radius[:, None, None] * (cos[None, :, None] * t1[:, None, :]
                                       + sin[None, :, None] * t2[:, None, :]))
    gens = gens.reshape(-1, 3)                        # (n_gen, 3)
    gen_contact = np.repeat(np.arange(n_contacts), sides)
    n_gen = len(gens)
    arms_all = points - coms[owner]
    length_unit = max(float(numerics.norm(arms_all).max()), 1e-6)

    # equilibrium rows (force and torque of each body), as (row, column, value)
    # arrays: each generator pushes its contact's body, and the other body, when in
    # the problem, the opposite way; its force on a body b on rows 6 b to 6 b + 2, its
    # torque about b's centre of mass (over length_unit) on 6 b + 3 to 6 b + 5
    reaction = np.flatnonzero(other[gen_contact] >= 0)
    columns = np.concatenate([np.arange(n_gen), reaction])
    pushed = np.concatenate([owner[gen_contact], other[gen_contact[reaction]]])
    g = np.concatenate([gens * 1.0, gens[reaction] * -1.0])
    arm = points[gen_contact[columns]] - coms[pushed]
    entry_rows = [(6 * pushed[:, None] + np.arange(6)).reshape(-1)]
    entry_cols = [np.repeat(columns, 6)]
    entry_vals = [np.concatenate([g, cross(arm, g) / length_unit], axis=1).reshape(-1)]
    # each body's weight and loads: its own, then the known contacts' pushes, added
    # one by one in that order
    load_body, load_point, load_force = [], [], []
    for i, b in enumerate(bodies):
        for point, load in b.loads:
            load_body.append(i)
            load_point.append(point)
            load_force.append(load)
    for k in np.flatnonzero(known):
        c = contacts[k]
        push = fixed_n[k] * normals[k]
        load_body.append(c.body)
        load_point.append(c.position)
        load_force.append(push)
        if c.other >= 0:
            load_body.append(c.other)
            load_point.append(c.position)
            load_force.append(-push)
    net_force = np.zeros((n_bodies, 3))
    net_force[:, 2] = -masses * gravity
    net_torque = np.zeros((n_bodies, 3))
    if load_body:
        load_body = np.array(load_body)
        load_force = np.array(load_force, float)
        np.add.at(net_force, load_body, load_force)
        np.add.at(net_torque, load_body,
                  cross(np.array(load_point, float) - coms[load_body], load_force))
    b_eq = np.concatenate([-net_force / weight_unit,
                           -net_torque / (weight_unit * length_unit)], axis=1).reshape(-1)

    # unknowns: generator magnitudes and t, all in units of the heaviest weight
    # spread: t <= normal force carried by each supporting pair of unknown force
    pairs = sorted({c.pair for c in contacts if c.supporting and c.normal_force is None})
    n_known = int(known.sum())
    ub_rows, ub_cols, ub_vals = [], [], []
    if pairs:
        pair_row = {p: i for i, p in enumerate(pairs)}
        # each generator's part along its normal, added x, z, then y: the order
        # np.einsum took, so that a program keeps the bits it had with it
        g, n = gens, normals[gen_contact]
        normal_part = (g[:, 0] * n[:, 0] + g[:, 2] * n[:, 2]) + g[:, 1] * n[:, 1]
        spread = np.array([c.supporting and c.normal_force is None for c in contacts])[gen_contact]
        row = np.array([pair_row.get(c.pair, -1) for c in contacts])[gen_contact]
        ub_rows += [row[spread], np.arange(len(pairs))]
        ub_cols += [np.flatnonzero(spread), np.full(len(pairs), n_gen)]
        ub_vals += [-normal_part[spread], np.ones(len(pairs))]
    # each known contact's friction generators: their weights sum to at most one
    known_at = np.flatnonzero(known)
    if n_known:
        ub_rows.append(np.repeat(len(pairs) + np.arange(n_known), sides))
        ub_cols.append((known_at[:, None] * sides + np.arange(sides)).reshape(-1))
        ub_vals.append(np.ones(n_known * sides))
    b_ub = np.concatenate([np.zeros(len(pairs)), np.ones(n_known)])
    objective = np.full(n_gen + 1, TOTAL_FORCE_WEIGHT)
    objective[-1] = -1.0 if pairs else 0.0
    cap = float(masses.min() * gravity / weight_unit)
    n_ub = len(b_ub)
    # one matrix: the inequality rows, then the equality rows
    matrix = (np.concatenate(ub_vals + entry_vals),
              np.concatenate(ub_rows + [r + n_ub for r in entry_rows]),
              np.concatenate(ub_cols + entry_cols))
    x = _solve_lp(objective, matrix, np.concatenate([np.full(n_ub, -np.inf), b_eq]),
                  np.concatenate([b_ub, b_eq]), np.append(np.full(n_gen, np.inf), cap))
    forces = None
    if x is not None:
        forces = np.zeros((n_contacts, 3))
        np.add.at(forces, gen_contact, x[:n_gen, None] * gens * weight_unit)
        forces[known] += fixed_n[known, None] * normals[known]
    if solutions is not None:
        solutions.put(key, forces)
    return None if forces is None else forces.copy()


def residuals(bodies: list[StaticsBody], points: np.ndarray, forces: np.ndarray,
              owner: np.ndarray, gravity: float) -> tuple[np.ndarray, np.ndarray, float]:
    """How far the given contact forces leave each body from rest.

    points, forces : (k, 3) m and N, contact ``j`` pushing body ``owner[j]`` (k,)
    with ``forces[j]`` at ``points[j]``; each body also carries its weight and its
    ``loads``.  gravity : m/s^2 along -z.  Returns the length of each body's net
    force ((len(bodies),) N), of its net torque about its centre of mass
    ((len(bodies),) N m) and the longest lever arm of a contact or load (m, 0.0
    without any).  Each body's sums are taken over its own contacts in their order,
    so a body's figures are the same bits whichever other bodies are asked with it."""
    n = len(bodies)
    masses = np.array([b.mass for b in bodies], float)
    coms = np.array([b.com for b in bodies], float).reshape(n, 3)
    net_force = np.zeros((n, 3))
    net_force[:, 2] = -masses * gravity
    net_torque = np.zeros((n, 3))
    arms = points - coms[owner]
    np.add.at(net_force, owner, forces)
    np.add.at(net_torque, owner, cross(arms, forces))
    length = float(numerics.norm(arms).max()) if len(arms) else 0.0
    for i, b in enumerate(bodies):
        for point, load in b.loads:
            net_force[i] += load
            net_torque[i] += cross(np.subtract(point, b.com), np.asarray(load, float))
            length = max(length, numerics.norm3(np.subtract(point, b.com)))
    return numerics.norm(net_force), numerics.norm(net_torque), length


def body_residuals(mass: float, com, points, forces, gravity: float
                   ) -> tuple[float, float, float]:
    """:func:`residuals` of one body of ``mass`` kg, centre of mass ``com`` (3,) m,
    with no loads, under contact forces ``forces`` (k, 3) N at ``points`` (k, 3) m
    (sequences of 3 floats): its net force (N), net torque (N m) and longest lever
    arm (m, 0.0 without contacts).  In Python floats, with the products and sums of
    the array arithmetic of :func:`residuals` in their order: the same bits, at a
    fraction of its cost on one body's few contacts."""
    cx, cy, cz = (float(v) for v in com)
    fx, fy, fz = 0.0, 0.0, -mass * gravity
    tx = ty = tz = 0.0
    longest = None
    for (px, py, pz), (gx, gy, gz) in zip(points, forces):
        ax, ay, az = float(px) - cx, float(py) - cy, float(pz) - cz
        gx, gy, gz = float(gx), float(gy), float(gz)
        fx, fy, fz = fx + gx, fy + gy, fz + gz
        tx, ty, tz = (tx + (ay * gz - az * gy), ty + (az * gx - ax * gz),
                      tz + (ax * gy - ay * gx))
        arm = math.sqrt(ax * ax + ay * ay + az * az)
        longest = arm if longest is None else max(longest, arm)
    return (math.sqrt(fx * fx + fy * fy + fz * fz), math.sqrt(tx * tx + ty * ty + tz * tz),
            0.0 if longest is None else longest)


def beyond_tolerance(masses: np.ndarray, force: np.ndarray, torque: np.ndarray,
                     length: float, gravity: float) -> np.ndarray:
    """(n,) bool: which bodies of ``masses`` (n,) kg, with net forces ``force`` (n,) N
    and net torques ``torque`` (n,) N m (:func:`residuals`, ``length`` m their
    longest lever arm), are not held at rest: a net force beyond
    :data:`SOLUTION_TOLERANCE` of the heaviest weight, or a net torque beyond that
    of the heaviest weight times the longest lever arm, what :func:`solve_statics`
    accepts of its own solutions.  gravity : m/s^2."""
    weight = float(masses.max()) * gravity if len(masses) else 0.0
    tol = SOLUTION_TOLERANCE * weight
    return (force > tol) | (torque > tol * max(length, 1e-6))


def unbalanced(bodies: list[StaticsBody], points: np.ndarray, forces: np.ndarray,
               owner: np.ndarray, gravity: float) -> np.ndarray:
    """(len(bodies),) bool: which bodies the given contact forces do not hold at rest
    (:func:`residuals` of the same arguments, judged by :func:`beyond_tolerance`)."""
    masses = np.array([b.mass for b in bodies], float)
    return beyond_tolerance(masses, *residuals(bodies, points, forces, owner, gravity),
                            gravity)
