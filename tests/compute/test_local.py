"""Compute processes beside the web worker: real child processes, their queue and their faults."""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from service.bots.side_race import layout_position_value
from service.compute import ANALYSIS, MOVE, ComputeBusy, ComputeTier, ComputeUnavailable
from service.compute.local import LocalPool

SLOW = ((0, 0), 0, 2, None, 1000, "standard")  # a position to 1000: seconds of CPU, cold
QUICK = ((100, 90), 0, 2, None, 121, "standard")


@pytest.fixture
def pool():
    pools = []

    def make(processes=1, bounds=None):
        pools.append(LocalPool(processes, bounds or {MOVE: 10, ANALYSIS: 10, 2: 10}))
        return pools[-1]

    yield make
    for made in pools:
        made.close()



def _child_pids() -> set[int]:
    """The compute children of this process, from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as command:
                line = command.read()
        except OSError:
            continue
        if parent == os.getpid() and b"service.compute.child" in line:
            found.add(int(entry))
    return found


def test_a_job_runs_in_a_child_process_and_gives_the_inline_value(pool):
    tier = ComputeTier(pool(), time_limit=30)
    assert tier.run("position_value", QUICK, ANALYSIS) == layout_position_value(*QUICK)
    (child,) = _child_pids()
    assert os.sched_getscheduler(child) == os.SCHED_IDLE  # yields the CPU to web workers


def test_a_domain_refusal_from_a_child_is_the_same_problem(pool):
    tier = ComputeTier(pool(), time_limit=30)
    with pytest.raises(Exception) as raised:
        tier.run("position_value", ((0, 121), 0, 2, None, 121, "standard"), ANALYSIS)
    assert (type(raised.value).__name__, raised.value.code) == ("PositionError",
                                                                "game_already_won")


def test_past_its_bound_a_priority_s_queue_refuses(pool):
    local = pool(processes=1, bounds={MOVE: 5, ANALYSIS: 1, 2: 1})
    first = local.submit("position_value", SLOW, ANALYSIS, 30)
    with pytest.raises(ComputeBusy):
        local.submit("position_value", QUICK, ANALYSIS, 30)
    moved = local.submit("position_value", QUICK, MOVE, 30)  # another priority's own bound
    assert moved.outcome(60).result() == layout_position_value(*QUICK)
    first.outcome(60)


def test_a_move_queued_after_analyses_runs_before_them(pool):
    local = pool(processes=1)
    busy = local.submit("position_value", SLOW, ANALYSIS, 30)
    finished = []
    # each builds tables of its own target: a fifth of a second apart, whatever the threads
    jobs = [(name, local.submit("position_value", ((0, 0), 0, 2, None, target, "acc"),
                                priority, 30))
            for name, priority, target in (("analysis 1", ANALYSIS, 300),
                                           ("analysis 2", ANALYSIS, 301), ("move", MOVE, 302))]

    def wait(name, job):
        job.outcome(60)
        finished.append(name)

    threads = [threading.Thread(target=wait, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    busy.outcome(60)
    for thread in threads:
        thread.join(60)
    assert finished == ["move", "analysis 1", "analysis 2"]


def test_a_child_killed_mid_job_is_replaced_and_the_job_run_again(pool):
    tier = ComputeTier(pool(), time_limit=30)
    tier.run("position_value", QUICK, ANALYSIS)  # the child is up
    (child,) = _child_pids()
    answer = []
    runner = threading.Thread(target=lambda: answer.append(
        tier.run("position_value", SLOW, ANALYSIS)))
    runner.start()
    time.sleep(0.5)  # the slow job is running
    os.kill(child, signal.SIGKILL)
    runner.join(60)
    assert answer == [layout_position_value(*SLOW)]
    assert len(_child_pids()) == 1 and child not in _child_pids()


def test_a_job_past_its_time_limit_is_stopped_and_answered_503(pool):
    local = pool()
    with pytest.raises(ComputeUnavailable) as raised:
        ComputeTier(local, time_limit=0.3).run("position_value",
                                               ((0, 0), 1, 2, None, 997, "acc"), ANALYSIS)
    assert raised.value.code == "compute_unavailable"
    assert raised.value.params == {"time_limit": 0.3}
    # the process that was stopped takes the next job
    assert ComputeTier(local, time_limit=30).run("position_value", QUICK, ANALYSIS) == \
        layout_position_value(*QUICK)
