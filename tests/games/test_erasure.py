"""An erased player's personal data is nowhere in Redis: its names (the player's and its seats'
in every game and event), its webhooks' and push subscriptions' addresses, its seeks; and its
games stay whole."""

from __future__ import annotations

import base64
import secrets

import redis

from service.games.players import player_owner
from service.store import RedisGameStore
from service.store.archive import unpack
from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player
from tests.games.test_players import bearer, new_player
from tests.games.test_ratings_http import profile, rated_game
from tests.webhooks.conftest import WORKER
from tests.webhooks.push_device import Device
from tests.webhooks.receiver import Receiver

NAME, RENAMED = "Qwertz Erasable", "Qwertz Renamed"
HOOK, PUSH = "/qwertz-hook", "/qwertz-push"


def everything_stored(url: str) -> str:
    """Every key and value of the Redis server as text, finished games' events unpacked."""
    client = redis.Redis.from_url(url)
    texts: list[bytes] = []
    for key in client.scan_iter(count=1000):
        kind = client.type(key)
        if kind == b"string":
            values = [client.get(key)]
        elif kind == b"hash":
            found = client.hgetall(key)
            values = [*found, *found.values()]
            if b"archive" in found:
                values += [text.encode() for text in unpack(base64.b64decode(found[b"archive"]))]
        elif kind == b"list":
            values = client.lrange(key, 0, -1)
        elif kind == b"zset":
            values = client.zrange(key, 0, -1)
        elif kind == b"set":
            values = list(client.smembers(key))
        else:
            assert kind == b"stream", kind
            values = [part for _, entry in client.xrange(key) for pair in entry.items()
                      for part in pair]
        texts += [key, *(value for value in values if value is not None)]
    client.close()
    return "\n".join(text.decode("utf-8", "replace") for text in texts)


def test_an_erased_players_names_and_addresses_are_nowhere_in_redis(redis_server):
    store = RedisGameStore(redis_server.url, 3600, webhook_queue=secrets.token_hex(8))
    app = make_app(store, webhooks_allow_private=True)
    client = app.test_client()
    ana, bea = new_player(client, NAME), new_player(client, "Bea")
    auth = bearer(ana["token"])
    with Receiver() as receiver:
        assert client.post("/v1/players/me/webhooks", headers=auth,
                           json={"url": receiver.url(HOOK)}).status_code == 201
        assert client.post("/v1/players/me/push-subscriptions", headers=auth,
                           json=Device().subscription(receiver.url(PUSH))).status_code == 201
        # A rated game she renamed her seat in, then lost
        finished, bea_seat = rated_game(client, ana, bea)
        assert client.patch(f"/v1/games/{finished.game_id}/seats/0", headers=auth,
                            json={"name": RENAMED}).status_code == 200
        bea_seat.act({"type": "resign"})
        # A game she joined under her name (a seat_joined event), and one she plays, with a
        # webhook of its own
        created = client.post("/v1/games", headers=bearer(bea["token"]),
                              json={"seats": [HUMAN, HUMAN]}).get_json()
        joined = client.post(f"/v1/games/{created['game_id']}/join", headers=auth,
                             json={"code": created["invites"][0]["code"], "name": NAME})
        assert joined.status_code == 200, joined.get_json()
        live = client.post("/v1/games", headers=auth,
                           json={"seats": [{**HUMAN, "name": NAME}, HUMAN]}).get_json()
        assert client.post(f"/v1/games/{live['game_id']}/webhooks", headers=bearer(live["token"]),
                           json={"url": receiver.url(HOOK + "/seat")}).status_code == 201
        assert client.post("/v1/seeks", headers=auth, json={"players": 3}).status_code == 201
        worker = app.extensions[WORKER]
        while worker.run_once():
            pass
        assert receiver.received   # the notifications went, and left the queue
    before = everything_stored(redis_server.url)
    assert all(text in before for text in (NAME, RENAMED, HOOK, PUSH))
    bea_view = Player(client, finished.game_id, bea["token"], 1)
    events_before = bea_view.events().get_json()["events"]
    scores_before = bea_view.read()["view"]["scores"]

    assert client.delete("/v1/players/me", headers=auth).status_code == 204

    after = everything_stored(redis_server.url)
    assert [text for text in (NAME, RENAMED, HOOK, PUSH) if text in after] == []
    # The games stay whole: the same events, scores and ratings; the seat named anew
    events_after = bea_view.events().get_json()["events"]
    assert [event["type"] for event in events_after] == [event["type"]
                                                         for event in events_before]
    renamed = [event for event in events_after if event["type"] == "seat_renamed"]
    assert [(event["seat"], event["name"]) for event in renamed] == [(0, "Former player")]
    assert bea_view.read()["view"]["scores"] == scores_before
    assert profile(client, bea["token"])["ratings"][0]["rating"] == 963
    spanish = client.get(f"/v1/games/{created['game_id']}/events", headers={
        **bearer(bea["token"]), "Accept-Language": "es"}).get_json()["events"]
    assert [(event["seat"], event["name"]) for event in spanish
            if event["type"] == "seat_joined"] == [(1, "Antiguo jugador")]
    seats = Player(client, live["game_id"], live["token"], 0).read()["seats"]
    assert seats[0]["name"] == "Former player"
    assert [seek for seek in client.get("/v1/seeks").get_json()["seeks"]
            if seek["player_id"] == ana["player_id"]] == []
    store.close()


def test_an_erased_players_open_seek_gives_its_live_game_place_back(store):
    """The seek an erasure cancels holds a place among the player's live games no longer: a
    claim with room for one game fits again."""
    client = make_app(store).test_client()
    ana = new_player(client, NAME)
    assert client.post("/v1/seeks", headers=bearer(ana["token"]),
                       json={"players": 3}).get_json()["status"] == "open"
    owner = player_owner(ana["player_id"])
    assert not store.claim_live_game(owner, "probe", 1)   # the seek holds the one place
    assert client.delete("/v1/players/me", headers=bearer(ana["token"])).status_code == 204
    assert store.claim_live_game(owner, "probe", 1)
