"""Win probability: time to build a target's tables, then time per position query.

    python bench/position_speed.py --queries 2000 [--targets 121 61 1000]

For each target: the build of its tables (the win table grown to it, the game points' with
standard skunk lines), then `queries` random
positions (scores below the target, either dealer) in process, and the first target's positions
through POST /v1/analysis/position with the Flask test client. Prints p50, p99 and mean in ms.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.discard_speed import summary, timed  # noqa: E402
from service.api import create_app  # noqa: E402
from service.bots.win_probability import (game_point_tables, position_value,  # noqa: E402
                                          win_table)
from service.config import Settings  # noqa: E402


def positions(count: int, target: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    return [((rng.randrange(target), rng.randrange(target)), rng.randrange(2))
            for _ in range(count)]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--targets", type=int, nargs="+", default=[121, 61, 1000])
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for target in args.targets:
        started = time.perf_counter()
        win_table(target)
        game_point_tables(target, "standard")
        print(f"tables for target {target} built in {time.perf_counter() - started:.2f} s")
        asked = positions(args.queries, target, args.seed)
        print(summary(f"in-process, target {target}", timed(
            lambda scores=scores, dealer=dealer: position_value(scores, dealer, target)
            for scores, dealer in asked)))
    client = create_app({"SETTINGS": Settings(rate_limit_enabled=False)}).test_client()
    target = args.targets[0]

    def post(scores, dealer):
        response = client.post("/v1/analysis/position",
                               json={"scores": list(scores), "dealer": dealer, "target": target})
        assert response.status_code == 200, response.get_data(as_text=True)

    print(summary(f"HTTP (test client), {target}", timed(
        lambda scores=scores, dealer=dealer: post(scores, dealer)
        for scores, dealer in positions(args.queries, target, args.seed))))


if __name__ == "__main__":
    main()
