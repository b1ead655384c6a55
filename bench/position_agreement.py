"""The win probability at the start of a game against `hard`'s self-play: who really wins.

    python bench/position_agreement.py --layouts 3 2x2 --games 400 [--target 121]

For each layout, `games` games of `hard` against itself from 0-0 with seat 0 dealing first
(the game option first_dealer; different seeds from the data's), counted by the winning side,
beside the model's chance for each side (service.bots.side_race.layout_position_value) and a
95% interval for the observed rate. Also the share of games won with a skunk against the
model's expected game points. Prints as it goes (--max-seconds stops early).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.bots.side_race import layout_position_value  # noqa: E402
from service.engine import GameOptions  # noqa: E402
from service.simulation.deal_scores import LAYOUTS  # noqa: E402
from service.simulation.selfplay import play_game  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", nargs="+", default=["3", "2x2"], choices=list(LAYOUTS))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--target", type=int, default=121)
    parser.add_argument("--seed", default="agreement-1")
    parser.add_argument("--max-seconds", type=float, default=None, help="per layout")
    args = parser.parse_args(argv)
    for layout in args.layouts:
        players, teams = LAYOUTS[layout]
        options = GameOptions(players=players, teams=teams, target=args.target, first_dealer=0)
        sides = options.sides
        model = layout_position_value((0,) * sides, 0, players, teams, args.target)
        wins, game_points = [0] * sides, [0] * sides
        started = time.perf_counter()
        played = 0
        for game in range(args.games):
            seed = f"{args.seed}:{layout}:{game}"
            result = play_game(options, seed.encode(), ("hard",) * players, random.Random(seed))
            wins[result.winner] += 1
            game_points[result.winner] += sum(1 + level for side, level
                                              in enumerate(result.skunks)
                                              if side != result.winner)
            played += 1
            if args.max_seconds and time.perf_counter() - started > args.max_seconds:
                break
        print(f"{layout}: {played} games in {time.perf_counter() - started:.0f} s, seat 0 "
              f"deals first")
        for side in range(sides):
            rate = wins[side] / played
            half = 1.96 * math.sqrt(rate * (1 - rate) / played)
            print(f"  side {side}: won {rate:.3f} (95% {rate - half:.3f}-{rate + half:.3f}), "
                  f"model {model.win[side]:.3f}; game points {game_points[side] / played:.3f}, "
                  f"model {model.game_points[side]:.3f}")


if __name__ == "__main__":
    main()
