"""A computer's move through HTTP: the latency of the action requests after which a computer seat
moved, in process (Flask test client) and through gunicorn.

    python bench/computer_move_http.py --games 10 [--level hard] [--players 2] [--gunicorn]
                                       [--redis]

One human seat (seat 0: a random legal action from --seed) plays games to 121 against computer
seats of --level; the first dealer is seat 1, so the games skip the cut for deal, and each game
has a deck_seed from --seed and its number, so every server is timed on the same deals. Every
`POST /v1/games/{id}/actions` is timed; those after which a computer moved (the view's
`version`, one per action of any seat, went up by more than one) are the ones reported: p50,
p99, mean and max in milliseconds, and how many computer moves such a request carried (a
computer may move more than once: after a go, or at the end of one hand and the start of the
next). The requests carrying exactly one computer move are reported apart. In process, the
process's CPU time per request is printed too (on a machine shared with other work it is what
the request itself costs). The first game of each server is not timed (it builds the tables a
worker builds once).

With --gunicorn: one gunicorn worker (deploy/gunicorn.conf.py, 1 thread, rate limits and the
live-games cap off) on a free loopback port, one keep-alive connection; the embedded store, or
with --redis a redis-server started on a free port (tests/redis_servers.py).
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
from service.config import Settings  # noqa: E402
from tests.games.helpers import random_action  # noqa: E402
from tests.ops.gunicorn_server import GunicornServer  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402


class TestClient:
    """The app in this process on the embedded store."""

    def __init__(self):
        settings = Settings(rate_limit_enabled=False, max_live_games_per_client=0)
        self.client = create_app({"SETTINGS": settings}).test_client()

    def post(self, path: str, body: dict, headers: dict) -> dict:
        response = self.client.post(path, json=body, headers=headers)
        assert response.status_code in (200, 201), response.get_data(as_text=True)[:300]
        return response.get_json()


class KeepAlive:
    """One keep-alive connection to a server on a loopback port."""

    def __init__(self, port: int):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: dict, headers: dict) -> dict:
        self.connection.request("POST", path, json.dumps(body),
                                {**headers, "Content-Type": "application/json"})
        response = self.connection.getresponse()
        data = response.read()
        assert response.status in (200, 201), data[:300]
        return json.loads(data)


def play(client, args, number: int, rng: random.Random) -> list[tuple[float, float, int]]:
    """One game to its end: (seconds, CPU seconds, computer moves) of every action request."""
    seats = [{"kind": "human"}] + [{"kind": "computer", "level": args.level}] * (args.players - 1)
    options = {"first_dealer": 1, "deck_seed": f"computer move {args.seed} {number}"}
    created = client.post("/v1/games", {"seats": seats, "options": options}, {})
    game_id, view = created["game_id"], created["game"]["view"]
    headers = {"Authorization": f"Bearer {created['token']}"}
    timed = []
    while view["phase"] != "game_over":
        action = random_action(view, rng)
        started, cpu = time.perf_counter(), time.process_time()
        after = client.post(f"/v1/games/{game_id}/actions", action, headers)["view"]
        timed.append((time.perf_counter() - started, time.process_time() - cpu,
                      after["version"] - view["version"] - 1))
        view = after
    return timed


def measure(client, args) -> list[tuple[float, float, int]]:
    rng = random.Random(args.seed)
    play(client, args, 0, rng)  # warm-up, not timed
    return [entry for number in range(1, args.games + 1)
            for entry in play(client, args, number, rng)]


def summary(name: str, timed: list[tuple[float, float, int]], cpu: bool) -> list[str]:
    moved = [row for row in timed if row[2] > 0]
    moves = sum(row[2] for row in moved)
    most = max(row[2] for row in moved)
    heading = (f"{name}: {len(timed)} action requests, {len(moved)} with a computer move "
               f"({moves} moves, at most {most} in one request)")
    lines = [heading]
    just_one = [row for row in moved if row[2] == 1]
    for label, rows in (("with a computer move", moved), ("with exactly one", just_one)):
        lines.append(f"  {label:<22} n={len(rows):<5} wall {_spread([row[0] for row in rows])}")
        if cpu:
            lines.append(f"  {'':<22} {'':<7} CPU  {_spread([row[1] for row in rows])}")
    return lines


def _spread(seconds: list[float]) -> str:
    ms = sorted(value * 1000 for value in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return (f"p50 {statistics.median(ms):7.2f} ms   p99 {p99:7.2f} ms   "
            f"mean {statistics.fmean(ms):7.2f} ms   max {ms[-1]:7.2f} ms")


def through_gunicorn(args) -> list[tuple[float, float, int]]:
    redis = RedisServer().start() if args.redis else None
    env = {"CRIBBAGE_RATE_LIMIT_ENABLED": "0", "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0",
           "CRIBBAGE_LOG_LEVEL": "WARNING", "CRIBBAGE_REDIS_CLUSTER": None,
           "CRIBBAGE_REDIS_URL": redis.url if redis else None}
    server = GunicornServer(env, workers=1, threads=1)
    try:
        server.start()
        return measure(KeepAlive(server.port), args)
    finally:
        server.stop()
        if redis:
            redis.remove()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="timed games per server")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--gunicorn", action="store_true", help="also time a gunicorn worker")
    parser.add_argument("--redis", action="store_true", help="gunicorn on a Redis store")
    args = parser.parse_args(argv)
    table = f"{args.players} players, one human, computers {args.level}"
    print("\n".join(summary(f"in process (Flask test client), {table}",
                            measure(TestClient(), args), cpu=True)))
    if args.gunicorn:
        store = "Redis" if args.redis else "embedded store"
        print("\n".join(summary(f"gunicorn (1 worker, loopback, {store}), {table}",
                                through_gunicorn(args), cpu=False)))


if __name__ == "__main__":
    main()
