"""Games over HTTP on Redis: actions/s against the trivial GET /v1/ping, whole games/s, latency.

Starts a redis-server and gunicorn (deploy/gunicorn.conf.py, CRIBBAGE_REDIS_URL set, rate limits
and the cap on live games per client off) on free loopback ports. Load comes from `--processes` x `--threads` clients, each on one
keep-alive connection, measured in alternating rounds of `--duration` seconds:

- ping: GET /v1/ping as fast as possible (the baseline);
- games: two-player games, a scripted human seat (always the first legal action, each action
  sent with an Idempotency-Key) against a computer seat (level `--level`), created and played to
  the end one after another. Every POST .../actions applies the human's action, then the
  computer's replies, in one compare-and-set write.

Prints requests/s of both, their ratio, games completed per second, and p50/p99 latency of the
actions; then stops gunicorn and Redis. Everything listens on 127.0.0.1 only.

    python bench/http_games.py [--duration 10] [--rounds 2] [--processes 4] [--threads 4]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.games.helpers import first_legal  # noqa: E402
from tests.ops.gunicorn_server import GunicornServer  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402


# Load --------------------------------------------------------------------------------------------
class Client:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        payload = None if body is None else json.dumps(body)
        headers = {**(headers or {}), **({"Content-Type": "application/json"} if body else {})}
        self.connection.request(method, path, payload, headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
        return json.loads(data)


def ping_loop(port: int, until: float, results: list) -> None:
    client, latencies = Client(port), []
    while time.monotonic() < until:
        started = time.perf_counter()
        client.request("GET", "/v1/ping")
        latencies.append(time.perf_counter() - started)
    results.append({"requests": len(latencies), "latencies": latencies})


def games_loop(port: int, until: float, level: str, results: list) -> None:
    client = Client(port)
    latencies, games, created = [], 0, 0
    seats = [{"kind": "human"}, {"kind": "computer", "level": level}]
    while time.monotonic() < until:
        body = client.request("POST", "/v1/games", {"seats": seats})
        created += 1
        game_id, view = body["game_id"], body["game"]["view"]
        headers = {"Authorization": f"Bearer {body['token']}"}
        while view["phase"] != "game_over" and time.monotonic() < until:
            action = first_legal(view)
            headers["Idempotency-Key"] = f"{game_id}-{view['version']}"
            started = time.perf_counter()
            view = client.request("POST", f"/v1/games/{game_id}/actions", action, headers)["view"]
            latencies.append(time.perf_counter() - started)
        games += view["phase"] == "game_over"
    results.append({"requests": len(latencies) + created, "actions": len(latencies),
                    "games": games, "latencies": latencies})


def load_process(kind: str, port: int, seconds: float, threads: int, level: str) -> list:
    until = time.monotonic() + seconds
    results: list = []
    if kind == "ping":
        targets = [threading.Thread(target=ping_loop, args=(port, until, results))
                   for _ in range(threads)]
    else:
        targets = [threading.Thread(target=games_loop, args=(port, until, level, results))
                   for _ in range(threads)]
    for thread in targets:
        thread.start()
    for thread in targets:
        thread.join()
    return results


def measure(pool: ProcessPoolExecutor, kind: str, port: int, args) -> dict:
    started = time.monotonic()
    futures = [pool.submit(load_process, kind, port, args.duration, args.threads, args.level)
               for _ in range(args.processes)]
    parts = [part for future in futures for part in future.result()]
    elapsed = time.monotonic() - started
    latencies = sorted(t for part in parts for t in part["latencies"])
    total = {key: sum(part.get(key, 0) for part in parts)
             for key in ("requests", "actions", "games")}
    return {**total, "seconds": elapsed, "p50": percentile(latencies, 50),
            "p99": percentile(latencies, 99)}


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds per round and kind")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--processes", type=int, default=4, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="connections per client process")
    parser.add_argument("--level", default="first", help="the computer seat's level")
    args = parser.parse_args()

    redis = RedisServer().start()
    server = GunicornServer({"CRIBBAGE_REDIS_URL": redis.url, "CRIBBAGE_REDIS_CLUSTER": None,
                             "CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_LOG_LEVEL": "WARNING",
                             # every round leaves its unfinished games behind, all from 127.0.0.1
                             "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0"},
                            workers=None, threads=None)
    port = server.port
    try:
        server.start()
        ready = server.request("GET", "/readyz")[2]
        assert ready["checks"] == {"store": "ok"}, ready
        rounds = {"ping": [], "games": []}
        with ProcessPoolExecutor(args.processes) as pool:
            measure(pool, "games", port, argparse.Namespace(**{**vars(args), "duration": 2}))
            for _ in range(args.rounds):
                for kind in rounds:
                    rounds[kind].append(measure(pool, kind, port, args))
        keys = int(redis.cli("DBSIZE"))
    finally:
        server.stop()
        redis.remove()
    report(args, rounds, keys)


def report(args, rounds: dict, keys: int) -> None:
    ping = [r["requests"] / r["seconds"] for r in rounds["ping"]]
    actions = [r["actions"] / r["seconds"] for r in rounds["games"]]
    games = [r["games"] / r["seconds"] for r in rounds["games"]]
    ratio = median(a / p for a, p in zip(actions, ping))
    workers = os.environ.get("WEB_CONCURRENCY", "default (2 x cores + 1)")
    print(f"gunicorn -c deploy/gunicorn.conf.py, Redis store, workers {workers}, threads "
          f"{os.environ.get('GUNICORN_THREADS', '8')}; {args.processes} x {args.threads} "
          f"keep-alive clients; {args.rounds} rounds x {args.duration:g} s per kind; "
          f"computer level {args.level}")
    print(f"GET  /v1/ping                 {median(ping):8.0f} requests/s  "
          f"p50 {median(r['p50'] for r in rounds['ping']) * 1e3:6.1f} ms  "
          f"p99 {median(r['p99'] for r in rounds['ping']) * 1e3:6.1f} ms")
    print(f"POST /v1/games/{{id}}/actions  {median(actions):8.0f} actions/s   "
          f"p50 {median(r['p50'] for r in rounds['games']) * 1e3:6.1f} ms  "
          f"p99 {median(r['p99'] for r in rounds['games']) * 1e3:6.1f} ms")
    print(f"actions/s vs ping requests/s  {ratio:8.1%}")
    print(f"whole games (human vs computer) {median(games):6.1f} games/s "
          f"({sum(r['games'] for r in rounds['games'])} games, "
          f"{sum(r['actions'] for r in rounds['games'])} actions; Redis held {keys} keys)")


if __name__ == "__main__":
    main()
