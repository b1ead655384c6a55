"""Players in the GameStore, on every backend: a document, its games newest first, expiry."""

from __future__ import annotations

import secrets
import time

import redis

from service.store import MemoryGameStore, RedisGameStore, StoredPlayer
from service.store.base import PLAYER_GAMES_KEPT
from service.store.redis_store import player_keys
from tests.store.conftest import FakeClock

TTL = 3600


def new_key() -> str:
    return secrets.token_hex(32)


def test_a_new_player_has_no_games_and_an_unknown_one_is_none(store):
    key = new_key()
    store.create_player(key, '{"player_id": "p1"}', TTL)
    assert store.load_player(key, TTL) == StoredPlayer('{"player_id": "p1"}', ())
    assert store.load_player(new_key(), TTL) is None
    assert store.link_player_game(new_key(), "game-a", 0, TTL) is False


def test_games_are_listed_newest_link_first_and_a_link_again_moves_to_the_front(store):
    key = new_key()
    store.create_player(key, "{}", TTL)
    for game_id, seat in (("game-a", 0), ("game-b", 3), ("game-c", 1)):
        assert store.link_player_game(key, game_id, seat, TTL) is True
        time.sleep(0.002)  # links in the same microsecond would tie
    assert store.load_player(key, TTL).games == (("game-c", 1), ("game-b", 3), ("game-a", 0))
    store.link_player_game(key, "game-a", 0, TTL)
    assert store.load_player(key, TTL).games == (("game-a", 0), ("game-c", 1), ("game-b", 3))
    store.unlink_player_games(key, [("game-c", 1), ("game-z", 0)])
    assert store.load_player(key, TTL).games == (("game-a", 0), ("game-b", 3))


def test_only_the_newest_games_are_kept(store):
    key = new_key()
    store.create_player(key, "{}", TTL)
    for number in range(PLAYER_GAMES_KEPT + 3):
        store.link_player_game(key, f"game-{number:04d}", 0, TTL)
    games = store.load_player(key, TTL).games
    assert len(games) == PLAYER_GAMES_KEPT
    assert ("game-0000", 0) not in games and games[0] == (f"game-{PLAYER_GAMES_KEPT + 2:04d}", 0)


def test_a_player_expires_after_its_ttl_unless_used_again():
    clock = FakeClock()
    store = MemoryGameStore(60, clock=clock)
    used, idle = new_key(), new_key()
    for key in (used, idle):
        store.create_player(key, "{}", 10)
        store.link_player_game(key, "game-a", 1, 10)
    clock.advance(6)
    assert store.load_player(used, 10) is not None
    clock.advance(6)
    assert store.load_player(idle, 10) is None
    assert store.load_player(used, 10) == StoredPlayer("{}", (("game-a", 1),))


def test_on_redis_both_keys_of_a_player_expire_and_every_use_starts_the_expiry_again(
        redis_server):
    store = RedisGameStore(redis_server.url, 60)
    key = new_key()
    store.create_player(key, "{}", 100)
    store.link_player_game(key, "game-a", 1, 100)
    client = redis.Redis.from_url(redis_server.url)
    assert [0 < client.ttl(name) <= 100 for name in player_keys(key)] == [True, True]
    store.load_player(key, 5000)
    assert [4000 < client.ttl(name) <= 5000 for name in player_keys(key)] == [True, True]
    store.link_player_game(key, "game-b", 0, 7000)
    assert [6000 < client.ttl(name) <= 7000 for name in player_keys(key)] == [True, True]
    client.close()
    store.close()
