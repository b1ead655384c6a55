"""Discard analysis (uniform and role-weighted crib): time per dealt hand, in-process and over HTTP.

    python bench/discard_speed.py --hands 500 [--gunicorn] [--players 2 3 4 5 6]

A fixed set of dealt hands (from --seed) is analysed in-process (after the rank tables and the
crib tables are built once, which is timed separately), then through POST /v1/analysis/discard
with the Flask test client, and with --gunicorn through a gunicorn worker started on a free
loopback port (keep-alive connection; rate limits off). Hands alternate between the crib's
owner and another seat. With more players than 2, in-process only (the dealer's and the
others' hands alternate). Prints p50, p99 and mean in milliseconds; in process also the
process's CPU time per hand (on a machine shared with other work, what the analysis itself
costs).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.api import create_app  # noqa: E402
from service.bots.discard import analyse_discard, deal_shape, warm  # noqa: E402
from service.cards import DECK  # noqa: E402
from service.config import Settings  # noqa: E402
from tests.ops.gunicorn_server import GunicornServer  # noqa: E402


def dealt_hands(count: int, seed: int, players: int = 2) -> list[list]:
    """Hands of the crib's owner (even indexes: the dealer's size) and of other seats."""
    rng = random.Random(seed)
    return [rng.sample(DECK, deal_shape(players, dealer=index % 2 == 0).dealt)
            for index in range(count)]


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return (f"{name:<28} n={len(ms):<5} p50 {statistics.median(ms):7.2f} ms   p99 {p99:7.2f} ms"
            f"   mean {statistics.fmean(ms):7.2f} ms")


def timed(calls) -> list[float]:
    times = []
    for call in calls:
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def in_process(hands, players: int = 2) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds per hand."""
    wall, cpu = [], []
    for index, hand in enumerate(hands):
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        analyse_discard(hand, players=players, own_crib=index % 2 == 0)
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
    return wall, cpu


def bodies(hands) -> list[dict]:
    return [{"hand": [str(card) for card in hand], "own_crib": index % 2 == 0}
            for index, hand in enumerate(hands)]


def test_client(hands) -> list[float]:
    client = create_app({"SETTINGS": Settings(rate_limit_enabled=False)}).test_client()

    def post(body):
        response = client.post("/v1/analysis/discard", json=body)
        assert response.status_code == 200, response.get_data(as_text=True)

    return timed(lambda body=body: post(body) for body in bodies(hands))


def gunicorn(hands) -> list[float]:
    """One keep-alive connection to gunicorn (deploy/gunicorn.conf.py, the embedded store)."""
    server = GunicornServer({"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_REDIS_URL": None},
                            workers=1, threads=1).start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

        def post(body):
            connection.request("POST", "/v1/analysis/discard", json.dumps(body),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            assert response.status == 200, response.status

        post(bodies(hands[:1])[0])  # the worker builds its rank tables
        return timed(lambda body=body: post(body) for body in bodies(hands))
    finally:
        server.stop()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--gunicorn", action="store_true", help="also time a gunicorn worker")
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    args = parser.parse_args(argv)
    for players in args.players:
        hands = dealt_hands(args.hands, args.seed, players)
        started = time.perf_counter()
        warm(players)
        print(f"tables for {players} players built in "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        wall, cpu = in_process(hands, players)
        print(summary(f"in-process, {players} players", wall))
        print(summary(f"  CPU, {players} players", cpu))
    if 2 not in args.players:
        return
    hands = dealt_hands(args.hands, args.seed)
    print(summary("HTTP (Flask test client)", test_client(hands)))
    if args.gunicorn:
        print(summary("HTTP (gunicorn, loopback)", gunicorn(hands)))


if __name__ == "__main__":
    main()
