"""Reading one value of a scene's ``[rules]`` table, checked, for every game's rules
parser: a missing key, a wrong type or a value out of range is one
:class:`~balance3d.scene.SceneError` naming the file and the key."""
from __future__ import annotations

from typing import Any

from balance3d.fields import FieldError, Spec, check
from balance3d.scene import Scene


def rule_value(scene: Scene, key: str, kind: type, default: Any = ..., *,
               minimum: float = 0, exclusive: bool = True) -> Any:
    """``scene.rules[key]`` as ``kind``, at least ``minimum`` (more than it when
    ``exclusive``); ``default`` when the key is absent (required when no default)."""
    if key not in scene.rules:
        if default is ...:
            raise scene.error(f"rules.{key}", "missing")
        return default
    try:
        return check(scene.rules[key], Spec(key, kind, minimum=minimum, exclusive=exclusive),
                     f"rules.{key}")
    except FieldError as exc:
        raise scene.error(exc.where, exc.reason) from None
