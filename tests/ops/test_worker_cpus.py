"""Each gunicorn worker runs on one CPU, spread over the CPUs the server may use."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter

import pytest

from tests.ops.gunicorn_server import GunicornServer

CPUS = sorted(os.sched_getaffinity(0))

pytestmark = pytest.mark.skipif(len(CPUS) < 2, reason="pinning needs at least two CPUs")


@pytest.fixture
def start_server():
    servers = []

    def start(workers: int, **env) -> GunicornServer:
        server = GunicornServer({"CRIBBAGE_REDIS_URL": None, "CRIBBAGE_PIN_WORKERS": None, **env},
                                workers=workers, threads=2)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def placed_workers(server: GunicornServer, count: int, gone: int | None = None):
    """{pid: the CPUs it may run on} of the `count` workers, once all have started (the master
    starts them one after another, a random fraction of a second apart)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pids = server.worker_pids()
        if len(pids) == count and gone not in pids:
            time.sleep(0.5)  # post_fork runs at once after each fork
            return {pid: os.sched_getaffinity(pid) for pid in pids}
        time.sleep(0.1)
    raise AssertionError(f"gunicorn did not start {count} workers")


def workers_per_cpu(placed: dict[int, set[int]]) -> Counter:
    assert all(len(cpus) == 1 for cpus in placed.values()), placed
    return Counter(next(iter(cpus)) for cpus in placed.values())


def test_each_worker_gets_one_cpu_and_the_workers_are_spread(start_server):
    server = start_server(len(CPUS) + 1)
    per_cpu = workers_per_cpu(placed_workers(server, len(CPUS) + 1))
    assert per_cpu == Counter({**dict.fromkeys(CPUS, 1), CPUS[0]: 2})
    assert os.sched_getaffinity(server.process.pid) == set(CPUS)  # the master stays free


def test_a_replaced_worker_takes_the_cpu_its_predecessor_left(start_server):
    server = start_server(len(CPUS) + 1)  # two workers on the first CPU, one on the last
    placed = placed_workers(server, len(CPUS) + 1)
    alone = next(pid for pid, cpus in placed.items() if cpus == {CPUS[-1]})
    os.kill(alone, signal.SIGKILL)
    per_cpu = workers_per_cpu(placed_workers(server, len(CPUS) + 1, gone=alone))
    assert per_cpu == Counter({**dict.fromkeys(CPUS, 1), CPUS[0]: 2})


def test_switched_off_the_kernel_places_the_workers(start_server):
    server = start_server(2, CRIBBAGE_PIN_WORKERS="0")
    assert list(placed_workers(server, 2).values()) == [set(CPUS), set(CPUS)]
