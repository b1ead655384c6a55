"""Win probability: time to build a layout's tables for a target, then time per position query.

    python bench/position_speed.py --queries 2000 [--targets 121 61 1000] [--layouts 2 3 2x2]

For each layout and target: the first query, which builds the tables (two players: the exact
model's win table grown to the target and its game points' with standard skunk lines; other
layouts: the races' cycle tables), then `queries` random positions (scores below the target,
any dealer) in process; and each layout's positions for the first target through
POST /v1/analysis/position with the Flask test client. Prints p50, p99 and mean in ms.
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
from service.bots.side_race import layout_position_value  # noqa: E402
from service.config import Settings  # noqa: E402
from service.engine import GameOptions  # noqa: E402
from service.simulation.deal_scores import LAYOUTS  # noqa: E402


def positions(count: int, layout: str, target: int, seed: int) -> list[tuple]:
    players, teams = LAYOUTS[layout]
    sides = GameOptions(players=players, teams=teams).sides
    rng = random.Random(seed)
    return [(tuple(rng.randrange(target) for _ in range(sides)), rng.randrange(players))
            for _ in range(count)]


def in_process(players: int, teams: str | None, target: int):
    return lambda scores, dealer: layout_position_value(scores, dealer, players, teams, target)


def through_http(client, players: int, teams: str | None, target: int):
    def post(scores, dealer):
        response = client.post("/v1/analysis/position", json={
            "scores": list(scores), "dealer": dealer, "players": players, "teams": teams,
            "target": target})
        assert response.status_code == 200, response.get_data(as_text=True)
    return post


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--targets", type=int, nargs="+", default=[121, 61, 1000])
    parser.add_argument("--layouts", nargs="+", default=list(LAYOUTS), choices=list(LAYOUTS))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    client = create_app({"SETTINGS": Settings(rate_limit_enabled=False)}).test_client()
    for layout in args.layouts:
        players, teams = LAYOUTS[layout]
        for target in args.targets:
            asked = positions(args.queries, layout, target, args.seed)
            query = in_process(players, teams, target)
            started = time.perf_counter()
            query(*asked[0])
            print(f"{layout}: tables for target {target} built in "
                  f"{time.perf_counter() - started:.2f} s")
            print(summary(f"{layout} in-process, {target}", timed(
                lambda scores=scores, dealer=dealer, query=query: query(scores, dealer)
                for scores, dealer in asked)))
        post = through_http(client, players, teams, args.targets[0])
        print(summary(f"{layout} HTTP (test client), {args.targets[0]}", timed(
            lambda scores=scores, dealer=dealer, post=post: post(scores, dealer)
            for scores, dealer in positions(args.queries, layout, args.targets[0], args.seed))))


if __name__ == "__main__":
    main()
