"""A greedy one-step look-ahead agent against the planner, through the PettingZoo
environments (``balance3d.envs.<game>_v0``).

Before each move the agent tries up to ``--candidates`` legal discrete actions
(drawn from the ``action_mask``) in copies of the game (``State.clone()``), and
plays the one after which its own score (``State.scores``) is highest; a move
that puts it out scores lowest.  The other seats play the planner.

    python examples/greedy_lookahead.py --games 5
"""
from __future__ import annotations

import argparse

import numpy as np

import balance3d.envs as envs
from balance3d.bots import make_bot
from balance3d.games import game_names

#: The discrete grid the agent plays on (release points per axis, yaws).
GRID = {"grid_points": 2, "grid_yaws": 2}


def candidates_of(env, rng: np.random.Generator, count: int) -> list[int]:
    """Up to ``count`` legal discrete actions of the acting seat, drawn at random."""
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    return [int(i) for i in rng.choice(legal, size=min(count, len(legal)), replace=False)]


def look_ahead(env, tried: list[int]) -> int:
    """The action of ``tried`` whose one-step result is best for the acting seat
    (the first of equals)."""
    state, enc = env.state, env.encoding
    seat = state.current_player
    best, best_value = tried[0], -np.inf
    for index in tried:
        trial = state.clone()
        trial.apply(enc.discrete(trial, index))
        out = seat in enc.out(trial)
        value = -np.inf if out else float(trial.scores[seat])
        if value > best_value:
            best, best_value = index, value
    return best


def play(game: str, seed: int, max_cycles: int, candidates: int) -> dict[str, float]:
    """One game, the agent in seat 0: its summed reward and whether it won."""
    env = getattr(envs, f"{game}_v0").raw_env(max_cycles=max_cycles, **GRID)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    planners = {s: make_bot("planner", seed, s, game) for s in range(1, env.n_players)}
    total = 0.0
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if agent == "player_0":
            total += reward
        if terminated or truncated:
            env.step(None)
        elif agent == "player_0":
            tried = candidates_of(env, rng, candidates)
            # no grid entry legal (a drop the grid cannot place): an illegal attempt,
            # and again, until the attempts cap cuts the game
            env.step(look_ahead(env, tried) if tried else 0)
        else:
            env.play(planners[env.agent_name_mapping[agent]].choose(env.state))
    won = env.state.is_over and 0 in env.state.outcome.winners
    return {"reward": total, "won": float(won), "cut": float(not env.state.is_over)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per game (default 5)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--game", choices=game_names(), action="append",
                        help="only this game (repeatable; default every game)")
    parser.add_argument("--max-cycles", type=int, default=1000)
    parser.add_argument("--candidates", type=int, default=8,
                        help="legal actions tried per move (default 8)")
    args = parser.parse_args(argv)
    print("game         games  agent wins  mean reward  cut by the cap")
    for game in args.game or game_names():
        runs = [play(game, args.first_seed + k, args.max_cycles, args.candidates)
                for k in range(args.games)]
        mean = {key: float(np.mean([r[key] for r in runs])) for key in runs[0]}
        print(f"{game:<12} {args.games:>5}  {int(mean['won'] * args.games):>10}  "
              f"{mean['reward']:>11.3f}  {int(mean['cut'] * args.games):>14}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
