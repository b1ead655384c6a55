"""Write service/bots/kept_hands_table.py: how strongly the `hard` discard favours each kind of
kept hand, per player count and role (see service/bots/kept_hands.py).

    .venv/bin/python scripts/kept_hands.py --deals 3000 > service/bots/kept_hands_table.py

For each player count and role, `--deals` hands are dealt from a seeded shuffle. The `hard`
discard's kept hand is counted in the bucket of its points without a starter; every possible
discard of the same hand adds 1 / (number of discards) to the random discard's buckets. The
ratio of the two shares (each bucket with one pseudo-count, so no bucket is 0) is the weight.
The output is the same for the same --deals and --seed.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from itertools import combinations

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.bots.discard import analyse_discard, deal_shape  # noqa: E402
from service.cards import DECK  # noqa: E402
from service.scoring import rank_points  # noqa: E402

TOP_BUCKET = 16


def ratios(players: int, dealer: bool, deals: int, rng: random.Random) -> list[float]:
    shape = deal_shape(players, dealer)
    chosen = [0.0] * (TOP_BUCKET + 1)
    uniform = [0.0] * (TOP_BUCKET + 1)
    for _ in range(deals):
        hand = tuple(rng.sample(DECK, shape.dealt))
        best = analyse_discard(hand, players=players, own_crib=dealer)[0]
        chosen[_bucket(best.keep)] += 1
        discards = list(combinations(hand, shape.discards))
        for discard in discards:
            uniform[_bucket([card for card in hand if card not in discard])] += 1 / len(discards)
    chosen_total, uniform_total = sum(chosen) + len(chosen), sum(uniform) + len(uniform)
    return [round(((c + 1) / chosen_total) / ((u + 1) / uniform_total), 4)
            for c, u in zip(chosen, uniform)]


def _bucket(cards) -> int:
    return min(rank_points(tuple(sorted(card.rank for card in cards))), TOP_BUCKET)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", default="kept-hands")
    args = parser.parse_args(argv)
    table = {}
    for players in range(2, 7):
        for dealer in (False, True):
            if deal_shape(players, dealer).discards:
                rng = random.Random(f"{args.seed}:{players}:{dealer}")
                table[(players, dealer)] = ratios(players, dealer, args.deals, rng)
    print('"""Made by scripts/kept_hands.py --deals {} --seed {}: do not edit."""'.format(
        args.deals, args.seed))
    print(f"TOP_BUCKET = {TOP_BUCKET}")
    print("LIKELIHOOD_RATIOS = {")
    for key, row in table.items():
        print(f"    {key}: {row},")
    print("}")


if __name__ == "__main__":
    main()
