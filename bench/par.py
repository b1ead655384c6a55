"""Self-play par: points the dealer and the pone score per deal when a level plays itself.

    python bench/par.py --level hard --games 40 [--max-seconds 600]

Two-player games to 1000 (far from any endgame play) between copies of one level, every deal
but the unfinished last tallied (service.simulation.deal_scores records them): the play (with
heels) and the show (the hand, and the crib for the dealer) for each role. Colvert's par,
which strong programs reproduce, is about 16.2 for the dealer and 10.2 for the pone. Prints
each mean with its 95% interval.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.simulation.deal_scores import play_deals  # noqa: E402
from service.simulation.selfplay import PLAYERS  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", default="par")
    parser.add_argument("--max-seconds", type=float, default=None)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    deals = play_deals(args.level, args.games, args.seed, args.max_seconds)
    print(f"{args.level} self-play: {len(deals)} deals in {time.perf_counter() - started:.0f} s")
    columns = {
        "dealer": lambda deal: deal.pegged("dealer") + deal.dealer_show,
        "pone": lambda deal: deal.pegged("pone") + deal.pone_show,
        "dealer play": lambda deal: deal.pegged("dealer"),
        "dealer hand": lambda deal: deal.dealer_show - deal.dealer_crib,
        "dealer crib": lambda deal: deal.dealer_crib,
        "pone play": lambda deal: deal.pegged("pone"),
        "pone hand": lambda deal: deal.pone_show,
    }
    n = len(deals)
    for name, points in columns.items():
        values = [points(deal) for deal in deals]
        mean = sum(values) / n
        half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
        print(f"{name:<12} {mean:6.2f} ± {half:.2f} points per deal")


if __name__ == "__main__":
    main()
