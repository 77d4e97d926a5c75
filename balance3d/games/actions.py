"""Actions: the typed moves every game takes (a registry of frozen dataclasses by
type name), their JSON form and its validation."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from balance3d.fields import FieldError, Spec, check, check_object, short
from balance3d.games.errors import GameError, RecordError

ACTION_TYPES: dict[str, type] = {}


def action_type(name: str):
    """Class decorator: register a frozen dataclass as the action type ``name``."""
    def register(cls):
        if name in ACTION_TYPES:
            raise ValueError(f"action type {name!r} registered twice")
        cls.type = name
        ACTION_TYPES[name] = cls
        return cls
    return register


@action_type("drop")
@dataclass(frozen=True)
class Drop:
    """Release ``piece`` at rest (zero velocity, touching nothing) above the table.

    x, y : m, world position of the centre of the piece's axis-aligned bounding box
        at release.
    height : m, clearance between the piece's lowest point and the highest surface
        beneath its footprint at release (0 = just touching; must be positive).
    yaw : rad, rotation about the vertical axis, applied after ``pose``.
    pose : "flat" (the piece's thinnest dimension vertical), "edge" (its middle
        dimension vertical) or "upright" (its longest dimension vertical); the
        dimensions are those of the piece's design frame.
    """

    piece: str
    x: float
    y: float
    height: float
    yaw: float = 0.0
    pose: str = "flat"


@action_type("place")
@dataclass(frozen=True)
class Place:
    """Lower ``piece`` onto the numbered placement ``field`` (index into the
    scene's field list) until it rests, not thrown (Tri-Ba-Lance)."""

    piece: str
    field: int


@action_type("pass")
@dataclass(frozen=True)
class Pass:
    """Decline: skip an optional step, or (where the rules allow) the turn."""


@action_type("choose")
@dataclass(frozen=True)
class Choose:
    """A discrete decision named by ``what`` ("buy", "size", "bid", "target", ...)
    with its ``value``.  Each game documents the decisions it asks for."""

    what: str
    value: Any = None


Action = Drop | Place | Pass | Choose

#: The values a field typed ``Any`` (``Choose.value``) may hold: one JSON scalar.
SCALAR_SPEC_KINDS = (str, int, float, bool, type(None))

POSES = ("flat", "edge", "upright")


def action_to_dict(action: Any) -> dict[str, Any]:
    """JSON-ready dict of ``action``: ``{"type": ..., fields...}``."""
    out = {"type": getattr(action, "type", type(action).__name__)}
    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        out.update(dataclasses.asdict(action))
    return out


def action_specs(cls: type) -> tuple[Spec, ...]:
    """The field specs of the action class ``cls``, from its dataclass fields (a
    field with a default is optional; ``Any`` takes any value)."""
    kinds = {"str": str, "int": int, "float": float}
    return tuple(Spec(f.name, kinds.get(str(f.type), object),
                      required=f.default is dataclasses.MISSING)
                 for f in dataclasses.fields(cls))


def checked_action(action: Any) -> Action:
    """``action`` with each field checked against the type of its dataclass field
    (``str``, ``int``, ``float`` finite, ``Any`` one JSON scalar: a string, a finite
    number, true, false or null); numpy numbers count as numbers and come back as
    Python ones, whole numbers in ``float`` fields as floats.  Raises
    :class:`~balance3d.fields.FieldError` naming the field when ``action`` is not a
    registered action or a field does not fit."""
    cls = type(action)
    if ACTION_TYPES.get(getattr(cls, "type", None)) is not cls:
        raise FieldError("action", f"not an action: {short(action)} "
                                   f"(known: {', '.join(sorted(ACTION_TYPES))})")
    values = {}
    for spec in action_specs(cls):
        if spec.kind is object:
            spec = Spec(spec.name, SCALAR_SPEC_KINDS, spec.required)
        values[spec.name] = check(getattr(action, spec.name), spec, spec.name)
    return cls(**values)


def action_from_dict(data: Any, where: str = "action") -> Action:
    """Inverse of :func:`action_to_dict`; :class:`RecordError` names ``where`` and the
    field that is wrong (``turns[3].action: unknown field 'foo'``)."""
    try:
        if not isinstance(data, dict):
            raise FieldError(where, f"an action must be an object, got {short(data)}")
        if "type" not in data:
            raise FieldError(where, "missing field 'type'")
        cls = ACTION_TYPES.get(data["type"]) if isinstance(data["type"], str) else None
        if cls is None:
            raise FieldError(f"{where}.type", f"unknown action type {short(data['type'])} "
                                              f"(known: {', '.join(sorted(ACTION_TYPES))})")
        body = {k: v for k, v in data.items() if k != "type"}
        return cls(**check_object(body, action_specs(cls), where))
    except FieldError as exc:
        raise RecordError(str(exc)) from None


class IllegalActionError(GameError):
    """An action refused before any physics ran; the state is unchanged.
    ``reason`` says why, a complete sentence; ``code`` and ``data`` are the same
    reason as data (see :class:`~balance3d.games.errors.Refusal`: "" and {} when the
    reason carries none)."""

    def __init__(self, action: Action, reason: str) -> None:
        super().__init__(f"illegal action {action_to_dict(action)}: {reason}")
        self.action = action
        self.reason = reason
        self.code: str = getattr(reason, "code", "")
        self.data: dict = dict(getattr(reason, "data", {}))
