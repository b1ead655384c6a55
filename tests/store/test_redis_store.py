"""Redis specifics: key layout and expiry, Cluster hash slots, outages and recovery."""

from __future__ import annotations

import secrets
import threading
import time

import pytest

from service.store import (
    MemoryGameStore,
    RedisGameStore,
    StoredGame,
    StoreUnavailable,
    open_store,
    redis_store,
)
from service.store.redis_store import MAX_CONNECTIONS, SOCKET_TIMEOUT, game_keys
from tests.redis_servers import free_port


def new_id() -> str:
    return secrets.token_urlsafe(12)


def test_keys_and_channel_of_a_game_share_one_hash_tag():
    assert game_keys("abc") == [
        "cribbage:{abc}:game",
        "cribbage:{abc}:events",
        "cribbage:{abc}:replays",
        "cribbage:{abc}:replay_keys",
        "cribbage:{abc}:changed",
    ]
    assert game_keys("abc", "ticket:f00d")[4] == "cribbage:{abc}:ticket:f00d"


def test_every_key_of_a_game_expires_with_the_game(redis_server):
    store = RedisGameStore(redis_server.url, ttl_seconds=300)
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    store.save(game_id, 1, "v2", ["e2"], ("k", "r"))
    for key in game_keys(game_id)[:4]:  # the fifth is the pub/sub channel, not a key
        assert 290_000 < int(redis_server.cli("PTTL", key)) <= 300_000
    store.close()


def test_a_finished_game_keeps_its_events_packed_and_expires_sooner(redis_server):
    store = RedisGameStore(redis_server.url, ttl_seconds=300, finished_ttl_seconds=100)
    game_id = new_id()
    game, events, replays, replay_keys = game_keys(game_id)[:4]
    store.create(game_id, "v1", ["e1"])
    store.save(game_id, 1, "over", ["e2"], ("k", "r"), finished=True)
    assert redis_server.cli("EXISTS", events) == "0"
    assert redis_server.cli("HKEYS", game).split() == ["version", "data", "archive"]
    for key in (game, replays, replay_keys):
        assert 90_000 < int(redis_server.cli("PTTL", key)) <= 100_000
    assert store.events(game_id, 0) == ["e1", "e2"]
    store.close()


def test_keys_of_a_game_land_in_one_cluster_slot(redis_cluster):
    for game_id in (new_id() for _ in range(20)):
        node = redis_cluster.nodes[0]
        slots = {node.cli("CLUSTER", "KEYSLOT", key) for key in game_keys(game_id)}
        assert len(slots) == 1


def test_games_spread_over_every_cluster_master_and_all_work(redis_cluster):
    store = RedisGameStore(redis_cluster.url, ttl_seconds=60, cluster=True)
    games = [new_id() for _ in range(60)]
    for game_id in games:
        store.create(game_id, f"{game_id} v1", ["e1"])
        store.save(game_id, 1, f"{game_id} v2", ["e2"], ("k", game_id))
    masters = {redis_cluster.node_for(game_keys(game_id)[0]).port for game_id in games}
    assert masters == {node.port for node in redis_cluster.nodes}
    for game_id in games:
        assert store.load(game_id, "k") == StoredGame(2, f"{game_id} v2", game_id)
        assert store.events(game_id, 0) == ["e1", "e2"]
    store.close()


def test_unreachable_redis_is_store_unavailable():
    store = RedisGameStore(f"redis://127.0.0.1:{free_port()}", ttl_seconds=60)
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.load(new_id())


def test_unreachable_cluster_is_store_unavailable():
    store = RedisGameStore(f"redis://127.0.0.1:{free_port()}", ttl_seconds=60, cluster=True)
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.create(new_id(), "v1")


def test_a_stopped_redis_is_unavailable_and_recovery_needs_no_restart(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, ttl_seconds=60)
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    dedicated_redis.stop()
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.load(game_id)
    with pytest.raises(StoreUnavailable):
        store.save(game_id, 1, "v2")
    with pytest.raises(StoreUnavailable):
        store.events(game_id, 0)
    with pytest.raises(StoreUnavailable):
        store.create(new_id(), "v1")
    dedicated_redis.start()  # an empty server again: nothing was persisted
    store.ping()
    store.create(game_id, "v1 again")
    assert store.save(game_id, 1, "v2") == 2
    assert store.load(game_id) == StoredGame(2, "v2", None)
    store.close()


