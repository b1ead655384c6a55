"""A game store whose every operation is timed into the store latency histogram."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from service.metrics import STORE_LATENCY
from service.store.base import GameStore

# Not timed: `watch` holds a request while it waits for a game to change (the waiting clients
# gauge counts those), `take_entries` waits up to a second for a webhook entry (the store
# latency alert would read it as a slow store), `close` ends the process.
UNTIMED = frozenset({"watch", "take_entries", "close"})


def timed_store(store: GameStore) -> GameStore:
    """`store` with its operations timed. A TimedStore answers for every attribute of the store
    it wraps, which no static type can say of a proxy: hence the cast."""
    return cast(GameStore, TimedStore(store))


class TimedStore:
    """Wraps a GameStore (service.store.base): the same operations, each one's duration
    observed under its name, so the store's own latency is seen apart from the requests'."""

    def __init__(self, store: GameStore):
        self.wrapped = store

    def __getattr__(self, name: str):
        attribute = getattr(self.wrapped, name)
        if name.startswith("_") or name in UNTIMED or not callable(attribute):
            return attribute
        timed = _timed(name, attribute)
        setattr(self, name, timed)  # found directly from now on
        return timed


def _timed(name: str, operation: Callable) -> Callable:
    observe = STORE_LATENCY.labels(name).observe

    def timed(*args, **kwargs):
        started = time.perf_counter()
        try:
            return operation(*args, **kwargs)
        finally:
            observe(time.perf_counter() - started)
    return timed
