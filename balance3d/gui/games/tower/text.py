"""What the window says about Tower: seat lines, prompts, decision labels,
verdicts, refusals and the result (no Panda3D).  Every number shown is read from
the state or the verdict, never worked out here (the seat lines' tower figures
through :mod:`.figures`, which asks the game again only for what moved); heights
are shown in mm, pieces by their shape ("letter L", "logo"), never by ids."""
from __future__ import annotations

import re
from typing import Any

from balance3d.games.base import Action, Choose, State, Verdict, action_to_dict
from balance3d.games.tower.rules import LOGO, TABLE, Phase, piece_part
from balance3d.games.tower.verdicts import TowerChoiceVerdict, TowerDropVerdict
from balance3d.gui.games.tower.figures import tower_figures
from balance3d.gui.games.words import common_refusal, count, height_refusal, join_names
from balance3d.record import describe_action

#: mm per m, for the heights shown.
MM = 1000.0



def _mm(height: float) -> str:
    """``"45.0 mm"``: a height given in m."""
    return f"{height * MM:.1f} mm"


#: A piece's id in a game's sentence ("p4.letter_L.1"), its part the group.
PIECE_ID = re.compile(r"\bp\d+\.(\w+?)\.\d+\b")


def unid(text: str) -> str:
    """``text`` (a sentence of the game's) with every piece id as "a letter L"."""
    return PIECE_ID.sub(lambda m: f"a {m[1].replace('_', ' ')}", text)


def shape_name(piece: str) -> str:
    """``"letter L"``, ``"logo"``: a piece by its part (pieces of one part are
    alike but for their colour)."""
    return piece_part(piece).replace("_", " ")


