"""Rate limits: per client address, per bearer token, per seat on actions; 429 + Retry-After;
the RateLimit headers."""

from __future__ import annotations

import hashlib
import re

import pytest

from service.api import create_app
from service.api.limits import KEY_PREFIX, storage_uri
from service.config import Settings, SettingsError
from service.store import MemoryGameStore

COMPUTER = {"kind": "computer", "level": "first"}
HUMAN = {"kind": "human"}


def make_app(store=None, **settings):
    return create_app({"TESTING": True, "GAME_STORE": store or MemoryGameStore(3600),
                       "SETTINGS": Settings(**settings)})


def new_game(client) -> dict:
    response = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bad_action(client, game: dict):
    """An action the rules refuse (409): it still counts against the seat's action limit."""
    return client.post(f"/v1/games/{game['game_id']}/actions", json={"type": "muggins"},
                       headers={"Authorization": f"Bearer {game['token']}"})


def assert_rate_limited(response, limit: str) -> dict:
    assert response.status_code == 429
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["code"] == "rate_limited"
    assert body["type"] == "urn:cribbage:problem:rate_limited"
    assert body["status"] == 429
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 61  # the window's end, rounded up to a whole second
    assert body["detail"] == f"More than {limit}; retry after {retry_after} s"
    return body


def test_over_the_address_limit_is_a_429_problem_with_retry_after():
    client = make_app(rate_limit="3/minute").test_client()
    assert [client.get("/v1/ping").status_code for _ in range(3)] == [200, 200, 200]
    assert_rate_limited(client.get("/v1/ping"), "3 per 1 minute")


