"""Waiters: the requests of this process waiting for a game to change, woken when it does.

A store notifies `Waiters` when it writes a game (`notify`), or when notifications may have been
lost, for instance while its connection to Redis was down (`notify_all`: every waiter re-reads).
A store whose notifications come from elsewhere gives a `Subscriptions`: it is told when a game
gains its first local waiter, and a waiter reads the game only once that subscription is in
place, so that no write can fall between its read and its subscription unnoticed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from service.metrics import WAITING_CLIENTS

SUBSCRIBE_TIMEOUT = 2.0  # past this a waiter reads anyway; its safety re-read heals a miss


class Subscriptions(Protocol):
    def subscribe(self, game_id: str) -> None:
        """Start receiving the game's notifications; call Waiters.subscribed when in place."""

    def unsubscribe(self, game_id: str) -> None:
        """Stop receiving them: no local request waits on the game any more."""


class Watch:
    """One request's interest in one game."""

    def __init__(self) -> None:
        self._changed = threading.Event()

    def wait(self, timeout: float) -> bool:
        """Block until the game changes (True) or `timeout` seconds pass (False)."""
        changed = self._changed.wait(timeout)
        self._changed.clear()
        return changed

    def wake(self) -> None:
        self._changed.set()


class _Game:
    def __init__(self) -> None:
        self.watches: set[Watch] = set()
        self.subscribed = threading.Event()


class Waiters:
    def __init__(self, subscriptions: Subscriptions | None = None):
        self._subscriptions = subscriptions
        self._lock = threading.Lock()           # guards _games; never held while talking
        self._subscribing = threading.Lock()    # orders (un)subscriptions; never taken by notify
        self._games: dict[str, _Game] = {}
        self._subscribed: set[str] = set()

    @contextmanager
    def watch(self, game_id: str) -> Iterator[Watch]:
        """A Watch on `game_id` for the duration of the block, subscribed before it is given."""
        watch = Watch()
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                game = self._games[game_id] = _Game()
                if self._subscriptions is None:
                    game.subscribed.set()
            game.watches.add(watch)
        WAITING_CLIENTS.inc()
        try:
            self._sync_subscription(game_id)
            game.subscribed.wait(SUBSCRIBE_TIMEOUT)
            yield watch
        finally:
            WAITING_CLIENTS.dec()
            with self._lock:
                game.watches.discard(watch)
                if not game.watches and self._games.get(game_id) is game:
                    del self._games[game_id]
            self._sync_subscription(game_id)

    def _sync_subscription(self, game_id: str) -> None:
        """Subscribe to the game if a local request waits on it, else unsubscribe; one thread at
        a time, so that a late unsubscription never undoes a newer subscription."""
        if self._subscriptions is None:
            return
        with self._subscribing:
            with self._lock:
                game = self._games.get(game_id)
            if game is not None and game_id not in self._subscribed:
                self._subscribed.add(game_id)
                self._subscriptions.subscribe(game_id)
            elif game is not None:
                game.subscribed.set()  # the subscription of an earlier watch is still in place
            elif game_id in self._subscribed:
                self._subscribed.discard(game_id)
                self._subscriptions.unsubscribe(game_id)

    def subscribed(self, game_id: str) -> None:
        with self._lock:
            game = self._games.get(game_id)
        if game is not None:
            game.subscribed.set()

    def notify(self, game_id: str) -> None:
        with self._lock:
            watches = list(self._games[game_id].watches) if game_id in self._games else []
        for watch in watches:
            watch.wake()

    def notify_all(self) -> None:
        with self._lock:
            watches = [watch for game in self._games.values() for watch in game.watches]
        for watch in watches:
            watch.wake()

    def games(self) -> list[str]:
        """The games local requests wait on (a new connection subscribes to them all)."""
        with self._lock:
            return list(self._games)
