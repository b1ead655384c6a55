"""CRIBBAGE_DURABILITY in the Redis store: fsync checks each connection's server, replica
waits for a replica's acknowledgment (service/store/durability.py)."""

from __future__ import annotations

import secrets

import pytest

from service.store import RedisGameStore, StoredGame, StoreUnavailable, open_store
from tests.redis_servers import RedisServer, follow

FSYNC_NEEDS = "CRIBBAGE_DURABILITY=fsync needs appendonly yes and appendfsync always"
NO_REPLICA = ("Redis unavailable: no replica acknowledged the write within 1000 ms; it may or "
              "may not have been applied")


def new_id() -> str:
    return secrets.token_urlsafe(12)


def refusal(store: RedisGameStore, call) -> str:
    with pytest.raises(StoreUnavailable) as raised:
        call(store)
    return str(raised.value)


def test_fsync_mode_refuses_a_redis_that_could_lose_writes_until_it_is_configured_so(
        dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, 60, durability="fsync")
    server = f"Redis at 127.0.0.1:{dedicated_redis.port}"
    game_id = new_id()
    for call in (RedisGameStore.ping, lambda s: s.create(game_id, "v1"),
                 lambda s: s.load(game_id)):
        assert refusal(store, call) == (f"Redis unavailable: {server} runs with appendonly no, "
                                        f"appendfsync everysec: {FSYNC_NEEDS}")
    dedicated_redis.cli("CONFIG", "SET", "appendonly", "yes")
    assert refusal(store, RedisGameStore.ping) == (
        f"Redis unavailable: {server} runs with appendonly yes, appendfsync everysec: "
        f"{FSYNC_NEEDS}")
    dedicated_redis.keep_every_write()
    store.ping()
    store.create(game_id, "v1", ["e1"])
    assert store.save(game_id, 1, "v2", ["e2"], ("k", "r")) == 2
    assert store.load(game_id, "k") == StoredGame(2, "v2", "r")
    store.close()


def test_fsync_mode_refuses_when_it_may_not_read_the_configuration(dedicated_redis):
    dedicated_redis.keep_every_write()
    dedicated_redis.cli("ACL", "SETUSER", "games", "on", ">secret", "~*", "&*", "+@all",
                        "-config")
    url = f"redis://games:secret@127.0.0.1:{dedicated_redis.port}"
    store = RedisGameStore(url, 60, durability="fsync")
    assert refusal(store, lambda s: s.create(new_id(), "v1")) == (
        f"Redis unavailable: Redis at 127.0.0.1:{dedicated_redis.port}: CRIBBAGE_DURABILITY=fsync "
        "cannot confirm appendfsync always: CONFIG GET refused (this user has no permissions "
        "to run the 'config|get' command)")
    store.close()
    plain = RedisGameStore(url, 60)
    plain.create(new_id(), "v1")  # the same user, with no durability asked for
    plain.close()


def test_fsync_mode_checks_every_node_of_a_cluster(redis_cluster):
    store = RedisGameStore(redis_cluster.url, 60, cluster=True, durability="fsync")
    with pytest.raises(StoreUnavailable):
        store.create(new_id(), "v1")
    store.close()
    try:
        for node in redis_cluster.nodes:
            node.keep_every_write()
        store = RedisGameStore(redis_cluster.url, 60, cluster=True, durability="fsync")
        games = [new_id() for _ in range(12)]  # spread over the three masters
        for game_id in games:
            store.create(game_id, "v1")
            assert store.save(game_id, 1, "v2") == 2
        store.close()
    finally:
        for node in redis_cluster.nodes:
            node.cli("CONFIG", "SET", "appendonly", "no")
            node.cli("CONFIG", "SET", "appendfsync", "everysec")


def attach_replica(master: RedisServer) -> RedisServer:
    return follow(RedisServer().start(), master)


def test_replica_mode_acknowledges_a_write_only_once_a_replica_has_it(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, 60, durability="replica")
    game_id = new_id()
    assert refusal(store, lambda s: s.create(game_id, "v1", ["e1"])) == NO_REPLICA
    assert store.load(game_id) == StoredGame(1, "v1")  # applied on the master all the same
    replica = attach_replica(dedicated_redis)
    try:
        store.create(other := new_id(), "v1")
        assert replica.cli("HGET", f"cribbage:{{{other}}}:game", "data") == "v1"
        assert store.save(game_id, 1, "v2", ["e2"], ("k", "r")) == 2
        assert replica.cli("HGET", f"cribbage:{{{game_id}}}:game", "version") == "2"
    finally:
        replica.remove()
    store.close()


def test_replica_mode_confirms_a_replayed_record_before_returning_it(dedicated_redis):
    store = RedisGameStore(dedicated_redis.url, 60, durability="replica")
    game_id = new_id()
    replica = attach_replica(dedicated_redis)
    store.create(game_id, "v1")
    replica.cli("REPLICAOF", "NO", "ONE")
    assert refusal(store, lambda s: s.save(game_id, 1, "v2", [], ("k", "r"))) == NO_REPLICA
    # The retry finds the record, but no replica has it yet: still not acknowledged.
    assert refusal(store, lambda s: s.load(game_id, "k")) == NO_REPLICA
    replica.remove()
    replica = attach_replica(dedicated_redis)
    try:
        assert store.load(game_id, "k") == StoredGame(2, "v2", "r")
        assert replica.cli("HGET", f"cribbage:{{{game_id}}}:replays", "k") == "r"
    finally:
        replica.remove()
    store.close()


def test_open_store_passes_the_durability_on():
    store = open_store("redis://127.0.0.1:6399/0", False, 60, durability="replica")
    assert store.durability == "replica"
