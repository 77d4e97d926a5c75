"""Words every game's refusals share (no Panda3D): the reasons the game layer
gives for any game (a running turn, the game's end, a malformed action), and the
fallback for a reason without its rule as data.  Each game's ``text`` module words
its own rules and asks :func:`common_refusal` for these; and the result of a
finished game in a player's words (:func:`result_words`)."""
from __future__ import annotations

from typing import Callable

from balance3d.commands.report import ranked_against_scores, ranked_by_elimination

#: What the window says for the reasons every game gives, by their code.
COMMON = {
    "running": "Wait: the last move is still being played out.",
    "over": "The game is over: start a new game or load a saved one.",
    "malformed": "The table cannot make that move: put the piece back (Esc) and try again.",
    "no_such_action": "This game has no such move: use your tray or the buttons.",
}
#: m -> mm, for release heights.
MM = 1000.0


def common_refusal(reason: str) -> str:
    """The words for ``reason`` when its code is one every game shares, else the
    sentence itself with a capital and a full stop (a reason without data)."""
    code = getattr(reason, "code", "")
    if code in COMMON:
        return COMMON[code]
    text = str(reason).strip()
    return (capital(text) + ("" if text.endswith(".") else ".")) if text else ""


def height_refusal(reason: str) -> str:
    """A release height out of the game's range, in mm, with what to do."""
    data = reason.data
    if data["height"] <= 0.0:
        return "Raise the piece a little (W): it must start above the surface."
    return (f"Lower the piece (S): it may start at most {data['most'] * MM:.0f} mm above "
            f"the surface.")


def capital(text: str) -> str:
    """``text`` with its first letter a capital (the rest as it is)."""
    return text[:1].upper() + text[1:]


def count(n: int, word: str) -> str:
    """``1 coin``, ``3 coins``, ``-1 point``, ``-2 points``, ``0 pieces``."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


#: Numbers as words, for the few a sentence counts.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten")


def number_word(n: int) -> str:
    """``"two"`` for 2; digits from 11 on."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def join_names(names: list[str], word: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` (``word`` "or": ``"a, b or c"``)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def result_words(state, score: Callable[[int], str], unit: str) -> list[str]:
    """The result of the finished game ``state`` as a player reads it: who won (and
    why, when the others went out); what the ranking follows when it is not the
    order of the scores (``unit``: the scores' word, "coins"), else who went out and
    when; then the ranking with each seat's ``score(seat)`` ("4 coins")."""
    outcome, names = state.outcome, [p.name for p in state.players]
    out = [e for e in state.events if e.kind == "eliminated" and e.player is not None]
    winners = outcome.winners
    if len(names) == 1:
        return [f"{names[0]} scores {score(0)}"] + [capital(e.text) for e in out[-1:]]
    if len(winners) == 1:
        last = len(out) == len(names) - 1 and winners[0] not in {e.player for e in out}
        lines = [f"{names[winners[0]]} wins" + (", the last player left" if last else "")]
    else:
        lines = ["Tied first: " + join_names([names[s] for s in winners])]
    by_elimination = ranked_by_elimination(outcome.ranks, [e.player for e in out])
    if ranked_against_scores(outcome.ranks, outcome.scores):
        lines.append(f"Ranked by who went out last, not by {unit}:" if by_elimination
                     else f"Ranked by the rules, not by {unit}:")
    elif out:
        lines.append("Out: " + ", ".join(f"{names[e.player]} after turn {e.turn}"
                                         for e in out))
    order = sorted(range(len(names)), key=lambda s: (outcome.ranks[s], s))
    lines.extend(f"  {outcome.ranks[s]}. {names[s]}  {score(s)}" for s in order)
    return lines


__all__ = ["COMMON", "MM", "NUMBER_WORDS", "capital", "common_refusal", "count",
           "height_refusal", "join_names", "number_word", "result_words"]
