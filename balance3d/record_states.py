"""The table states a record keeps, in a compact and exact encoding.

A record keeps the table's state (:meth:`State.table_dict
<balance3d.games.base.State.table_dict>`: the turn counter, the generator's state,
the World snapshot and the game's own state) after its setup and after every turn.
Written as plain JSON, one Tower World takes up to about 47 kB, mostly the welded
pairs' contacts; :func:`encode` writes each kept state against the one kept before
it instead, as one JSON object::

    {"turn": 7,
     "rng": {...},                  # left out when the same as the previous state's
     "game_state": {key: value},    # only the keys whose value changed
     "world": {
       "time": 12.5,                # s
       "bodies": [                  # creation order
         "block_3",                 # the same as the previous state's body of that name
         {"name": "block_4", "part": "block", "static": false,
          "values": "<base64>"}],   # 13 float64: position (3) m, orientation (4,
                                    # xyzw), linear (3) m/s and angular (3) rad/s velocity
       "welded": ["block_3", ...],  # left out when the same as the previous state's
       "contacts": [                # each welded pair's contacts, pairs in stored order
         ["block_3", "table"],      # the same contacts as the previous state's pair
         ["block_4", "block_3", "<base64>"]]}}   # 10 float64 a contact: position (3)
                                    # m, normal (3), force (3) N, distance m

``<base64>`` is the float64 values packed little-endian (IEEE 754, the same bits on
every machine) and base64-encoded: every float round-trips exactly, and a body or a
pair is "the same" only when every bit is.  The first kept state (``previous`` None)
is written whole in the same form.  :func:`decode` is the inverse and checks what it
reads (:class:`~balance3d.games.base.RecordError` naming the place).
"""
from __future__ import annotations

import base64
import binascii
import copy
import json
import struct
from typing import Any

from balance3d.games.base import RecordError

#: float64 values per body: position (3), orientation (4), linear and angular velocity (3 each).
BODY_VALUES = 13
#: float64 values per weld contact: position (3), normal (3), force (3), distance (1).
CONTACT_VALUES = 10
_BODY_KEYS = (("position", 3), ("orientation", 4), ("linear_velocity", 3),
              ("angular_velocity", 3))
_CONTACT_KEYS = (("position", 3), ("normal", 3), ("force", 3))


def pack(values: list[float]) -> str:
    """``values`` as little-endian float64, base64-encoded (ASCII)."""
    return base64.b64encode(struct.pack(f"<{len(values)}d", *values)).decode("ascii")


def unpack(text: Any, count: int | None, where: str) -> list[float]:
    """The float64 values :func:`pack` wrote (``count`` of them, or any multiple of
    ``-count`` when negative); :class:`RecordError` naming ``where``."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (AttributeError, UnicodeEncodeError, binascii.Error):
        raise RecordError(f"{where}: not base64 text") from None
    n, extra = divmod(len(raw), 8)
    if extra or (count > 0 and n != count) or (count < 0 and (n == 0 or n % -count)):
        want = f"{count}" if count > 0 else f"a multiple of {-count}"
        raise RecordError(f"{where}: {len(raw)} bytes, not {want} float64 values")
    values = list(struct.unpack(f"<{n}d", raw))
    if any(v != v or v in (float("inf"), float("-inf")) for v in values):
        raise RecordError(f"{where}: holds a value that is not a finite number")
    return values


def _body_values(body: dict[str, Any]) -> list[float]:
    return [float(v) for key, _ in _BODY_KEYS for v in body[key]]


def _contact_values(contact: dict[str, Any]) -> list[float]:
    return [float(v) for key, _ in _CONTACT_KEYS for v in contact[key]] + \
        [float(contact["distance"])]


def _pairs(contacts: list[dict[str, Any]]) -> list[tuple[tuple[str, str], list[dict]]]:
    """``contacts`` cut, in order, into runs of one pair (body_a, body_b)."""
    runs: list[tuple[tuple[str, str], list[dict]]] = []
    for ct in contacts:
        pair = (ct["body_a"], ct["body_b"])
        if runs and runs[-1][0] == pair:
            runs[-1][1].append(ct)
        else:
            runs.append((pair, [ct]))
    return runs


def _same(a: Any, b: Any) -> bool:
    """True when the JSON values ``a`` and ``b`` are written the same (so 1, 1.0 and
    true differ, and 0.0 and -0.0)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def encode(table: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """The kept form of the table state ``table`` (as :meth:`State.table_dict
    <balance3d.games.base.State.table_dict>` gives it, JSON-normalised), written
    against ``previous``, the table state kept before it (None: written whole)."""
    world, before = table["world"], (previous or {}).get("world")
    old_bodies = {b["name"]: (b, pack(_body_values(b))) for b in (before or {}).get("bodies", [])}
    bodies: list[Any] = []
    for body in world["bodies"]:
        values = pack(_body_values(body))
        old = old_bodies.get(body["name"])
        if old is not None and old[1] == values and all(
                old[0][k] == body[k] for k in ("part", "static")):
            bodies.append(body["name"])
        else:
            bodies.append({"name": body["name"], "part": body["part"],
                           "static": body["static"], "values": values})
    welds = world["welds"]
    old_welds = (before or {}).get("welds")
    old_pairs = {pair: pack([v for ct in cts for v in _contact_values(ct)])
                 for pair, cts in _pairs(old_welds["contacts"] if old_welds else [])}
    contacts: list[list[str]] = []
    for pair, cts in _pairs(welds["contacts"]):
        values = pack([v for ct in cts for v in _contact_values(ct)])
        contacts.append([*pair] if old_pairs.get(pair) == values else [*pair, values])
    kept: dict[str, Any] = {"turn": table["turn"], "world": {
        "time": world["time"], "bodies": bodies, "contacts": contacts}}
    if old_welds is None or old_welds["welded"] != welds["welded"]:
        kept["world"]["welded"] = list(welds["welded"])
    if previous is None or not _same(previous["rng"], table["rng"]):
        kept["rng"] = table["rng"]
    old_game = (previous or {}).get("game_state", {})
    kept["game_state"] = {k: v for k, v in table["game_state"].items()
                          if k not in old_game or not _same(old_game[k], v)}
    if set(old_game) - set(table["game_state"]):
        raise RecordError(f"game state keys {sorted(set(old_game) - set(table['game_state']))} "
                          f"went missing between two kept states")
    return kept


def decode(kept: Any, previous: dict[str, Any] | None, where: str) -> dict[str, Any]:
    """The table state :func:`encode` wrote as ``kept`` against ``previous`` (the
    table state decoded before it, None for the first); :class:`RecordError`
    naming the place below ``where`` (``turns[3].state.world.bodies[2]``)."""
    try:
        return _decode(kept, previous, where)
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"{where}: malformed kept state ({type(exc).__name__}: "
                          f"{exc})") from None