def test_the_address_limit_is_shared_by_every_route():
    client = make_app(rate_limit="3/minute").test_client()
    show = {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C"}
    assert client.get("/v1/ping").status_code == 200
    assert client.post("/v1/show/score", json=show).status_code == 200
    assert client.get("/v1/ping").status_code == 200
    assert client.post("/v1/show/score", json=show).status_code == 429


def test_the_429_speaks_the_clients_language():
    client = make_app(rate_limit="1/minute").test_client()
    client.get("/v1/ping")
    response = client.get("/v1/ping", headers={"Accept-Language": "es"})
    assert response.status_code == 429
    body = response.get_json(force=True)
    assert body["title"] == "Demasiadas peticiones"
    assert body["detail"] == (
        f"Más de 1 per 1 minute; reintente dentro de {response.headers['Retry-After']} s")


def test_probes_and_docs_are_never_limited():
    client = make_app(rate_limit="1/minute").test_client()
    for _ in range(3):
        assert client.get("/livez").status_code == 200
        assert client.get("/readyz").status_code == 200
        assert client.get("/docs").status_code == 200


def test_metrics_are_limited_like_any_route_but_for_a_scrape_bearing_the_token():
    token = "scrape-token-0123456789"
    client = make_app(rate_limit="2/minute", metrics_token=token).test_client()
    scrape = {"Authorization": f"Bearer {token}"}
    assert [client.get("/metrics", headers=scrape).status_code for _ in range(4)] == [200] * 4
    assert [client.get("/metrics").status_code for _ in range(2)] == [401, 401]
    assert_rate_limited(client.get("/metrics"), "2 per 1 minute")
    assert client.get("/metrics", headers=scrape).status_code == 200
    open_metrics = make_app(rate_limit="2/minute").test_client()
    assert [open_metrics.get("/metrics").status_code for _ in range(2)] == [200, 200]
    assert_rate_limited(open_metrics.get("/metrics"), "2 per 1 minute")


def test_actions_are_limited_per_seat_token():
    client = make_app(rate_limit="1000/minute", action_rate_limit="2/minute").test_client()
    first, second = new_game(client), new_game(client)
    assert [bad_action(client, first).status_code for _ in range(2)] == [409, 409]
    assert_rate_limited(bad_action(client, first), "2 per 1 minute")
    # Another seat from the same address still has its own allowance, and reads are not actions.
    assert bad_action(client, second).status_code == 409
    game = client.get(f"/v1/games/{first['game_id']}",
                      headers={"Authorization": f"Bearer {first['token']}"})
    assert game.status_code == 200


def test_the_address_limit_still_applies_to_actions():
    client = make_app(rate_limit="3/minute", action_rate_limit="100/minute").test_client()
    first, second = new_game(client), new_game(client)
    assert bad_action(client, first).status_code == 409
    assert_rate_limited(bad_action(client, second), "3 per 1 minute")


@pytest.mark.parametrize("name, settings", [
    ("CRIBBAGE_RATE_LIMIT", {"rate_limit": "lots"}),
    ("CRIBBAGE_ACTION_RATE_LIMIT", {"action_rate_limit": "5 per fortnight"}),
    ("CRIBBAGE_TOKEN_RATE_LIMIT", {"token_rate_limit": "many"}),
])
def test_an_unreadable_limit_stops_the_app_from_starting(name, settings):
    with pytest.raises(SettingsError, match=f"^{name}="):
        make_app(**settings)


def test_switched_off_nothing_is_limited():
    client = make_app(rate_limit="1/minute", action_rate_limit="1/minute",
                      rate_limit_enabled=False).test_client()
    game = new_game(client)
    assert {client.get("/v1/ping").status_code for _ in range(5)} == {200}
    assert {bad_action(client, game).status_code for _ in range(5)} == {409}


def test_counters_in_redis_are_shared_and_keyed_by_a_digest_of_the_token(redis_server):
    redis_server.cli("FLUSHALL")
    settings = dict(redis_url=redis_server.url + "/0", rate_limit="1000/minute",
                    action_rate_limit="3/minute")
    store = MemoryGameStore(3600)
    one, two = make_app(store, **settings).test_client(), make_app(store, **settings).test_client()
    game = new_game(one)
    # The two apps stand for two workers: each sees the other's count.
    assert [bad_action(one, game).status_code, bad_action(two, game).status_code,
            bad_action(one, game).status_code] == [409, 409, 409]
    assert_rate_limited(bad_action(two, game), "3 per 1 minute")

    keys = redis_server.cli("--scan", "--pattern", f"*{KEY_PREFIX}*").split()
    digest = hashlib.sha256(game["token"].encode()).hexdigest()[:32]
    assert any(f"token:{digest}" in key for key in keys), keys
    assert any("127.0.0.1" in key for key in keys), keys
    dump = " ".join(keys + [redis_server.cli("GET", key) for key in keys])
    assert game["token"] not in dump


def test_on_a_redis_cluster_the_counters_live_in_the_cluster(redis_cluster):
    settings = dict(redis_url=redis_cluster.url, redis_cluster=True, rate_limit="2/minute")
    store = MemoryGameStore(3600)
    one, two = make_app(store, **settings), make_app(store, **settings)
    assert type(one.extensions["cribbage.limiter"].storage).__name__ == "RedisClusterStorage"
    assert one.test_client().get("/v1/ping").status_code == 200
    assert two.test_client().get("/v1/ping").status_code == 200
    assert_rate_limited(one.test_client().get("/v1/ping"), "2 per 1 minute")


def test_the_limits_storage_is_the_stores_redis_as_limits_spells_it():
    assert storage_uri(Settings()) == "memory://"
    assert storage_uri(Settings(redis_url="redis://:pw@10.0.0.5:6379/2")) == (
        "redis://:pw@10.0.0.5:6379/2")
    assert storage_uri(Settings(redis_url="redis://:pw@redis-0:7000/0", redis_cluster=True)) == (
        "redis+cluster://:pw@redis-0:7000")


def test_an_unreachable_limits_redis_never_turns_into_errors(dedicated_redis):
    client = make_app(redis_url=dedicated_redis.url + "/0", rate_limit="1000/minute").test_client()
    assert client.get("/v1/ping").status_code == 200
    dedicated_redis.stop()
    # Counting falls back to memory; the route itself needs no store.
    assert [client.get("/v1/ping").status_code for _ in range(3)] == [200, 200, 200]
    dedicated_redis.start()
    assert client.get("/v1/ping").status_code == 200


def bearer(game: dict) -> dict:
    return {"Authorization": f"Bearer {game['token']}"}


def policies(response) -> tuple[str, str]:
    """The RateLimit-Policy header, and the RateLimit header with its seconds left as `t=T`."""
    return (response.headers.get("RateLimit-Policy"),
            re.sub(r";t=([0-9]+)", ";t=T", response.headers.get("RateLimit", "")))


def test_every_limited_answer_says_where_the_client_stands():
    client = make_app().test_client()
    response = client.get("/v1/ping")
    assert policies(response) == ('"address";q=300;w=60', '"address";r=299;t=T')
    assert 1 <= int(re.search(r";t=([0-9]+)", response.headers["RateLimit"]).group(1)) <= 60
    game = new_game(client)
    assert policies(bad_action(client, game)) == (
        '"address";q=300;w=60, "actions";q=120;w=60, "token";q=600;w=60',
        '"address";r=297;t=T, "actions";r=119;t=T, "token";r=599;t=T')
    assert client.get("/livez").headers.get("RateLimit") is None


def test_a_policy_of_several_windows_names_each_by_its_window():
    client = make_app(rate_limit="10/second;1000/hour").test_client()
    assert policies(client.get("/v1/ping")) == (
        '"address-1s";q=10;w=1, "address-3600s";q=1000;w=3600',
        '"address-1s";r=9;t=T, "address-3600s";r=999;t=T')


def test_a_429_says_where_the_client_stands_too():
    client = make_app(rate_limit="1/minute").test_client()
    client.get("/v1/ping")
    response = client.get("/v1/ping")
    assert response.status_code == 429
    assert policies(response) == ('"address";q=1;w=60', '"address";r=0;t=T')


def test_requests_whose_token_proves_a_seat_do_not_count_against_the_address():
    client = make_app(rate_limit="3/minute").test_client()
    game = new_game(client)  # 1 of the address's 3
    path = f"/v1/games/{game['game_id']}"
    for _ in range(10):
        assert client.get(path, headers=bearer(game)).status_code == 200
        assert client.get(f"{path}/events?after=0", headers=bearer(game)).status_code == 200
    response = client.get(path, headers=bearer(game))
    assert policies(response) == ('"address";q=3;w=60, "token";q=600;w=60',
                                  '"address";r=2;t=T, "token";r=579;t=T')
    assert [client.get("/v1/ping").status_code for _ in range(3)] == [200, 200, 429]


def test_a_lobby_a_rematch_and_webhooks_proved_by_their_token_do_not_count_either():
    client = make_app(rate_limit="3/minute").test_client()
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()  # 1 of 3
    auth = {"Authorization": f"Bearer {player['token']}"}
    game = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}},
                       headers=auth).get_json()  # 2 of 3
    path = f"/v1/games/{game['game_id']}"
    assert client.post(f"{path}/actions", json={"type": "resign"},
                       headers=bearer(game)).status_code == 200
    statuses = [client.get("/v1/players/me/games", headers=auth).status_code,
                client.get("/v1/players/me/webhooks", headers=auth).status_code,
                client.get(f"{path}/webhooks", headers=bearer(game)).status_code,
                client.get(f"{path}/analysis", headers=bearer(game)).status_code,
                client.post(f"{path}/rematch", headers=auth).status_code]
    assert statuses == [200, 200, 200, 200, 201]
    # ... while a refused one does: the rematch is started already
    assert client.delete(f"{path}/rematch", headers=auth).status_code == 409
    assert client.get("/v1/ping").status_code == 429


