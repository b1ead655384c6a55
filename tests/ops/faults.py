"""Fault scenarios under load, shared by tests/ops/test_faults.py (small, pass/fail) and
bench/faults.py (longer, figures). Each starts its own Redis and gunicorn servers on loopback,
runs simulated players (tests/ops/driver.py) in the background, injects one fault, and stops
every process it started before returning what it saw."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from service.store import RedisGameStore
from tests.ops.driver import Outcome, Tally, run_players
from tests.ops.gunicorn_server import GunicornServer
from tests.ops.invariants import check_all_games
from tests.ops.redis_extra import ConfiguredRedisServer, ReplicatedCluster

SERVER_ENV = {"CRIBBAGE_RATE_LIMIT": "1000000/minute",
              "CRIBBAGE_ACTION_RATE_LIMIT": "1000000/minute",
              "PROMETHEUS_MULTIPROC_DIR": None}


@dataclass
class Report:
    name: str
    tally: Tally
    fault_at: float = 0.0            # monotonic time of the fault
    healed_at: float = 0.0           # monotonic time the fault was repaired (or failed over)
    games_checked: int = 0
    games_missing: int = 0           # acknowledged games the store no longer has
    actions_lost: int = 0            # acknowledged versions the store no longer has
    notes: dict = field(default_factory=dict)

    def statuses(self, start: float = float("-inf"), end: float = float("inf")) -> Counter:
        return Counter(o.status for o in self.tally.outcomes if start <= o.at < end)

    def answered(self, start: float = float("-inf"), end: float = float("inf")) -> list[Outcome]:
        return [o for o in self.tally.outcomes if start <= o.at < end]

    def first_success_after(self, moment: float) -> float | None:
        times = [o.at + o.seconds for o in self.tally.outcomes
                 if o.at >= moment and o.status is not None and o.status < 300]
        return min(times) - moment if times else None


@contextlib.contextmanager
def servers_on(redis_url: str, count: int = 2, workers: int = 2, cluster: bool = False,
               env: dict | None = None):
    env = {**SERVER_ENV, "CRIBBAGE_REDIS_URL": redis_url,
           "CRIBBAGE_REDIS_CLUSTER": "1" if cluster else "0", **(env or {})}
    started = []
    try:
        for _ in range(count):
            started.append(GunicornServer(env, workers=workers).start())
        yield started
    finally:
        for server in started:
            server.stop()


def in_background(ports, clients: int, seconds: float, seed: int = 1):
    tally = Tally()
    thread = threading.Thread(target=run_players, args=(ports, clients, seconds, tally, seed),
                              daemon=True)
    thread.start()
    return tally, thread


def audit(report: Report, redis_url: str, cluster: bool = False) -> Report:
    """Check every acknowledged game in the store and count what was lost."""
    store = RedisGameStore(redis_url, 3600, cluster=cluster)
    try:
        versions = check_all_games(store, list(report.tally.acknowledged))
    finally:
        store.close()
    report.games_checked = len(versions)
    report.games_missing = sum(1 for game_id in report.tally.acknowledged
                               if game_id not in versions)
    report.actions_lost = sum(max(0, acked - versions.get(game_id, 0))
                              for game_id, acked in report.tally.acknowledged.items())
    return report


def redis_outage(clients: int = 16, before: float = 3.0, outage: float = 3.0,
                 after: float = 4.0) -> Report:
    """Redis stopped under load, then started again; the servers are never restarted."""
    redis = ConfiguredRedisServer().start()
    try:
        with servers_on(redis.url + "/0") as servers:
            tally, players = in_background([s.port for s in servers], clients,
                                           before + outage + after)
            time.sleep(before)
            report = Report("redis stopped and started", tally, fault_at=time.monotonic())
            redis.stop()
            time.sleep(outage)
            redis.start()
            report.healed_at = time.monotonic()
            players.join()
        return audit(report, redis.url + "/0")
    finally:
        redis.remove()


def redis_restart(clients: int = 16, before: float = 3.0, after: float = 2.0,
                  crash: bool = False) -> Report:
    """Redis restarted (SIGTERM, or SIGKILL with `crash`) with AOF on, under load: every
    acknowledged game and action should still be there after a clean restart."""
    redis = ConfiguredRedisServer().start()
    try:
        with servers_on(redis.url + "/0") as servers:
            tally, players = in_background([s.port for s in servers], clients, before + after)
            time.sleep(before)
            name = "redis killed (SIGKILL) and restarted" if crash else "redis restarted"
            report = Report(name, tally, fault_at=time.monotonic())
            if crash:
                redis.crash()
            else:
                redis.stop()
            redis.start()
            report.healed_at = time.monotonic()
            players.join()
        return audit(report, redis.url + "/0")
    finally:
        redis.remove()


def worker_killed(clients: int = 16, before: float = 2.0, after: float = 3.0) -> Report:
    """One gunicorn worker SIGKILLed while it serves requests."""
    redis = ConfiguredRedisServer().start()
    try:
        with servers_on(redis.url + "/0") as servers:
            tally, players = in_background([s.port for s in servers], clients, before + after)
            time.sleep(before)
            victim = servers[0].worker_pids()[0]
            report = Report("gunicorn worker SIGKILLed", tally, fault_at=time.monotonic())
            os.kill(victim, signal.SIGKILL)
            report.healed_at = report.fault_at
            players.join()
            report.notes["workers after"] = len(servers[0].worker_pids())
            report.notes["killed worker replaced"] = victim not in servers[0].worker_pids()
        return audit(report, redis.url + "/0")
    finally:
        redis.remove()


def cluster_master_lost(clients: int = 16, before: float = 3.0, after: float = 8.0,
                        durability: str = "none") -> Report:
    """A Redis Cluster of 3 masters + 3 replicas loses a master (SIGKILL) under load; the servers
    run with CRIBBAGE_DURABILITY=`durability`."""
    cluster = ReplicatedCluster().start()
    try:
        cluster.wait_for_replicas()
        with servers_on(cluster.url, cluster=True,
                        env={"CRIBBAGE_DURABILITY": durability}) as servers:
            tally, players = in_background([s.port for s in servers], clients, before + after)
            time.sleep(before)
            report = Report("cluster master SIGKILLed", tally, fault_at=time.monotonic())
            victim = cluster.crash_master()
            cluster.wait_for_failover(victim)
            report.healed_at = time.monotonic()
            players.join()
        return audit(report, cluster.url, cluster=True)
    finally:
        cluster.remove()
