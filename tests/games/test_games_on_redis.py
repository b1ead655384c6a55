"""The games API on real Redis: store selection, a Cluster game, races (in each durability
mode), outages and recovery."""

from __future__ import annotations

import threading

import pytest

from service.api import create_app
from service.config import Settings
from service.store import MemoryGameStore, RedisGameStore
from service.store.redis_store import game_keys
from tests.games.helpers import COMPUTER, HUMAN, Player, create, first_legal
from tests import redis_servers

STORE = "cribbage.game_table"


def app_for(**settings):
    return create_app({"TESTING": True, "SETTINGS": Settings(rate_limit_enabled=False, **settings)})


@pytest.fixture(params=["none", pytest.param("fsync", marks=pytest.mark.ops),
                        pytest.param("replica", marks=pytest.mark.ops)])
def redis_settings(request):
    """Settings for a Redis that keeps what each CRIBBAGE_DURABILITY asks: the session's Redis
    for none, one with appendfsync always for fsync, one with a replica for replica."""
    if request.param == "none":
        yield {"redis_url": request.getfixturevalue("redis_server").url}
        return
    server = request.getfixturevalue("dedicated_redis")
    settings = {"redis_url": server.url, "durability": request.param}
    if request.param == "fsync":
        server.keep_every_write()
        yield settings
        return
    replica = redis_servers.follow(redis_servers.RedisServer().start(), server)
    try:
        yield settings
    finally:
        replica.remove()


def play_whole_game(client) -> dict:
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 61}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]), Idempotency_Key=str(game["version"]),
                          If_Match=f'"{game["version"]}-0"')
    return game


def test_the_app_uses_memory_without_a_redis_url_and_redis_with_one(redis_server):
    embedded = app_for().extensions[STORE].store.wrapped  # its operations timed (TimedStore)
    assert (type(embedded), embedded.max_games, embedded.finished_ttl_seconds) == (
        MemoryGameStore, 5000, 86400)
    store = app_for(redis_url=redis_server.url).extensions[STORE].store.wrapped
    assert isinstance(store, RedisGameStore)
    assert (store.url, store.cluster, store.ttl_seconds, store.finished_ttl_seconds) == (
        redis_server.url, False, 604800, 86400)
    clustered = app_for(redis_url=redis_server.url, redis_cluster=True, game_ttl_seconds=60,
                        finished_game_ttl_seconds=30).extensions[STORE].store.wrapped
    assert (clustered.cluster, clustered.ttl_seconds, clustered.finished_ttl_seconds) == (
        True, 60, 30)


def test_a_whole_game_on_standalone_redis(redis_settings):
    game = play_whole_game(app_for(**redis_settings).test_client())
    assert max(game["view"]["scores"]) >= 61


def test_a_whole_game_on_a_redis_cluster(redis_cluster):
    game = play_whole_game(app_for(redis_url=redis_cluster.url, redis_cluster=True).test_client())
    assert max(game["view"]["scores"]) >= 61


def test_a_finished_game_expires_sooner_keeps_its_events_and_answers_a_retry(redis_server):
    client = app_for(redis_url=redis_server.url, finished_game_ttl_seconds=600).test_client()
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 61}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        action, key = first_legal(game["view"]), f"act-{game['version']}"
        game = player.act(action, Idempotency_Key=key)
    events = player.events().get_json()["events"]
    assert [event["number"] for event in events] == list(range(1, game["last_event"] + 1))
    assert [event["type"] for event in events[-2:]] == ["game_seed_revealed", "game_over"]
    ttls = {name.rsplit(":", 1)[1]: int(redis_server.cli("TTL", name))
            for name in game_keys(player.game_id)[:4]}
    assert ttls.pop("events") == -2  # packed into the game's hash
    assert all(590 < ttl <= 600 for ttl in ttls.values()), ttls
    retry = player.post(action, Idempotency_Key=key)
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.get_json() == game


