"""The Gymnasium single-agent environment of any registered game: one seat learns,
the other seats are played by a named bot (``balance3d/<Game>-v0``, registered by
:mod:`balance3d.envs`)."""
from __future__ import annotations

from typing import Any

import gymnasium

from balance3d.bots import make_bot
from balance3d.envs.aec import RENDER_MODES
from balance3d.envs.modules import env_class
from balance3d.games import get_game


class SingleAgentEnv(gymnasium.Env):
    """``game`` with the agent in ``seat`` (0-based) and every other seat played by
    the bot ``opponents`` (default the game's ``default_bot``), seeded from the
    game's seed and its seat as ``balance3d simulate`` seeds them.  Every other
    keyword is the AEC environment's (:class:`~balance3d.envs.aec.BalanceEnv`).
    Observations, actions and rewards are the agent's there; the episode
    terminates when the agent's seat terminates (it is out, or the game ended) and
    is truncated by ``max_cycles`` (attempts of every seat)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(self, game: str, opponents: str | None = None, seat: int = 0,
                 **kwargs: Any) -> None:
        self.aec = env_class(game)(**kwargs)
        if not isinstance(seat, int) or not 0 <= seat < self.aec.n_players:
            raise ValueError(f"seat must be one of 0..{self.aec.n_players - 1}, not {seat!r}")
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.opponents = opponents or get_game(game).default_bot
        self.render_mode = self.aec.render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bots: dict[int, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        aec = self.aec
        aec.reset(seed=seed)
        self._bots = {s: make_bot(self.opponents, aec.seed, s, aec.game.name)
                      for s in range(aec.n_players) if s != self.seat}
        self._others()
        return aec.observe(self.agent), dict(aec.infos.get(self.agent, {}))

    def step(self, action: Any):
        aec = self.aec
        aec._cumulative_rewards[self.agent] = 0.0
        aec.play(aec.decode(action))
        reward = aec.rewards.get(self.agent, 0.0)
        info = dict(aec.infos.get(self.agent, {}))
        more = self._others()
        terminated = aec.terminations.get(self.agent, True)
        truncated = aec.truncations.get(self.agent, False) and not terminated
        return aec.observe(self.agent), float(reward + more), bool(terminated), \
            bool(truncated), info

    def _others(self) -> float:
        """Let the bots play until the agent acts or the episode ends: the agent's
        reward meanwhile."""
        aec, state = self.aec, self.aec.state
        reward = 0.0
        while True:
            if aec.terminations[self.agent] or aec.truncations[self.agent]:
                return reward
            seat = state.current_player
            if seat is None or seat == self.seat:
                return reward
            aec.play(self._bots[seat].choose(state))
            reward += aec.rewards.get(self.agent, 0.0)
            state = aec.state

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