class TowerText:
    """Tower's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  20 pieces left (10 letters, 10 logos)  tower 45.0 mm, 4 pieces,
        1 vertical``, then ``out``, turns to lose and a pending "vertical" card."""
        hand = state.hand(seat)
        logos = sum(state.rules.shape(piece_part(p)) == LOGO for p in hand)
        height, vertical = tower_figures(state, seat)
        line = (f"{state.players[seat].name}  {count(len(hand), 'piece')} left "
                f"({count(len(hand) - logos, 'letter')}, {count(logos, 'logo')})  "
                f"tower {_mm(height)}, {count(len(state.tower(seat)), 'piece')}, "
                f"{vertical} vertical")
        if seat in state.out:
            line += "  out"
        if state.skips[seat]:
            line += f"  loses {count(state.skips[seat], 'turn')}"
        if state.must_stand_vertically[seat]:
            line += "  next piece vertical"
        return line

    def prompt(self, state: State) -> str:
        """What the current player is asked for now; at the end, the end line and
        the ranking."""
        if state.is_over:
            return f"{self.end_line(state)}; ranking: {self.ranking(state)}"
        task = state.tasks[0]
        players = state.players
        name = players[state.current_player].name
        target = players[task["target"]].name if "target" in task else ""
        phase = state.phase
        if phase == Phase.DROP:
            why = (f"rolled {' / '.join(state.dice)}" if task.get("why") == "roll"
                   else "must play an extra piece")
            line = (f"{name} {why}: drop a {task['shape']} piece on your tower "
                    f"({task['left']} to play), on its top level or the one above")
            if state.must_stand_vertically[state.current_player]:
                line += ("; a penalty card says it must stand vertically (pose edge or "
                         "upright, and still standing once it comes to rest)")
            return line
        if phase == Phase.TARGET:
            return f"{name} rolled 'give penalty': choose the opponent who draws a penalty card"
        if phase == Phase.PENALTY:
            return f"{name}: choose the penalty {target}'s U-DECIDE card stands for"
        if phase == Phase.SHAPE:
            return f"{name}: choose the shape of the extra piece {target} must play"
        return f"{name}: choose the piece to give to {target} (swap to the left)"

    @staticmethod
    def end_line(state: State) -> str:
        """The game's end event ("the game ends: every piece has been played or
        removed")."""
        over = [e.text for e in state.events if e.kind == "end"]
        return over[-1] if over else "game over"

    @staticmethod
    def ranking(state: State) -> str:
        """``1. Ann 62.0 mm (2 vertical), 2. Bob 45.0 mm (0 vertical)``: the seats by
        the outcome's ranks (tied seats share one), with height and vertical pieces
        (the tie-break)."""
        outcome = state.outcome
        order = sorted(range(len(state.players)), key=lambda s: (outcome.ranks[s], s))
        return ", ".join(f"{outcome.ranks[s]}. {state.players[s].name} "
                         f"{_mm(outcome.scores[s])} ({state.vertical_pieces(s)} vertical)"
                         for s in order)

    def decision_label(self, state: State, action: Action) -> str:
        """Button text for one of the Choose actions Tower offers."""
        if not isinstance(action, Choose):
            return describe_action(action_to_dict(action))
        value = action.value
        if action.what == "target":
            return f"Give the penalty to {state.players[value].name}"
        if action.what == "penalty":
            return f"Penalty: {value}"
        if action.what == "shape":
            return f"A {value} piece"
        if action.what == "swap":
            return f"Give your {shape_name(value)}"
        return describe_action(action_to_dict(action))

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """The summary, then for a drop: where it landed or that it fell, the pieces
        that fell and left the game, the knocked towers restored, a vertical card not
        met, a player out, the heights; for a decision: what followed, one line each (the summary joins
        them)."""
        lines = [verdict.summary]
        if isinstance(verdict, TowerDropVerdict):
            piece = shape_name(verdict.piece)
            lines = [f"the {piece} onto level {verdict.level}"]
            if verdict.rests_on_level is not None:
                lines.append(f"the {piece} landed: released onto level {verdict.level}, "
                             f"rests on level {verdict.rests_on_level}")
            else:
                lines.append(f"the {piece} fell (released onto level {verdict.level})")
            if verdict.fallen:
                lines.append("fell: " + ", ".join(shape_name(p) for p in verdict.fallen))
            if verdict.removed:
                lines.append("left the game: " + ", ".join(shape_name(p) for p in verdict.removed))
            for owner, pieces in sorted(verdict.knocked.items()):
                lines.append(f"knocked tower of Player {int(owner) + 1} "
                             f"({', '.join(shape_name(p) for p in pieces)} fell): restored; "
                             f"the player loses their next turn and draws a penalty card")
            if verdict.vertical_unmet:
                lines.append(f"the {piece} does not stand vertically: the penalty card still "
                             f"asks for a vertical piece next")
            if verdict.out:
                lines.append("the whole tower fell: the player is out")
            lines.append("heights: " + ", ".join(_mm(h) for h in verdict.heights))
            if verdict.settle_timed_out:
                lines.append(f"the settle hit its time cap ({verdict.settle_time:.1f} s)")
        elif isinstance(verdict, TowerChoiceVerdict) and verdict.effects:
            lines = [unid(effect["text"]) for effect in verdict.effects]
        else:
            lines = [unid(line) for line in lines]
        return lines


    def piece_name(self, state: State, piece: str) -> str:
        """``"your letter L"``, ``"Bob's logo"``, ``"the letter T on Ann's tower"``,
        ``"the logo that left the game"``."""
        players = state.players
        for seat in range(len(players)):
            if piece in state.hand(seat):
                whose = "your" if seat == state.current_player else f"{players[seat].name}'s"
                return f"{whose} {shape_name(piece)}"
            if piece in state.tower(seat):
                tower = "your" if seat == state.current_player else f"{players[seat].name}'s"
                return f"the {shape_name(piece)} on {tower} tower"
        return f"the {shape_name(piece)} that left the game"

    def _body(self, state: State, name: str) -> str:
        """A World body in words: a piece, a base, the table."""
        if name == TABLE:
            return "the table"
        for seat in range(len(state.players)):
            if name == state.base(seat):
                return ("your base" if seat == state.current_player
                        else f"{state.players[seat].name}'s base")
        return self.piece_name(state, name)

    def refusal(self, state: State, reason: str) -> str:
        """The game's refusal in a player's words, saying what to do instead."""
        code, data = getattr(reason, "code", ""), getattr(reason, "data", {})
        if code == "not_yours":
            if data["place"] == "nowhere":
                return "Pick one of your own pieces from your tray."
            return (f"That is {self.piece_name(state, data['piece'])}: pick one of your own "
                    f"pieces from your tray.")
        if code == "wrong_shape":
            return (f"The roll asks for a {data['shape']}: pick one of your "
                    f"{data['shape']}s, not the {shape_name(data['piece'])}.")
        if code == "vertical":
            return ("A penalty card says this piece must stand vertically: press Tab to "
                    "stand it on edge or upright.")
        if code == "height":
            return height_refusal(reason)
        if code == "off_base":
            return "Move the piece over your own base (the one with your name on it)."
        if code == "not_on_tower":
            below = data.get("below")
            where = self._body(state, below) if below else "nothing"
            return (f"The piece would land on {where}, not on your tower: move it over "
                    f"your tower.")
        if code == "level_closed":
            return (f"Level {data['level']} is closed (a piece lies on level {data['top']}): "
                    f"drop on the top of your tower, level {data['top']} or "
                    f"{data['top'] + 1}.")
        if code == "overlap":
            hits = join_names([self._body(state, h) for h in data["hits"]])
            return (f"The {shape_name(data['piece'])} would start inside {hits}: raise it (W) "
                    f"or move it clear.")
        if code in ("decision_asked", "decision_value"):
            return "Answer the question first: click one of its buttons."
        if code == "drop_asked":
            return "Drop a piece first: pick it from your tray."
        return common_refusal(reason)

    def result_lines(self, state: State, record: dict[str, Any]) -> list[str]:
        """The result at the end, short enough for the verdict panel: the winner or
        the tied, what ranks (height, then vertical pieces: the tie-break), then the
        ranking with heights in mm and vertical pieces.  (Heights within the rules'
        ``height_tie`` count as equal; the rules page says so.)"""
        outcome = state.outcome
        names = [p.name for p in state.players]
        first = [s for s, r in enumerate(outcome.ranks) if r == 1]
        lines = [f"{names[first[0]]} wins" if len(first) == 1
                 else "Tied first: " + join_names([names[s] for s in first]),
                 "By height, then vertical pieces:"]
        order = sorted(range(len(names)), key=lambda s: (outcome.ranks[s], s))
        lines.extend(f"  {outcome.ranks[s]}. {names[s]}  {_mm(outcome.scores[s])}, "
                     f"{state.vertical_pieces(s)} vertical" for s in order)
        return lines

    def confirm(self, state: State, action: Action) -> str | None:
        """No decision of this game ends a player's game: nothing to confirm."""
        return None


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TowerText()

__all__ = ["TEXT", "TowerText"]