def test_a_made_up_token_or_a_refusal_counts_against_the_address():
    client = make_app(rate_limit="3/minute").test_client()
    game = new_game(client)
    made_up = {"Authorization": "Bearer made-up-token-000000"}
    assert client.get(f"/v1/games/{game['game_id']}", headers=made_up).status_code == 403
    assert bad_action(client, game).status_code == 409
    assert_rate_limited(client.get(f"/v1/games/{game['game_id']}", headers=bearer(game)),
                        "3 per 1 minute")


def test_a_token_on_a_route_that_does_not_check_it_counts_against_the_address():
    client = make_app(rate_limit="2/minute").test_client()
    made_up = {"Authorization": "Bearer made-up-token-000000"}
    assert [client.get("/v1/ping", headers=made_up).status_code for _ in range(3)] == [
        200, 200, 429]


def test_every_bearer_token_has_its_own_allowance():
    client = make_app(token_rate_limit="3/minute").test_client()
    first, second = new_game(client), new_game(client)
    path = f"/v1/games/{first['game_id']}"
    assert [client.get(path, headers=bearer(first)).status_code for _ in range(3)] == [200] * 3
    assert_rate_limited(client.get(path, headers=bearer(first)), "3 per 1 minute")
    assert client.get(f"/v1/games/{second['game_id']}", headers=bearer(second)).status_code == 200


