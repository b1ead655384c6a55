"""The play search: time per pegging decision in process, by player count.

    python bench/pegging_speed.py --games 6 [--players 2 3 4 5 6] [--max-seconds 300]

The positions are decisions from real games: games between `medium` players (from --seed; they
do not search, so the search's caches start cold as in a fresh worker) are played and every play
decision with two or more cards that fit is collected as the seat saw it
(service.bots.players.play_position). Each is then searched once
(service.bots.pegging.analyse_play) and timed twice: wall clock, and the process's CPU time (on
a machine shared with other work, the CPU time is what the search itself costs). Prints p50,
p99 and mean in milliseconds.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.bots import LEVELS  # noqa: E402
from service.bots.pegging import analyse_play  # noqa: E402
from service.bots.players import play_position  # noqa: E402
from service.engine import GameOptions, LegalPlay, apply, new_game, to_act, view  # noqa: E402


def decisions(players: int, games: int, seed: str) -> list:
    """Every play decision with a choice that `medium` players meet in `games` games."""
    found = []
    rng = random.Random(seed)
    for game in range(games):
        state = new_game(GameOptions(players=players), f"{seed}:{players}:{game}".encode())
        while state.phase != "game_over":
            seat = to_act(state)[0]
            seat_view = view(state, seat)
            legal = next((o for o in seat_view.legal_actions if isinstance(o, LegalPlay)), None)
            if legal is not None and len(legal.cards) > 1:
                found.append(play_position(seat_view))
            state, _ = apply(state, LEVELS["medium"].choose(seat_view, rng), 0.0)
    return found


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return (f"{name:<26} n={len(ms):<5} p50 {statistics.median(ms):7.2f} ms   p99 {p99:7.2f} ms"
            f"   mean {statistics.fmean(ms):7.2f} ms")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--seed", default="bench-pegging")
    parser.add_argument("--max-seconds", type=float, default=600,
                        help="stop timing after this long and report what was timed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    for players in args.players:
        positions = decisions(players, args.games, args.seed)
        wall, cpu = [], []
        for position in positions:
            if time.perf_counter() - started > args.max_seconds:
                break
            wall_start, cpu_start = time.perf_counter(), time.process_time()
            analyse_play(position)
            cpu.append(time.process_time() - cpu_start)
            wall.append(time.perf_counter() - wall_start)
        if wall:
            print(summary(f"{players} players, wall", wall))
            print(summary(f"{players} players, CPU", cpu))


if __name__ == "__main__":
    main()
