"""Jobs through Redis Streams to real compute workers (`python -m service.compute`)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
import redis

from service.bots.side_race import layout_position_value
from service.compute import ANALYSIS, MOVE, ComputeBusy, ComputeTier
from service.compute.redis_queue import GROUP, RedisJobQueue, stream_key

pytestmark = pytest.mark.ops  # starts compute workers

SLOW = ((0, 0), 0, 2, None, 500, "standard")  # a position to 500: tables of a second, cold
QUICK = ((100, 90), 0, 2, None, 121, "standard")
BOUNDS = {MOVE: 10, ANALYSIS: 10, 2: 10}


@pytest.fixture
def queues():
    """RedisJobQueue(...) made by the test, closed after it (their reply listeners stop)."""
    made = []

    def queue(*args):
        made.append(RedisJobQueue(*args))
        return made[-1]

    yield queue
    for each in made:
        each.close()


@pytest.fixture
def workers(redis_server):
    redis.Redis.from_url(redis_server.url).flushdb()
    started = []

    def start(time_limit: int = 30, url: str = redis_server.url, cluster: bool = False):
        env = {**os.environ, "CRIBBAGE_REDIS_URL": url,
               "CRIBBAGE_REDIS_CLUSTER": "1" if cluster else "0",
               "CRIBBAGE_COMPUTE_TIME_LIMIT": str(time_limit)}
        started.append(subprocess.Popen([sys.executable, "-m", "service.compute"], env=env))
        return started[-1]

    yield start
    for worker in started:
        worker.kill()
        worker.wait()


def test_a_job_goes_through_redis_to_a_worker_and_back(redis_server, workers, queues):
    workers()
    tier = ComputeTier(queues(redis_server.url, False, BOUNDS), time_limit=30)
    assert tier.run("position_value", QUICK, ANALYSIS) == layout_position_value(*QUICK)
    _deleted(redis.Redis.from_url(redis_server.url))  # answered entries are deleted


def test_on_a_cluster_too(redis_cluster, workers, queues):
    workers(url=redis_cluster.url, cluster=True)
    tier = ComputeTier(queues(redis_cluster.url, True, BOUNDS), time_limit=30)
    assert tier.run("position_value", QUICK, MOVE) == layout_position_value(*QUICK)


def test_past_its_bound_a_priority_s_stream_refuses(redis_server, workers, queues):
    queue = queues(redis_server.url, False, {MOVE: 2, ANALYSIS: 1, 2: 1})
    queue.submit("position_value", QUICK, ANALYSIS, 30)
    with pytest.raises(ComputeBusy):
        queue.submit("position_value", QUICK, ANALYSIS, 30)
    queue.submit("position_value", QUICK, MOVE, 30)  # another priority's own bound


def test_a_worker_takes_moves_before_analyses_queued_earlier(redis_server, workers, queues):
    queue = queues(redis_server.url, False, BOUNDS)
    # each builds tables of its own target: a fifth of a second apart, whatever the threads
    jobs = [(name, queue.submit("position_value", ((0, 0), 0, 2, None, target, "acc"),
                                priority, 30))
            for name, priority, target in (("analysis 1", ANALYSIS, 300),
                                           ("analysis 2", ANALYSIS, 301), ("move", MOVE, 302))]
    finished = []

    def wait(name, job):
        job.outcome(60)
        finished.append(name)

    threads = [threading.Thread(target=wait, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    workers()
    for thread in threads:
        thread.join(90)
    assert finished == ["move", "analysis 1", "analysis 2"]


def test_a_job_of_a_worker_killed_mid_job_is_claimed_and_answered_by_another(
        redis_server, workers, queues):
    first = workers()
    queue = queues(redis_server.url, False, BOUNDS)
    client = redis.Redis.from_url(redis_server.url)
    job = queue.submit("position_value", SLOW, ANALYSIS, 60)
    deadline = time.monotonic() + 30
    while _pending(client) == 0:
        assert time.monotonic() < deadline, "the worker never took the job"
        time.sleep(0.01)
    first.send_signal(signal.SIGKILL)
    first.wait()
    workers(time_limit=1)  # claims what has been idle past 1 + 10 s
    assert job.outcome(120).result() == layout_position_value(*SLOW)
    _deleted(client)


def _pending(client: redis.Redis) -> int:
    try:
        return client.xpending(stream_key(ANALYSIS), GROUP)["pending"]
    except redis.ResponseError:  # the worker has not made its group yet
        return 0


def _deleted(client: redis.Redis) -> None:
    """The analyses' stream empties: a worker deletes an entry just after it has answered."""
    deadline = time.monotonic() + 10
    while client.xlen(stream_key(ANALYSIS)):
        assert time.monotonic() < deadline, "an answered entry was never deleted"
        time.sleep(0.01)


def test_the_workers_of_a_supervisor_killed_stop_by_themselves(redis_server):
    env = {**os.environ, "CRIBBAGE_REDIS_URL": redis_server.url}
    supervisor = subprocess.Popen([sys.executable, "-m", "service.compute.supervisor", "1"],
                                  env=env)
    try:
        deadline = time.monotonic() + 30
        while not (children := _children(supervisor.pid)):
            assert time.monotonic() < deadline, "the supervisor started no worker"
            time.sleep(0.1)
        time.sleep(1)  # the worker is in its loop
        supervisor.kill()
        supervisor.wait()
        deadline = time.monotonic() + 15
        while os.path.exists(f"/proc/{children[0]}") and _running(children[0]):
            assert time.monotonic() < deadline, "an orphaned compute worker kept running"
            time.sleep(0.1)
    finally:
        supervisor.kill()


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def _running(pid: int) -> bool:
    """Not exited (a zombie waiting for its new parent to reap it has exited)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
