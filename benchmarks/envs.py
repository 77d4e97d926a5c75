"""The environments' cost (the ``envs`` section of ``python -m benchmarks``).

Per game, the moves of seeded 2-player games of the random bot (decisions
included) are played again from their saved states three ways, interleaved:

* ``State.apply`` directly (the physics caches emptied before each side);
* through the AEC environment: ``BalanceEnv.play`` (legality, the move, rewards,
  terminations) and the observation vector, without the action mask;
* the discrete action mask alone (``BalanceEnv.action_mask``, default grid; wall
  and CPU time).

The figures: environment steps per second (one agent action, physics included),
the overhead of the environment over ``State.apply`` (summed CPU times of the
process, in %: on a shared machine the wall time follows the load, the CPU time
much less), and the mask's own time per step.  Then ``gymnasium.vector.AsyncVectorEnv`` of
``balance3d/Tribalance-v0`` (random opponents) steps with 1 and with 2 workers:
the scaling is 2 workers' steps per second over 1 worker's.

    python -m benchmarks.envs [--moves N] [--vector-steps N]
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import gymnasium
import numpy as np

import balance3d.envs as envs
from balance3d.bots import make_bot
from balance3d.games import game_names, new_game
from balance3d.games.base import Action
from balance3d.physics import clear_caches

#: Seats of the games the moves come from.
PLAYERS = 2
#: Most moves whose action mask is timed per game (the mask is the slow part).
MASK_MOVES = 10
#: Steps of each vector environment run (after its reset) when run alone; the
#: ``envs`` section of ``python -m benchmarks`` steps it as many times as it times moves.
VECTOR_STEPS = 20


def random_moves(game: str, count: int) -> list[tuple[str, Action]]:
    """``count`` (saved state JSON, action) pairs from seeded random-bot games."""
    moves: list[tuple[str, Action]] = []
    seed = 0
    while len(moves) < count:
        state = new_game(game, players=PLAYERS, seed=seed)
        bots = [make_bot("random", seed, s, game) for s in range(PLAYERS)]
        while not state.is_over and len(moves) < count:
            action = bots[state.current_player].choose(state)
            moves.append((json.dumps(state.to_dict()), action))
            state.apply(action)
        seed += 1
    return moves


def time_game(game: str, count: int) -> dict:
    """The three timings of ``count`` moves of ``game`` (s, per move)."""
    env = getattr(envs, f"{game}_v0").raw_env(players=PLAYERS)
    env.reset(seed=0)
    cls = env.state.__class__
    direct, through, mask, mask_cpu, direct_cpu, through_cpu = [], [], [], [], [], []
    for k, (saved, action) in enumerate(random_moves(game, count)):
        state = cls.from_dict(json.loads(saved), scene=env.scene)
        _ = state.world                      # a game keeps its World between turns
        clear_caches()                       # both sides start cold
        start, cpu = time.perf_counter(), time.process_time()
        state.apply(action)
        direct.append(time.perf_counter() - start)
        direct_cpu.append(time.process_time() - cpu)
        env.reset(seed=0)
        env.state = cls.from_dict(json.loads(saved), scene=env.scene)
        _ = env.state.world
        env.agent_selection = env.possible_agents[env.state.current_player]
        env._scores = tuple(float(s) for s in env.state.scores)
        env._version += 1
        clear_caches()
        if k < MASK_MOVES:
            start, cpu = time.perf_counter(), time.process_time()
            env.action_mask()
            mask.append(time.perf_counter() - start)
            mask_cpu.append(time.process_time() - cpu)
        clear_caches()
        start, cpu = time.perf_counter(), time.process_time()
        env.play(action)
        env.encoding.observe(env.state)
        through.append(time.perf_counter() - start)
        through_cpu.append(time.process_time() - cpu)
    return {"moves": count, "direct_s": direct, "env_s": through, "mask_s": mask,
            "env_steps_per_s": count / sum(through),
            "overhead_pct": 100.0 * (sum(through_cpu) / sum(direct_cpu) - 1.0),
            "wall_overhead_pct": 100.0 * (sum(through) / sum(direct) - 1.0),
            "mask_median_s": statistics.median(mask), "mask_cpu_s": mask_cpu,
            "mask_cpu_median_s": statistics.median(mask_cpu),
            "n_discrete": env.encoding.n_discrete}


def vector_steps_per_s(workers: int, steps: int) -> float:
    """Environment steps per second of an AsyncVectorEnv of ``workers``
    Tri-Ba-Lance environments (random opponents, a random legal action each)."""
    make = [lambda: gymnasium.make("balance3d/Tribalance-v0", opponents="random",
                                   grid_points=2, grid_yaws=1) for _ in range(workers)]
    vector = gymnasium.vector.AsyncVectorEnv(make)
    rng = np.random.default_rng(0)
    try:
        obs, _ = vector.reset(seed=list(range(workers)))
        start = time.perf_counter()
        for _ in range(steps):
            # a finished episode (mask all 0) is reset by the vector on its next step
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                       for m in obs["action_mask"]]
            obs, *_ = vector.step(np.array(actions))
        return workers * steps / (time.perf_counter() - start)
    finally:
        vector.close()


def measure_envs(moves: int, vector_steps: int = VECTOR_STEPS) -> dict:
    """Every figure of the section (see the module's docstring)."""
    games = {game: time_game(game, moves) for game in game_names()}
    one = vector_steps_per_s(1, vector_steps)
    two = vector_steps_per_s(2, vector_steps)
    return {"games": games, "vector": {"steps": vector_steps, "one_worker_steps_per_s": one,
                                       "two_workers_steps_per_s": two, "scaling": two / one}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20, help="moves timed per game")
    parser.add_argument("--vector-steps", type=int, default=VECTOR_STEPS)
    args = parser.parse_args(argv)
    figures = measure_envs(args.moves, args.vector_steps)
    for game, f in figures["games"].items():
        print(f"{game}: {f['env_steps_per_s']:.1f} env steps/s, overhead over State.apply "
              f"{f['overhead_pct']:+.1f} % CPU time ({f['wall_overhead_pct']:+.1f} % wall), "
              f"mask {f['mask_median_s'] * 1e3:.0f} ms median "
              f"(CPU {f['mask_cpu_median_s'] * 1e3:.0f} ms) "
              f"({f['n_discrete']} actions)")
    v = figures["vector"]
    print(f"AsyncVectorEnv: 1 worker {v['one_worker_steps_per_s']:.1f} steps/s, 2 workers "
          f"{v['two_workers_steps_per_s']:.1f} steps/s, scaling {v['scaling']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
