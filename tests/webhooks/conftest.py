"""An app whose webhooks may call loopback, on the embedded store and on a real Redis, and a
way to run its delivery worker until the queue has nothing due."""

from __future__ import annotations

import secrets

import pytest

from service.store import MemoryGameStore, RedisGameStore
from tests.games.conftest import Clock, make_app
from tests.webhooks.receiver import Receiver

WORKER = "cribbage.webhook_worker"


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        yield MemoryGameStore(3600)
        return
    server = request.getfixturevalue("redis_server")
    store = RedisGameStore(server.url, 3600, webhook_queue=secrets.token_hex(8))
    yield store
    store.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(store, clock):
    return make_app(store, clock, webhooks_allow_private=True)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def deliver(app):
    """deliver(): run the app's delivery worker until it takes nothing."""
    worker = app.extensions[WORKER]

    def run() -> None:
        while worker.run_once():
            pass
    return run


@pytest.fixture
def receiver():
    with Receiver() as running:
        yield running
