"""Game change notifications over Redis pub/sub, received once per process.

The save script publishes the game's new version on the game's channel, in the same atomic
step as the write. On a standalone Redis that is PUBLISH/SUBSCRIBE; on a Cluster it is sharded
pub/sub (SPUBLISH/SSUBSCRIBE), whose messages stay on the node holding the game's hash slot,
so this process keeps one pub/sub connection per node it has games on. A channel is subscribed
while a local request waits on its game (and a little after: waiters.LINGER). While a
connection is lost no copy of a game is trusted; once it is back, every waiter re-reads: what
was published meanwhile is gone, the events are not.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable

import redis
from redis.exceptions import MovedError, RedisError

from .waiters import Waiters

log = logging.getLogger(__name__)

LISTEN_TIMEOUT = 30.0    # a listener with nothing to read checks its connection this often
RECONNECT_PAUSE = 0.5
CHANNEL_PREFIX = "cribbage:{"
CHANNEL_SUFFIX = "}:changed"


def channel(game_id: str) -> str:
    """The game's channel; its hash tag puts it in the slot of the game's keys."""
    return CHANNEL_PREFIX + game_id + CHANNEL_SUFFIX


def game_of(channel_name: str) -> str:
    return channel_name[len(CHANNEL_PREFIX):-len(CHANNEL_SUFFIX)]


class RedisSubscriptions:
    """This process's pub/sub connections, each listened to by its own thread.

    `node_of(channel)` names the node a channel lives on ("" on a standalone Redis) and
    `connect(node)` opens a client to it.
    """

    def __init__(self, waiters_of: Callable[[], Waiters], node_of: Callable[[str], str],
                 connect: Callable[[str], redis.Redis], sharded: bool):
        self._waiters_of = waiters_of
        self._node_of = node_of
        self._connect = connect
        self._sharded = sharded
        self._lock = threading.Lock()
        self._listeners: dict[str, _Listener] = {}
        self._pid = os.getpid()

    def subscribe(self, game_id: str) -> None:
        name = channel(game_id)
        try:
            self._listener(self._node_of(name)).subscribe(name)
        except (RedisError, OSError) as error:
            # The listener reconnects; until then the waiter's safety re-read covers it.
            log.warning("cannot subscribe to %s: %s", name, error)

    def unsubscribe(self, game_id: str) -> None:
        name = channel(game_id)
        try:
            node = self._node_of(name)
        except (RedisError, OSError):
            return  # the Cluster is unreachable: its listeners reconnect with the wanted channels
        with self._lock:
            listener = self._listeners.get(node)
        if listener is not None:
            listener.unsubscribe(name)

    def close(self) -> None:
        with self._lock:
            listeners, self._listeners = list(self._listeners.values()), {}
        for listener in listeners:
            listener.close()

    def _listener(self, node: str) -> _Listener:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's threads do not exist here
                self._listeners, self._pid = {}, os.getpid()
            listener = self._listeners.get(node)
            if listener is None:
                listener = self._listeners[node] = _Listener(
                    self._connect(node), self._sharded, self._waiters_of(), self._moved)
            return listener

    def _moved(self, listener: _Listener) -> None:
        """A node refused or lost a channel (a slot moved): subscribe again where it lives."""
        with self._lock:
            for node, known in list(self._listeners.items()):
                if known is listener:
                    del self._listeners[node]
        listener.close()
        waiters = self._waiters_of()
        for game_id in waiters.games():
            self.subscribe(game_id)
        waiters.notify_all()


class _Listener:
    def __init__(self, client: redis.Redis, sharded: bool, waiters: Waiters,
                 on_moved: Callable[[_Listener], None]):
        self._pubsub = client.pubsub()
        self._sharded = sharded
        self._waiters = waiters
        self._on_moved = on_moved
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="game-notifications", daemon=True)
        self._thread.start()

    def subscribe(self, name: str) -> None:
        if self._sharded:
            self._pubsub.ssubscribe(name)
        else:
            self._pubsub.subscribe(name)

    def unsubscribe(self, name: str) -> None:
        try:
            if self._sharded:
                self._pubsub.sunsubscribe(name)
            else:
                self._pubsub.unsubscribe(name)
        except (RedisError, OSError):
            pass  # a new connection subscribes only to the channels still wanted

    def close(self) -> None:
        self._closed = True
        self._pubsub.close()

    def _run(self) -> None:
        lost = False
        try:
            while not self._closed:
                try:
                    message = self._pubsub.get_message(timeout=LISTEN_TIMEOUT)
                except MovedError:
                    self._on_moved(self)  # a slot moved to another node: subscribe again there
                    return
                except (RedisError, OSError, ValueError, AttributeError) as error:
                    if self._closed:
                        return
                    if not lost:
                        log.warning("game notifications interrupted: %s", error)
                        self._waiters.lost()
                    lost = True
                    time.sleep(RECONNECT_PAUSE)
                    continue
                if lost:
                    lost = False
                    self._waiters.found()
                    self._waiters.notify_all()
                if message is not None:
                    self._receive(message)
        finally:
            if lost:
                self._waiters.found()

    def _receive(self, message: dict) -> None:
        kind = message["type"]
        if kind in ("message", "smessage"):
            self._waiters.notify(game_of(message["channel"]))
        elif kind in ("subscribe", "ssubscribe"):
            self._waiters.subscribed(game_of(message["channel"]))
