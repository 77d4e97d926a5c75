"""The PettingZoo AEC environment of any registered game (:class:`BalanceEnv`);
each game's module ``balance3d.envs.<game>_v0`` gives it as ``raw_env`` and
``env`` (:mod:`balance3d.envs.modules`).

Agents are the seats, ``player_0`` ... ``player_{n-1}``; the acting agent is
``State.current_player``, decisions included.  Observations are dicts:
``"observation"`` and ``"action_mask"`` (int8, discrete mode: 1 where the action
is legal now, as ``State.is_legal`` says) or ``"choice_mask"`` (int8, continuous
mode: 1 for a head naming a piece the player may play now, and for a legal
decision).  ``"observation"`` is the game's fixed-size float64 vector
(``observation_mode="vector"``) or a dict of its fields, each float64 in its own
shape and the vector's units (``"state"``): ``"observer"`` and ``"acting"``
(one-hots of the seats), then the fields of the game's
:class:`~balance3d.envs.encoding.Layout` by key (see ``docs/environments.md``).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from balance3d.envs.encoding import Encoding, GridOptions, encoding_class, one_hot
from balance3d.games import get_game, new_game
from balance3d.games.base import (Action, IllegalActionError, State, action_to_dict,
                                  ranks_from_keys)
from balance3d.scene import Scene, load_scene

#: Reward added to an agent's for each illegal attempt (it plays again).
ILLEGAL_REWARD = -1.0
#: Default cap on attempts (legal and illegal actions of all agents) in an episode.
DEFAULT_MAX_CYCLES = 1000
ACTION_MODES = ("discrete", "continuous")
REWARD_MODES = ("final", "per_turn")
OBSERVATION_MODES = ("vector", "state")
RENDER_MODES = ("human", "rgb_array")


class BalanceEnv(AECEnv):
    """One game as a PettingZoo AEC environment.  Subclassed per game with its
    ``game_name`` and ``metadata``.

    variant : default the game's first.  players : seat count (default the
    variant's smallest).  scene : a bundled name, a path or a loaded Scene (default
    the variant's bundled scene); scene_overrides : value paths -> values
    (``load_scene``'s overrides).  action_mode : "discrete" or "continuous".
    rewards : "final" (each seat's reward when it terminates: its score for counted
    scores, a rank value in [-1, 1] for measured ones) or "per_turn" (after every
    action, each live seat's change of ``State.scores``).  max_cycles : attempts
    (legal or not, every agent's) before every live agent is truncated.
    illegal_reward : added for an illegal attempt.  observation_mode : "vector" (one
    float64 array) or "state" (a dict of named float64 arrays, the same numbers).
    grid_points, grid_yaws : the discrete grid
    (:class:`~balance3d.envs.encoding.GridOptions`).  render_mode : None,
    "rgb_array" (offscreen, (H, W, 3) uint8) or "human" (the window).
    """

    game_name: str = ""
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "balance3d_v0",
                                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, variant: str | None = None, players: int | None = None,
                 scene: str | Scene | None = None, scene_overrides: dict | None = None,
                 action_mode: str = "discrete", rewards: str = "final",
                 max_cycles: int = DEFAULT_MAX_CYCLES, illegal_reward: float = ILLEGAL_REWARD,
                 observation_mode: str = "vector", grid_points: int = 4, grid_yaws: int = 2,
                 render_mode: str | None = None) -> None:
        super().__init__()
        game = get_game(self.game_name)
        self.game = game
        variant = variant or game.variants[0]
        game.check_variant(variant)
        counts = game.player_counts(variant)
        players = counts[0] if players is None else players
        if players not in counts:
            raise ValueError(f"{game.name} ({variant}) plays with "
                             f"{' or '.join(map(str, counts))} player(s), not {players!r}")
        for name, value, allowed in (("action_mode", action_mode, ACTION_MODES),
                                     ("rewards", rewards, REWARD_MODES),
                                     ("observation_mode", observation_mode, OBSERVATION_MODES),
                                     ("render_mode", render_mode, (None, *RENDER_MODES))):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}")
        if not isinstance(max_cycles, int) or max_cycles < 1:
            raise ValueError(f"max_cycles must be a whole number >= 1, not {max_cycles!r}")
        if isinstance(scene, Scene):
            self.scene = scene
        else:
            self.scene = load_scene(scene or game.scene_name(variant), scene_overrides)
        self.variant, self.n_players = variant, players
        self.action_mode, self.reward_mode = action_mode, rewards
        self.observation_mode = observation_mode
        self.max_cycles, self.illegal_reward = max_cycles, float(illegal_reward)
        self.render_mode = render_mode
        self.state: State = self._new_state(0)
        self.encoding: Encoding = encoding_class(game.name)(
            self.state, GridOptions(grid_points, grid_yaws))
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._spaces()
        self._renderer = None
        self._next_seed: int | None = None
        self._cache: tuple[int, np.ndarray, np.ndarray] | None = None
        self._version = 0

    # ------------------------------------------------------------------ spaces
    def _spaces(self) -> None:
        enc = self.encoding
        low, high = enc.layout.bounds()
        n = self.n_players
        low = np.concatenate([np.zeros(2 * n), low])
        high = np.concatenate([np.ones(2 * n), high])
        if self.observation_mode == "vector":
            observation: spaces.Space = spaces.Box(low, high, dtype=np.float64)
        else:
            seats = {key: spaces.Box(0.0, 1.0, (n,), dtype=np.float64)
                     for key in ("observer", "acting")}
            observation = spaces.Dict({**seats, **{
                key: spaces.Box(lo, hi, shape, dtype=np.float64)
                for key, (shape, lo, hi) in enc.layout.spaces().items()}})
        if self.action_mode == "discrete":
            mask_name, size = "action_mask", enc.n_discrete
        else:
            mask_name, size = "choice_mask", enc.n_choices
        self._mask_name = mask_name
        self.observation_spaces = {a: spaces.Dict({
            "observation": observation,
            mask_name: spaces.Box(0, 1, (size,), dtype=np.int8)}) for a in self.possible_agents}
        if self.action_mode == "discrete":
            self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        else:
            self.action_spaces = {a: spaces.Dict({
                "choice": spaces.Discrete(size),
                "release": spaces.Box(enc.release_low, enc.release_high, dtype=np.float64)})
                for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episodes
    def _new_state(self, seed: int) -> State:
        return new_game(self.game.name, players=self.n_players, seed=seed, scene=self.scene,
                        variant=self.variant)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: seeded with ``seed``, else the seed after the last one (the
        first unseeded reset draws one)."""
        if seed is None:
            seed = self._next_seed
            if seed is None:
                seed = int(seeding.np_random(None)[0].integers(2 ** 31))
        self.seed = int(seed)
        self._next_seed = self.seed + 1
        self.state = self._new_state(self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.attempts = 0
        self._skip_agent_selection = None
        self._version += 1
        self._scores = tuple(float(s) for s in self.state.scores)
        self.agent_selection = self.possible_agents[self.state.current_player]

    # ------------------------------------------------------------------ observing
    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """(the game's observation vector, the mask) of the state now, kept until
        the state changes."""
        if self._cache is None or self._cache[0] != self._version:
            vector = self.encoding.observe(self.state)
            mask = self.action_mask() if self.action_mode == "discrete" else self.choice_mask()
            self._cache = (self._version, vector, mask)
        return self._cache[1], self._cache[2]

    def action_mask(self) -> np.ndarray:
        """(n_discrete,) int8: 1 where the discrete action is legal now."""
        enc, state = self.encoding, self.state
        mask = np.zeros(enc.n_discrete, dtype=np.int8)
        if state.is_over:
            return mask
        kinds = {enc.kind_of(p) for p in state.legal_pieces()}
        if kinds:
            for i, action in enc.drops(state, kinds).items():
                mask[i] = state.is_legal(action)[0]
        for j in range(len(enc.decisions)):
            mask[enc.n_drops + j] = state.is_legal(enc.decision(state, j))[0]
        return mask

    def choice_mask(self) -> np.ndarray:
        """(n_choices,) int8: 1 for a head naming a piece the player may play now
        (legality of its release is the game's to say, on the step), and for a
        decision that is legal now."""
        enc, state = self.encoding, self.state
        mask = np.zeros(enc.n_choices, dtype=np.int8)
        if state.is_over:
            return mask
        held = [enc.kind_of(p) for p in enc.held(state)]
        for i in range(enc.n_heads):
            kind, copy = enc.head_piece(i)
            mask[i] = held.count(kind) > copy
        for j in range(len(enc.decisions)):
            mask[enc.n_heads + j] = state.is_legal(enc.decision(state, j))[0]
        return mask

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        vector, mask = self.masks()
        n = self.n_players
        seats = np.concatenate([one_hot(self.agent_name_mapping[agent], n),
                                one_hot(self.state.current_player, n)])
        if self.observation_mode == "vector":
            observation: Any = np.concatenate([seats, vector])
        else:
            observation = {"observer": seats[:n], "acting": seats[n:],
                           **self.encoding.layout.split(vector)}
        return {"observation": observation, self._mask_name: mask.copy()}

    # ------------------------------------------------------------------ acting
    def decode(self, action: Any) -> Action:
        """The game action an action of the space stands for now."""
        if self.action_mode == "discrete":
            return self.encoding.discrete(self.state, int(action))
        return self.encoding.continuous(self.state, int(action["choice"]),
                                        np.asarray(action["release"], dtype=np.float64))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.play(self.decode(action))

    def play(self, action: Action) -> None:
        """Play the game ``action`` for the acting agent: an illegal one gets the
        reason in its info and :attr:`illegal_reward`, and the same agent acts
        again; a legal one is applied, and seats that are out, or the game's end,
        terminate.  Either way it counts towards :attr:`max_cycles`.  The acting
        agent is the game's current player."""
        seat = self.state.current_player
        agent = self.possible_agents[seat]
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.attempts += 1
        try:
            verdict = self.state.apply(action)   # checks legality, state unchanged if not
        except IllegalActionError as exc:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal": str(exc.reason), "action": _action_dict(action)}
        else:
            self._version += 1
            self.infos[agent] = {"verdict": verdict.summary}
            self._after_action(seat)
        if self.attempts >= self.max_cycles and not self.state.is_over:
            for a in self.agents:
                if not self.terminations[a]:
                    self.truncations[a] = True
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        if self.state.current_player is not None and live:
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()
        self._deads_step_first()

    def _after_action(self, seat: int) -> None:
        state = self.state
        scores = tuple(float(s) for s in state.scores)
        if self.reward_mode == "per_turn":
            for a in self.agents:
                if not self.terminations[a]:
                    i = self.agent_name_mapping[a]
                    self.rewards[a] += scores[i] - self._scores[i]
        self._scores = scores
        ending = set(self.agent_name_mapping[a] for a in self.agents) if state.is_over \
            else self.encoding.out(state)
        for a in self.agents:
            i = self.agent_name_mapping[a]
            if i in ending and not self.terminations[a]:
                self.terminations[a] = True
                if self.reward_mode == "final":
                    self.rewards[a] += self.final_reward(i)

    def final_reward(self, seat: int) -> float:
        """``seat``'s reward as it terminates: its score when scores are counted
        (coins, points), else (measured scores) the rank value (seats it beats minus
        seats that beat it) / (seats - 1), from the outcome at the end or the
        scores now when it goes out before."""
        state = self.state
        if self.game.score_unit is None or self.n_players == 1:
            return float(state.scores[seat])
        ranks = state.outcome.ranks if state.is_over else ranks_from_keys(list(state.scores))
        beats = sum(r > ranks[seat] for r in ranks)
        beaten = sum(r < ranks[seat] for r in ranks)
        return (beats - beaten) / (self.n_players - 1)

    # ------------------------------------------------------------------ drawing
    def render(self) -> np.ndarray | None:
        """An (H, W, 3) uint8 image ("rgb_array"), the window drawn ("human",
        None), or None with a warning when no render mode was given."""
        if self.render_mode is None:
            from gymnasium import logger
            logger.warn("render() called without a render_mode; pass render_mode="
                        "'rgb_array' or 'human' when making the environment")
            return None
        if self._renderer is None:
            from balance3d.envs.render import Renderer
            self._renderer = Renderer(self.render_mode)
        return self._renderer.draw(self.state)

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    def __str__(self) -> str:
        return self.metadata["name"]


def _action_dict(action: Any) -> Any:
    """The action as records write it, or its text when it is no game action."""
    try:
        return action_to_dict(action)
    except Exception:   # an action of no registered type: its text is all there is
        return repr(action)
