"""A Redis out of memory (maxmemory, noeviction): every write is refused before it starts,
nothing is written, reads go on, and the store takes writes again once memory is freed."""

from __future__ import annotations

import secrets

import pytest

from service.store import RedisGameStore, StoredGame, StoreFull
from service.store.redis_memory import has_room
from service.store.redis_store import game_keys

REFUSED = "^Redis is full: command not allowed when used memory > 'maxmemory'.$"
MB = 1024 * 1024


def new_id() -> str:
    return secrets.token_urlsafe(12)


def test_a_full_redis_refuses_every_write_writes_nothing_and_still_reads(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, ttl_seconds=60)
    game_id = new_id()
    store.create(game_id, "v1", ["e1"])
    store.add_ticket(game_id, "t1", 1, 60)
    dedicated_redis.cli("CONFIG", "SET", "maxmemory", "1")
    keys = dedicated_redis.cli("DBSIZE")
    with pytest.raises(StoreFull, match=r"^Redis is full: [0-9.]+[KM] used, maxmemory 1B$"):
        store.ping()
    with pytest.raises(StoreFull, match=REFUSED):
        store.create(new_id(), "v1", ["e1"])
    with pytest.raises(StoreFull, match=REFUSED):
        store.save(game_id, 1, "v2", ["e2"], ("k", "r"))
    with pytest.raises(StoreFull, match=REFUSED):
        store.add_ticket(game_id, "t2", 0, 60)
    assert dedicated_redis.cli("DBSIZE") == keys
    assert store.load(game_id, "k", 0) == StoredGame(1, "v1", None, ("e1",))
    assert store.take_ticket(game_id, "t1") == 1  # it only deletes: allowed when full
    dedicated_redis.cli("CONFIG", "SET", "maxmemory", "0")
    store.ping()
    assert store.save(game_id, 1, "v2", ["e2"], ("k", "r")) == 2
    assert store.load(game_id, "k", 0) == StoredGame(2, "v2", "r", ("e1", "e2"))
    store.close()


def test_one_full_cluster_master_makes_the_store_full(redis_cluster):
    store = RedisGameStore(redis_cluster.url, ttl_seconds=60, cluster=True)
    full = redis_cluster.nodes[1]
    game_id = next(g for g in iter(new_id, None) if redis_cluster.node_for(game_keys(g)[0]) is full)
    store.ping()
    full.cli("CONFIG", "SET", "maxmemory", "1")
    try:
        with pytest.raises(StoreFull, match=f"^Redis is full on 127.0.0.1:{full.port}: "):
            store.ping()
        with pytest.raises(StoreFull, match=REFUSED):
            store.create(game_id, "v1")
    finally:
        full.cli("CONFIG", "SET", "maxmemory", "0")
    store.ping()
    store.create(game_id, "v1")
    store.close()


@pytest.mark.parametrize("memory, room", [
    ({"used_memory": 5 * MB, "maxmemory": 0, "maxmemory_policy": "noeviction"}, True),
    ({"used_memory": 3 * MB, "maxmemory": 3 * MB, "maxmemory_policy": "noeviction"}, True),
    ({"used_memory": 3 * MB + 1, "maxmemory": 3 * MB, "maxmemory_policy": "noeviction"}, False),
    ({"used_memory": 4 * MB, "maxmemory": 3 * MB, "maxmemory_policy": "allkeys-lru"}, True),
    ({"used_memory": 4 * MB, "maxmemory": 3 * MB, "maxmemory_policy": "noeviction",
      "mem_not_counted_for_evict": MB}, True),
])
def test_redis_refuses_writes_only_over_maxmemory_without_eviction(memory, room):
    assert has_room(memory) is room
