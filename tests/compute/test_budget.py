"""CPU budgets: admitted while some is left, charged by what a job took, per minute window."""
from __future__ import annotations

import pytest
import redis

from service.compute.budget import CpuBudget, MemoryCounters, RedisCounters
from service.compute.errors import CpuBudgetExhausted


@pytest.fixture(params=["memory", "redis"])
def counters(request):
    if request.param == "memory":
        return MemoryCounters()
    client = redis.Redis.from_url(request.getfixturevalue("redis_server").url)
    client.flushdb()
    return RedisCounters(lambda: client)


def test_a_client_is_refused_once_it_has_spent_its_budget_until_the_window_ends(counters):
    now = [6000.0]
    budget = CpuBudget(500, counters, clock=lambda: now[0])
    budget.admit("address:1")
    budget.charge("address:1", 0.3)
    assert budget.state("address:1").remaining_ms == 200
    budget.admit("address:1")
    budget.charge("address:1", 0.4)  # one job may overdraw what was left
    assert budget.state("address:1").remaining_ms == 0
    now[0] = 6017.5
    with pytest.raises(CpuBudgetExhausted) as refused:
        budget.admit("address:1")
    assert refused.value.params == {"budget_ms": 500, "window": 60, "retry_after": 43}
    budget.admit("address:2")  # another client has its own
    now[0] = 6060.0  # the next window
    budget.admit("address:1")
    assert budget.state("address:1").spent_ms == 0
