"""What the window says about Tower: seat lines, prompts, decision labels and
verdicts (no Panda3D).  Every number shown is read from the state or the verdict,
never worked out here (the seat lines' tower figures through :mod:`.figures`, which
asks the game again only for what moved); heights are shown in mm."""
from __future__ import annotations

from balance3d.games.base import Action, Choose, State, Verdict, action_to_dict
from balance3d.games.tower.rules import LOGO, Phase, piece_part
from balance3d.games.tower.verdicts import TowerChoiceVerdict, TowerDropVerdict
from balance3d.gui.games.tower.figures import tower_figures
from balance3d.record import describe_action

#: mm per m, for the heights shown.
MM = 1000.0


def _count(n: int, word: str) -> str:
    """``1 piece``, ``3 pieces``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _mm(height: float) -> str:
    """``"45.0 mm"``: a height given in m."""
    return f"{height * MM:.1f} mm"


class TowerText:
    """Tower's :class:`~balance3d.gui.games.GameText`."""

    def seat_line(self, state: State, seat: int) -> str:
        """``Ann  20 pieces left (10 letters, 10 logos)  tower 45.0 mm, 4 pieces,
        1 vertical``, then ``out``, turns to lose and a pending "vertical" card."""
        hand = state.hand(seat)
        logos = sum(state.rules.shape(piece_part(p)) == LOGO for p in hand)
        height, vertical = tower_figures(state, seat)
        line = (f"{state.players[seat].name}  {_count(len(hand), 'piece')} left "
                f"({_count(len(hand) - logos, 'letter')}, {_count(logos, 'logo')})  "
                f"tower {_mm(height)}, {_count(len(state.tower(seat)), 'piece')}, "
                f"{vertical} vertical")
        if seat in state.out:
            line += "  out"
        if state.skips[seat]:
            line += f"  loses {_count(state.skips[seat], 'turn')}"
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
                line += "; a penalty card says it must stand vertically (pose edge or upright)"
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
            return f"Give {value} ({piece_part(value).replace('_', ' ')})"
        return describe_action(action_to_dict(action))

    def verdict_lines(self, verdict: Verdict) -> list[str]:
        """The summary, then for a drop: where it landed or that it fell, the pieces
        that fell and left the game, the knocked towers restored, a player out, the
        heights; for a decision: what followed, one line each (the summary joins
        them)."""
        lines = [verdict.summary]
        if isinstance(verdict, TowerDropVerdict):
            if verdict.rests_on_level is not None:
                lines.append(f"{verdict.piece} landed: released onto level {verdict.level}, "
                             f"rests on level {verdict.rests_on_level}")
            else:
                lines.append(f"{verdict.piece} fell (released onto level {verdict.level})")
            if verdict.fallen:
                lines.append("fell: " + ", ".join(verdict.fallen))
            if verdict.removed:
                lines.append("left the game: " + ", ".join(verdict.removed))
            for owner, pieces in sorted(verdict.knocked.items()):
                lines.append(f"knocked tower of seat {int(owner) + 1} ({', '.join(pieces)} "
                             f"moved): restored; the player loses their next turn and draws "
                             f"a penalty card")
            if verdict.out:
                lines.append("the whole tower fell: the player is out")
            lines.append("heights: " + ", ".join(_mm(h) for h in verdict.heights))
            if verdict.settle_timed_out:
                lines.append(f"the settle hit its time cap ({verdict.settle_time:.1f} s)")
        elif isinstance(verdict, TowerChoiceVerdict) and verdict.effects:
            lines = [effect["text"] for effect in verdict.effects]
        return lines

    def confirm(self, state: State, action: Action) -> str | None:
        """No decision of this game ends a player's game: nothing to confirm."""
        return None


#: The object the window asks (see :func:`balance3d.gui.games.game_text`).
TEXT = TowerText()

__all__ = ["TEXT", "TowerText"]
