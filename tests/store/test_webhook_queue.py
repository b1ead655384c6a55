"""The webhook queue's contract on every backend: queued with a save, taken once, pending until
finished, taken over when its consumer went quiet, retried when due, logged per webhook."""

from __future__ import annotations

import secrets
import threading
import time

import pytest

from service.store import DeliveryLog, GameExists, RedisGameStore, VersionConflict

NOW = 1_800_000_000.0


def new_game(store) -> str:
    game_id = secrets.token_urlsafe(12)
    store.create(game_id, "v1")
    return game_id


def queue(store, entries: list[str]) -> None:
    """Queue entries as the games service does: with a game's write."""
    store.create(secrets.token_urlsafe(12), "v1", outbox=entries)


def texts(entries) -> list[str]:
    return [entry.text for entry in entries]


def test_a_saves_outbox_is_queued_with_it_and_taken_once(make_store):
    store = make_store()
    game_id = new_game(store)
    assert store.save(game_id, 1, "v2", ["event"], outbox=["a", "b"]) == 2
    assert store.events(game_id, 0) == ["event"]
    assert store.queue_depth() == 2
    assert texts(store.take_entries("one", 10, NOW, idle_seconds=60)) == ["a", "b"]
    assert store.take_entries("two", 10, NOW, idle_seconds=60) == []


def test_a_save_without_outbox_queues_nothing(make_store):
    store = make_store()
    game_id = new_game(store)
    store.save(game_id, 1, "v2", ["event"])
    assert store.queue_depth() == 0
    assert store.take_entries("one", 10, NOW, idle_seconds=60) == []


def test_a_refused_save_queues_nothing(make_store):
    store = make_store()
    game_id = new_game(store)
    store.save(game_id, 1, "v2")
    with pytest.raises(VersionConflict):
        store.save(game_id, 1, "v2 again", outbox=["lost"])
    assert store.queue_depth() == 0


def test_a_creates_outbox_is_queued_with_it_and_a_refused_create_queues_nothing(make_store):
    store = make_store()
    game_id = secrets.token_urlsafe(12)
    store.create(game_id, "v1", ["started"], outbox=["first turn"])
    assert (store.load(game_id).version, store.events(game_id, 0)) == (1, ["started"])
    with pytest.raises(GameExists):
        store.create(game_id, "v1 again", outbox=["told twice"])
    assert texts(store.take_entries("one", 10, NOW, idle_seconds=60)) == ["first turn"]
    assert store.queue_depth() == 1  # pending until finished


class NoEnqueueStore(RedisGameStore):
    """A standalone Redis store whose separate queueing call fails, as a process dying after
    a write would leave it: what reaches the queue went there in the write itself."""

    def _enqueue(self, entries):
        raise AssertionError(f"queued apart from the write: {entries}")


def test_on_a_standalone_redis_the_outbox_travels_in_the_create_and_save_scripts(redis_server):
    store = NoEnqueueStore(redis_server.url, 60, webhook_queue=secrets.token_hex(8))
    game_id = secrets.token_urlsafe(12)
    store.create(game_id, "v1", outbox=["created"])
    store.save(game_id, 1, "v2", outbox=["saved"])
    assert texts(store.take_entries("one", 10, NOW, idle_seconds=60)) == ["created", "saved"]
    store.close()


def test_an_entry_pending_too_long_is_taken_over_and_finished_once(make_store):
    store = make_store()
    queue(store, ["a"])
    [taken] = store.take_entries("dead", 10, NOW, idle_seconds=60)
    assert store.take_entries("alive", 10, NOW + 1, idle_seconds=60) == []
    time.sleep(0.6)  # Redis measures the idle time itself
    [again] = store.take_entries("alive", 10, NOW + 0.6, idle_seconds=0.5)
    assert (again.entry_id, again.text) == (taken.entry_id, "a")
    assert store.finish_entry(again.entry_id) is True
    assert store.finish_entry(taken.entry_id) is False
    assert store.queue_depth() == 0


def test_finishing_queues_follow_ups_and_a_retry_only_when_due(make_store):
    store = make_store()
    queue(store, ["first"])
    [taken] = store.take_entries("one", 10, NOW, idle_seconds=60)
    assert store.finish_entry(taken.entry_id, follow_ups=["x", "y"],
                              retry=("first, again", NOW + 5)) is True
    assert store.queue_depth() == 3
    assert texts(store.take_entries("one", 10, NOW + 4, idle_seconds=60)) == ["x", "y"]
    assert texts(store.take_entries("one", 10, NOW + 5, idle_seconds=60)) == ["first, again"]


def test_the_delivery_log_keeps_one_record_per_delivery_newest_first(make_store):
    store = make_store()
    queue(store, ["a", "b", "c"])
    entries = store.take_entries("one", 10, NOW, idle_seconds=60)
    store.finish_entry(entries[0].entry_id, log=DeliveryLog("game:g:wh_1", "msg_1", "tried"))
    store.finish_entry(entries[1].entry_id, log=DeliveryLog("game:g:wh_1", "msg_2", "sent"))
    store.finish_entry(entries[2].entry_id, log=DeliveryLog("game:g:wh_1", "msg_1", "sent"))
    assert store.delivery_log("game:g:wh_1") == ["sent", "sent"]
    assert store.delivery_log("game:g:wh_2") == []


def test_a_players_document_is_replaced_and_keeps_its_games(make_store):
    store = make_store()
    store.create_player("key", "first", 60)
    store.link_player_game("key", "game", 1, 60)
    assert store.save_player("key", "first", "second", 60)
    found = store.load_player("key", 60)
    assert (found.data, found.games) == ("second", (("game", 1),))
    assert not store.save_player("nobody", "", "data", 60)
    assert store.load_player("nobody", 60) is None


def test_a_players_document_changed_since_it_was_read_is_not_replaced(make_store):
    store = make_store()
    store.create_player("key", "first", 60)
    assert store.save_player("key", "first", "second", 60)
    assert not store.save_player("key", "first", "third", 60)
    assert store.load_player("key", 60).data == "second"


def test_a_consumer_waiting_for_entries_gets_one_queued_meanwhile(make_store):
    store = make_store()
    store.take_entries("one", 10, NOW, idle_seconds=60)  # the queue exists
    threading.Timer(0.2, queue, [store, ["late"]]).start()
    assert texts(store.take_entries("one", 10, NOW, idle_seconds=60, block_seconds=5)) == [
        "late"]


def test_a_consumer_waiting_on_an_empty_queue_gets_nothing(make_store):
    store = make_store()
    assert store.take_entries("one", 10, NOW, idle_seconds=60, block_seconds=0.1) == []