def test_of_two_simultaneous_actions_on_one_version_only_one_applies(redis_settings):
    app = app_for(**redis_settings)
    created = create(app.test_client(), [HUMAN, HUMAN])
    players = [Player.creator(app.test_client(), created)]
    players.append(Player.joining(app.test_client(), created["game_id"],
                                  created["invites"][0]["code"]))
    etag = players[0].get().headers["ETag"].replace("-0", "-1")
    barrier = threading.Barrier(2)
    statuses = {}

    def cut(player: Player) -> None:
        barrier.wait()
        response = player.post({"type": "cut_for_deal", "depth": 10}, If_Match=etag)
        statuses[player.seat] = response.status_code

    threads = [threading.Thread(target=cut, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses.values()) == [200, 412]
    cuts = [e for e in players[0].events().get_json()["events"] if e["type"] == "dealer_cut"]
    assert len(cuts) == 1


def test_many_retries_of_one_request_at_once_apply_it_once(redis_settings):
    app = app_for(**redis_settings)
    player = Player.creator(app.test_client(), create(app.test_client(), [HUMAN, COMPUTER]))
    barrier = threading.Barrier(6)
    bodies = []

    def retry() -> None:
        client = Player(app.test_client(), player.game_id, player.token, 0)
        barrier.wait()
        response = client.post({"type": "cut_for_deal", "depth": 5}, Idempotency_Key="once")
        bodies.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=retry) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {status for status, _ in bodies} == {200}
    assert all(body == bodies[0][1] for _, body in bodies)
    cuts = [e for e in player.events().get_json()["events"] if e["type"] == "dealer_cut"]
    assert [cut["seat"] for cut in cuts].count(0) == 1


def test_redis_down_is_503_with_retry_after_and_the_service_recovers(dedicated_redis):
    app = app_for(redis_url=dedicated_redis.url)
    client = app.test_client()
    player = Player.creator(client, create(client, [HUMAN, COMPUTER]))
    assert client.get("/readyz").status_code == 200
    dedicated_redis.stop()
    responses = [
        client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]}),
        player.get(),
        player.post({"type": "cut_for_deal", "depth": None}),
        player.events(),
        client.post(f"/v1/games/{player.game_id}/join", json={"code": "abc"}),
    ]
    for response in responses:
        body = response.get_json()
        assert response.status_code == 503, body
        assert response.headers["Retry-After"] == "1"
        assert response.content_type == "application/problem+json"
        assert body["code"] == "store_unavailable"
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["errors"] == {"store": ["failing"]}
    dedicated_redis.start()
    assert client.get("/readyz").status_code == 200
    assert player.get().status_code == 404  # the restarted server kept nothing
    again = Player.creator(client, create(client, [HUMAN, COMPUTER]))
    assert again.post({"type": "cut_for_deal", "depth": None}).status_code == 200


def test_a_redis_that_could_lose_writes_is_503_and_not_ready_in_the_fsync_mode(dedicated_redis):
    client = app_for(redis_url=dedicated_redis.url, durability="fsync").test_client()
    created = client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]})
    assert (created.status_code, created.headers["Retry-After"]) == (503, "1")
    assert created.get_json()["code"] == "store_unavailable"
    assert client.get("/readyz").get_json()["errors"] == {"store": ["failing"]}
    dedicated_redis.keep_every_write()
    assert client.get("/readyz").status_code == 200
    assert client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]}).status_code == 201


def test_many_long_polls_do_not_hold_up_the_pool_or_the_players(redis_server):
    app = app_for(redis_url=redis_server.url)
    created = create(app.test_client(), [HUMAN, HUMAN])
    ana = Player.creator(app.test_client(), created)
    bea = Player.joining(app.test_client(), ana.game_id, created["invites"][0]["code"])
    last = ana.read()["last_event"]
    seen = []

    def follow() -> None:
        watcher = Player(app.test_client(), ana.game_id, None, None)
        seen.append(watcher.events(after=last, wait=20).get_json()["events"][0]["type"])

    watchers = [threading.Thread(target=follow) for _ in range(40)]
    for watcher in watchers:
        watcher.start()
    assert bea.post({"type": "cut_for_deal", "depth": 9}).status_code == 200
    for watcher in watchers:
        watcher.join()
    assert seen == ["dealer_cut"] * 40
