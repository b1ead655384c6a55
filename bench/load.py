"""Load: two gunicorn servers sharing one Redis, simulated players for a bounded time; then the
same against a 3-master Redis Cluster.

Each of `--clients` players (threads of this process, one keep-alive connection per server)
plays two-player games against a computer seat: create, then random legal actions (each POST
with an Idempotency-Key and If-Match) until the game ends, then a new game; its requests
alternate between the two servers, so every game moves between them. Servers:
`gunicorn -c deploy/gunicorn.conf.py service.wsgi:app`, `--workers` each, rate limits on
but high (counted in Redis, as in production) unless `--no-limits`. Redis: deploy/redis.conf
(AOF everysec, noeviction); the cluster: 3 masters, no replicas (tests/redis_servers.py).

Prints actions/s, requests/s, p50/p99 latency of actions and of all requests, errors by status
(goal: none), games finished, and checks every acknowledged game in the store afterwards.
Everything listens on 127.0.0.1 and is stopped at the end.

    python bench/load.py [--duration 60] [--clients 64] [--workers 2] [--only standalone|cluster]
                         [--no-limits]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.driver import percentile, run_players  # noqa: E402
from tests.ops.faults import Report, audit, servers_on  # noqa: E402
from tests.ops.redis_extra import ConfiguredRedisServer  # noqa: E402
from tests.redis_servers import RedisClusterServers  # noqa: E402


def measure(name: str, redis_url: str, cluster: bool, args) -> None:
    env = {"CRIBBAGE_RATE_LIMIT_ENABLED": "0"} if args.no_limits else {}
    with servers_on(redis_url, workers=args.workers, cluster=cluster, env=env) as servers:
        started = time.monotonic()
        tally = run_players([s.port for s in servers], args.clients, args.duration)
        elapsed = time.monotonic() - started
    report = audit(Report(name, tally), redis_url, cluster=cluster)
    outcomes = tally.outcomes
    actions = [o.seconds for o in outcomes if o.kind == "act" and o.status == 200]
    every = [o.seconds for o in outcomes if o.status is not None and o.status < 300]
    errors = Counter(o.status for o in outcomes if o.status is None or o.status >= 300)
    print(f"\n{name}: {args.clients} clients, {elapsed:.1f} s, 2 servers x {args.workers} workers")
    print(f"  actions/s         {len(actions) / elapsed:10.1f}   ({len(actions)} actions)")
    print(f"  requests/s        {len(every) / elapsed:10.1f}   ({len(outcomes)} requests)")
    print(f"  action latency    p50 {1000 * percentile(actions, 0.5):7.1f} ms"
          f"   p99 {1000 * percentile(actions, 0.99):7.1f} ms")
    print(f"  request latency   p50 {1000 * percentile(every, 0.5):7.1f} ms"
          f"   p99 {1000 * percentile(every, 0.99):7.1f} ms")
    print(f"  errors            {sum(errors.values())} {dict(errors) if errors else ''}")
    print(f"  games             {len(tally.acknowledged)} played, {tally.finished} finished; "
          f"{report.games_checked} checked whole in the store, {report.games_missing} missing, "
          f"{report.actions_lost} acknowledged actions lost")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load per run")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per server")
    parser.add_argument("--only", choices=("standalone", "cluster"))
    parser.add_argument("--no-limits", action="store_true", help="rate limiting off")
    args = parser.parse_args()
    if args.only != "cluster":
        redis = ConfiguredRedisServer().start()
        try:
            measure("one Redis (AOF everysec)", redis.url + "/0", False, args)
        finally:
            redis.remove()
    if args.only != "standalone":
        cluster = RedisClusterServers().start()
        try:
            measure("Redis Cluster, 3 masters", cluster.url, True, args)
        finally:
            cluster.remove()


if __name__ == "__main__":
    main()
