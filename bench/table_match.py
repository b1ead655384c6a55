"""Level against level at a table of 3-6 players on duplicate deals, the first level's seat
rotated.

Each deal (a game seed: the same cards, cuts and starters hand by hand for as long as the games
agree) is played once with the first level in each seat and the second level in every other
seat, so that both levels sit in every seat on the same cards. Prints the first level's win
rate (1 / players if the levels were equal) and its points per hand less the average other
seat's, each with a 95% interval that treats a deal (its games together) as one observation.
`hard-lead` is `hard` whose play search knows only the leading other side's score
(service/simulation/lead_side.py), a yardstick that is not a public level.

    python bench/table_match.py hard hard-lead --players 3 --deals 300 --workers 2

An interrupt (Ctrl-C, or SIGINT to the first process) stops it and reports the deals finished.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.simulation.selfplay import PLAYERS, play_game  # noqa: E402
from service.engine import GameOptions  # noqa: E402


def play_deal(args) -> list[tuple[bool, float, int]]:
    """The games of deal `index`, the first level in seat 0, 1, ...: for each, whether it won,
    its points less the average other seat's, and the hands dealt."""
    first, second, players, index, target, salt = args
    seed = f"{salt}:{index}".encode()
    options = GameOptions(players=players, target=target)
    results = []
    for seat in range(players):
        levels = tuple(first if other == seat else second for other in range(players))
        game = play_game(options, seed, levels, random.Random(f"{salt}:{index}:{seat}"))
        others = [score for other, score in enumerate(game.scores) if other != seat]
        results.append((game.winner == seat, game.scores[seat] - sum(others) / len(others),
                        game.hands))
    return results


def mean_and_half(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-interval (normal)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, 1.96 * math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)


def summarise(first: str, second: str, players: int, deals: list[list[tuple]],
              seconds: float) -> str:
    games = sum(len(deal) for deal in deals)
    win, win_half = mean_and_half([sum(won for won, _, _ in deal) / len(deal) for deal in deals])
    gain, gain_half = mean_and_half([sum(points for _, points, _ in deal)
                                     / sum(hands for _, _, hands in deal) for deal in deals])
    return "\n".join([
        f"{first} (one seat) vs {second} ({players - 1} seats), {players} players: {games} "
        f"games on {len(deals)} duplicate deals in {seconds:.0f} s",
        f"{first} win rate {win:.2%}  95% CI [{win - win_half:.2%}, {win + win_half:.2%}] "
        f"(equal levels: {1 / players:.2%})",
        f"{first}'s points per hand less the average other seat's {gain:+.3f}  95% CI "
        f"[{gain - gain_half:+.3f}, {gain + gain_half:+.3f}]",
    ])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", choices=sorted(PLAYERS))
    parser.add_argument("second", choices=sorted(PLAYERS))
    parser.add_argument("--players", type=int, default=3, choices=range(3, 7))
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals")
    parser.add_argument("--target", type=int, default=121)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--salt", default="bench-table")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop after this long and report the deals finished by then")
    args = parser.parse_args(argv)
    jobs = [(args.first, args.second, args.players, index, args.target, args.salt)
            for index in range(args.deals)]
    started = time.perf_counter()
    deals = []
    with Pool(args.workers) as pool:
        try:
            for deal in pool.imap(play_deal, jobs, chunksize=1):
                deals.append(deal)
                if args.max_seconds and time.perf_counter() - started > args.max_seconds:
                    break
        except KeyboardInterrupt:  # an interrupt (kill -INT) reports the deals finished
            pass
        pool.terminate()
    print(summarise(args.first, args.second, args.players, deals,
                    time.perf_counter() - started))


if __name__ == "__main__":
    main()
