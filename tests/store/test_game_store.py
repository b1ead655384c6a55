"""The GameStore contract, checked on every backend: memory, standalone Redis, Redis Cluster."""

from __future__ import annotations

import secrets
import threading
import time

import pytest

from service.store import GameExists, GameNotFound, StoredGame, VersionConflict
from service.store.base import FINISHED_REPLAYS_KEPT, REPLAYS_KEPT
from tests.store.conftest import FakeClock


def new_id() -> str:
    return secrets.token_urlsafe(12)


def test_a_created_game_loads_at_version_1(store):
    game_id = new_id()
    store.create(game_id, '{"phase": "cut_for_deal"}')
    assert store.load(game_id) == StoredGame(1, '{"phase": "cut_for_deal"}', None)


def test_create_never_overwrites(store):
    game_id = new_id()
    store.create(game_id, "first", ["e1"])
    with pytest.raises(GameExists):
        store.create(game_id, "second", ["e2"])
    assert store.load(game_id).data == "first"
    assert store.events(game_id, 0) == ["e1"]


def test_unknown_game_is_not_found_everywhere(store):
    game_id = new_id()
    with pytest.raises(GameNotFound):
        store.load(game_id)
    with pytest.raises(GameNotFound):
        store.save(game_id, 1, "data")
    with pytest.raises(GameNotFound):
        store.events(game_id, 0)
    with pytest.raises(GameNotFound):
        store.add_ticket(game_id, "hash", 0, 60)
    with pytest.raises(GameNotFound):
        store.take_ticket(game_id, "hash")


def test_save_is_a_compare_and_set_on_the_version(store):
    game_id = new_id()
    store.create(game_id, "v1")
    assert store.save(game_id, 1, "v2", ["e1"], ("key-a", "response-a")) == 2
    with pytest.raises(VersionConflict):
        store.save(game_id, 1, "stale", ["lost"], ("key-b", "response-b"))
    assert store.load(game_id, "key-b") == StoredGame(2, "v2", None)
    assert store.events(game_id, 0) == ["e1"]
    assert store.save(game_id, 2, "v3") == 3
    assert store.load(game_id) == StoredGame(3, "v3", None)


def test_events_are_numbered_from_1_in_append_order(store):
    game_id = new_id()
    store.create(game_id, "v1", ["e1", "e2"])
    store.save(game_id, 1, "v2", ["e3"])
    store.save(game_id, 2, "v3", [])
    store.save(game_id, 3, "v4", ["e4", "e5"])
    assert store.events(game_id, 0) == ["e1", "e2", "e3", "e4", "e5"]
    assert store.events(game_id, 2) == ["e3", "e4", "e5"]
    assert store.events(game_id, 5) == []
    assert store.events(game_id, 9) == []
    assert store.events(game_id, -3) == ["e1", "e2", "e3", "e4", "e5"]


def test_idempotency_records_are_saved_with_the_write(store):
    game_id = new_id()
    store.create(game_id, "v1")
    store.save(game_id, 1, "v2", ["e1"], ("seat0:retry-me", '{"status": 200}'))
    assert store.load(game_id, "seat0:retry-me") == StoredGame(2, "v2", '{"status": 200}')
    assert store.load(game_id, "seat1:retry-me").replay is None
    assert store.load(game_id).replay is None
    other = new_id()
    store.create(other, "v1")
    assert store.load(other, "seat0:retry-me").replay is None


def test_only_the_newest_idempotency_records_are_kept(store):
    game_id = new_id()
    store.create(game_id, "v1")
    for n in range(REPLAYS_KEPT + 3):
        store.save(game_id, n + 1, f"v{n + 2}", [], (f"key-{n}", f"response-{n}"))
    kept = [n for n in range(REPLAYS_KEPT + 3) if store.load(game_id, f"key-{n}").replay]
    assert kept == list(range(3, REPLAYS_KEPT + 3))
    assert store.load(game_id, "key-3").replay == "response-3"