def test_a_player_token_has_one_allowance_for_all_its_games_and_its_seats_their_own():
    client = make_app(token_rate_limit="3/minute").test_client()
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    games = [client.post("/v1/games", json={"seats": [HUMAN, COMPUTER], "options": {}},
                         headers=auth).get_json() for _ in range(2)]
    assert client.get("/v1/players/me/games", headers=auth).status_code == 200  # 3rd of 3
    for game in games:  # the player's allowance is spent in every game it sits in
        assert_rate_limited(client.get(f"/v1/games/{game['game_id']}", headers=auth),
                            "3 per 1 minute")
    assert client.get(f"/v1/games/{games[0]['game_id']}", headers=bearer(games[0])).status_code \
        == 200  # the seat's own token is a token of its own


def test_the_address_is_the_peers_unless_proxies_are_trusted():
    forwarded = [{"X-Forwarded-For": f"203.0.113.{n}"} for n in (1, 2)]
    direct = make_app(rate_limit="1/minute").test_client()
    assert [direct.get("/v1/ping", headers=h).status_code for h in forwarded] == [200, 429]
    proxied = make_app(rate_limit="1/minute", trusted_proxy_hops=1).test_client()
    assert [proxied.get("/v1/ping", headers=h).status_code for h in forwarded] == [200, 200]
    assert proxied.get("/v1/ping", headers=forwarded[0]).status_code == 429
    # With one trusted hop, only the address the proxy added counts, not what the client sent.
    spoofed = {"X-Forwarded-For": "198.51.100.7, 203.0.113.1"}
    assert proxied.get("/v1/ping", headers=spoofed).status_code == 429


def test_proxy_hops_are_read_from_the_environment():
    assert Settings.from_env({"CRIBBAGE_TRUSTED_PROXY_HOPS": "2"}).trusted_proxy_hops == 2
    assert Settings.from_env({}).trusted_proxy_hops == 0
    with pytest.raises(SettingsError, match="^CRIBBAGE_TRUSTED_PROXY_HOPS="):
        Settings.from_env({"CRIBBAGE_TRUSTED_PROXY_HOPS": "-1"})


def test_every_limited_operation_documents_the_ratelimit_headers(spec):
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                headers = response.get("headers", {})
                if path in ("/livez", "/readyz"):
                    assert "RateLimit" not in headers
                    continue
                assert headers["RateLimit"] == {"$ref": "#/components/headers/RateLimit"}, (
                    path, method, status)
                assert headers["RateLimit-Policy"] == {
                    "$ref": "#/components/headers/RateLimit-Policy"}


@pytest.fixture(scope="module")
def spec():
    return make_app().test_client().get("/openapi.json").get_json()


def test_every_limited_operation_documents_the_429_and_its_retry_after(spec):
    documented = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            response = operation["responses"].get("429")
            if path in ("/livez", "/readyz"):
                assert response is None, path
                continue
            assert response is not None, (method, path)
            assert response["headers"]["Retry-After"]["schema"] == {"type": "integer",
                                                                    "minimum": 1}
            problem = response["content"]["application/problem+json"]
            assert problem["schema"] == {"$ref": "#/components/schemas/Problem"}
            documented.append(operation["operationId"])
    assert {"actInGame", "createGame", "ping", "scoreShow"} <= set(documented)
