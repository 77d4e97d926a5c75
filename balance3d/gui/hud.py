"""The HUD's words for a session, for any game: the title, a line per seat, the
prompt, the last verdict, the event log and the decision buttons.  The game's own
words come from its :class:`~balance3d.gui.games.GameText`, the result of a
finished game too (in the game's units).  No Panda3D."""
from __future__ import annotations

from dataclasses import dataclass

from balance3d.games.base import Action, Pass, State, action_to_dict
from balance3d.gui.games import game_text
from balance3d.gui.session import Session
from balance3d.record import describe_action

#: Event texts the log shows (the most recent).
LOG_LINES = 8
#: Prefix of the current seat's line, and of the others' (same width).
CURRENT_MARK, OTHER_MARK = "> ", "  "


@dataclass(frozen=True)
class HudText:
    """What the HUD shows now.

    title : "Game (variant) - turn 7".  seats : a line per seat, the seat to act
    marked with :data:`CURRENT_MARK`.  prompt : what the seat to act is asked for,
    "Bob (planner) is thinking...", what is running, or the result (several lines).
    verdict : the last verdict's lines.  log : the last :data:`LOG_LINES` event
    texts.  decisions : (button label, action) for each decision a human at this
    computer may take now (empty otherwise): the legal decisions, and a Pass the game
    takes beside a physical action; decisions whose labels read alike (two blocks of
    one length, which the rules treat alike) are one button, the first of them.  result : the result's lines once the game is
    over (empty before), for the verdict panel: the banner has room for its start.
    """

    title: str
    seats: list[str]
    prompt: str
    verdict: list[str]
    log: list[str]
    decisions: list[tuple[str, Action]]
    result: list[str]


def hud_text(session: Session) -> HudText:
    """The HUD's text for ``session`` as it is now."""
    state = session.state
    text = game_text(state.name)
    current = state.current_player
    seats = []
    for seat, player in enumerate(state.players):
        mark = CURRENT_MARK if seat == current else OTHER_MARK
        bot = session.bot(seat)
        seats.append(mark + text.seat_line(state, seat) + (f"  [{bot.name}]" if bot else ""))
    decisions: dict[str, Action] = {}
    if session.human_to_act():
        for action in _decisions(state):
            decisions.setdefault(text.decision_label(state, action), action)
    return HudText(
        title=f"{state.game.display_name} ({state.variant}) - turn {state.turn}",
        seats=seats, prompt=_prompt(session), log=[e.text for e in state.events[-LOG_LINES:]],
        verdict=text.verdict_lines(session.last_verdict) if session.last_verdict else [],
        decisions=list(decisions.items()),
        result=text.result_lines(state, session.record()) if state.is_over else [])


def _decisions(state: State) -> list[Action]:
    """``state.legal_decisions()``, and a Pass when the game takes one now that it
    does not list (a pass offered beside a physical action)."""
    decisions = list(state.legal_decisions())
    if Pass() not in decisions and state.is_legal(Pass())[0]:
        decisions.append(Pass())
    return decisions


def _prompt(session: Session) -> str:
    """What is happening or asked for: the running action, the result, a replay's
    progress, a bot thinking, or the game's prompt for the human to act."""
    state = session.state
    if session.running is not None:
        turn = session.running
        who = "the game" if turn.player is None else state.players[turn.player].name
        return f"{who}: {describe_action(action_to_dict(turn.action))} ..."
    lines = game_text(state.name).result_lines(state, session.record()) if state.is_over else []
    if session.replay_mode:
        done, total = session.replay_position
        differences = session.replay_differences()
        if differences is None:
            lines.insert(0, f"replay: {done} of {total} actions shown")
        elif differences:
            lines.insert(0, f"replay: the end; it differs from the record: {differences[0]}")
        else:
            lines.insert(0, f"replay: the end; all {total} verdicts as recorded")
    if lines:
        return "\n".join(lines)
    seat = state.current_player
    bot = session.bot(seat)
    if bot is not None:
        who = f"{state.players[seat].name} ({bot.name})"
        if not session.bot_thinking():
            return f"{who} plays next"
        done = session.bot_progress()
        if done is None:
            return f"{who} is thinking..."
        return f"{who}: {done.tried} of {done.planned} candidates tried"
    return game_text(state.name).prompt(state)


__all__ = ["CURRENT_MARK", "HudText", "LOG_LINES", "OTHER_MARK", "hud_text"]
