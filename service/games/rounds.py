"""Rounds: one pairing round of a seek pool at a time in this process, none missed.

A round of a pool waits for the compute tier (service.games.seeks); seeks that come meanwhile
would each start a round of their own over the same seeks, whose tables all but one then
lose to the first (GameStore.take_seeks). Instead, a call while the pool's round runs has it
go once more when it ends, and waits for that.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class _Running:
    def __init__(self) -> None:
        self.again = False
        self.done = threading.Event()


class Rounds:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, _Running] = {}

    def run(self, pool: str, round_: Callable[[], int], wait: float) -> int:
        """`round_()` (the games it created), unless the pool's round runs here already: then
        that one goes again once it ends, and this call waits up to `wait` seconds for it (0)."""
        with self._lock:
            leading = pool not in self._running
            running = self._running.setdefault(pool, _Running())
            running.again = not leading
        if not leading:
            running.done.wait(wait)
            return 0
        created = 0
        try:
            while True:
                created += round_()
                with self._lock:   # the same hold as a newcomer's: none asks in between
                    if not running.again:
                        del self._running[pool]
                        return created
                    running.again = False
        except BaseException:
            with self._lock:
                del self._running[pool]
            raise
        finally:
            running.done.set()
