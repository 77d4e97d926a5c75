"""Checking a record turn by turn: each turn re-judged from the state kept before it.

:func:`verify_turns` restores the table the record kept before each turn (the
start, or the state after the previous turn), plays the recorded action there and
compares what it gives with what the record holds.  A difference therefore stays at
the turn where it happened: the next turn starts again from the record's own state.

Each turn gets one of three results (:data:`IDENTICAL`, :data:`WITHIN`,
:data:`DIFFERENT`):

- identical: the verdict, the events and the kept state after the turn are the
  same, bit for bit;
- within tolerance: every verdict number a game declares a length, an angle or a
  time differs by at most :data:`TOLERANCES` (and nothing else differs), or only
  the numbers of the state after the turn (World poses, welds) differ in their bits;
- different: anything else differs: a verdict number beyond its tolerance, any
  number without a declared unit, a coin, a count, a yes/no, a name, the type of a
  value (``1``, ``1.0`` and ``true`` are three values), an event, the turn counter,
  the generator or a non-number of the game's state after it, or the recorded
  action is now illegal.

Units are declared by each game on its verdict dataclasses, as field metadata
(``field(metadata={"unit": "m"})``; :data:`UNITS` lists them) and read here from
the verdict the game gives; every float inside such a field has that unit.  The
outcome's scores have the unit :attr:`Game.score_unit
<balance3d.games.game.Game.score_unit>` (None: compared exactly).  The setup is
checked too: a fresh game of the record's seed and seats must log the recorded
setup events and give the kept start state (its numbers only in their bits).
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from typing import Any

from balance3d.fields import short
from balance3d.games import get_game
from balance3d.games.base import IllegalActionError, action_to_dict
from balance3d.play import start_game
from balance3d.record import Record
from balance3d.scene import Scene

#: mm, how far a length may differ and still agree.
LENGTH_TOLERANCE_MM = 0.1
#: degrees, how far an angle may differ and still agree.
ANGLE_TOLERANCE_DEG = 0.05
#: s, how far a time may differ and still agree.
TIME_TOLERANCE_S = 0.05
#: Declared unit -> (factor to the unit shown, unit shown, tolerance in that unit).
UNITS: dict[str, tuple[float, str, float]] = {
    "m": (1000.0, "mm", LENGTH_TOLERANCE_MM),
    "deg": (1.0, "deg", ANGLE_TOLERANCE_DEG),
    "rad": (180.0 / math.pi, "deg", ANGLE_TOLERANCE_DEG),
    "s": (1.0, "s", TIME_TOLERANCE_S),
}
#: The tolerances in words, for messages and the README.
TOLERANCES = (f"lengths {LENGTH_TOLERANCE_MM} mm, angles {ANGLE_TOLERANCE_DEG} deg, "
              f"times {TIME_TOLERANCE_S} s")

IDENTICAL, WITHIN, DIFFERENT = "identical", "within tolerance", "different"


@dataclass(frozen=True)
class Finding:
    """One place where a re-judged turn differs: ``where`` (``turns[3].verdict.x``),
    ``text`` saying how, whether it is ``within`` tolerance, and for a number with
    a unit its difference relative to the tolerance (``ratio``) and in words
    (``amount``, ``"0.034 s"``)."""

    where: str
    text: str
    within: bool
    ratio: float = 0.0
    amount: str = ""


@dataclass
class TurnCheck:
    """The result of re-judging ``turns[index]``: :data:`IDENTICAL`,
    :data:`WITHIN` or :data:`DIFFERENT`, and the ``findings`` behind it."""

    index: int
    findings: list[Finding] = field(default_factory=list)

    @property
    def result(self) -> str:
        if any(not f.within for f in self.findings):
            return DIFFERENT
        return WITHIN if self.findings else IDENTICAL


def _bits(a: Any, b: Any) -> bool:
    """True when the JSON values are written the same (type and every bit)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def compare(recorded: Any, rejudged: Any, where: str, unit: str | None,
            out: list[Finding]) -> None:
    """Append to ``out`` where ``rejudged`` differs from ``recorded``: floats of a
    declared ``unit`` (:data:`UNITS`) within its tolerance as within, everything
    else exactly (type included)."""
    if isinstance(recorded, dict) and isinstance(rejudged, dict):
        for key in sorted(set(recorded) | set(rejudged)):
            sub = f"{where}.{key}"
            if key not in rejudged:
                out.append(Finding(sub, f"recorded {short(recorded[key])}, missing when "
                                        f"re-judged", False))
            elif key not in recorded:
                out.append(Finding(sub, f"not recorded, re-judged {short(rejudged[key])}",
                                   False))
            else:
                compare(recorded[key], rejudged[key], sub, unit, out)
    elif isinstance(recorded, list) and isinstance(rejudged, list):
        for i, (a, b) in enumerate(zip(recorded, rejudged)):
            compare(a, b, f"{where}[{i}]", unit, out)
        if len(recorded) != len(rejudged):
            out.append(Finding(where, f"recorded {len(recorded)} entries, re-judged "
                                      f"{len(rejudged)}", False))
    elif _bits(recorded, rejudged):
        return
    elif unit is not None and type(recorded) is float and type(rejudged) is float:
        factor, shown, tolerance = UNITS[unit]
        diff = abs(recorded - rejudged) * factor
        amount = f"{diff:.3g} {shown}"
        out.append(Finding(where, f"recorded {recorded!r}, re-judged {rejudged!r} "
                                  f"({amount})", diff <= tolerance, diff / tolerance, amount))
    else:
        out.append(Finding(where, f"recorded {short(recorded)}, re-judged {short(rejudged)}",
                           False))


