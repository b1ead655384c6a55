"""What handing a job off costs: the round trip of a cheap compute job, by transport.

Runs N jobs of each of two kinds one after another, through each transport the service has:
inline (no hand-off), compute processes beside the caller over pipes (CRIBBAGE_COMPUTE=local),
and Redis Streams to a compute worker (CRIBBAGE_COMPUTE=redis; a redis-server and one
`python -m service.compute` are started on loopback and stopped). The jobs:
- a table lookup: a two-player position to 121 (a few numbers each way);
- a computer's move: `advance` on a freshly dealt two-player hand whose computer seat plays
  level `first` (no search: what travels is a real move's, the whole game state there and the
  state and events back).
Prints p50 and p99 of each round trip in milliseconds, and the caller's CPU per job (for inline
that is the job itself; otherwise what the hand-off costs the web worker).

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
from service.engine import GameOptions, start_game  # noqa: E402
from service.games.record import Seat  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402

BOUNDS = {MOVE: 1000, ANALYSIS: 1000, 2: 1000}


def jobs_to_run() -> dict[str, tuple[str, tuple]]:
    seats = (Seat("computer", "Computer", level="first"), Seat("human", "You"))
    dealt = start_game(GameOptions(), b"compute-roundtrip", first_dealer=0)[0]
    return {"table lookup": ("position_value", ((100, 90), 0, 2, None, 121, "standard")),
            "a computer's move": ("advance", (seats, dealt, 0.0))}


def round_trips(tier: ComputeTier, kind: str, args: tuple,
                jobs: int) -> tuple[list[float], float]:
    """Each job's round trip (ms, sorted) and the caller's CPU per job (ms)."""
    tier.run(kind, args, MOVE)  # started, tables built
    times = []
    cpu = time.process_time()
    for _ in range(jobs):
        started = time.perf_counter()
        tier.run(kind, args, MOVE)
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times), (time.process_time() - cpu) / jobs * 1000


def measure(transport: str, tier: ComputeTier, jobs: int) -> None:
    for job, (kind, args) in jobs_to_run().items():
        times, cpu = round_trips(tier, kind, args, jobs)
        p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
        print(f"{transport:<28} {job:<18} p50 {p50:7.3f} ms   p99 {p99:7.3f} ms   "
              f"caller CPU {cpu:6.3f} ms/job")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=500)
    jobs = parser.parse_args().jobs
    print(f"{jobs} jobs each; load average {os.getloadavg()[0]:.2f}")
    measure("inline", ComputeTier(), jobs)
    pool = LocalPool(1, BOUNDS)
    measure("local (pipes)", ComputeTier(pool), jobs)
    pool.close()
    redis = RedisServer().start()
    worker = subprocess.Popen([sys.executable, "-m", "service.compute"],
                              env={**os.environ, "CRIBBAGE_REDIS_URL": redis.url})
    try:
        queue = RedisJobQueue(redis.url, False, BOUNDS)
        measure("redis (streams + reply list)", ComputeTier(queue), jobs)
        queue.close()
    finally:
        worker.terminate()
        worker.wait()
        redis.remove()


if __name__ == "__main__":
    main()