def _decode(kept: Any, previous: dict[str, Any] | None, where: str) -> dict[str, Any]:
    if not isinstance(kept, dict) or not isinstance(kept.get("world"), dict):
        raise RecordError(f"{where}: a kept state is an object with a 'world'")
    world, before = kept["world"], (previous or {}).get("world")
    old_bodies = {b["name"]: b for b in (before or {}).get("bodies", [])}
    bodies = []
    for i, item in enumerate(world["bodies"]):
        at = f"{where}.world.bodies[{i}]"
        if isinstance(item, str):
            if item not in old_bodies:
                raise RecordError(f"{at}: {item!r} is not a body of the state kept before")
            bodies.append(copy.deepcopy(old_bodies[item]))
            continue
        values = unpack(item["values"], BODY_VALUES, f"{at}.values")
        body = {"name": str(item["name"]), "part": str(item["part"]),
                "static": bool(item["static"])}
        start = 0
        for key, n in _BODY_KEYS:
            body[key], start = values[start:start + n], start + n
        bodies.append(body)
    old_welds = (before or {}).get("welds")
    old_pairs = dict(_pairs(old_welds["contacts"] if old_welds else []))
    contacts = []
    for i, item in enumerate(world["contacts"]):
        at = f"{where}.world.contacts[{i}]"
        if not isinstance(item, list) or len(item) not in (2, 3):
            raise RecordError(f"{at}: must be [body_a, body_b] or [body_a, body_b, values]")
        pair = (str(item[0]), str(item[1]))
        if len(item) == 2:
            if pair not in old_pairs:
                raise RecordError(f"{at}: the state kept before has no contacts of {pair}")
            contacts.extend(copy.deepcopy(old_pairs[pair]))
            continue
        values = unpack(item[2], -CONTACT_VALUES, f"{at}[2]")
        for k in range(0, len(values), CONTACT_VALUES):
            ct: dict[str, Any] = {"body_a": pair[0], "body_b": pair[1]}
            start = k
            for key, n in _CONTACT_KEYS:
                ct[key], start = values[start:start + n], start + n
            ct["distance"] = values[start]
            contacts.append(ct)
    if "welded" in world:
        welded = [str(n) for n in world["welded"]]
    elif old_welds is not None:
        welded = list(old_welds["welded"])
    else:
        raise RecordError(f"{where}.world: missing field 'welded'")
    if "rng" in kept:
        rng = kept["rng"]
    elif previous is not None:
        rng = copy.deepcopy(previous["rng"])
    else:
        raise RecordError(f"{where}: missing field 'rng'")
    game_state = copy.deepcopy((previous or {}).get("game_state", {}))
    if not isinstance(kept["game_state"], dict):
        raise RecordError(f"{where}.game_state: must be an object")
    game_state.update(copy.deepcopy(kept["game_state"]))
    if not isinstance(kept["turn"], int) or isinstance(kept["turn"], bool):
        raise RecordError(f"{where}.turn: must be an integer")
    time = world["time"]
    if not isinstance(time, (int, float)) or isinstance(time, bool):
        raise RecordError(f"{where}.world.time: must be a number")
    return {"turn": kept["turn"], "rng": rng, "game_state": game_state,
            "world": {"time": time, "bodies": bodies,
                      "welds": {"welded": welded, "contacts": contacts}}}


__all__ = ["BODY_VALUES", "CONTACT_VALUES", "decode", "encode", "pack", "unpack"]
