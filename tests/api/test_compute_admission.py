"""Analyses are charged by their CPU: 429 with the `cpu` policy once a client's budget is spent,
503 with Retry-After when the compute queue is full."""
from __future__ import annotations

import pytest

from service.api import create_app
from service.compute import ANALYSIS, MOVE, ComputeTier, CpuBudget
from service.compute.budget import MemoryCounters
from service.compute.local import LocalPool
from service.config import Settings
from tests.api.conftest import problem

POSITION = {"scores": [100, 90], "dealer": 0, "players": 2}


def _client(tier: ComputeTier):
    return create_app({"TESTING": True, "COMPUTE": tier,
                       "SETTINGS": Settings(rate_limit_enabled=False)}).test_client()


@pytest.mark.parametrize("language, title, detail", [
    ("en", "CPU budget spent",
     "This client has spent its 1 ms of CPU a minute on analyses; retry after"),
    ("es", "Presupuesto de CPU agotado",
     "Este cliente ya gastó sus 1 ms de CPU por minuto en análisis; vuelva a intentarlo dentro "
     "de")])
def test_past_its_cpu_budget_a_client_gets_429_and_the_cpu_policy_says_why(language, title,
                                                                            detail):
    client = _client(ComputeTier(budget=CpuBudget(1, MemoryCounters())))
    headers = {"Authorization": "Bearer budget-test-token", "Accept-Language": language}
    first = client.post("/v1/analysis/position", json=POSITION, headers=headers)
    assert first.status_code == 200
    assert first.headers["RateLimit-Policy"] == '"cpu";q=1;w=60'
    assert first.headers["RateLimit"].startswith('"cpu";r=0;t=')
    refused = client.post("/v1/analysis/discard", headers=headers,
                          json={"hand": ["5H", "5D", "JS", "QC", "KH", "2S"], "players": 2,
                                "own_crib": True})
    body = problem(refused, 429, "cpu_budget_exhausted")
    retry_after = int(refused.headers["Retry-After"])
    assert 1 <= retry_after <= 60
    assert (body["title"], body["detail"]) == (title, f"{detail} {retry_after} s")
    assert refused.headers["RateLimit"] == f'"cpu";r=0;t={retry_after}'
    other = client.post("/v1/analysis/position", json=POSITION,
                        headers={"Authorization": "Bearer another-client-token"})
    assert other.status_code == 200  # a budget per client


def test_a_full_compute_queue_is_503_with_retry_after():
    tier = ComputeTier(LocalPool(1, {MOVE: 1, ANALYSIS: 0, 2: 0}))
    response = _client(tier).post("/v1/analysis/position", json=POSITION)
    body = problem(response, 503, "compute_busy")
    assert response.headers["Retry-After"] == "1"
    assert body["detail"] == "The queue of searches is full; retry after 1 s"
