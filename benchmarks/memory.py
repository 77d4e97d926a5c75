"""``python -m benchmarks.memory --games N``: the resident memory of one process that
plays N seeded bot games, one after another, of every game, variant and player
count in turn (every fourth seat a planner, the others random, each game cut at
:data:`MOST_ACTIONS` actions).

After each game it prints the process's resident set (RSS, MB) with the game's
state and bots dropped, again once the freed heap is handed back (as the next
``new_game`` does: :func:`balance3d.physics.heap.release_freed_memory`), and its
peak so far (the kernel's VmHWM, MB).  Linux only (it reads /proc/self/status).
"""
from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from balance3d.bots import make_bot
from balance3d.games import game_names, get_game, new_game
from balance3d.physics.heap import release_freed_memory

#: Actions after which a game is cut (its peak comes in its first turns' searches).
MOST_ACTIONS = 25
#: Every how many seats one is a planner.
PLANNER_EVERY = 4


def resident_mb() -> tuple[float, float]:
    """(RSS, peak RSS) of this process, MB."""
    fields = dict(line.split(":", 1) for line in
                  Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))


def configurations() -> list[tuple[str, str, int]]:
    """(game, variant, players) of every game, variant and player count."""
    return [(g, v, n) for g in game_names() for v in get_game(g).variants
            for n in get_game(g).player_counts(v)]


def play(index: int, game: str, variant: str, players: int) -> int:
    """Play game ``index`` (its seed) to its end or :data:`MOST_ACTIONS`; its actions."""
    bots = ["planner" if (index + s) % PLANNER_EVERY == 0 else "random"
            for s in range(players)]
    state = new_game(game, players=players, seed=index, bots=bots, variant=variant)
    seats = [make_bot(b, index, s, game=game) for s, b in enumerate(bots)]
    actions = 0
    while not state.is_over and actions < MOST_ACTIONS:
        state.apply(seats[state.current_player].choose(state))
        actions += 1
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, metavar="N")
    args = parser.parse_args(argv)
    configs = configurations()
    start = time.perf_counter()
    for index in range(args.games):
        game, variant, players = configs[index % len(configs)]
        actions = play(index, game, variant, players)
        gc.collect()
        ended, _ = resident_mb()
        release_freed_memory()
        rss, peak = resident_mb()
        print(f"game {index + 1}: {game} {variant} {players} players, {actions} actions; "
              f"RSS {ended:.0f} MB, {rss:.0f} MB released, peak {peak:.0f} MB, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
