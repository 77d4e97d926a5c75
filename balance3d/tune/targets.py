"""A stated behaviour, as a search aims at it: ``"tipped = 0.5 and rest_x < 0.1"``.

A target is one or more terms joined by ``and``; each term is ``OUTCOME OP VALUE``
with OP one of ``=``, ``<``, ``<=``, ``>``, ``>=`` and VALUE a number.  OUTCOME is
one of the experiment's outcomes: a rate (the share of runs in which it held) or a
mean.  A trial's *loss* is the sum over the terms of (miss / scale)^2, where the miss
is how far the observed rate or mean lies from VALUE (for ``=``) or beyond it (for
the inequalities: 0 when it holds), and the scale is 1 for a rate and |VALUE| for a
mean (1 when VALUE is 0), so that terms of different units weigh alike.  A search
minimises the loss; a loss of 0 meets every term exactly.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Mapping

#: Comparison operators of a term, longest first (so ``<=`` is not read as ``<``).
OPERATORS = ("<=", ">=", "=", "<", ">")
_TERM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|=|<|>)\s*(\S+)\s*$")


class TargetError(ValueError):
    """A target that cannot be read: one line naming the term."""


@dataclass(frozen=True)
class Term:
    """One term: the observed ``outcome`` compared by ``op`` with ``value``."""

    outcome: str
    op: str
    value: float
    scale: float

    def miss(self, observed: float) -> float:
        """How far ``observed`` lies from the term's value (``=``) or beyond it (an
        inequality), in the outcome's unit; 0 when an inequality holds."""
        if self.op == "=":
            return observed - self.value
        if self.op in ("<", "<="):
            return max(0.0, observed - self.value)
        return max(0.0, self.value - observed)

    def holds(self, observed: float) -> bool:
        """An inequality term holds at ``observed``."""
        return {"<": observed < self.value,
                "<=": observed <= self.value, ">": observed > self.value,
                ">=": observed >= self.value}[self.op]

    def text(self) -> str:
        return f"{self.outcome} {self.op} {self.value:g}"


def parse_target(text: str, outcomes: Mapping[str, str]) -> tuple[Term, ...]:
    """The terms of ``text`` (see the module); ``outcomes``: name -> kind."""
    if not isinstance(text, str) or not text.strip():
        raise TargetError("must be a text such as \"tipped = 0.5 and rest_x < 0.1\"")
    terms = []
    for part in re.split(r"\band\b", text):
        match = _TERM.match(part)
        if match is None:
            raise TargetError(f"{part.strip()!r} is not OUTCOME OP VALUE (OP one of "
                              f"{', '.join(OPERATORS)})")
        name, op, number = match.groups()
        if name not in outcomes:
            raise TargetError(f"{part.strip()!r}: no outcome {name!r} (outcomes: "
                              f"{', '.join(outcomes)})")
        try:
            value = float(number)
        except ValueError:
            raise TargetError(f"{part.strip()!r}: {number!r} is not a number") from None
        if not math.isfinite(value):
            raise TargetError(f"{part.strip()!r}: {number!r} is not a finite number")
        if outcomes[name] == "probability" and not 0.0 <= value <= 1.0:
            raise TargetError(f"{part.strip()!r}: a rate lies in 0..1")
        scale = 1.0 if outcomes[name] == "probability" or value == 0 else abs(value)
        terms.append(Term(name, op, value, scale))
    return tuple(terms)


def loss(terms: tuple[Term, ...], observed: Mapping[str, float]) -> float:
    """The sum over ``terms`` of (miss / scale)^2 at the ``observed`` rates and means."""
    return float(sum((t.miss(observed[t.outcome]) / t.scale) ** 2 for t in terms))
