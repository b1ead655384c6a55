"""The delivery worker: drains the webhook queue in every server process.

Each round it takes a batch of entries (retries that are due, entries another process took and
left pending, new ones) and finishes each in one store write: a player entry is expanded into
a delivery per webhook of the player; a delivery is POSTed once and, if the receiver does not
answer 2xx, queued again for attempt n+1 after RetryPolicy.delay(n) (5 s, 15 s, 45 s, ...)
until `attempts` are spent; each attempt is written to the webhook's delivery log. An entry
is finished only after its attempt, so a process that dies mid-way leaves it pending, and
another process takes it over after `idle_seconds`: a delivery is sent at least once, and a
receiver drops a repeat by its `webhook-id`.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from service import metrics
from service.games.service import server_time
from service.store import DeliveryLog, GameStore, QueuedEntry, StoreError

from . import notifications, sender, signing
from .model import Webhook
from .notifications import Notification

log = logging.getLogger(__name__)

BATCH = 20


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


# A player's id and webhooks by the player's key; None if the player is gone.
PlayerWebhooks = Callable[[str], "tuple[str, tuple[Webhook, ...]] | None"]


class DeliveryWorker:
    def __init__(self, store: GameStore, player_webhooks: PlayerWebhooks,
                 send_policy: sender.SendPolicy = sender.SendPolicy(),
                 retry_policy: RetryPolicy = RetryPolicy(),
                 clock: Callable[[], float] = time.time):
        self.store = store
        self.player_webhooks = player_webhooks
        self.send_policy = send_policy
        self.retry_policy = retry_policy
        self.clock = clock
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self, block_seconds: float = 0) -> int:
        """One round: take a batch (waiting up to `block_seconds` for one) and finish each
        entry. Returns how many were taken."""
        entries = self.store.take_entries(self.consumer, BATCH, self.clock(),
                                          self.retry_policy.idle_seconds, block_seconds)
        for entry in entries:
            if self._stopping.is_set():
                break  # left pending: another process (or the next start) takes it over
            try:
                self._finish(entry)
            except Exception:  # left pending, taken over later: the batch's others still go
                log.exception("webhook entry %s not finished", entry.entry_id)
        metrics.WEBHOOK_QUEUE_DEPTH.set(self.store.queue_depth())
        return len(entries)

    def start(self) -> None:
        if self._thread is None:
            self._stopping.clear()
            self._thread = threading.Thread(target=self._run, name="webhook-delivery",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the delivery under way, take no more; what is left stays queued."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self.run_once(self.retry_policy.poll_seconds)
            except StoreError as error:
                log.warning("webhook queue unavailable: %s", error)
                self._stopping.wait(self.retry_policy.poll_seconds)
            except Exception:  # a bug must not end deliveries for the process's lifetime
                log.exception("webhook delivery round failed")
                self._stopping.wait(self.retry_policy.poll_seconds)

    def _finish(self, entry: QueuedEntry) -> None:
        try:
            item = json.loads(entry.text)
            kind = item["kind"]
        except (ValueError, KeyError, TypeError):
            log.error("dropped an unreadable webhook entry %s", entry.entry_id)
            self.store.finish_entry(entry.entry_id)
            return
        if kind == "player":
            self.store.finish_entry(entry.entry_id, follow_ups=self._expand(item))
        else:
            self._deliver(entry.entry_id, item)

    def _expand(self, item: dict) -> list[str]:
        found = self.player_webhooks(item["player_key"])
        if found is None:
            return []
        player_id, webhooks = found
        notification = Notification(item["notification_id"], item["event"], item["data"])
        return [notifications.delivery(notification, webhook, f"player:{player_id}",
                                       item["created"])
                for webhook in webhooks if webhook.wants(item["event"])]

    def _deliver(self, entry_id: str, item: dict) -> None:
        now = self.clock()
        body = json.dumps({"type": item["event"], "timestamp": server_time(item["created"]),
                           "data": item["data"]}, separators=(",", ":")).encode()
        headers = signing.headers(item["secret"], item["delivery_id"], int(now), body)
        outcome = sender.post(item["url"], body, headers, self.send_policy)
        attempt = item["attempt"] + 1
        retry = None
        if outcome.delivered:
            result = "delivered"
        elif attempt < self.retry_policy.attempts:
            result = "retrying"
            due = now + self.retry_policy.delay(attempt)
            retry = (json.dumps({**item, "attempt": attempt}, separators=(",", ":")), due)
        else:
            result = "given_up"
        record = {"delivery_id": item["delivery_id"], "event": item["event"],
                  "attempts": attempt, "status": outcome.status, "error": outcome.error,
                  "outcome": result, "created_at": server_time(item["created"]),
                  "last_attempt_at": server_time(now),
                  "next_attempt_at": None if retry is None else server_time(retry[1]),
                  "delivered_at": server_time(now) if outcome.delivered else None}
        self.store.finish_entry(entry_id, retry=retry, log=DeliveryLog(
            log_key(item["owner"], item["webhook_id"]), item["delivery_id"],
            json.dumps(record, separators=(",", ":"))))
        metrics.WEBHOOK_DELIVERIES.labels(result).inc()


def log_key(owner: str, webhook_id: str) -> str:
    """Where a webhook's deliveries are logged: its owner (game:<id>, player:<id>) and id."""
    return f"{owner}:{webhook_id}"
