"""Seeks paired per second, and the pairing latency, with 1,000 seekers waiting in the pool.

For the embedded store and a redis-server it starts on a free loopback port, through the app
(Flask test client, rate limits off): `--waiting` players seek a 2-player game with a rating
range of 0 and ratings 1,000 apart (none pairs, even widened by the wait), then `--pairs`
newcomers each seek with the rating of one waiting seeker: each POST /v1/seeks pairs it at
once, in the request (one pairing round over the whole pool: read its open seeks, search them,
take the two, create the game). The search runs where a server runs it (`--compute server`):
for the embedded store in a compute process beside the app (CRIBBAGE_COMPUTE=local, as
`scripts/serve` does), on Redis in a compute worker (`python -m service.compute`) fed through
Redis; `--compute inline` searches in the app's process, as before pairing was a compute job.
Prints the newcomers paired per second, the p50/p99 of their POST in milliseconds (the
pairing latency: from the seek made to its game created) and the CPU the app's process (the
web worker) spent per newcomer paired.

    python bench/seeks.py [--waiting 1000] [--pairs 200] [--compute server|inline]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.api import create_app  # noqa: E402
from service.compute import ComputeTier, open_compute  # noqa: E402
from service.config import Settings, usable_cpus  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402


def measure(store, tier: ComputeTier, waiting: int, pairs: int) -> None:
    settings = Settings(rate_limit_enabled=False, max_live_games_per_client=0,
                        max_live_games_per_player=0)
    app = create_app({"TESTING": True, "GAME_STORE": store, "SETTINGS": settings,
                      "COMPUTE": tier})
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
    started, cpu_started = time.perf_counter(), time.process_time()
    for headers in newcomers:
        begun = time.perf_counter()
        response = client.post("/v1/seeks", json=body, headers=headers)
        latencies.append((time.perf_counter() - begun) * 1000)
        assert response.get_json()["status"] == "paired", response.get_json()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(f"  {pairs / elapsed:7.1f} seekers paired/s; pairing latency "
          f"p50 {median(latencies):6.2f} ms, p99 {quantiles(latencies, n=100)[-1]:6.2f} ms; "
          f"web worker CPU {cpu / pairs * 1000:5.2f} ms a newcomer "
          f"({waiting} waiting at first, {waiting - pairs} at the end)")


def running(tier: ComputeTier) -> ComputeTier:
    tier.start()
    return tier


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--compute", choices=("server", "inline"), default="server")
    options = parser.parse_args()
    inline = options.compute == "inline"
    print(f"embedded store ({'inline' if inline else 'compute processes beside it'}):")
    processes = usable_cpus()   # as a server starts them (CRIBBAGE_COMPUTE_PROCESSES)
    tier = ComputeTier() if inline else running(open_compute(
        Settings(compute="local", compute_processes=processes)))
    measure(MemoryGameStore(3600), tier, options.waiting, options.pairs)
    tier.close()
    redis = RedisServer().start()
    workers = [] if inline else [subprocess.Popen(
        [sys.executable, "-m", "service.compute"],
        env={**os.environ, "CRIBBAGE_REDIS_URL": redis.url + "/0"}) for _ in range(processes)]
    try:
        print(f"redis-server ({'inline' if inline else 'compute workers through Redis'}):")
        store = RedisGameStore(redis.url + "/0", 3600)
        tier = ComputeTier() if inline else running(open_compute(
            Settings(redis_url=redis.url + "/0", compute="redis")))
        measure(store, tier, options.waiting, options.pairs)
        tier.close()
        store.close()
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait()
        redis.stop()


if __name__ == "__main__":
    main()
