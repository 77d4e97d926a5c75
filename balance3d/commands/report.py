"""What ``simulate`` and ``replay`` print about a game: one line per turn, and the
result with who won and why.

The result is read from the record alone: its outcome (termination, scores, ranks,
winners) and the events of kind ``"eliminated"`` (a seat is out of the game, in the
game's own words), which every game that puts players out logs.
"""
from __future__ import annotations

from typing import Any

from balance3d import record as rec
from balance3d.games import get_game

#: Label shown instead of a seat's bot for a turn that a script played.
SCRIPTED = "script"


def describe_turn(index: int, entry: dict[str, Any], players: list[dict[str, Any]],
                  scripted: bool = False) -> str:
    """One line for the record entry ``turns[index]``: who did what (``[script]``
    instead of the seat's bot when ``scripted``), and the verdict."""
    if entry["player"] is None:
        who = "game"
    elif scripted:
        who = rec.player_label(dict(players[entry["player"]], bot=SCRIPTED))
    else:
        who = rec.player_label(players[entry["player"]])
    return (f"{index + 1:4d}  t{entry['turn']:<3d} {who:<22} "
            f"{rec.describe_action(entry['action'])}  ->  "
            f"{entry['verdict'].get('summary', '')}")


def describe_outcome(record: dict[str, Any]) -> list[str]:
    """Lines giving the result of ``record``: the winner and why (the last player
    left, or the only player's score), every elimination with its turn, then the
    ranks and scores, saying what the ranking follows when its order is not the
    scores' order.  For an unfinished game, one line saying so."""
    outcome = record["outcome"]
    if outcome is None:
        return [f"game not finished after {len(record['turns'])} actions"]
    players = record["players"]
    game = get_game(record["game"])
    score = game.score_name
    out_events = [e for t in record["turns"] for e in t["events"]
                  if e["kind"] == "eliminated" and e["player"] is not None]
    ranks, scores, winners = outcome["ranks"], outcome["scores"], outcome["winners"]

    lines = [f"result ({outcome['termination']}):"]
    if len(players) == 1:
        lines.append(f"  {rec.player_label(players[0])} scores "
                     f"{score_text(scores[0], game.score_unit)} {score}")
    elif len(winners) == 1:
        last = (len(out_events) == len(players) - 1
                and winners[0] not in {e["player"] for e in out_events})
        lines.append(f"  {rec.player_label(players[winners[0]])} wins"
                     f"{', the last player left' if last else ''}")
    else:
        lines.append("  tied first: " + ", ".join(rec.player_label(players[s])
                                                  for s in winners))
    for e in out_events:
        lines.append(f"  after turn {e['turn']}: {e['text']}")
    if len(players) == 1:
        return lines
    order = sorted(range(len(ranks)), key=lambda s: (ranks[s], s))
    if ranked_against_scores(ranks, scores):
        basis = ("elimination order: the last out ranks highest"
                 if ranked_by_elimination(ranks, [e["player"] for e in out_events])
                 else "the game's rules")
        lines.append(f"  ranked by {basis}, not by {score}:")
    for seat in order:
        lines.append(f"  {ranks[seat]}. {rec.player_label(players[seat]):<22} "
                     f"{score} {score_text(scores[seat], game.score_unit)}")
    return lines


def score_text(value: float, unit: str | None) -> str:
    """A score as a person reads it: a counted one as it is, a measured one in its
    unit (a height in m written in mm, to 0.1 mm)."""
    if unit == "m":
        return f"{value * 1000.0:.1f} mm"
    return f"{value:g}"


def describe_waiting(record: dict[str, Any], seat: int | None, phase: str) -> str:
    """The line for a game that stopped unfinished: whose move (``seat``, asked for
    ``phase``) it waits for."""
    if seat is None:
        return f"game not finished after {len(record['turns'])} actions"
    return (f"game not finished after {len(record['turns'])} actions: it waits for a "
            f"'{phase}' move by {rec.player_label(record['players'][seat])} (seat {seat})")


def ranked_against_scores(ranks: list[int], scores: list[float]) -> bool:
    """True when some seat ranks better than a seat with a higher score."""
    return any(ranks[a] < ranks[b] and scores[a] < scores[b]
               for a in range(len(ranks)) for b in range(len(ranks)))


def ranked_by_elimination(ranks: list[int], eliminated: list[int]) -> bool:
    """True when ``ranks`` are those of the elimination order ``eliminated``
    (seats in the order they went out): seats still in share rank 1, and each seat
    out ranks just below the ones out after it."""
    n = len(ranks)
    expected = [1] * n
    for i, seat in enumerate(eliminated):
        expected[seat] = n - i
    return list(ranks) == expected
