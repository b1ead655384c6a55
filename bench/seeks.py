"""Seeks paired per second, and the pairing latency, with 1,000 seekers waiting in the pool.

For the embedded store and a redis-server it starts on a free loopback port, through the app
(Flask test client, rate limits off): `--waiting` players seek a 2-player game with a rating
range of 0 and ratings 1,000 apart (none pairs, even widened by the wait), then `--pairs` newcomers each seek with
the rating of one waiting seeker: each POST /v1/seeks pairs it at once, in the request (one
pairing round over the whole pool: read its open seeks, pair, take the two, create the game).
Prints the newcomers paired per second and the p50/p99 of their POST in milliseconds (the
pairing latency: from the seek made to its game created).

    python bench/seeks.py [--waiting 1000] [--pairs 200]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.config import Settings  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402


def measure(store, waiting: int, pairs: int) -> None:
    settings = Settings(rate_limit_enabled=False, max_live_games_per_client=0,
                        max_live_games_per_player=0)
    app = create_app({"TESTING": True, "GAME_STORE": store, "SETTINGS": settings})
    seeks = app.extensions["cribbage.seeks"]
    ratings: dict[str, int] = {}
    seeks.rating = lambda player, fmt: ratings[player.player_id]
    client = app.test_client()

    def seeker(rating: int) -> dict:
        player = client.post("/v1/players", json={}).get_json()
        ratings[player["player_id"]] = rating
        return {"Authorization": f"Bearer {player['token']}"}

    body = {"players": 2, "options": {"target": 61}, "rating_range": 0}
    for number in range(waiting):
        response = client.post("/v1/seeks", json=body, headers=seeker(number * 1000))
        assert response.get_json()["status"] == "open"
    newcomers = [seeker(number * 1000) for number in range(pairs)]
    latencies = []
    started = time.perf_counter()
    for headers in newcomers:
        begun = time.perf_counter()
        response = client.post("/v1/seeks", json=body, headers=headers)
        latencies.append((time.perf_counter() - begun) * 1000)
        assert response.get_json()["status"] == "paired", response.get_json()
    elapsed = time.perf_counter() - started
    print(f"  {pairs / elapsed:7.1f} seekers paired/s; pairing latency "
          f"p50 {median(latencies):6.2f} ms, p99 {quantiles(latencies, n=100)[-1]:6.2f} ms "
          f"({waiting} waiting at first, {waiting - pairs} at the end)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=200)
    options = parser.parse_args()
    print("embedded store:")
    measure(MemoryGameStore(3600), options.waiting, options.pairs)
    redis = RedisServer().start()
    try:
        print("redis-server:")
        store = RedisGameStore(redis.url + "/0", 3600)
        measure(store, options.waiting, options.pairs)
        store.close()
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
