"""The planners' progress reports: one per trial, counted against the planner's own
budget; a bot listened to chooses exactly what it chooses unheard; a callback that
raises Cancelled stops the bot between two trials."""
from __future__ import annotations

import importlib

import pytest

from balance3d.bots import make_bot, progress
from balance3d.games import new_game
from balance3d.games.base import action_to_dict

#: Per game: the seed, how many of the first actions of a planner-against-planner
#: game are checked, and whether one of them spends the planner's whole budget
#: (Tri-Ba-Lance's first placements each pass their first trial).
GAMES = {"tilted": (0, 17, True), "tower": (0, 11, True), "tribalance": (0, 4, False)}


def planner_budget(game: str) -> int:
    """The planner's own trial budget (its MAX_TRIALS parameter)."""
    return importlib.import_module(f"balance3d.games.{game}.planner").MAX_TRIALS


def counting_clones(monkeypatch, state) -> list[int]:
    """Count the copies of ``state``'s game made with ``clone()`` or
    ``trial_copy()`` (each trial plays in one); the counter."""
    count = [0]
    for method in ("clone", "trial_copy"):
        original = getattr(type(state), method)

        def counted(self, *args, _original=original):
            count[0] += 1
            return _original(self, *args)
        monkeypatch.setattr(type(state), method, counted)
    return count


@pytest.mark.parametrize("game", sorted(GAMES))
def test_reports_count_the_trials_and_listening_changes_no_choice(game, monkeypatch):
    seed, actions, spends_all = GAMES[game]
    budget = planner_budget(game)
    state = new_game(game, players=2, seed=seed)
    heard = [make_bot("planner", seed, s, game) for s in range(2)]
    unheard = [make_bot("planner", seed, s, game) for s in range(2)]
    clones = counting_clones(monkeypatch, state)
    most = 0
    for _ in range(actions):
        seat = state.current_player
        reports: list[progress.Progress] = []
        clones[0] = 0
        chosen = progress.choose(heard[seat], state, reports.append)
        trials = clones[0]
        assert action_to_dict(unheard[seat].choose(state)) == action_to_dict(chosen)
        assert (heard[seat].rng.bit_generator.state
                == unheard[seat].rng.bit_generator.state)
        if state.legal_decisions():
            assert reports == []                  # a decision tries nothing
        else:
            # a report before the first trial and one after each, counted in one
            assert [r.tried for r in reports] == list(range(trials + 1))
            planned = {r.planned for r in reports}
            assert len(planned) == 1 and trials <= planned.pop() <= budget
            most = max(most, trials)
        state.apply(chosen)
    assert most == (budget if spends_all else 1)


def test_a_planner_whose_trials_all_fail_reports_its_whole_budget(monkeypatch):
    from balance3d.games.tribalance import planner
    state = new_game("tribalance", players=2, seed=0)
    bot = make_bot("planner", 0, state.current_player, "tribalance")
    tried = []
    monkeypatch.setattr(planner.PlannerBot, "trial",
                        staticmethod(lambda state, place: tried.append(place)))
    reports: list[progress.Progress] = []
    progress.choose(bot, state, reports.append)
    budget = planner_budget("tribalance")
    assert len(tried) == budget                   # a free plate offers more candidates
    assert reports == [progress.Progress(n, budget) for n in range(budget + 1)]


def test_without_a_callback_reports_go_nowhere():
    progress.report(1, 3)                         # nothing listens: nothing happens


def test_a_callback_raising_cancelled_stops_the_bot_after_the_trial(monkeypatch):
    # seed 0's ninth Tilted action is a drop of three trials (the test above sees it)
    state = new_game("tilted", players=2, seed=0)
    bots = [make_bot("planner", 0, s, "tilted") for s in range(2)]
    for _ in range(8):
        state.apply(bots[state.current_player].choose(state))
    bot = bots[state.current_player]
    clones = counting_clones(monkeypatch, state)
    assert not state.legal_decisions()
    twin = make_bot("planner", 0, state.current_player, "tilted")
    twin.rng.bit_generator.state = bot.rng.bit_generator.state
    twin.choose(state)
    assert clones[0] == planner_budget("tilted")

    def cancel_after_the_first_trial(report: progress.Progress) -> None:
        if report.tried >= 1:
            raise progress.Cancelled("closing")
    clones[0] = 0
    with pytest.raises(progress.Cancelled):
        progress.choose(bot, state, cancel_after_the_first_trial)
    assert clones[0] == 1                         # no second trial was begun
