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
        server = GunicornServer({"CRIBBAGE_REDIS_URL": None, **env}, workers=workers, threads=2)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()


def cpus_of_workers(server: GunicornServer) -> dict[int, set[int]]:
    return {pid: os.sched_getaffinity(pid) for pid in server.worker_pids()}


def wait_for_workers(server: GunicornServer, count: int, not_pid: int) -> list[int]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pids = server.worker_pids()
        if len(pids) == count and not_pid not in pids:
            return pids
        time.sleep(0.1)
    raise AssertionError(f"gunicorn did not replace worker {not_pid}")


def test_each_worker_gets_one_cpu_and_the_workers_are_spread(start_server):
    workers = len(CPUS) + 1
    server = start_server(workers)
    placed = cpus_of_workers(server)
    assert all(len(cpus) == 1 for cpus in placed.values())
    per_cpu = Counter(next(iter(cpus)) for cpus in placed.values())
    assert sorted(per_cpu) == CPUS  # every CPU has a worker; one has two
    assert sorted(per_cpu.values()) == [1] * (len(CPUS) - 1) + [2]
    assert os.sched_getaffinity(server.process.pid) == set(CPUS)  # the master stays free


def test_a_replaced_worker_takes_the_cpu_its_predecessor_left(start_server):
    server = start_server(len(CPUS) + 1)  # the first CPU has two workers, the last one
    alone = next(pid for pid, cpus in cpus_of_workers(server).items() if cpus == {CPUS[-1]})
    os.kill(alone, signal.SIGKILL)
    wait_for_workers(server, len(CPUS) + 1, not_pid=alone)
    per_cpu = Counter(next(iter(cpus)) for cpus in cpus_of_workers(server).values())
    assert per_cpu[CPUS[0]] == 2 and per_cpu[CPUS[-1]] == 1


def test_switched_off_the_kernel_places_the_workers(start_server):
    server = start_server(2, CRIBBAGE_PIN_WORKERS="0")
    assert list(cpus_of_workers(server).values()) == [set(CPUS), set(CPUS)]
