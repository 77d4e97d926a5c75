"""What the window says about Tri-Ba-Lance: seat lines, prompts, labels and verdicts
(no Panda3D).  Every number shown is read from the state or the verdict, never
worked out here."""
from __future__ import annotations

from balance3d.games.base import Action, Pass, State, Verdict, action_to_dict
from balance3d.games.tribalance.rules import piece_weight
from balance3d.games.tribalance.verdicts import TribalancePassVerdict, TribalanceVerdict
from balance3d.record import describe_action

#: Words for a corner or side of the plate by its index (the judge's numbering:
#: corner 0 on +y, counter-clockwise seen from above; side i joins corners i, i+1).
CORNER_NAMES = ("back corner", "front-left corner", "front-right corner")
SIDE_NAMES = ("back-left side", "front side", "back-right side")


def _count(n: int, word: str) -> str:
    """``1 point``, ``3 points``, ``-2 points``."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def contact_name(contact: dict) -> str:
    """``"corner 0 (back corner)"``: a verdict's frame contact in words."""
    names = CORNER_NAMES if contact["kind"] == "corner" else SIDE_NAMES
    return f"{contact['kind']} {contact['index']} ({names[contact['index']]})"


class TribalanceText:
    """Tri-Ba-Lance's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  12 points  9 pieces left (weight 27)``, with ``out`` for a seat
        that is out."""
        hand = state.hand(seat)
        line = (f"{state.players[seat].name}  {_count(state.scores[seat], 'point')}  "
                f"{_count(len(hand), 'piece')} left (weight "
                f"{sum(piece_weight(p) for p in hand)})")
        return line + "  out" if seat in state.out else line

    def prompt(self, state: State) -> str:
        """What the current player is asked for now; the game-over line at the end."""
        if state.is_over:
            over = [e.text for e in state.events if e.kind == "end"]
            return over[-1] if over else "game over"
        name = state.players[state.current_player].name
        free = len(state.free_fields())
        return (f"{name}: place a piece on a free field ({free} free) without putting "
                f"the plate on the frame, or pass (and be out)")

    def decision_label(self, state: State, action: Action) -> str:
        """Button text for a decision: "Pass (be out)", else the action described."""
        if isinstance(action, Pass):
            return "Pass (be out)"
        return describe_action(action_to_dict(action))

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """The verdict's summary, then: valid or not, the tilt, where the plate rests
        on the frame, the pieces that slid off and went back, the time cap."""
        lines = [verdict.summary]
        if isinstance(verdict, TribalanceVerdict):
            tilt = (f"the plate tilts {verdict.tilt_deg:.2f} degrees, down towards "
                    f"{verdict.tilt_direction_deg:.0f} degrees")
            if verdict.valid:
                lines.append(f"valid: {tilt}, clear of the frame; "
                             f"{_count(verdict.points, 'point')}")
            else:
                where = ", ".join(contact_name(c) for c in verdict.frame_contacts)
                lines.append(f"invalid: {tilt} and rests on the frame at {where}")
            lines.extend(f"{item['piece']} slid off the plate" for item in verdict.slid_off)
            if verdict.returned:
                lines.append("back to their owners: " + ", ".join(verdict.returned))
            if verdict.out:
                lines.append("the player is out")
            if verdict.settle_timed_out:
                lines.append(f"the settle hit its time cap ({verdict.settle_time:.1f} s)")
        elif isinstance(verdict, TribalancePassVerdict):
            lines.append("scores: " + ", ".join(str(s) for s in verdict.scores))
        return lines

    def confirm(self, state: State, action: Action) -> str | None:
        """A pass puts the player out for the rest of the game: the question asked
        before it is played; None for any other action."""
        if isinstance(action, Pass):
            name = state.players[state.current_player].name
            return f"{name}: pass and be out for the rest of this game?"
        return None


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TribalanceText()

__all__ = ["CORNER_NAMES", "SIDE_NAMES", "TEXT", "TribalanceText", "contact_name"]
