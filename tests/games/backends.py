"""A games store on each backend for API tests: embedded, standalone Redis, Redis Cluster."""

from __future__ import annotations

import pytest

from service.store import MemoryGameStore, RedisGameStore


@pytest.fixture(params=["memory", "redis", pytest.param("cluster", marks=pytest.mark.ops)])
def store(request):
    """Overrides tests/games/conftest.py's embedded store in the modules that import it."""
    if request.param == "memory":
        yield MemoryGameStore(3600)
        return
    server = request.getfixturevalue("redis_server" if request.param == "redis"
                                     else "redis_cluster")
    store = RedisGameStore(server.url, 3600, cluster=request.param == "cluster")
    yield store
    store.close()
