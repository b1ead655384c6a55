"""Deliveries go out concurrently, within a bound per process and per destination: a receiver
that never answers holds up its own deliveries only (issue 26)."""

from __future__ import annotations

import json
import secrets
import threading
import time

import pytest

from service.config import Settings, SettingsError
from service.webhooks import notifications
from service.webhooks.delivery import Bounds, DeliveryWorker
from service.webhooks.model import MAX_PER_GAME, Webhook
from service.webhooks.notifications import Notification
from service.webhooks.sender import SendPolicy
from tests.games.conftest import make_app
from tests.webhooks.conftest import WORKER
from tests.webhooks.helpers import SECRET, register, two_humans
from tests.webhooks.receiver import SilentReceiver

CUT = {"type": "cut_for_deal", "depth": 10}   # a new turn: seat 1 alone is left to cut


@pytest.fixture
def silent():
    with SilentReceiver() as running:
        yield running


def test_a_receiver_that_never_answers_delays_only_its_own_deliveries(store, receiver, silent):
    app = make_app(store, webhooks_allow_private=True)   # the real clock: the worker runs
    client, worker = app.test_client(), app.extensions[WORKER]
    stalled, _ = two_humans(client)
    for _ in range(MAX_PER_GAME):
        assert register(stalled, silent.url(), secret=SECRET).status_code == 201
    other, _ = two_humans(client)
    assert register(other, receiver.url(), secret=SECRET, events=["turn"]).status_code == 201
    worker.start()
    try:
        assert receiver.wait_for(lambda: len(receiver.received) == 1)  # its first turn
        stalled.act(CUT)   # a turn for each of the 10 webhooks that never get an answer
        assert silent.wait_for(lambda: silent.open == 4)   # its destination's bound, saturated
        moved = time.perf_counter()
        version = other.act(CUT)["version"]
        assert receiver.wait_for(lambda: len(receiver.received) == 2, timeout=60)
        arrived, _ = receiver.arrivals[1]
        assert receiver.received[1].payload["data"]["version"] == version
        assert arrived - moved < 2.0
        assert silent.most_open == 4
    finally:
        silent.close()
        worker.stop()


def queue_deliveries(store, webhooks: list[Webhook], now: float) -> list[str]:
    """A turn for each of `webhooks` (one for each time it is listed), queued with a game's
    write in one go; their delivery ids, in order."""
    entries = [notifications.delivery(Notification(notifications.new_id(), "turn", {}), webhook,
                                      "game:g", now) for webhook in webhooks]
    store.create(secrets.token_urlsafe(12), "{}", outbox=entries)
    return [json.loads(entry)["delivery_id"] for entry in entries]


def hooks(url: str, count: int) -> list[Webhook]:
    return [Webhook(f"wh_{number}", url, SECRET, ("turn",), 0.0) for number in range(count)]


def no_player(player_key: str) -> None:
    return None


def until(condition, timeout: float = 30.0) -> bool:
    """Whether `condition()` holds within `timeout` seconds, asked every 10 ms."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_at_its_bound_the_process_takes_no_more_entries(store, silent):
    queue_deliveries(store, hooks(silent.url(), 6), time.time())
    never_cut_off = SendPolicy(allow_private=True, read_timeout=60, answer_timeout=60)
    worker = DeliveryWorker(store, no_player, never_cut_off,
                            bounds=Bounds(concurrency=2, per_destination=4))
    worker.start()
    try:
        assert silent.wait_for(lambda: silent.open == 2)
        left = store.take_entries("another-process", 100, time.time(), idle_seconds=3600)
        assert len(left) == 4
        assert silent.most_open == 2
    finally:
        silent.close()
        worker.stop()


def test_a_delivery_its_destination_has_no_room_for_is_deferred_without_an_attempt(
        store, silent, clock):
    ids = queue_deliveries(store, hooks(silent.url(), 6), clock())
    never_cut_off = SendPolicy(allow_private=True, read_timeout=60, answer_timeout=60)
    worker = DeliveryWorker(store, no_player, never_cut_off, clock=clock,
                            bounds=Bounds(concurrency=50, per_destination=1))
    taken = []
    worker_round = threading.Thread(target=lambda: taken.append(worker.run_once()))
    worker_round.start()
    # One under way (it never ends while the receiver is up), one waiting behind it, and four
    # put back with the retries, due at once: none now, all a second later.
    deferred = []

    def all_deferred() -> bool:
        assert store.take_entries("another-process", 100, clock(), idle_seconds=3600) == []
        deferred.extend(store.take_entries("another-process", 100, clock() + 1,
                                           idle_seconds=3600))
        return len(deferred) == 4

    assert until(all_deferred)
    assert sorted((json.loads(entry.text)["delivery_id"], json.loads(entry.text)["attempt"])
                  for entry in deferred) == sorted((delivery_id, 0) for delivery_id in ids[2:])
    assert silent.wait_for(lambda: silent.open == 1)
    silent.close()   # the one under way fails; the one waiting is refused
    worker_round.join(30)
    assert taken == [6]
    assert silent.most_open == 1
    attempted = [json.loads(record)["delivery_id"]
                 for number in (0, 1) for record in store.delivery_log(f"game:g:wh_{number}")]
    assert attempted == ids[:2]
    assert [store.delivery_log(f"game:g:wh_{number}") for number in range(2, 6)] == [[]] * 4


def test_a_webhooks_deliveries_go_one_at_a_time_in_the_order_queued(store, silent, clock):
    ids = queue_deliveries(store, hooks(silent.url(), 1) * 3, clock())
    quick = SendPolicy(allow_private=True, read_timeout=0.2, answer_timeout=0.2)
    worker = DeliveryWorker(store, no_player, quick, clock=clock)
    assert worker.run_once() == 3
    assert silent.most_open == 1
    logged = [json.loads(record)["delivery_id"] for record in store.delivery_log("game:g:wh_0")]
    assert logged == ids[::-1]   # the newest first


def test_the_bounds_are_read_from_the_environment(store):
    settings = Settings.from_env({"CRIBBAGE_WEBHOOK_CONCURRENCY": "8",
                                  "CRIBBAGE_WEBHOOK_PER_DESTINATION": "2"})
    assert (settings.webhook_concurrency, settings.webhook_per_destination) == (8, 2)
    defaults = Settings.from_env({})
    assert (defaults.webhook_concurrency, defaults.webhook_per_destination) == (50, 4)
    with pytest.raises(SettingsError, match="CRIBBAGE_WEBHOOK_PER_DESTINATION='0'"):
        Settings.from_env({"CRIBBAGE_WEBHOOK_PER_DESTINATION": "0"})
    app = make_app(store, webhook_concurrency=8, webhook_per_destination=2)
    assert app.extensions[WORKER].bounds == Bounds(concurrency=8, per_destination=2)
