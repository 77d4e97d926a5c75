"""Words every game's refusals share (no Panda3D): the reasons the game layer
gives for any game (a running turn, the game's end, a malformed action), and the
fallback for a reason without its rule as data.  Each game's ``text`` module words
its own rules and asks :func:`common_refusal` for these."""
from __future__ import annotations

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


def join_names(names: list[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["COMMON", "MM", "capital", "common_refusal", "height_refusal", "join_names"]
