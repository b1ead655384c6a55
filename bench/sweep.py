"""How fast the deadline sweeper applies turn timeouts: timeouts applied per second with N games
due at once, on the embedded store and on a redis-server it starts on a free loopback port.

Each game (a human seat that never acts against a computer, `turn_time_limit` 10 s, on_timeout
computer at level `first`) is created through the games service; the clock then moves past the
deadline and one Sweeper (or three, in threads, on Redis: one client each, as three server
processes would) applies every due game. Each game's timeout is a claim, a load, the computer's
cut for the seat (the computer opponent's reply in the same write) and a save. Three sweepers
in one process share its interpreter lock: the applying is Python work, so they add safety, not
speed; across processes they add both.

    python bench/sweep.py [--games 200 1000] [--sweepers 1 3]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.games import Games, GameTable  # noqa: E402
from service.games.sweeper import Sweeper  # noqa: E402
from service.store import MemoryGameStore, RedisGameStore  # noqa: E402
from tests.redis_servers import RedisServer  # noqa: E402

SEATS = [{"kind": "human"}, {"kind": "computer", "level": "first"}]
OPTIONS = {"turn_time_limit": 10, "timeout_level": "first"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def measure(stores: list, games: int) -> float:
    """Timeouts applied per second by len(stores) sweepers with `games` games due."""
    clock = Clock()
    creator = Games(GameTable(stores[0], clock))
    for _ in range(games):
        creator.create(SEATS, OPTIONS)
    clock.now += 11
    sweepers = [Sweeper(GameTable(store, clock), period=0) for store in stores]
    swept = [0] * len(sweepers)

    def run(number: int) -> None:
        swept[number] = sweepers[number].sweep()

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(stores))]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    assert sum(swept) == games, swept
    return games / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--sweepers", type=int, nargs="+", default=[1, 3])
    options = parser.parse_args()
    for games in options.games:
        rate = measure([MemoryGameStore(3600)], games)
        print(f"embedded store, {games:5d} games due, 1 sweeper(s): {rate:7.0f} timeouts/s")
    server = RedisServer().start()
    try:
        for games in options.games:
            for count in options.sweepers:
                server.cli("FLUSHALL")
                stores = [RedisGameStore(server.url, 3600) for _ in range(count)]
                rate = measure(stores, games)
                print(f"Redis,          {games:5d} games due, {count} sweeper(s): "
                      f"{rate:7.0f} timeouts/s")
                for store in stores:
                    store.close()
    finally:
        server.remove()


if __name__ == "__main__":
    main()