def compare_fields(recorded: dict[str, Any], rejudged: dict[str, Any], where: str,
                   units: dict[str, str], out: list[Finding]) -> None:
    """:func:`compare` of two objects field by field, each field with its unit in
    ``units`` (none: exactly); a field only one of them has differs."""
    compare({k: v for k, v in recorded.items() if k not in rejudged},
            {k: v for k, v in rejudged.items() if k not in recorded}, where, None, out)
    for key in sorted(set(recorded) & set(rejudged)):
        compare(recorded[key], rejudged[key], f"{where}.{key}", units.get(key), out)


def verdict_units(verdict: Any) -> dict[str, str]:
    """Field name -> declared unit of the verdict dataclass ``verdict``."""
    units = {}
    for f in dataclasses.fields(verdict):
        unit = f.metadata.get("unit")
        if unit is not None:
            if unit not in UNITS:
                raise ValueError(f"{type(verdict).__name__}.{f.name}: unknown unit {unit!r} "
                                 f"(known: {', '.join(UNITS)})")
            units[f.name] = unit
    return units


def _numbers_only(recorded: Any, rejudged: Any) -> bool:
    """True when the two values differ only in the values of their floats."""
    if isinstance(recorded, dict) and isinstance(rejudged, dict):
        return recorded.keys() == rejudged.keys() and all(
            _numbers_only(recorded[k], rejudged[k]) for k in recorded)
    if isinstance(recorded, list) and isinstance(rejudged, list):
        return len(recorded) == len(rejudged) and all(
            _numbers_only(a, b) for a, b in zip(recorded, rejudged))
    return _bits(recorded, rejudged) or (type(recorded) is float and type(rejudged) is float)


def check_turn(record: Record, scene: Scene, index: int, before: dict[str, Any],
               after: dict[str, Any]) -> tuple[TurnCheck, Any]:
    """Re-judge ``turns[index]`` of ``record`` from the table state ``before`` and
    compare it with the recorded turn and the recorded table state ``after``.
    Returns the check and the state after re-judging (None when the action is now
    illegal)."""
    turn = record.data["turns"][index]
    check = TurnCheck(index)
    where = f"turns[{index}]"
    events = record.events(index)
    state = get_game(record.game).state_class.from_table(
        scene, list(record.players), record.seed, record.variant, before,
        record.history(index), events)
    action = record.actions[index]
    try:
        verdict = state.apply(action)
    except IllegalActionError as exc:
        check.findings.append(Finding(where, f"{action_to_dict(action)['type']} by seat "
                                             f"{turn['player']} is now illegal: {exc.reason}",
                                      False))
        return check, None
    rejudged = json.loads(json.dumps(verdict.to_dict()))
    units = verdict_units(verdict)
    compare_fields(turn["verdict"], rejudged, f"{where}.verdict", units, check.findings)
    new_events = json.loads(json.dumps([e.to_dict() for e in state.events[len(events):]]))
    compare(turn["events"], new_events, f"{where}.events", None, check.findings)
    compare_table(after, state, f"{where}.state", check.findings)
    return check, state


def compare_table(kept: dict[str, Any], state: Any, where: str, out: list[Finding]) -> None:
    """Append to ``out`` where the table of ``state`` differs from the ``kept`` one:
    the turn counter, the generator and the non-numbers of the game's state exactly;
    the numbers of the World and the game's state only in their bits (within)."""
    table = json.loads(json.dumps(state.table_dict()))
    for key in ("turn", "rng", "game_state", "world"):
        if _bits(kept[key], table[key]):
            continue
        if key in ("turn", "rng") or not _numbers_only(kept[key], table[key]):
            compare(kept[key], table[key], f"{where}.{key}", None, out)
        else:
            out.append(Finding(f"{where}.{key}", "the kept state differs in the bits of its "
                                                 "numbers", True))


