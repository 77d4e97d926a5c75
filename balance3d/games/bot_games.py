"""Whole games between bots, for any game: how long they last, who wins and by how
much (:class:`BotGames`).  A game's own ``games`` experiment subclasses it and adds
statistics read from the game's verdicts (:meth:`BotGames.statistics`)."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar, Mapping

import numpy as np

from balance3d.bots import make_bot, plays
from balance3d.games import get_game, new_game
from balance3d.games.base import State
from balance3d.scene import Scene
from balance3d.games.experiment import Experiment, Jitter
from balance3d.games.experiment_options import check_keys, fail, whole

#: The largest game seed drawn from a run's generator (exclusive).
SEED_RANGE = 2 ** 31


class BotGames(Experiment):
    """Whole games played by bots, one per run, the game's seed drawn from the run's
    generator (the hand's jitter plays no part: bots release where they aim).

    Options (defaults):
        players : seats at the table (2; must be a count the scene's variant allows).
        bots : one bot name for every seat, or a list with one name per seat (the
            game's default bot).
        max_turns : stop a game once this many game turns are played (none: play
            to the end).

    One case, ``{"players": n}``.  Outcomes:
        turns : game turns played (mean).
        finished : the game ended before ``max_turns`` (probability).
        first_seat_wins : the seat that made the first move is ranked first, alone
            or tied (probability).
        winner_score, mean_score : the best seat's score and the seats' mean score
            at the end, in the game's score unit (mean).
    A game stopped by ``max_turns`` is scored as it stands (:meth:`scores_now`):
    the seats with the highest score then are ranked first.  Subclasses add their
    own outcomes in :attr:`game_outcomes` and :meth:`statistics`.
    """

    name = "games"
    description = "whole games between bots: length, first-mover advantage, scores"
    outcomes = {"turns": "mean", "finished": "probability", "first_seat_wins": "probability",
                "winner_score": "mean", "mean_score": "mean"}
    #: Unit of the game's scores (winner_score, mean_score): "coins", "points", "m".
    score_unit: ClassVar[str] = ""
    option_docs = {
        "players": "seats (default 2)",
        "bots": "one bot name for every seat or one per seat (default the game's default bot)",
        "max_turns": "stop after this many game turns (default: play to the end)",
    }
    #: The subclass's own outcomes, added to the generic ones.
    game_outcomes: ClassVar[Mapping[str, str]] = {}
    #: Units of the subclass's own mean outcomes.
    game_units: ClassVar[Mapping[str, str]] = {}
    #: The subclass's own options (read in its ``__init__``).
    game_options: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.outcomes = {**BotGames.outcomes, **cls.game_outcomes}
        cls.units = {"turns": "turns", "winner_score": cls.score_unit,
                     "mean_score": cls.score_unit, **cls.game_units}

    def __init__(self, options: Mapping[str, Any], jitter: Jitter) -> None:
        super().__init__(options, jitter)
        check_keys(options, ("players", "bots", "max_turns", *self.game_options))
        game = get_game(self.game)
        self.players = whole(options, "players", 2, 1)
        bots = options.get("bots", game.default_bot)
        names = [bots] * self.players if isinstance(bots, str) else bots
        if not (isinstance(names, list) and len(names) == self.players
                and all(isinstance(n, str) for n in names)):
            raise fail("bots", f"must be a bot name or a list of {self.players} names (one "
                               f"per seat), got {bots!r}")
        for n in names:
            if n not in game.bots or not plays(n, game.name):
                raise fail("bots", f"{n!r} does not play {game.name} (bots: "
                                   f"{', '.join(b for b in game.bots if plays(b, game.name))})")
        self.bots = tuple(names)
        self.max_turns = whole(options, "max_turns", 0, 1) if "max_turns" in options else None

    def cases(self, scene: Scene) -> list[dict[str, Any]]:
        counts = get_game(self.game).player_counts(scene.variant)
        if self.players not in counts:
            raise fail("players", f"{scene.name} ({scene.variant}) plays with "
                                  f"{', '.join(map(str, counts))} player(s), not {self.players}")
        return [{"players": self.players}]

    def run(self, scene: Scene, case: Mapping[str, Any],
            rng: np.random.Generator) -> dict[str, bool | int | float]:
        seed = int(rng.integers(SEED_RANGE))
        state = new_game(self.game, players=int(case["players"]), seed=seed, scene=scene,
                         variant=scene.variant, bots=list(self.bots))
        bots = [make_bot(n, seed, seat, self.game) for seat, n in enumerate(self.bots)]
        cap = self.max_turns
        while not state.is_over and (cap is None or state.turn <= cap):
            state.apply(bots[state.current_player].choose(state))
        outcome = state.outcome
        # stopped by the cap: turn cap + 1 has begun, nothing of it is played
        turns = state.turn if outcome is not None else cap
        if outcome is not None:
            scores, winners = outcome.scores, outcome.winners
        else:
            scores = tuple(float(s) for s in self.scores_now(state))
            winners = tuple(s for s, v in enumerate(scores) if v == max(scores))
        first = state.history[0]["player"] if state.history else None
        return {"turns": turns, "finished": outcome is not None,
                "first_seat_wins": first in winners,
                "winner_score": float(max(scores[s] for s in winners)),
                "mean_score": float(np.mean(scores)), **self.statistics(state)}

    @abstractmethod
    def scores_now(self, state: State) -> tuple[float, ...]:
        """Per seat, the score of the unfinished game ``state`` as it stands (in
        the game's score unit); each game says how it reads it."""

    def statistics(self, state: State) -> dict[str, bool | int | float]:
        """The subclass's own outcomes of the finished (or capped) game ``state``,
        read from ``state.history`` (each entry's ``verdict`` dict) and the state."""
        return {}


def verdicts(state: State, kind: str) -> list[dict[str, Any]]:
    """The verdict dicts of ``state``'s history whose ``kind`` (class name) is
    ``kind``, in play order."""
    return [entry["verdict"] for entry in state.history if entry["verdict"]["kind"] == kind]


def rate(count: int, total: int) -> float:
    """``count / total``, 0 when ``total`` is 0 (nothing to count)."""
    return count / total if total else 0.0
