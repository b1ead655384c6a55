"""What handing a job off costs: the round trip of a trivial compute job, by transport.

Runs N jobs whose work is a cached table lookup (a two-player position to 121) one after
another, through each transport the service has: inline (no hand-off), compute processes beside
the caller over pipes (CRIBBAGE_COMPUTE=local), and Redis Streams to a compute worker
(CRIBBAGE_COMPUTE=redis; a redis-server and one `python -m service.compute` are started on
loopback and stopped). Prints p50 and p99 of each round trip in milliseconds.

    python bench/compute_roundtrip.py [--jobs 500]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.compute import ANALYSIS, MOVE, ComputeTier  # noqa: E402
from service.compute.local import LocalPool  # noqa: E402
from service.compute.redis_queue import RedisJobQueue  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402

JOB = ((100, 90), 0, 2, None, 121, "standard")
BOUNDS = {MOVE: 1000, ANALYSIS: 1000, 2: 1000}


def round_trips(tier: ComputeTier, jobs: int) -> list[float]:
    tier.run("position_value", JOB, MOVE)  # started, tables built
    times = []
    for _ in range(jobs):
        started = time.perf_counter()
        tier.run("position_value", JOB, MOVE)
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)


def report(name: str, times: list[float]) -> None:
    p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
    print(f"{name:<28} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=500)
    jobs = parser.parse_args().jobs
    print(f"{jobs} jobs each; load average {os.getloadavg()[0]:.2f}")
    report("inline", round_trips(ComputeTier(), jobs))
    pool = LocalPool(1, BOUNDS)
    report("local (pipes)", round_trips(ComputeTier(pool), jobs))
    pool.close()
    redis = RedisServer().start()
    worker = subprocess.Popen([sys.executable, "-m", "service.compute"],
                              env={**os.environ, "CRIBBAGE_REDIS_URL": redis.url})
    try:
        queue = RedisJobQueue(redis.url, False, BOUNDS)
        report("redis (streams + reply list)", round_trips(ComputeTier(queue), jobs))
        queue.close()
    finally:
        worker.terminate()
        worker.wait()
        redis.remove()


if __name__ == "__main__":
    main()
