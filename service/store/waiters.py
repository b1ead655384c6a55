"""Waiters: the requests of this process waiting for a game to change, woken when it does.

A store notifies `Waiters` when it writes a game (`notify`), or when notifications may have been
lost, for instance while its connection to Redis was down (`notify_all`: every waiter re-reads).
A store whose notifications come from elsewhere gives a `Subscriptions`: it is told when a game
gains its first local waiter, and a waiter reads the game only once that subscription is in
place, so that no write can fall between its read and its subscription unnoticed. Such a
subscription outlives the game's last local waiter by LINGER seconds, so that a long poll asked
again at once finds it in place; while it is in place and nothing was notified, the store may
keep a copy of the game here (`copy_of`, `keep_copy`): the next waiter reads nothing.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, Protocol, TypeVar

from service.metrics import WAITING_CLIENTS

SUBSCRIBE_TIMEOUT = 2.0  # past this a waiter reads anyway; its safety re-read heals a miss
LINGER = 5.0  # a game's subscription outlives its last local waiter this long


class KeptCopy(Protocol):
    """A store's copy of a game, kept while the game's subscription is in place."""

    checked_at: float  # when it was last known current (monotonic)


Copy = TypeVar("Copy", bound=KeptCopy)


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


class _Game(Generic[Copy]):
    def __init__(self) -> None:
        self.watches: set[Watch] = set()
        self.subscribed = threading.Event()
        self.changes = 0     # notifications since the game was subscribed here
        self.copy: Copy | None = None  # the store's copy of the game, read at `changes`


class Waiters(Generic[Copy]):
    def __init__(self, subscriptions: Subscriptions | None = None):
        self._subscriptions = subscriptions
        self._lock = threading.Lock()           # guards the fields below; never held while talking
        self._subscribing = threading.Lock()    # orders (un)subscriptions; never taken by notify
        self._games: dict[str, _Game[Copy]] = {}
        self._idle: OrderedDict[str, float] = OrderedDict()  # game: when its last watch ended
        self._subscribed: set[str] = set()
        self._lost = 0  # notification connections down: no copy can be trusted meanwhile

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
            self._idle.pop(game_id, None)
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
                    if self._subscriptions is None:
                        del self._games[game_id]
                    else:
                        self._idle[game_id] = time.monotonic()
            self._sync_subscription(game_id)
            self.reap()

    def reap(self) -> None:
        """Drop the subscriptions whose game has had no local watch for LINGER seconds."""
        lingered = time.monotonic() - LINGER
        with self._lock:
            ended = []
            while self._idle:
                game_id, since = next(iter(self._idle.items()))
                if since > lingered:
                    break
                del self._idle[game_id]
                del self._games[game_id]
                ended.append(game_id)
        for game_id in ended:
            self._sync_subscription(game_id)

    def copy_of(self, game_id: str) -> tuple[int, Copy | None] | None:
        """The notifications of the game counted so far and the copy kept of it (None if none),
        if the game's subscription is in place; None if it is not (nothing may be kept)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None or self._subscriptions is None or self._lost or \
                    not game.subscribed.is_set():
                return None
            return game.changes, game.copy

    def copies(self, checked_before: float, limit: int) -> list[tuple[str, Copy]]:
        """Up to `limit` of the copies kept (game id, copy) whose `checked_at` is before
        `checked_before`, the least recently checked first."""
        with self._lock:
            due = [(game.copy.checked_at, game_id, game.copy)
                   for game_id, game in self._games.items()
                   if game.copy is not None and game.copy.checked_at < checked_before]
        return [(game_id, copy) for _, game_id, copy in heapq.nsmallest(limit, due)]

    def keep_copy(self, game_id: str, changes: int, copy: Copy | None) -> None:
        """Keep a copy of the game read after `changes` notifications (copy_of), unless another
        came since (or the game is no longer subscribed)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is not None and game.changes == changes:
                game.copy = copy

    def forget(self, game_id: str) -> None:
        """Drop the game's copy, and keep any read under way from becoming one (this process
        writes the game, or cannot check the copy)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                game.changes += 1
                game.copy = None

    def lost(self) -> None:
        """A notification connection is down: what comes meanwhile may never be notified."""
        with self._lock:
            self._lost += 1

    def found(self) -> None:
        """That connection is back (notify_all follows: every waiter reads again)."""
        with self._lock:
            self._lost -= 1

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
            game = self._games.get(game_id)
            if game is None:
                return
            game.changes += 1
            game.copy = None
            watches = list(game.watches)
        for watch in watches:
            watch.wake()

    def notify_all(self) -> None:
        with self._lock:
            for game in self._games.values():
                game.changes += 1
                game.copy = None
            watches = [watch for game in self._games.values() for watch in game.watches]
        for watch in watches:
            watch.wake()

    def games(self) -> list[str]:
        """The games local requests wait on, or did within LINGER (a new connection subscribes
        to them all)."""
        with self._lock:
            return list(self._games)
