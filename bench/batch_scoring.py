"""Shows per second through POST /v1/show/batch (gunicorn, one and sixteen connections) against
the library: the vectorised scorer on card indexes, and `show_totals` on Cards.

Starts gunicorn with deploy/gunicorn.conf.py on a free loopback port (rate limits raised out of
the way), sends batches of random shows for `--seconds` per connection count, prints shows/s,
then stops gunicorn.

    python bench/batch_scoring.py [--batch 10000] [--seconds 10] [--connections 1 16]
"""
from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from service.cards import Card  # noqa: E402
from service.scoring.batch import show_totals  # noqa: E402
from service.scoring.fast import score_hands  # noqa: E402
from tests.ops.gunicorn_server import GunicornServer  # noqa: E402

DECK = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "SHDC"]


def random_shows(count: int, rng: random.Random) -> list[tuple[list[Card], Card, bool]]:
    shows = []
    for _ in range(count):
        cards = rng.sample(DECK, 5)
        shows.append((cards[:4], cards[4], rng.random() < 0.25))
    return shows


def per_second(work, seconds: float) -> float:
    """How many times a second `work` runs, over about `seconds`."""
    done, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        work()
        done += 1
    return done / elapsed


def library_rates(shows, seconds: float) -> tuple[float, float]:
    hands = np.array([[card.index for card in hand] for hand, _, _ in shows])
    starters = np.array([starter.index for _, starter, _ in shows])
    vectorised = per_second(lambda: score_hands(hands, starters), seconds) * len(shows)
    from_cards = per_second(lambda: show_totals(shows), seconds) * len(shows)
    return vectorised, from_cards


def http_rate(server: GunicornServer, body: bytes, shows: int, connections: int,
              seconds: float) -> float:
    """Shows/s with `connections` clients each sending batches back to back (keep-alive)."""
    counts = [0] * connections
    deadline = time.perf_counter() + seconds

    def client(number: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        while time.perf_counter() < deadline:
            connection.request("POST", "/v1/show/batch", body,
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            answer = response.read()
            if response.status != 200:
                raise RuntimeError(f"{response.status}: {answer[:200]!r}")
            counts[number] += 1
        connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) * shows / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    shows = random_shows(args.batch, random.Random(1))
    body = json.dumps({"shows": [
        {"hand": [card.text for card in hand], "starter": starter.text, "crib": crib}
        for hand, starter, crib in shows]}).encode()
    vectorised, from_cards = library_rates(shows, min(args.seconds, 5.0))
    print(f"batch of {args.batch} shows, {len(body) / 1024:.0f} KiB")
    print(f"library, vectorised on card indexes: {vectorised:12,.0f} shows/s")
    print(f"library, show_totals on Cards:       {from_cards:12,.0f} shows/s")
    server = GunicornServer({"CRIBBAGE_RATE_LIMIT": "1000000/minute"}).start()
    try:
        for connections in args.connections:
            rate = http_rate(server, body, args.batch, connections, args.seconds)
            print(f"HTTP, {connections:2d} connection(s):            {rate:12,.0f} shows/s")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