def check_setup(record: Record, scene: Scene, start: dict[str, Any]) -> list[Finding]:
    """Where a fresh game of ``record``'s game, seed and seats differs from the
    recorded setup events and the kept ``start`` state."""
    state = start_game(record, scene)
    out: list[Finding] = []
    compare(record.data["setup"], json.loads(json.dumps([e.to_dict() for e in state.events])),
            "setup", None, out)
    compare_table(start, state, "start", out)
    return out


def check_outcome(record: Record, state: Any) -> list[Finding]:
    """Where the outcome of ``state`` (the game after its last turn re-judged)
    differs from the recorded one: the scores within the tolerance of the game's
    score unit, the rest exactly."""
    outcome = state.outcome if state is not None else None
    rejudged = outcome.to_dict() if outcome is not None else None
    rejudged = json.loads(json.dumps(rejudged))
    recorded = record.data["outcome"]
    out: list[Finding] = []
    if isinstance(recorded, dict) and isinstance(rejudged, dict):
        unit = get_game(record.game).score_unit
        compare_fields(recorded, rejudged, "outcome", {} if unit is None else {"scores": unit},
                       out)
    else:
        compare(recorded, rejudged, "outcome", None, out)
    return out


@dataclass
class Report:
    """Every turn's check, and the findings of the setup and of the outcome."""

    turns: list[TurnCheck]
    outcome: list[Finding]
    setup: list[Finding] = field(default_factory=list)

    @property
    def _others(self) -> list[Finding]:
        return self.setup + self.outcome

    def count(self, result: str) -> int:
        return sum(1 for t in self.turns if t.result == result)

    @property
    def failed(self) -> bool:
        """A turn, the setup or the outcome differs (exit status 1)."""
        return self.count(DIFFERENT) > 0 or any(not f.within for f in self._others)

    @property
    def identical(self) -> bool:
        """Every turn, the setup and the outcome identical, bit for bit."""
        return self.count(IDENTICAL) == len(self.turns) and not self._others

    def lines(self) -> list[str]:
        """A line per finding of the setup, of every turn that is not identical and of
        the outcome."""
        out = [f"{WITHIN if f.within else DIFFERENT}: {f.where}: {f.text}" for f in self.setup]
        for t in self.turns:
            for f in t.findings:
                out.append(f"{WITHIN if f.within else DIFFERENT}: {f.where}: {f.text}")
        out += [f"{WITHIN if f.within else DIFFERENT}: {f.where}: {f.text}"
                for f in self.outcome]
        return out

    def summary(self) -> str:
        """``verify: 53 turns: 50 identical, 3 within tolerance (largest: ...), 0
        different`` (and the setup or the outcome when it differs)."""
        within = [f for t in self.turns for f in t.findings if f.within] + \
            [f for f in self._others if f.within]
        largest = ""
        if within:
            top = max(within, key=lambda f: f.ratio)
            largest = f" (largest: {top.where} {top.amount})" if top.amount \
                else f" (the bits of {top.where})"
        text = (f"verify: {len(self.turns)} turns: {self.count(IDENTICAL)} identical, "
                f"{self.count(WITHIN)} {WITHIN}{largest}, {self.count(DIFFERENT)} {DIFFERENT}")
        if any(not f.within for f in self.setup):
            text += "; the setup differs"
        if any(not f.within for f in self.outcome):
            text += "; the outcome differs"
        return text


def verify_turns(record: Record, scene: Scene) -> Report:
    """Re-judge every turn of ``record`` (which keeps its states) in ``scene`` from
    the state kept before it, the outcome after the last one, and the setup (a
    fresh game of the same seed and seats against the kept start)."""
    tables = record.tables()
    checks, state = [], None
    for index in range(len(record.actions)):
        check, state = check_turn(record, scene, index, tables[index], tables[index + 1])
        checks.append(check)
    if not record.actions:
        state = get_game(record.game).state_class.from_table(
            scene, list(record.players), record.seed, record.variant, tables[0], [],
            record.events(0))
    return Report(checks, check_outcome(record, state), check_setup(record, scene, tables[0]))


__all__ = ["ANGLE_TOLERANCE_DEG", "DIFFERENT", "Finding", "IDENTICAL", "LENGTH_TOLERANCE_MM",
           "Report", "TIME_TOLERANCE_S", "TOLERANCES", "TurnCheck", "UNITS", "WITHIN",
           "check_outcome", "check_setup", "check_turn", "compare_table", "compare", "compare_fields", "verdict_units",
           "verify_turns"]
