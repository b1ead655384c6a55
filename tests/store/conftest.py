"""A `make_store` factory per backend: memory, standalone Redis and Redis Cluster."""

from __future__ import annotations

import secrets

import pytest

from service.store import MemoryGameStore, RedisGameStore


class FakeClock:
    """Monotonic seconds that only move when a test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(params=["memory", "standalone", pytest.param("cluster", marks=pytest.mark.ops)])
def backend(request):
    return request.param


@pytest.fixture
def make_store(request, backend):
    """make_store(ttl_seconds=60, ...) -> a fresh store on the test's backend."""
    stores = []

    def make(ttl_seconds: int = 60, clock: FakeClock | None = None,
             finished_ttl_seconds: int | None = None):
        options = {"finished_ttl_seconds": finished_ttl_seconds}
        if backend == "memory":
            store = MemoryGameStore(ttl_seconds, clock=clock or FakeClock(), **options)
        elif backend == "standalone":
            server = request.getfixturevalue("redis_server")
            store = RedisGameStore(server.url, ttl_seconds, webhook_queue=secrets.token_hex(8),
                                   **options)
        else:
            cluster = request.getfixturevalue("redis_cluster")
            store = RedisGameStore(cluster.url, ttl_seconds, cluster=True,
                                   webhook_queue=secrets.token_hex(8), **options)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.close()


@pytest.fixture
def store(make_store):
    return make_store()
