"""The invariants the soak (:mod:`benchmarks.soak`) checks after every turn, one
checker per game.  Each reads the saved form of a state (``State.to_dict()``) and
the World's bodies, and raises :class:`InvariantError` naming what broke.

They are written from the rules (docs/rules/), not from the games' code: the
Tri-Ba-Lance scores are recomputed from where the pieces' bodies stand, not read
from the game's bookkeeping.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable

import numpy as np

from balance3d.games import State
from balance3d.games.placement import design_extents
from balance3d.games.tribalance.rules import PLATE

#: Tri-Ba-Lance piece names: ``{weight}w-p{player}.{copy}`` (docs/rules/tribalance.md).
TRIBALANCE_PIECE = re.compile(r"^(\d)w-p(\d+)\.\d+$")
#: Tower piece names: ``p{player}.{shape}.{copy}``.
TOWER_PIECE = re.compile(r"^p(\d+)\.")
#: Tilted block names: ``{length}u-{set}``.
TILTED_BLOCK = re.compile(r"^\du-\d+$")
#: m, farthest a Tri-Ba-Lance piece's centre may stand from its field's centre in the
#: plate's plane and still be on that field: the field's radius, the piece's
#: (0.012 m, docs/rules/tribalance.md).
FIELD_RADIUS = 0.012
#: m, farthest a piece's centre may stand above the plate's top face and still rest
#: on it: half the tallest piece (28 mm) with a margin for the rounding of edges.
ON_PLATE_HEIGHT = 0.016


class InvariantError(AssertionError):
    """A state broke one of the soak's invariants."""


def _world_names(saved: dict[str, Any]) -> list[str]:
    return [b["name"] for b in saved["world"]["bodies"]]


def _partition(what: str, places: dict[str, list[str]], everything: list[str]) -> None:
    """Raise unless every name of ``everything`` is in exactly one of ``places``."""
    seen = Counter(name for names in places.values() for name in names)
    twice = sorted(n for n, c in seen.items() if c > 1)
    missing = sorted(set(everything) - set(seen))
    extra = sorted(set(seen) - set(everything))
    if twice or missing or extra:
        where = {n: [p for p, names in places.items() if n in names] for n in twice}
        raise InvariantError(f"{what}: in two places {where}, missing {missing}, "
                             f"unknown {extra}")


# ---------------------------------------------------------------------- Tilted
def check_tilted(state: State, saved: dict[str, Any], start: dict[str, Any]) -> None:
    """Coins conserved (the seats' coins and the bank add up to the scene's coins);
    blocks conserved (each block of the start is in one hand, the supply or on the
    table as a body, exactly once)."""
    g = saved["game_state"]
    total = sum(g["coins"]) + g["bank"]
    if total != state.rules.coins:
        raise InvariantError(f"coins: seats {g['coins']} + bank {g['bank']} = {total}, "
                             f"not the game's {state.rules.coins}")
    first = start["game_state"]
    blocks = [p for h in first["hands"] for p in h] + first["supply"]
    places = {f"hand {s}": h for s, h in enumerate(g["hands"])}
    places["supply"] = g["supply"]
    places["table"] = [n for n in _world_names(saved) if TILTED_BLOCK.match(n)]
    _partition("tilted blocks", places, blocks)


# ---------------------------------------------------------------------- Tri-Ba-Lance
def _plate_points(state: State, names: list[str]) -> dict[str, np.ndarray]:
    """Each body's centre in the plate's frame (m: x, y in the plate's plane from its
    centroid, z above its top face), from the plate's pose and its part's
    design-from-body transform."""
    world = state.world
    part = world.part(PLATE)
    position, quat = world.pose(PLATE)
    x, y, z, w = quat
    rotation = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    offset = np.asarray(part.design_from_body, float)
    rot = rotation @ offset[:3, :3].T
    origin = np.asarray(position, float) - rot @ offset[:3, 3]
    top = float(design_extents(part)[2]) / 2
    out = {}
    for name in names:
        local = (np.asarray(world.pose(name)[0], float) - origin) @ rot
        out[name] = local - np.array([0.0, 0.0, top])
    return out


def check_tribalance(state: State, saved: dict[str, Any], start: dict[str, Any]) -> None:
    """Every piece is on the plate (a body resting on a field) or in its owner's
    hand, exactly once; the scores, recomputed from where the bodies stand (weight
    x the number of the field under it, minus the weight of each piece not on the
    plate), are the state's."""
    g = saved["game_state"]
    pieces = [p for h in start["game_state"]["hands"] for p in h]
    for seat, hand in enumerate(g["hands"]):
        strangers = [p for p in hand if int(TRIBALANCE_PIECE.match(p)[2]) != seat + 1]
        if strangers:
            raise InvariantError(f"tribalance: seat {seat} holds others' pieces {strangers}")
    bodies = [n for n in _world_names(saved) if TRIBALANCE_PIECE.match(n)]
    places = {f"hand {s}": h for s, h in enumerate(g["hands"])}
    places["plate"] = bodies
    _partition("tribalance pieces", places, pieces)
    fields = state.rules.fields
    scores = [0] * len(state.players)
    for name, at in _plate_points(state, bodies).items():
        weight, owner = (int(v) for v in TRIBALANCE_PIECE.match(name).groups())
        near = [f for f in fields if np.hypot(at[0] - f.x, at[1] - f.y) <= FIELD_RADIUS]
        if len(near) != 1 or not 0 <= at[2] <= ON_PLATE_HEIGHT:
            raise InvariantError(f"tribalance: {name} stands at {np.round(at, 4).tolist()} m "
                                 f"in the plate's frame, on no field")
        scores[owner - 1] += weight * near[0].number
    for seat, hand in enumerate(g["hands"]):
        scores[seat] -= sum(int(TRIBALANCE_PIECE.match(p)[1]) for p in hand)
    if tuple(scores) != tuple(state.scores):
        raise InvariantError(f"tribalance: scores from the positions {scores}, "
                             f"the state's {list(state.scores)}")


# ---------------------------------------------------------------------- Tower
def check_tower(state: State, saved: dict[str, Any], start: dict[str, Any]) -> None:
    """Every piece is in a hand, on a tower (a body in the World) or out of the
    game, exactly once; the penalty deck is the start's deck turned round (a drawn
    card goes to the bottom), so it keeps its cards in their cyclic order."""
    g = saved["game_state"]
    pieces = [p for h in start["game_state"]["hands"] for p in h]
    places = {f"hand {s}": h for s, h in enumerate(g["hands"])}
    places.update({f"tower {s}": t for s, t in enumerate(g["towers"])})
    places["out of the game"] = g["removed"]
    _partition("tower pieces", places, pieces)
    bodies = {n for n in _world_names(saved) if TOWER_PIECE.match(n)}
    on_towers = {p for t in g["towers"] for p in t}
    if bodies != on_towers:
        raise InvariantError(f"tower: bodies in the World {sorted(bodies ^ on_towers)} "
                             f"differ from the towers' pieces")
    deck, first = g["deck"], start["game_state"]["deck"]
    if len(deck) != len(first) or not any(deck == first[k:] + first[:k]
                                          for k in range(len(first))):
        raise InvariantError(f"tower: the deck {deck} is not the start's {first} turned round")


#: game name -> its checker(state, saved state, saved start).
CHECKS: dict[str, Callable[[State, dict[str, Any], dict[str, Any]], None]] = {
    "tilted": check_tilted, "tribalance": check_tribalance, "tower": check_tower,
}