def test_event_and_document_text_round_trip_exactly(store):
    game_id = new_id()
    text = '{"name": "Señora \\u00e9 ♥ 10D", "empty": "", "lua": "\\"end\\" --"}'
    store.create(game_id, text, [text, ""])
    assert store.load(game_id).data == text
    assert store.events(game_id, 0) == [text, ""]


def test_of_two_concurrent_writers_only_one_applies(store):
    game_id = new_id()
    store.create(game_id, "v1")
    writers = 8
    barrier = threading.Barrier(writers)
    outcomes: list[str] = []

    def write(n: int) -> None:
        loaded = store.load(game_id)
        barrier.wait()
        try:
            store.save(game_id, loaded.version, f"writer {n}", [f"event {n}"])
            outcomes.append(f"writer {n}")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [outcome for outcome in outcomes if outcome != "conflict"]
    assert len(outcomes) == writers
    assert len(winners) == 1
    assert store.load(game_id) == StoredGame(2, winners[0], None)
    assert store.events(game_id, 0) == [winners[0].replace("writer", "event")]


def test_writers_that_retry_on_conflict_lose_nothing(store):
    game_id = new_id()
    store.create(game_id, "0")
    writers, increments = 4, 15

    def increment(n: int) -> None:
        for i in range(increments):
            while True:
                loaded = store.load(game_id)
                try:
                    store.save(game_id, loaded.version, str(int(loaded.data) + 1), [f"{n}.{i}"])
                    break
                except VersionConflict:
                    continue

    threads = [threading.Thread(target=increment, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = writers * increments
    assert store.load(game_id) == StoredGame(total + 1, str(total), None)
    events = store.events(game_id, 0)
    assert sorted(events) == sorted(f"{n}.{i}" for n in range(writers) for i in range(increments))
    for n in range(writers):
        mine = [event for event in events if event.startswith(f"{n}.")]
        assert mine == [f"{n}.{i}" for i in range(increments)]


def test_a_load_reads_the_events_with_the_document(store):
    game_id = new_id()
    store.create(game_id, "v1", ["e1", "e2"])
    store.save(game_id, 1, "v2", ["e3"])
    assert store.load(game_id, events_after=1) == StoredGame(2, "v2", None, ("e2", "e3"))
    assert store.load(game_id, events_after=3) == StoredGame(2, "v2", None, ())
    assert store.load(game_id) == StoredGame(2, "v2", None, ())


def test_a_watch_is_woken_by_a_save_of_its_game_only(make_store, backend):
    store = make_store()
    # Another store on the same server stands for another server process.
    writer = store if backend == "memory" else make_store()
    game_id, other_id = new_id(), new_id()
    store.create(game_id, "v1")
    store.create(other_id, "v1")
    with store.watch(game_id) as watch:
        writer.save(other_id, 1, "v2", ["elsewhere"])
        assert watch.wait(0.3) is False
        timer = threading.Timer(0.2, writer.save, args=(game_id, 1, "v2", ["e1"]))
        timer.start()
        try:
            assert watch.wait(20) is True
        finally:
            timer.join()
        assert store.events(game_id, 0) == ["e1"]
        assert watch.wait(0.1) is False  # one save, one wake-up


def test_watches_of_one_game_are_all_woken(store):
    game_id = new_id()
    store.create(game_id, "v1")
    with store.watch(game_id) as first, store.watch(game_id) as second:
        store.save(game_id, 1, "v2", ["e1"])
        assert (first.wait(20), second.wait(20)) == (True, True)
    with store.watch(game_id) as again:  # subscribed anew after the last watch ended
        store.save(game_id, 2, "v3", ["e2"])
        assert again.wait(20) is True


def test_a_stream_ticket_is_good_once(store):
    game_id = new_id()
    store.create(game_id, "v1")
    store.add_ticket(game_id, "hash-a", 2, 60)
    assert store.take_ticket(game_id, "hash-b") is None
    assert store.take_ticket(game_id, "hash-a") == 2
    assert store.take_ticket(game_id, "hash-a") is None


def test_games_expire_after_their_idle_time_and_writes_refresh_it(make_store, backend):
    clock = FakeClock()
    store = make_store(ttl_seconds=1, clock=clock)

    def idle(seconds: float) -> None:
        if backend == "memory":
            clock.advance(seconds)
        else:
            time.sleep(seconds)

    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    idle(0.6)
    store.save(game_id, 1, "v2", ["e2"], ("k", "r"))
    idle(0.6)
    assert store.load(game_id, "k") == StoredGame(2, "v2", "r")
    idle(0.6)
    with pytest.raises(GameNotFound):
        store.load(game_id)
    with pytest.raises(GameNotFound):
        store.events(game_id, 0)
    store.create(game_id, "again")
    assert store.load(game_id, "k") == StoredGame(1, "again", None)
    assert store.events(game_id, 0) == []


def test_a_finished_game_keeps_its_events_and_only_its_newest_records(store):
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    for n in range(20):
        store.save(game_id, n + 1, f"v{n + 2}", [f"e{n + 2}"], (f"key-{n}", f"response-{n}"))
    store.save(game_id, 21, "over", ["e22", "e23"], ("key-20", "response-20"), finished=True)
    events = [f"e{n}" for n in range(1, 24)]
    assert store.events(game_id, 0) == events
    assert store.load(game_id, events_after=21) == StoredGame(22, "over", None, ("e22", "e23"))
    kept = [n for n in range(21) if store.load(game_id, f"key-{n}").replay]
    assert kept == list(range(21 - FINISHED_REPLAYS_KEPT, 21))
    # A rename after the end still appends, numbered after the packed events.
    store.save(game_id, 22, "renamed", ["e24"], finished=True)
    assert store.events(game_id, 0) == events + ["e24"]
    assert store.events(game_id, 22) == ["e23", "e24"]
    assert store.events(game_id, 24) == []


def test_a_finished_game_expires_after_the_finished_time(make_store, backend):
    clock = FakeClock()
    store = make_store(ttl_seconds=5, clock=clock, finished_ttl_seconds=1)
    assert (store.ttl_seconds, store.finished_ttl_seconds) == (5, 1)
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    store.save(game_id, 1, "over", ["e2"], ("k", "r"), finished=True)
    idle = clock.advance if backend == "memory" else time.sleep
    idle(0.6)
    assert store.load(game_id, "k") == StoredGame(2, "over", "r")
    idle(0.6)
    with pytest.raises(GameNotFound):
        store.load(game_id)


def test_a_finished_game_never_outlives_a_live_one(make_store):
    store = make_store(ttl_seconds=60, finished_ttl_seconds=600)
    assert store.finished_ttl_seconds == 60


def test_claims_on_live_games_stop_at_the_limit_until_one_is_released(store):
    a, b = f"address:{new_id()}", f"address:{new_id()}"
    claimed = [store.claim_live_game(a, game, 2) for game in ("g1", "g2", "g3")]
    assert claimed == [True, True, False]
    assert store.claim_live_game(b, "g4", 2) is True
    store.release_live_game(a, "g1")
    store.release_live_game(a, "never-claimed")
    assert store.claim_live_game(a, "g3", 2) is True
    assert store.claim_live_game(a, "g5", 2) is False


def test_claims_on_live_games_lapse_after_the_idle_time(make_store, backend):
    clock = FakeClock()
    store = make_store(ttl_seconds=1, clock=clock)
    a = f"address:{new_id()}"
    assert store.claim_live_game(a, "g1", 1) is True
    assert store.claim_live_game(a, "g2", 1) is False
    if backend == "memory":
        clock.advance(1.2)
    else:
        time.sleep(2.1)  # Redis counts whole seconds
    assert store.claim_live_game(a, "g2", 1) is True


def test_a_watch_ending_leaves_the_other_games_watches_alone(make_store, backend):
    store = make_store()
    writer = store if backend == "memory" else make_store()
    watched, others = new_id(), [new_id() for _ in range(6)]
    for game_id in (watched, *others):
        store.create(game_id, "v1")
    with store.watch(watched) as watch:
        for other in others:  # on a Cluster, some of their channels live on other nodes
            with store.watch(other):
                pass
        assert watch.wait(0.5) is False  # no wake-up for what happened to another game
        writer.save(watched, 1, "v2", ["e1"])
        assert watch.wait(10) is True
