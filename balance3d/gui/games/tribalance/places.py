"""Where things are round Tri-Ba-Lance's plate, in a player's words (no Panda3D):
the seats' directions, the plate's corners and sides named by the seat there, and
the fields by their painted number and place ("the 3 on Ann's side", "the 2
between the back corner and Bob's side"), one name per field.

Directions are degrees from +x towards +y seen from above, world frame; the plate
lies unturned, corner 0 on +y (see :mod:`balance3d.games.tribalance.judge`).
Seats sit round the plate clockwise, seat 0 in front (-90 degrees)."""
from __future__ import annotations

import math

from balance3d.games.base import State

#: Words for a corner or side of the plate by its index (the judge's numbering:
#: corner 0 on +y, counter-clockwise seen from above; side i joins corners i, i+1).
CORNER_NAMES = ("back corner", "front-left corner", "front-right corner")
SIDE_NAMES = ("back-left side", "front side", "back-right side")
#: degrees: a seat this close to a corner's or side's direction sits at it; a
#: field this much nearer one of two corners or sides lies half-way between them.
SEAT_AT = 1.0
#: m: a field whose centre is this close to the plate's centre is in the middle.
MIDDLE = 0.005


def seat_angle(seat: int, players: int) -> float:
    """rad, direction of ``seat``'s tray from the plate's centre: seat 0 at -90
    degrees (the front), the others clockwise seen from above."""
    return -math.pi / 2.0 - seat * 2.0 * math.pi / players


def _gap(a: float, b: float) -> float:
    """degrees between two directions (0..180)."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def places(names: list[str]) -> list[tuple[float, str, str]]:
    """``(direction degrees, words, preposition)`` of each corner and side of the
    plate, named after the seat (of ``names``, one per seat) sitting there:
    "Ann's side", else "the back corner"."""
    seats = [math.degrees(seat_angle(s, len(names))) for s in range(len(names))]
    out = []
    for kind, first, plain, word in (("corner", 90.0, CORNER_NAMES, "at"),
                                     ("side", 150.0, SIDE_NAMES, "on")):
        for i in range(3):
            angle = first + 120.0 * i
            at = [s for s, a in enumerate(seats) if _gap(a, angle) <= SEAT_AT]
            words = f"{names[at[0]]}'s {kind}" if at else f"the {plain[i]}"
            out.append((angle, words, word))
    return out


def towards(names: list[str], direction_deg: float) -> str:
    """The corner or side nearest ``direction_deg`` in words ("Bob's corner")."""
    return min(places(names), key=lambda p: _gap(p[0], direction_deg))[1]


def seat_names(state: State) -> list[str]:
    """The seats' names, in seat order."""
    return [p.name for p in state.players]


def field_name(state: State, index: int) -> str:
    """Field ``index`` by its painted number and place, a name no other field of the
    scene shares: "the 1 in the middle"; "the 5 at Ann's corner" (at a corner or a
    side, within :data:`SEAT_AT`); "the 2 between the back corner and Bob's side"
    (half-way between two); "the 4 at the back corner, towards Bob's side" (when
    another field of its number lies nearest the same corner or side)."""
    fields = state.rules.fields
    field = fields[index]
    if math.hypot(field.x, field.y) < MIDDLE:
        return f"the {field.number} in the middle"
    spots = places(seat_names(state))
    first, second = _nearest_two(spots, field)
    if _halfway(first, second, field):
        return f"the {field.number} between {first[1]} and {second[1]}"
    shared = [f for f in fields if f is not field and f.number == field.number
              and math.hypot(f.x, f.y) >= MIDDLE
              and _nearest_two(spots, f)[0] == first and not _halfway(*_nearest_two(spots, f), f)]
    if shared:
        return f"the {field.number} {first[2]} {first[1]}, towards {second[1]}"
    return f"the {field.number} {first[2]} {first[1]}"


def _halfway(first: tuple[float, str, str], second: tuple[float, str, str], field) -> bool:
    """Whether ``field`` lies half-way (within :data:`SEAT_AT`) between the corners or
    sides ``first`` and ``second``."""
    return _gap(second[0], _direction(field)) - _gap(first[0], _direction(field)) <= SEAT_AT


def _direction(field) -> float:
    """degrees, direction of a field's centre from the plate's centre."""
    return math.degrees(math.atan2(field.y, field.x))


def _nearest_two(spots: list[tuple[float, str, str]], field) -> list[tuple[float, str, str]]:
    """The two corners or sides (of ``spots``) nearest ``field``'s direction."""
    return sorted(spots, key=lambda p: _gap(p[0], _direction(field)))[:2]


__all__ = ["CORNER_NAMES", "SEAT_AT", "SIDE_NAMES", "field_name", "places", "seat_angle",
           "seat_names", "towards"]
