"""The example scripts, each on one short game."""
import importlib.util
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["--games", "1", "--game", "tribalance", "--max-cycles", "6"]


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table_row(out, game):
    rows = [line.split() for line in out.splitlines() if line.startswith(game)]
    assert len(rows) == 1, out
    return rows[0]


def test_random_vs_planner_plays_one_short_game(capsys):
    assert load("random_vs_planner").main(SHORT) == 0
    row = table_row(capsys.readouterr().out, "tribalance")
    assert row[1] == "1" and row[2] in ("0", "1")
    # 6 attempts of two seats: the agent made between 1 and 6 of them
    assert 1 <= float(row[5]) <= 6


def test_greedy_lookahead_plays_one_short_game(capsys):
    assert load("greedy_lookahead").main(SHORT + ["--candidates", "3"]) == 0
    row = table_row(capsys.readouterr().out, "tribalance")
    assert row[1] == "1"


def test_the_look_ahead_picks_the_best_of_what_it_tries():
    greedy = load("greedy_lookahead")
    import balance3d.envs as envs
    env = envs.tribalance_v0.raw_env(grid_points=1, grid_yaws=1)
    env.reset(seed=0)
    tried = greedy.candidates_of(env, np.random.default_rng(0), 4)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert len(set(tried)) == 4 and all(mask[i] for i in tried)
    chosen = greedy.look_ahead(env, tried)
    seat = env.state.current_player

    def after(index):
        trial = env.state.clone()
        trial.apply(env.encoding.discrete(trial, int(index)))
        return -np.inf if seat in env.encoding.out(trial) else trial.scores[seat]
    assert chosen in tried and after(chosen) == max(after(i) for i in tried)
