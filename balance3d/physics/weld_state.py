"""What a snapshot keeps of the welds, and its JSON form: the welded bodies and the
stored contacts (patch corners, normals and statics forces) of their pairs."""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class WeldContact:
    """A contact of a welded pair: ``body_a`` is welded, ``body_b`` welded or static.

    position : (3,) m, a corner of the contact patch.  normal : (3,) unit vector
    from ``body_b`` towards ``body_a``.  force : (3,) N on ``body_a`` (latest statics
    solution).  distance : m, the pair's signed separation when it was welded (the
    deepest point Bullet reported)."""

    body_a: str
    body_b: str
    position: tuple[float, float, float]
    normal: tuple[float, float, float]
    force: tuple[float, float, float]
    distance: float = 0.0


@dataclass(frozen=True)
class WeldState:
    """What a snapshot keeps of the welds: the ``welded`` body names (creation order)
    and the stored ``contacts`` of welded pairs (each pair's contacts together, the
    pairs in the order they were stored), enough to weld the same bodies again with
    the same contact patches and forces and no statics solved.  Empty: nothing
    welded (a restore then welds what rests, from scratch)."""

    welded: tuple[str, ...] = ()
    contacts: tuple[WeldContact, ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready form (floats kept exactly: JSON writes their shortest repr)."""
        return {"welded": list(self.welded), "contacts": [
            {"body_a": ct.body_a, "body_b": ct.body_b, "position": list(ct.position),
             "normal": list(ct.normal), "force": list(ct.force), "distance": ct.distance}
            for ct in self.contacts]}

    @classmethod
    def from_dict(cls, data: dict) -> "WeldState":
        """Inverse of :meth:`to_dict`; a :class:`ValueError` (or the ``KeyError`` /
        ``TypeError`` of a missing or mistyped field) on malformed data."""
        def vector(values, field: str) -> tuple[float, float, float]:
            out = tuple(float(v) for v in values)
            if len(out) != 3 or not all(math.isfinite(v) for v in out):
                raise ValueError(f"welds contact {field} must be 3 finite numbers")
            return out

        contacts = tuple(
            WeldContact(str(ct["body_a"]), str(ct["body_b"]), vector(ct["position"], "position"),
                        vector(ct["normal"], "normal"), vector(ct["force"], "force"),
                        float(ct["distance"]))
            for ct in data["contacts"])
        return cls(tuple(str(n) for n in data["welded"]), contacts)
