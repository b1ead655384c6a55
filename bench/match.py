"""Level against level on duplicate deals: two-player games to the target, luck cancelled.

Each deal (a game seed) is played twice with the seats swapped, so both levels get the same
cards, cuts and starters hand by hand (for as long as the two games last). Prints the first
level's win rate with a 95% confidence interval, average points per hand (and the first
level's gain per hand, with its interval) and skunks. `baseline` is `hard` as it was before
issue 17 (service/simulation/baseline.py), a yardstick that is not a public level.

    python bench/match.py hard baseline --deals 5000 --workers 2 [--max-seconds 900]

The interval treats each deal (its pair of games) as one observation, the unit that is
independent under duplicate play; the plain binomial interval over games is printed too.
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


def play_deal(args) -> list[tuple]:
    """Both games of deal `index`: (first level's side, winner, scores, skunks, hands) each."""
    first, second, index, target, salt = args
    seed = f"{salt}:{index}".encode()
    options = GameOptions(target=target)
    results = []
    for levels, first_side in (((first, second), 0), ((second, first), 1)):
        rng = random.Random(f"{salt}:{index}:{first_side}")
        game = play_game(options, seed, levels, rng)
        results.append((first_side, game.winner, game.scores, game.skunks, game.hands,
                        game.pegging))
    return results


def summarise(first: str, second: str, deals: list[list[tuple]], seconds: float) -> str:
    games = [game for deal in deals for game in deal]
    wins = sum(winner == side for side, winner, *_ in games)
    per_deal = [sum(winner == side for side, winner, *_ in deal) / 2 for deal in deals]
    n, mean = len(per_deal), wins / len(games)
    deal_sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (n - 1)) if n > 1 else 0.0
    deal_half = 1.96 * deal_sd / math.sqrt(n)
    game_half = 1.96 * math.sqrt(mean * (1 - mean) / len(games))
    hands = sum(game[4] for game in games)
    # Gain per hand, per deal: the first level's points less the second's over both games.
    gain, gain_half = _per_hand_gain(deals, 2)
    pegging_gain, pegging_half = _per_hand_gain(deals, 5)
    points = {first: 0, second: 0}
    skunks = {first: 0, second: 0}
    pegging = {first: sum(game[5][game[0]] for game in games) / hands,
               second: sum(game[5][1 - game[0]] for game in games) / hands}
    for side, winner, scores, game_skunks, *_ in games:
        points[first] += scores[side]
        points[second] += scores[1 - side]
        loser = 1 - winner
        if game_skunks[loser]:
            skunks[first if winner == side else second] += 1
    lines = [
        f"{first} vs {second}: {len(games)} games on {n} duplicate deals in {seconds:.0f} s "
        f"({len(games) / seconds:.2f} games/s)",
        f"{first} win rate {mean:.2%}  95% CI [{mean - deal_half:.2%}, {mean + deal_half:.2%}]"
        f" (by deal; binomial over games [{mean - game_half:.2%}, {mean + game_half:.2%}])",
        f"average points per hand: {first} {points[first] / hands:.2f}, "
        f"{second} {points[second] / hands:.2f}; {first}'s gain per hand {gain:+.3f}"
        f"  95% CI [{gain - gain_half:+.3f}, {gain + gain_half:+.3f}] (by deal)",
        f"pegging points per hand: {first} {pegging[first]:.3f}, {second} {pegging[second]:.3f}"
        f"; {first}'s gain {pegging_gain:+.3f}  95% CI [{pegging_gain - pegging_half:+.3f}, "
        f"{pegging_gain + pegging_half:+.3f}] (by deal)",
        f"skunks given: {first} {skunks[first]}, {second} {skunks[second]}",
    ]
    return "\n".join(lines)


def _per_hand_gain(deals: list[list[tuple]], field: int) -> tuple[float, float]:
    """The first level's points (game[field]: the scores, or the pegging points) less the
    second's per hand, averaged by deal, and its 95% half-interval."""
    gains = [sum(game[field][game[0]] - game[field][1 - game[0]] for game in deal)
             / sum(game[4] for game in deal) for deal in deals]
    n = len(gains)
    mean = sum(gains) / n
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in gains) / (n - 1) / n) if n > 1 else 0.0
    return mean, half


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", choices=sorted(PLAYERS))
    parser.add_argument("second", choices=sorted(PLAYERS))
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals (2 games each)")
    parser.add_argument("--target", type=int, default=121)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--salt", default="bench-match")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop after this long and report the deals finished by then")
    args = parser.parse_args(argv)
    jobs = [(args.first, args.second, index, args.target, args.salt) for index in range(args.deals)]
    started = time.perf_counter()
    deals = []
    with Pool(args.workers) as pool:
        for deal in pool.imap(play_deal, jobs, chunksize=10):
            deals.append(deal)
            if args.max_seconds and time.perf_counter() - started > args.max_seconds:
                pool.terminate()
                break
    print(summarise(args.first, args.second, deals, time.perf_counter() - started))


if __name__ == "__main__":
    main()
