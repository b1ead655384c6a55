"""What durability costs: whole games over HTTP in each CRIBBAGE_DURABILITY mode, side by side.

Each mode gets its own Redis (deploy/redis.conf, AOF in the working directory on this machine's
disk) and its own gunicorn (deploy/gunicorn.conf.py, rate limits off):

- none:    appendfsync everysec; a reply means the write is in Redis's memory;
- fsync:   appendfsync always; a reply waits for the AOF's fsync;
- replica: appendfsync everysec plus one replica; each game write then waits for WAIT 1.

The load is bench/http_games.py's games loop (`--processes` x `--threads` keep-alive clients,
first legal action against a computer seat), in rounds of `--duration` seconds that alternate
between the modes, so other work on the machine falls on each alike. Prints, per mode, the
median over rounds of actions/s, p50 and p99 of an action, and whole games/s. Everything
listens on 127.0.0.1 and is stopped at the end.

    python bench/durability.py [--duration 10] [--rounds 3] [--processes 2] [--threads 4]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from http_games import measure  # noqa: E402  (bench/, this script's directory)
from tests.ops.gunicorn_server import GunicornServer  # noqa: E402
from tests.ops.redis_extra import ConfiguredRedisServer  # noqa: E402
from tests.redis_servers import follow  # noqa: E402

MODES = {"none": "everysec", "fsync": "always", "replica": "everysec"}


@contextlib.contextmanager
def mode_servers(mode: str):
    """A Redis (and its replica in the replica mode) and a gunicorn for `mode`; its port."""
    redis = ConfiguredRedisServer("--appendfsync", MODES[mode]).start()
    started = [redis]
    server = None
    try:
        if mode == "replica":
            started.append(follow(ConfiguredRedisServer("--appendfsync", "everysec").start(),
                                  redis))
        server = GunicornServer({"CRIBBAGE_REDIS_URL": redis.url, "CRIBBAGE_REDIS_CLUSTER": None,
                                 "CRIBBAGE_DURABILITY": mode, "CRIBBAGE_RATE_LIMIT_ENABLED": "0",
                                 "CRIBBAGE_LOG_LEVEL": "WARNING",
                                 "PROMETHEUS_MULTIPROC_DIR": None},
                                workers=None, threads=None).start()
        ready = server.request("GET", "/readyz")[2]
        assert ready["checks"] == {"store": "ok"}, ready
        yield server.port
    finally:
        if server is not None:
            server.stop()
        for process in started:
            process.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10, help="seconds per round and mode")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="connections per client process")
    parser.add_argument("--level", default="first", help="the computer seat's level")
    parser.add_argument("--modes", default="none,fsync,replica")
    args = parser.parse_args()
    modes = args.modes.split(",")
    rounds: dict[str, list[dict]] = {mode: [] for mode in modes}
    with contextlib.ExitStack() as stack:
        ports = {mode: stack.enter_context(mode_servers(mode)) for mode in modes}
        with ProcessPoolExecutor(args.processes) as pool:
            warm_up = argparse.Namespace(**{**vars(args), "duration": 2})
            for mode in modes:
                measure(pool, "games", ports[mode], warm_up)
            for _ in range(args.rounds):
                for mode in modes:
                    rounds[mode].append(measure(pool, "games", ports[mode], args))
    print(f"{args.processes} x {args.threads} keep-alive clients, {args.rounds} rounds x "
          f"{args.duration:g} s per mode, alternating; computer level {args.level}")
    for mode in modes:
        done = rounds[mode]
        each = ", ".join(f"{r['actions'] / r['seconds']:.0f}" for r in done)
        print(f"{mode:8s} actions/s {median(r['actions'] / r['seconds'] for r in done):7.0f}  "
              f"p50 {median(r['p50'] for r in done) * 1e3:6.1f} ms  "
              f"p99 {median(r['p99'] for r in done) * 1e3:6.1f} ms  "
              f"games/s {median(r['games'] / r['seconds'] for r in done):5.2f}  "
              f"(rounds: {each} actions/s)")


if __name__ == "__main__":
    main()
