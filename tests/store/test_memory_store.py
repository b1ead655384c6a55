"""The embedded store's cap on games (CRIBBAGE_MEMORY_MAX_GAMES)."""

from __future__ import annotations

import pytest

from service.store import DeliveryLog, GameNotFound, MemoryGameStore, StoreFull
from service.store.base import DELIVERY_LOG_TTL
from tests.store.conftest import FakeClock


def finish(store: MemoryGameStore, game_id: str) -> None:
    store.save(game_id, store.load(game_id).version, "over", ["game_won"], finished=True)


def test_past_its_cap_the_store_evicts_the_finished_game_written_longest_ago():
    store = MemoryGameStore(60, clock=FakeClock(), max_games=3)
    for game_id in ("a", "b", "c"):
        store.create(game_id, "v1")
    finish(store, "b")
    finish(store, "a")
    store.create("d", "v1")
    with pytest.raises(GameNotFound):
        store.load("b")
    assert store.load("a").data == "over"
    store.create("e", "v1")
    with pytest.raises(GameNotFound):
        store.load("a")
    with pytest.raises(StoreFull):
        store.create("f", "v1")
    assert [store.load(game_id).version for game_id in ("c", "d", "e")] == [1, 1, 1]


def test_expired_games_make_room_before_any_finished_one_goes():
    clock = FakeClock()
    store = MemoryGameStore(60, clock=clock, max_games=2)
    store.create("a", "v1")
    clock.advance(30)
    store.create("b", "v1")
    finish(store, "b")
    clock.advance(31)  # a has expired; b was written 31 s ago
    store.create("c", "v1")
    assert store.load("b").data == "over"


def test_without_a_cap_the_store_takes_every_game():
    store = MemoryGameStore(60, clock=FakeClock())
    for number in range(50):
        store.create(f"g{number}", "v1")
    assert store.load("g0").version == 1


def test_a_webhooks_delivery_log_is_dropped_a_while_after_its_last_write():
    clock = FakeClock()
    store = MemoryGameStore(60, clock=clock)
    store.create("a", "v1", outbox=["entry"])
    [entry] = store.take_entries("worker", 10, 0.0, idle_seconds=60)
    store.finish_entry(entry.entry_id, log=DeliveryLog("game:a:wh_1", "msg_1", "sent"))
    clock.advance(DELIVERY_LOG_TTL - 1)
    assert store.delivery_log("game:a:wh_1") == ["sent"]
    clock.advance(1)
    assert store.delivery_log("game:a:wh_1") == []
    store.create("b", "v1")  # a create sweeps now and then: the log's memory is freed
    assert store._logs == {}
