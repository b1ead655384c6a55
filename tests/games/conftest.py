"""An app on the embedded store with a clock the test controls, and its test client."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.config import Settings
from service.store import MemoryGameStore

START = 1_800_000_000.0


class Clock:
    """Epoch seconds that move only when the test says so (for count deadlines)."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_app(store, clock=None, **settings):
    config = {"TESTING": True, "GAME_STORE": store,
              "SETTINGS": Settings(rate_limit_enabled=False, **settings)}
    if clock is None:
        return create_app(config)
    return create_app(config, clock=clock)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def store():
    return MemoryGameStore(3600)


@pytest.fixture
def app(store, clock):
    return make_app(store, clock)


@pytest.fixture
def client(app):
    return app.test_client()
