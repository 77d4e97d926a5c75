"""A random agent against the planner: seeded games of each game through the
Gymnasium environments (``balance3d/<Game>-v0``).

The agent sits in seat 0 and picks uniformly among the legal discrete actions
(the observation's ``action_mask``); every other seat is the game's planner.
Game ``k`` is seeded ``first_seed + k`` (environment and agent alike), so a run
prints the same table every time.

    python examples/random_vs_planner.py --games 20
"""
from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import balance3d.envs
from balance3d.games import game_names

#: The discrete grid the agent plays on (release points per axis, yaws).
GRID = {"grid_points": 2, "grid_yaws": 2}


def play(env_id: str, seed: int, max_cycles: int) -> dict[str, float]:
    """One game: the agent's summed reward, whether it won, whether the attempts
    cap cut the game, and the agent's actions."""
    env = gymnasium.make(env_id, opponents="planner", max_cycles=max_cycles, **GRID)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    total, actions = 0.0, 0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        # no grid entry legal (a drop the grid cannot place): an illegal attempt,
        # and again, until the attempts cap cuts the game
        action = int(rng.choice(legal)) if len(legal) else 0
        obs, reward, terminated, truncated, _ = env.step(action)
        total, actions = total + reward, actions + 1
        if terminated or truncated:
            break
    state = env.unwrapped.aec.state
    env.close()
    won = state.is_over and 0 in state.outcome.winners
    return {"reward": total, "won": float(won), "cut": float(truncated), "actions": actions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game (default 20)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--game", choices=game_names(), action="append",
                        help="only this game (repeatable; default every game)")
    parser.add_argument("--max-cycles", type=int, default=1000,
                        help="attempts cap of each game (default 1000)")
    args = parser.parse_args(argv)
    print("game         games  agent wins  mean reward  cut by the cap  mean agent actions")
    for game in args.game or game_names():
        runs = [play(balance3d.envs.gym_id(game), args.first_seed + k, args.max_cycles)
                for k in range(args.games)]
        mean = {key: float(np.mean([r[key] for r in runs])) for key in runs[0]}
        print(f"{game:<12} {args.games:>5}  {int(mean['won'] * args.games):>10}  "
              f"{mean['reward']:>11.3f}  {int(mean['cut'] * args.games):>14}  "
              f"{mean['actions']:>18.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
