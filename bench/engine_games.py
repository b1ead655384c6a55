"""Benchmark: random full games per second played by the rules engine alone (no HTTP, no store).

    python bench/engine_games.py [--games N] [--seed S]

For 2, 3, 4 and 6 players (auto counting, target 121) it prints:
- random games/s: new_game + random legal actions (service.simulation.random_games) + apply;
- replay games/s: the same games replayed from seed + action list (apply alone);
- actions per game, microseconds per applied action and CPU milliseconds per replayed game
  (process time: less sensitive than wall time to other work on a busy machine).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.engine import GameOptions
from service.simulation.random_games import play_random_game, replay


def bench(players: int, games: int, seed: int) -> dict:
    options = GameOptions(players=players)
    rng = random.Random(seed)
    started = time.perf_counter()
    played = [(b"bench %d" % n, play_random_game(options, b"bench %d" % n, rng))
              for n in range(games)]
    random_seconds = time.perf_counter() - started
    actions = sum(len(game.actions) for _, game in played)
    started, cpu_started = time.perf_counter(), time.process_time()
    for game_seed, game in played:
        replay(options, game_seed, game.actions)
    replay_seconds = time.perf_counter() - started
    replay_cpu = time.process_time() - cpu_started
    return {"players": players, "random_per_s": games / random_seconds,
            "replay_per_s": games / replay_seconds, "actions": actions / games,
            "us_per_action": replay_seconds / actions * 1e6,
            "cpu_ms_per_game": replay_cpu / games * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.games} games per row, target 121, auto count")
    print(f"{'players':>7} {'random games/s':>15} {'replay games/s':>15} {'actions/game':>13} "
          f"{'us/action':>10} {'replay cpu ms/game':>19}")
    for players in (2, 3, 4, 6):
        row = bench(players, args.games, args.seed)
        print(f"{row['players']:>7} {row['random_per_s']:>15.1f} {row['replay_per_s']:>15.1f} "
              f"{row['actions']:>13.1f} {row['us_per_action']:>10.1f} "
              f"{row['cpu_ms_per_game']:>19.2f}")


if __name__ == "__main__":
    main()
