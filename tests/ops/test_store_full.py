"""A full Redis (maxmemory, noeviction) under the real server: every write is a 503 store_full,
never a 500; nothing is written past the cap; /readyz says not ready; freeing memory heals it."""

from __future__ import annotations

import collections

import pytest
import redis

from service.store.redis_store import game_keys
from tests.ops.gunicorn_server import GunicornServer

TWO_HUMANS = {"seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]}
HEADROOM = 512 * 1024
# Redis counts its clients' buffers against maxmemory, and while the service idles they swing
# by about 150 KB (mem_clients_normal 123 KB to 246 KB), so right at the cap a dip lets a write
# through now and then. Once full, the cap goes this far below what Redis holds.
PAST_CLIENT_SWING = 512 * 1024
STORE_FULL = {"type": "urn:cribbage:problem:store_full", "title": "Game store full",
              "status": 503, "code": "store_full",
              "detail": "The game store is full; try again later"}
STORE_FULL_ES = {**STORE_FULL, "title": "Almacén de partidas lleno",
                 "detail": "El almacén de partidas está lleno; inténtelo más tarde"}
NOT_READY = {"type": "urn:cribbage:problem:not_ready", "title": "Service unavailable",
             "status": 503, "code": "not_ready",
             "detail": "The service is not ready: store", "errors": {"store": ["failing"]}}


@pytest.fixture
def server(dedicated_redis, tmp_path):
    # Rate limits stay on: their counters live in the same Redis and must not fail either. The
    # cap on live games per client is off: one address fills Redis with games.
    started = GunicornServer({"CRIBBAGE_REDIS_URL": dedicated_redis.url + "/0",
                              "CRIBBAGE_RATE_LIMIT": "100000/minute",
                              "CRIBBAGE_ACTION_RATE_LIMIT": "100000/minute",
                              "CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT": "0"},
                             workers=2, threads=None, log_dir=tmp_path).start()
    yield started
    started.stop()


def bearer(game: dict) -> dict:
    return {"Authorization": f"Bearer {game['token']}"}


def stored(client: redis.Redis) -> tuple[int, int]:
    """The number of keys (games and rate limit counters) and the bytes they hold."""
    keys = list(client.scan_iter(count=1000))
    return len(keys), sum(client.memory_usage(key, samples=0) for key in keys)


def every_write(server: GunicornServer, game: dict) -> list[tuple[str, int, dict, dict]]:
    """Each operation that writes, once: (name, status, headers, body)."""
    game_id = game["game_id"]
    requests = [
        ("create", "POST", "/v1/games", TWO_HUMANS, {}),
        ("act", "POST", f"/v1/games/{game_id}/actions", {"type": "cut_for_deal", "depth": 10},
         bearer(game)),
        ("join", "POST", f"/v1/games/{game_id}/join",
         {"code": game["invites"][0]["code"], "name": "Eva"}, {}),
        ("rename", "PATCH", f"/v1/games/{game_id}/seats/0", {"name": "Ana B"}, bearer(game)),
        ("ticket", "POST", f"/v1/games/{game_id}/stream-tickets", {}, bearer(game)),
    ]
    return [(name, *server.request(method, path, body, headers))
            for name, method, path, body, headers in requests]


def test_a_full_redis_is_a_503_on_every_write_and_the_service_recovers(server, dedicated_redis):
    client = redis.Redis(port=dedicated_redis.port, decode_responses=True)
    client.config_set("maxmemory-policy", "noeviction")
    early = server.request("POST", "/v1/games", TWO_HUMANS)[2]
    client.config_set("maxmemory", client.info("memory")["used_memory"] + HEADROOM)

    created, statuses = [], collections.Counter()
    for _ in range(2000):  # far more than fit
        status, headers, body = server.request("POST", "/v1/games", TWO_HUMANS)
        if status != 201:
            break
        created.append(body["game_id"])
    assert (status, headers["retry-after"], headers["content-type"], body) == (
        503, "30", "application/problem+json", STORE_FULL)
    assert 100 < len(created) < 400  # about 2.3 KB a game fills the headroom
    filled_cap = int(client.config_get("maxmemory")["maxmemory"])
    client.config_set("maxmemory", client.info("memory")["used_memory"] - PAST_CLIENT_SWING)
    at_cap = stored(client)

    for _ in range(20):
        for name, status, headers, body in every_write(server, early):
            statuses[name, status, body.get("code")] += 1
            assert headers["retry-after"] == "30"
    assert statuses == {(name, 503, "store_full"): 20
                        for name in ("create", "act", "join", "rename", "ticket")}
    assert stored(client) == at_cap
    spanish = server.request("POST", "/v1/games", TWO_HUMANS, {"Accept-Language": "es"})
    assert spanish[::2] == (503, STORE_FULL_ES)
    # Reading needs no memory; nor does what needs no store.
    assert server.request("GET", f"/v1/games/{early['game_id']}", None, bearer(early))[0] == 200
    assert server.request("GET", f"/v1/games/{early['game_id']}/events?after=0")[0] == 200
    show = {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C"}
    assert server.request("POST", "/v1/show/score", show)[0] == 200
    assert server.request("GET", "/readyz")[::2] == (503, NOT_READY)

    client.config_set("maxmemory", filled_cap)
    for game_id in created:  # memory freed: the games made to fill it are gone
        client.delete(*game_keys(game_id)[:4])
    assert server.request("GET", "/readyz")[::2] == (
        200, {"status": "ready", "checks": {"store": "ok"}})
    assert [status for _, status, _, _ in every_write(server, early)] == [201, 200, 200, 200, 201]
    log = server.stderr_path.read_text()
    assert "internal_error" not in log
    assert "readiness check store failed: Redis is full: " in log
