"""CPU budgets: analyses are charged by the CPU they cost, per client and per minute.

A client (a bearer token's digest, else its address) may spend `budget_ms` milliseconds of
compute-process CPU in each fixed minute window. A job is admitted while the client has spent
less than that (so one costly job may overdraw it); its measured CPU is charged when it ends.
Counters live in Redis when the store is Redis (every web worker and replica shares them),
else in this process's memory.
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import CpuBudgetExhausted

WINDOW = 60  # seconds
KEY_PREFIX = "cribbage-cpu:"


@dataclass(frozen=True)
class BudgetState:
    budget_ms: int
    spent_ms: int
    reset_in: int  # seconds until the window ends

    @property
    def remaining_ms(self) -> int:
        return max(0, self.budget_ms - self.spent_ms)


class Counters(Protocol):
    def spent(self, key: str) -> int:
        """Milliseconds charged to `key` (a client in one window)."""

    def charge(self, key: str, ms: int, ttl: int) -> None:
        """Add `ms` to `key`, which lives `ttl` seconds."""


class MemoryCounters:
    def __init__(self) -> None:
        self._spent: dict[str, tuple[int, float]] = {}  # key -> (ms, expires)
        self._lock = threading.Lock()

    def spent(self, key: str) -> int:
        with self._lock:
            ms, expires = self._spent.get(key, (0, 0.0))
            return ms if expires > time.monotonic() else 0

    def charge(self, key: str, ms: int, ttl: int) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._spent) > 100_000:  # forget the windows that ended
                self._spent = {k: v for k, v in self._spent.items() if v[1] > now}
            spent, expires = self._spent.get(key, (0, now + ttl))
            self._spent[key] = (spent + ms if expires > now else ms,
                                expires if expires > now else now + ttl)


class RedisCounters:
    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._connection: Any = None

    def _client(self) -> Any:
        if self._connection is None:  # on first use: nothing connects when the app is built
            self._connection = self._connect()
        return self._connection

    def spent(self, key: str) -> int:
        return int(self._client().get(key) or 0)

    def charge(self, key: str, ms: int, ttl: int) -> None:
        pipeline = self._client().pipeline(transaction=False)
        pipeline.incrby(key, ms)
        pipeline.expire(key, ttl)
        pipeline.execute()


class CpuBudget:
    def __init__(self, budget_ms: int, counters: Counters,
                 clock: Callable[[], float] = time.time) -> None:
        self.budget_ms = budget_ms
        self.counters = counters
        self.clock = clock

    def _window(self, client: str) -> tuple[str, int]:
        now = self.clock()
        start = int(now // WINDOW) * WINDOW
        return f"{KEY_PREFIX}{client}:{start}", max(1, math.ceil(start + WINDOW - now))

    def state(self, client: str) -> BudgetState:
        key, reset_in = self._window(client)
        return BudgetState(self.budget_ms, self.counters.spent(key), reset_in)

    def admit(self, client: str) -> None:
        """Raise CpuBudgetExhausted if the client has spent its budget of this window."""
        state = self.state(client)
        if state.remaining_ms <= 0:
            raise CpuBudgetExhausted(
                f"the CPU budget of {self.budget_ms} ms a minute for analyses is spent",
                budget_ms=self.budget_ms, window=WINDOW, retry_after=state.reset_in)

    def charge(self, client: str, cpu_seconds: float) -> None:
        key, _ = self._window(client)
        self.counters.charge(key, max(1, round(cpu_seconds * 1000)), WINDOW * 2)
