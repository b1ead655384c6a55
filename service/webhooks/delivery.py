"""The delivery worker: drains the webhook queue in every server process, many deliveries at
once, so that a receiver that hangs holds up its own deliveries only.

A reader takes entries (retries that are due, entries another process took and left pending,
new ones) and finishes each in one store write. A player entry is expanded at once into a
delivery per webhook of the player. A delivery goes to its destination, its URL's scheme, host
and port: a destination has at most `per_destination` deliveries under way, a webhook one, in
the order taken; a delivery that cannot start yet waits in its destination's local queue,
which holds as many again. A delivery that finds that queue full too is deferred: put back
with the queue's retries, no attempt spent, due after as long as the destination's oldest
delivery under way has taken so far (DEFER_MIN_SECONDS to DEFER_MAX_SECONDS), so the reader
goes on taking entries for other destinations. The process holds at most `concurrency`
deliveries, under way or waiting: at that bound the reader takes no entry until one finishes.
Each delivery under way is a thread of its own, a greenlet in the gevent server, and goes on
with the next of its destination's queue that may start.

A push subscription's delivery (service.webhooks.push) goes the same way, encrypted for the
subscription and signed with the deployment's VAPID key; one the push service reports gone
(404, 410) is not retried and the subscription is deleted (`forget`).

A delivery is POSTed once and, if the receiver does not answer 2xx, queued again for attempt
n+1 after RetryPolicy.delay(n) (5 s, 15 s, 45 s, ...) until `attempts` are spent; each
attempt is written to the webhook's delivery log. An entry is finished only after its attempt,
so a process that dies mid-way leaves it pending, and another process takes it over after
`idle_seconds`: a delivery is sent at least once, and a receiver drops a repeat by its
`webhook-id`.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from service import metrics
from service.games.event_log import server_time
from service.store import DeliveryLog, GameStore, QueuedEntry, StoreError

from . import addresses, notifications, push, sender, signing
from .model import PlayerHooks
from .notifications import Notification

log = logging.getLogger(__name__)

BATCH = 20
# How long a deferred delivery waits: as long as its destination's oldest delivery under way
# has taken so far, within these (a receiver that answers at once gets it back soon, one that
# hangs seldom).
DEFER_MIN_SECONDS = 0.1
DEFER_MAX_SECONDS = 15.0


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 8                # 5 s ... about 3 h after the first
    base_seconds: float = 5.0
    factor: float = 3.0
    idle_seconds: float = 60.0       # a pending entry untouched this long is taken over
    poll_seconds: float = 1.0        # an idle worker waits this long for a new entry, at most

    def delay(self, attempt: int) -> float:
        """Seconds from failed attempt `attempt` (1, 2, ...) to the next."""
        return self.base_seconds * self.factor ** (attempt - 1)


@dataclass(frozen=True)
class Bounds:
    concurrency: int = 50            # deliveries a process holds, under way or waiting
    per_destination: int = 4         # under way at once to one destination; as many waiting


# A player's id, webhooks and seats by the player's key; None if the player is gone.
PlayerWebhooks = Callable[[str], "PlayerHooks | None"]
# Deletes a push subscription the push service reported gone: its owner, its id and, a player's,
# the player's key.
ForgetSubscription = Callable[[str, str, "str | None"], None]
GONE = (404, 410)  # a push service's answers for a subscription that no longer exists


@dataclass(frozen=True)
class _Delivery:
    entry: QueuedEntry
    item: dict
    destination: str                 # addresses.destination of its URL
    webhook: str                     # its log key: a webhook's deliveries go one at a time


@dataclass
class _Destination:
    """A destination's deliveries in this process: under way, by webhook with when each
    started (time.monotonic), and waiting, in the order taken."""

    sending: dict[str, float] = field(default_factory=dict)
    waiting: deque[_Delivery] = field(default_factory=deque)

    def may_start(self, delivery: _Delivery, per_destination: int) -> bool:
        return len(self.sending) < per_destination and delivery.webhook not in self.sending

    def next_to_start(self, per_destination: int) -> _Delivery | None:
        """The first waiting delivery that may start, out of the queue."""
        for delivery in self.waiting:
            if self.may_start(delivery, per_destination):
                self.waiting.remove(delivery)
                return delivery
        return None

    def deferral(self, now: float) -> float:
        """Seconds a delivery that finds no room here waits before it is taken again."""
        oldest = min(self.sending.values(), default=now)
        return min(max(now - oldest, DEFER_MIN_SECONDS), DEFER_MAX_SECONDS)


class DeliveryWorker:
    def __init__(self, store: GameStore, player_webhooks: PlayerWebhooks,
                 send_policy: sender.SendPolicy = sender.SendPolicy(),
                 retry_policy: RetryPolicy = RetryPolicy(),
                 clock: Callable[[], float] = time.time, bounds: Bounds = Bounds(),
                 vapid: push.DeploymentKey | None = None,
                 forget: ForgetSubscription = lambda owner, subscription_id, player_key: None):
        self.store = store
        self.player_webhooks = player_webhooks
        self.vapid = vapid
        self.forget = forget
        self.send_policy = send_policy
        self.retry_policy = retry_policy
        self.bounds = bounds
        self.clock = clock
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        # What the process holds: destinations by their key, and the ids of their entries
        # (under way or waiting); the lock guards both, and is notified when they shrink.
        self._destinations: dict[str, _Destination] = {}
        self._held: set[str] = set()
        self._changed = threading.Condition()

    def run_once(self, block_seconds: float = 0) -> int:
        """One round, to its end: take a batch (waiting up to `block_seconds` for one), make
        its deliveries, concurrently within the bounds, and return once the process holds none.
        Returns how many entries were taken."""
        taken = self._take(BATCH, block_seconds)
        with self._changed:
            self._changed.wait_for(lambda: not self._held)
        return taken

    def start(self) -> None:
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="webhook-delivery",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the deliveries under way, start no more; those waiting stay queued (pending,
        taken over after `idle_seconds`), like the rest."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._stopping.set()
            for destination in self._destinations.values():
                self._held.difference_update(d.entry.entry_id for d in destination.waiting)
                destination.waiting.clear()
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        with self._changed:
            self._changed.wait_for(lambda: not self._held, max(deadline - time.monotonic(), 0))

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                room = self._room()
                if room > 0:
                    self._take(room, self.retry_policy.poll_seconds)
            except StoreError as error:
                log.warning("webhook queue unavailable: %s", error)
                self._stopping.wait(self.retry_policy.poll_seconds)
            except Exception:  # a bug must not end deliveries for the process's lifetime
                log.exception("webhook delivery round failed")
                self._stopping.wait(self.retry_policy.poll_seconds)

    def _room(self) -> int:
        """How many entries the reader may take: it waits (a poll's time at most) while the
        process holds its bound; none once stopping."""
        with self._changed:
            self._changed.wait_for(lambda: (len(self._held) < self.bounds.concurrency
                                            or self._stopping.is_set()),
                                   self.retry_policy.poll_seconds)
            if self._stopping.is_set():
                return 0
            return min(BATCH, self.bounds.concurrency - len(self._held))

    def _take(self, count: int, block_seconds: float) -> int:
        entries = self.store.take_entries(self.consumer, count, self.clock(),
                                          self.retry_policy.idle_seconds, block_seconds)
        for entry in entries:
            if self._stopping.is_set():
                break  # left pending: another process (or the next start) takes it over
            try:
                self._dispatch(entry)
            except Exception:  # left pending, taken over later: the batch's others still go
                log.exception("webhook entry %s not finished", entry.entry_id)
        metrics.WEBHOOK_QUEUE_DEPTH.set(self.store.queue_depth())
        return len(entries)

    def _dispatch(self, entry: QueuedEntry) -> None:
        """Finish a player entry (or an unreadable one) at once; place a delivery."""
        try:
            item = json.loads(entry.text)
            kind = item["kind"]
        except (ValueError, KeyError, TypeError):
            log.error("dropped an unreadable webhook entry %s", entry.entry_id)
            self.store.finish_entry(entry.entry_id)
            return
        if kind == "player":
            self.store.finish_entry(entry.entry_id, follow_ups=self._expand(item))
            return
        delivery = _Delivery(entry, item, addresses.destination(item["url"]),
                             log_key(item["owner"], item["webhook_id"]))
        deferral = self._place(delivery)
        if deferral is not None:
            log.debug("webhook delivery %s deferred %.1f s: no room at %s", item["delivery_id"],
                      deferral, delivery.destination)
            self.store.finish_entry(entry.entry_id, retry=(entry.text, self.clock() + deferral))

    def _place(self, delivery: _Delivery) -> float | None:
        """Start a delivery, or queue it behind its destination's; if that queue is full, the
        seconds to defer it by."""
        entry_id = delivery.entry.entry_id
        with self._changed:
            if self._stopping.is_set() or entry_id in self._held:
                return None  # taken again while held here (past idle_seconds): it stays here
            destination = self._destinations.setdefault(delivery.destination, _Destination())
            if not destination.may_start(delivery, self.bounds.per_destination):
                if len(destination.waiting) >= self.bounds.per_destination:
                    return destination.deferral(time.monotonic())
                destination.waiting.append(delivery)
                self._held.add(entry_id)
                return None
            destination.sending[delivery.webhook] = time.monotonic()
            self._held.add(entry_id)
        threading.Thread(target=self._send, args=(delivery,), name="webhook-send",
                         daemon=True).start()
        return None

    def _send(self, delivery: _Delivery | None) -> None:
        """Make a delivery, then the next of its destination's that may start, until none."""
        while delivery is not None:
            try:
                self._deliver(delivery.entry.entry_id, delivery.item)
            except Exception:  # left pending, taken over later
                log.exception("webhook entry %s not finished", delivery.entry.entry_id)
            delivery = self._done(delivery)

    def _done(self, delivery: _Delivery) -> _Delivery | None:
        """Forget a delivery made; the next of its destination's to make, if one may start."""
        with self._changed:
            destination = self._destinations[delivery.destination]
            del destination.sending[delivery.webhook]
            self._held.discard(delivery.entry.entry_id)
            following = (None if self._stopping.is_set()
                         else destination.next_to_start(self.bounds.per_destination))
            if following is not None:
                destination.sending[following.webhook] = time.monotonic()
            elif not destination.sending and not destination.waiting:
                del self._destinations[delivery.destination]
            self._changed.notify_all()
            return following

    def _expand(self, item: dict) -> list[str]:
        player = self.player_webhooks(item["player_key"])
        if player is None:
            return []
        notification = Notification(item["notification_id"], item["event"], item["data"])
        seat = player.seats.get(item["data"].get("game_id"))
        return [notifications.delivery(notification, webhook, f"player:{player.player_id}",
                                       item["created"], item["player_key"])
                for webhook in player.webhooks if webhook.wants(item["event"])
                and notifications.for_seat(notification, seat, webhook.is_push)]

    def _deliver(self, entry_id: str, item: dict) -> None:
        now = self.clock()
        message = {"type": item["event"], "timestamp": server_time(item["created"]),
                   "data": item["data"]}
        if "keys" in item:
            outcome = self._push(item, message)
        else:
            body = _json(message).encode()
            headers = signing.headers(item["secret"], item["delivery_id"], int(now), body)
            outcome = sender.post(item["url"], body, headers, self.send_policy)
        attempt = item["attempt"] + 1
        retry = None
        if outcome.delivered:
            result = "delivered"
        elif "keys" in item and outcome.status in GONE:
            result = "gone"
            self.forget(item["owner"], item["webhook_id"], item.get("player_key"))
        elif attempt < self.retry_policy.attempts:
            result = "retrying"
            due = now + self.retry_policy.delay(attempt)
            retry = (_json({**item, "attempt": attempt}), due)
        else:
            result = "given_up"
        record = {"delivery_id": item["delivery_id"], "event": item["event"],
                  "attempts": attempt, "status": outcome.status, "error": outcome.error,
                  "outcome": result, "created_at": server_time(item["created"]),
                  "last_attempt_at": server_time(now),
                  "next_attempt_at": None if retry is None else server_time(retry[1]),
                  "delivered_at": server_time(now) if outcome.delivered else None}
        self.store.finish_entry(entry_id, retry=retry, log=DeliveryLog(
            log_key(item["owner"], item["webhook_id"]), item["delivery_id"], _json(record)))
        metrics.WEBHOOK_DELIVERIES.labels(result).inc()

    def _push(self, item: dict, message: dict) -> sender.Outcome:
        """A push subscription's delivery: the message encrypted for it. One too long for a
        push message (MAX_PAYLOAD) goes without its data but the game and version, which a
        client reads the rest by."""
        if self.vapid is None:
            return sender.Outcome(error="refused: push is not set up in this process")
        payload = _json(message).encode()
        if len(payload) > push.MAX_PAYLOAD:
            data = message["data"]
            payload = _json({**message, "data": {"game_id": data.get("game_id"),
                                                 "version": data.get("version")}}).encode()
        p256dh, auth = item["keys"]
        body, headers = push.request(self.vapid.get(), item["url"], p256dh, auth, payload,
                                     item["event"], item["data"].get("game_id"))
        return sender.post(item["url"], body, headers, self.send_policy)


def _json(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


def log_key(owner: str, webhook_id: str) -> str:
    """Where a webhook's deliveries are logged: its owner (game:<id>, player:<id>) and id."""
    return f"{owner}:{webhook_id}"
