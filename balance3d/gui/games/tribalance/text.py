"""What the window says about Tri-Ba-Lance: seat lines, prompts, labels, verdicts
and refusals (no Panda3D).  Every number shown is read from the state or the
verdict, never worked out here.  Pieces are named by owner and weight ("your
weight-2 piece"), fields by their painted number and place ("the 3 on Ann's
side", :mod:`.places`), tilts by the corner or side they go down towards."""
from __future__ import annotations

from balance3d.games.base import Action, Pass, State, Verdict, action_to_dict
from balance3d.games.tribalance.rules import piece_owner, piece_weight
from balance3d.games.tribalance.verdicts import TribalancePassVerdict, TribalanceVerdict
from balance3d.gui.games.tribalance.places import (CORNER_NAMES, SIDE_NAMES, field_name,
                                                   seat_names, towards)
from balance3d.gui.games.words import (capital, common_refusal, count, join_names,
                                       result_words)
from balance3d.record import describe_action



def contact_name(contact: dict) -> str:
    """``"the back corner"``: a verdict's frame contact in words."""
    names = CORNER_NAMES if contact["kind"] == "corner" else SIDE_NAMES
    return f"the {names[contact['index']]}"


def piece_words(names: list[str], piece: str, me: int | None = None) -> str:
    """``"your weight-2 piece"`` (``me`` owns it), ``"Bob's weight-5 piece"``."""
    owner = piece_owner(piece)
    whose = "your" if owner == me else f"{names[owner]}'s"
    return f"{whose} weight-{piece_weight(piece)} piece"


def _default_names(players: int) -> list[str]:
    """``Player 1``, ``Player 2``, ...: the seats when only their count is known."""
    return [f"Player {s + 1}" for s in range(players)]


class TribalanceText:
    """Tri-Ba-Lance's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  12 points  9 pieces left (weight 27)``, with ``out`` for a seat
        that is out."""
        hand = state.hand(seat)
        line = (f"{state.players[seat].name}  {count(state.scores[seat], 'point')}  "
                f"{count(len(hand), 'piece')} left (weight "
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
        """The verdict's summary (a placement's in words: the piece by its owner and
        weight, the field by its painted number), then: valid or not, the tilt and
        the corner or side it goes down towards, where the plate rests on the frame,
        the pieces that slid off and went back, the time cap.  A verdict knows only
        how many seats play: they are named "Player 1", "Player 2", ..."""
        lines = [verdict.summary]
        if isinstance(verdict, TribalanceVerdict):
            names = _default_names(len(verdict.scores))
            lines = [f"{piece_words(names, verdict.piece)} on a {verdict.number}: "
                     + (f"valid, +{count(verdict.points, 'point')}" if verdict.valid
                        else "invalid")]
            down = towards(names, verdict.tilt_direction_deg)
            tilt = (f"the plate tilts {verdict.tilt_deg:.2f} degrees, down towards {down}"
                    if verdict.tilt_deg > 0.0 else "the plate lies level")
            if verdict.valid:
                lines.append(f"valid: {tilt}, clear of the frame; "
                             f"{count(verdict.points, 'point')}")
            else:
                where = ", ".join(contact_name(c) for c in verdict.frame_contacts)
                lines.append(f"invalid: {tilt} and rests on the frame at {where}")
            lines.extend(f"{piece_words(names, item['piece'])} slid off the plate"
                         for item in verdict.slid_off)
            if verdict.returned:
                lines.append("back to their owners: " + ", ".join(
                    piece_words(names, p) for p in verdict.returned))
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


    def piece_name(self, state: State, piece: str) -> str:
        """``"your weight-2 piece"``, ``"Bob's weight-5 piece"``."""
        return piece_words(seat_names(state), piece, state.current_player)

    def field_name(self, state: State, field: int) -> str:
        """``"the 3 on Bob's side"``: the painted number and its place."""
        return field_name(state, field)

    def result_lines(self, state: State, record: dict) -> list[str]:
        """The result at the end in a player's words, each seat's points beside
        its rank."""
        return result_words(state, lambda seat: count(int(state.outcome.scores[seat]), "point"),
                            "points")

    def refusal(self, state: State, reason: str) -> str:
        """The game's refusal in a player's words, saying what to do instead."""
        code, data = getattr(reason, "code", ""), getattr(reason, "data", {})
        names = seat_names(state)
        if code == "not_yours":
            what = piece_words(names, data["piece"], data["seat"])
            if data["place"] == "hand":
                return f"That is {what}: pick one of your own pieces from your tray."
            if data["place"] == "plate":
                return (f"That piece already stands on {field_name(state, data['field'])}: "
                        f"pick one from your tray.")
            return "Pick one of your own pieces from your tray."
        if code == "field_taken":
            return (f"{capital(field_name(state, data['field']))} is taken "
                    f"({piece_words(names, data['by'], data['seat'])} stands there): point "
                    f"at a free field.")
        if code == "overlap":
            hits = join_names([piece_words(names, h, data["seat"]) if "w-p" in h
                               else f"the {h}" for h in data["hits"]])
            return (f"On {field_name(state, data['field'])} "
                    f"{piece_words(names, data['piece'], data['seat'])} would touch {hits}: "
                    f"choose another free field.")
        return common_refusal(reason)


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TribalanceText()

__all__ = ["CORNER_NAMES", "SIDE_NAMES", "TEXT", "TribalanceText", "contact_name"]