def test_pooled_connections_survive_a_redis_restart(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, ttl_seconds=60)
    game_id = new_id()
    store.create(game_id, "v1")
    dedicated_redis.stop()
    dedicated_redis.start()
    store.create(game_id, "after restart")
    assert store.load(game_id).data == "after restart"
    store.close()


def test_open_store_picks_redis_only_when_a_url_is_set():
    assert isinstance(open_store("", False, 60), MemoryGameStore)
    assert isinstance(open_store(None, False, 60), MemoryGameStore)
    redis_store = open_store("redis://127.0.0.1:6399/0", True, 60)
    assert isinstance(redis_store, RedisGameStore)
    assert (redis_store.url, redis_store.cluster, redis_store.ttl_seconds) == (
        "redis://127.0.0.1:6399/0",
        True,
        60,
    )


@pytest.mark.ops
def test_a_cluster_master_down_is_unavailable_and_the_store_recovers_when_it_returns():
    from service.store import GameNotFound
    from tests.redis_servers import RedisClusterServers

    cluster = RedisClusterServers().start()
    try:
        store = RedisGameStore(cluster.url, ttl_seconds=60, cluster=True)
        games = [new_id() for _ in range(12)]
        for game_id in games:
            store.create(game_id, "v1")
        down = cluster.node_for(game_keys(games[0])[0])
        lost = [g for g in games if cluster.node_for(game_keys(g)[0]) is down]
        down.stop()
        with pytest.raises(StoreUnavailable):
            store.load(games[0])
        down.start()  # empty: nothing was persisted
        cluster.wait_until_ok()
        for game_id in games:
            if game_id in lost:
                with pytest.raises(GameNotFound):
                    store.load(game_id)
            else:
                assert store.load(game_id) == StoredGame(1, "v1", None)
        store.create(games[0], "again")
        assert store.save(games[0], 1, "v2") == 2
        store.close()
    finally:
        cluster.remove()


def test_waiters_read_again_when_the_notification_connection_comes_back(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, ttl_seconds=300)
    game_id = new_id()
    store.create(game_id, "v1")
    with store.watch(game_id) as watch:
        # What is published while the listener is away is lost: its waiters must re-read.
        dedicated_redis.stop()
        dedicated_redis.start()
        assert watch.wait(20) is True
    store.close()


def test_a_request_waiting_its_turn_for_a_pooled_connection_is_not_refused(redis_server):
    # Every connection of the process's pool is busy for longer than a Redis read may take (a
    # worker whose event loop stalled, its greenlets holding connections while they wait to
    # run): the next request waits its turn, it is not told that Redis is unavailable.
    store = RedisGameStore(redis_server.url, 3600)
    game_id = new_id()
    store.create(game_id, "v1")
    pool = store._connect().connection_pool
    busy = [pool.get_connection() for _ in range(MAX_CONNECTIONS)]
    release = threading.Timer(SOCKET_TIMEOUT + 1, lambda: [pool.release(c) for c in busy])
    release.start()
    try:
        started = time.monotonic()
        assert store.load(game_id).data == "v1"
        assert time.monotonic() - started >= SOCKET_TIMEOUT
    finally:
        release.join()
        store.close()


def test_a_watched_games_copy_is_checked_once_a_minute_and_a_change_never_notified_found(
        redis_server):
    store = RedisGameStore(redis_server.url, 3600)
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    with store.watch(game_id) as watch:
        assert store.load(game_id, events_after=1, watched=True).version == 1
        # A write whose notification is lost: Redis has version 2, this process's copy not.
        redis_server.cli("HSET", game_keys(game_id)[0], "version", "2", "data", "v2")
        assert store.load(game_id, events_after=1, watched=True).data == "v1"  # the copy
        store.keep_presence(time.time(), grace=30)  # a sweeper's round: the copy is fresh
        assert watch.wait(0.2) is False
        _, copy = store._waiters.copy_of(game_id)
        copy.checked_at -= redis_store.COPY_CHECKED_EVERY  # a minute later
        store.keep_presence(time.time(), grace=30)  # the safety re-read
        assert watch.wait(5) is True
        assert store.load(game_id, events_after=1, watched=True).data == "v2"
    store.close()
