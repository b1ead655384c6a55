"""Redis crashed again and again under load, on a disk whose fsync is slow: what each crash lost.

Redis runs deploy/redis.conf with the `appendfsync` given, its fsync and fdatasync slowed by
tests/ops/slow_disk.py; two gunicorn servers with the CRIBBAGE_DURABILITY given serve simulated
players (tests/ops/driver.py). Each round: `between` seconds of load; SIGSTOP, so Redis stops
mid-work as a dying machine does; a pause for the replies it had already sent to reach the
clients; a snapshot of what the clients were told; SIGKILL. The AOF the crash left is opened by
a Redis of its own, where every game acknowledged before the crash is checked
(tests/ops/invariants.py): missing, or stored at a version below the one acknowledged, is a
loss. Then Redis restarts from that AOF and the players go on; a lost game or action is taken
off the tally, so the next crash counts only its own.

A SIGKILL cannot drop the kernel's page cache, so what shows the loss is Redis's own buffer:
with `everysec`, while a slow fsync runs Redis keeps new writes in memory (up to 2 s) yet
already acknowledges them.
"""

from __future__ import annotations

import shutil
import signal
import time

from service.store import RedisGameStore
from tests.ops.faults import Report, in_background, servers_on
from tests.ops.invariants import check_all_games
from tests.ops.redis_extra import ConfiguredRedisServer
from tests.ops.slow_disk import slow_fsync_env

REPLIES_IN_FLIGHT = 0.5  # seconds for replies Redis sent before SIGSTOP to reach the clients
LONG_ENOUGH = 3600.0  # the players' time: they are stopped after the last restart


def redis_crashes(kills: int = 10, appendfsync: str = "always", durability: str = "fsync",
                  fsync_delay_ms: int = 200, clients: int = 8, between: float = 2.0) -> Report:
    redis = ConfiguredRedisServer("--appendfsync", appendfsync,
                                  env=slow_fsync_env(fsync_delay_ms)).start()
    try:
        with servers_on(redis.url + "/0", env={"CRIBBAGE_DURABILITY": durability}) as servers:
            tally, players = in_background([s.port for s in servers], clients, LONG_ENOUGH)
            report = Report(f"Redis SIGKILLed {kills} times, appendfsync {appendfsync}, fsync "
                            f"{fsync_delay_ms} ms slower, CRIBBAGE_DURABILITY={durability}",
                            tally, fault_at=time.monotonic())
            losses, games = [], set()
            for _ in range(kills):
                time.sleep(between)
                redis.process.send_signal(signal.SIGSTOP)
                time.sleep(REPLIES_IN_FLIGHT)
                with tally.lock:
                    told = dict(tally.acknowledged)
                games.update(told)
                redis.crash()
                losses.append(count_losses(redis, told, report))
                redis.start()
            report.healed_at = time.monotonic()
            time.sleep(between)
            tally.stop.set()
            players.join()
        told = dict(tally.acknowledged)
        final = check_games(redis.url + "/0", told)
        report.games_checked = len(final)
        report.notes["games acknowledged"] = len(games.union(told))
        report.notes["actions acknowledged"] = sum(
            1 for outcome in tally.outcomes if outcome.kind == "act" and outcome.status == 200)
        report.notes["lost per crash (actions, games)"] = losses
        report.notes["lost after the last restart (actions, games)"] = losses_between(told, final)
        return report
    finally:
        redis.remove()


def count_losses(crashed: ConfiguredRedisServer, told: dict[str, int],
                 report: Report) -> tuple[int, int]:
    """Check `told` against the AOF `crashed` left; add what is lost to `report`, take it off
    the tally, and return it as (actions, games)."""
    image = ConfiguredRedisServer()
    shutil.copytree(crashed.dir, image.dir, dirs_exist_ok=True)
    try:
        image.start()
        stored = check_games(image.url + "/0", told)
    finally:
        image.remove()
    actions, games = losses_between(told, stored)
    report.actions_lost += actions
    report.games_missing += games
    with report.tally.lock:
        for game_id, version in told.items():
            if game_id not in stored:
                del report.tally.acknowledged[game_id]
            elif stored[game_id] < version:
                report.tally.acknowledged[game_id] = stored[game_id]
    return actions, games


def losses_between(told: dict[str, int], stored: dict[str, int]) -> tuple[int, int]:
    """(acknowledged versions the store lacks, acknowledged games it lacks)."""
    actions = sum(max(0, version - stored.get(game_id, 0)) for game_id, version in told.items())
    return actions, sum(1 for game_id in told if game_id not in stored)


def check_games(redis_url: str, told: dict[str, int]) -> dict[str, int]:
    store = RedisGameStore(redis_url, 3600)
    try:
        return check_all_games(store, list(told))
    finally:
        store.close()
