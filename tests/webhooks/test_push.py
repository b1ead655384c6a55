"""Web Push end to end: subscriptions registered over HTTP, messages queued with the game's save
and sent by the delivery worker to a real push service receiver on loopback, which the test
decrypts with the subscription's keys and whose VAPID token it checks (tests/webhooks/
push_device.py); a subscription the push service reports gone is deleted."""

from __future__ import annotations

import time

import pytest

from service.games.event_log import server_time
from service.games.sweeper import Sweeper
from service.webhooks.model import MAX_PUSH_PER_GAME
from tests.games.conftest import START, make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, Stream, create
from tests.webhooks.conftest import WORKER
from tests.webhooks.helpers import SECRET, register, two_humans
from tests.webhooks.push_device import Device, vapid_claims
from tests.webhooks.receiver import Receiver, SilentReceiver

CUT = {"type": "cut_for_deal", "depth": 10}


def subscribe(player: Player, device: Device, endpoint: str, **extra):
    return player.client.post(f"/v1/games/{player.game_id}/push-subscriptions",
                              json=device.subscription(endpoint, **extra),
                              headers=player.headers())


def push_key(client) -> str:
    response = client.get("/v1/push/key")
    assert response.status_code == 200
    return response.get_json()["public_key"]


def test_a_turn_is_pushed_encrypted_for_the_device_and_signed_for_the_push_service(
        client, receiver, deliver):
    ana, _ = two_humans(client)
    device = Device()
    created = subscribe(ana, device, receiver.url("/wp/ana"), events=["turn"])
    assert created.status_code == 201, created.get_json()
    subscription = created.get_json()
    assert subscription == {"subscription_id": subscription["subscription_id"],
                            "endpoint": receiver.url("/wp/ana"), "events": ["turn"], "seat": 0,
                            "created_at": server_time(START)}
    deliver()
    [message] = receiver.received
    assert message.path == "/wp/ana"
    assert device.decrypt(message) == {"type": "turn", "timestamp": server_time(START), "data": {
        "game_id": ana.game_id, "seats": [0, 1], "phase": "cut_for_deal",
        "version": ana.read()["version"], "deadline": None}}
    assert (message.headers["ttl"], message.headers["urgency"], message.headers["topic"]) == (
        "86400", "high", ana.game_id)
    claims = vapid_claims(message, push_key(client))
    origin = receiver.url("")
    assert claims["aud"] == origin and claims["sub"] == "mailto:push@cribbage.invalid"
    assert 0 < claims["exp"] - time.time() <= 24 * 3600
    with pytest.raises(Exception):  # another subscription's keys cannot read it
        Device().decrypt(message)
    ana.act(CUT)  # Bea's turn alone: Ana's phone is not told of it
    deliver()
    assert len(receiver.received) == 1
    logged = client.get(f"/v1/games/{ana.game_id}/push-subscriptions/"
                        f"{subscription['subscription_id']}/deliveries", headers=ana.headers())
    [delivery] = logged.get_json()["deliveries"]
    assert (delivery["event"], delivery["outcome"], delivery["status"], delivery["attempts"]) == (
        "turn", "delivered", 204, 1)


def test_a_subscription_the_push_service_reports_gone_is_deleted(client, deliver):
    with Receiver(statuses=[410]) as push_service:
        ana, bea = two_humans(client)
        subscription_id = subscribe(ana, Device(), push_service.url()).get_json()[
            "subscription_id"]
        deliver()
        assert len(push_service.received) == 1
        listed = client.get(f"/v1/games/{ana.game_id}/push-subscriptions",
                            headers=ana.headers()).get_json()
        assert listed == {"subscriptions": []}
        ana.act(CUT)
        deliver()
        assert len(push_service.received) == 1  # nothing more went to it
        gone = client.delete(f"/v1/games/{ana.game_id}/push-subscriptions/{subscription_id}",
                             headers=ana.headers())
        assert gone.status_code == 404
        assert gone.get_json()["code"] == "push_subscription_not_found"


def test_a_player_subscription_hears_of_the_players_games_and_goes_when_gone(client, deliver):
    with Receiver(statuses=[201, 404]) as push_service:
        player = client.post("/v1/players", json={"name": "Ana"}).get_json()
        auth = {"Authorization": f"Bearer {player['token']}"}
        created = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                              headers=auth).get_json()
        device = Device()
        registered = client.post("/v1/players/me/push-subscriptions",
                                 json=device.subscription(push_service.url("/me")),
                                 headers=auth)
        assert registered.status_code == 201, registered.get_json()
        assert registered.get_json()["seat"] is None
        deliver()
        bea = Player.joining(client, created["game_id"], created["invites"][0]["code"])
        bea.act(CUT)   # Ana's turn alone: her device is told (not of Bea's turns)
        deliver()
        told = [device.decrypt(message)["data"]["seats"] for message in push_service.received]
        assert told == [[0, 1], [0]]
        listed = client.get("/v1/players/me/push-subscriptions", headers=auth).get_json()
        assert listed == {"subscriptions": []}  # the 404 deleted it
        assert client.get("/v1/players/me/webhooks", headers=auth).get_json() == {
            "webhooks": []}


def test_a_gone_player_subscription_is_deleted_though_its_token_was_rotated_since(
        client, deliver):
    with Receiver(statuses=[410]) as push_service:
        player = client.post("/v1/players", json={"name": "Ana"}).get_json()
        old = {"Authorization": f"Bearer {player['token']}"}
        created = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                              headers=old).get_json()
        registered = client.post("/v1/players/me/push-subscriptions",
                                 json=Device().subscription(push_service.url("/me")),
                                 headers=old)
        assert registered.status_code == 201, registered.get_json()
        bea = Player.joining(client, created["game_id"], created["invites"][0]["code"])
        bea.act(CUT)  # Ana's turn, queued under the token she has yet to rotate
        rotated = client.patch("/v1/players/me", json={"rotate_token": True}, headers=old)
        assert rotated.status_code == 200, rotated.get_json()
        new = {"Authorization": f"Bearer {rotated.get_json()['token']}"}
        deliver()
        assert push_service.received and all(
            message.path == "/me" for message in push_service.received)
        listed = client.get("/v1/players/me/push-subscriptions", headers=new).get_json()
        assert listed == {"subscriptions": []}


def test_keys_and_endpoints_that_cannot_be_pushed_to_are_refused_naming_the_field(client):
    ana, _ = two_humans(client)
    bad_keys = Device().subscription("http://127.0.0.1:9/wp")
    bad_keys["keys"]["p256dh"] = "BAAA"
    refused = ana.client.post(f"/v1/games/{ana.game_id}/push-subscriptions", json=bad_keys,
                              headers={**ana.headers(), "Accept-Language": "es"})
    assert refused.status_code == 422
    body = refused.get_json()
    assert (body["code"], body["field"]) == ("invalid_push_keys", "keys")
    assert body["detail"].startswith("keys: p256dh debe ser una clave pública P-256")
    refused = subscribe(ana, Device(), "ftp://127.0.0.1/wp")
    assert refused.status_code == 422
    assert (refused.get_json()["code"], refused.get_json()["field"]) == (
        "invalid_webhook_url", "endpoint")
    for _ in range(MAX_PUSH_PER_GAME):
        assert subscribe(ana, Device(), "http://127.0.0.1:9/wp").status_code == 201
    full = subscribe(ana, Device(), "http://127.0.0.1:9/wp")
    assert (full.status_code, full.get_json()["code"]) == (409, "too_many_push_subscriptions")
    assert register(ana, "http://127.0.0.1:9/hook", secret=SECRET).status_code == 201


def test_every_process_of_a_deployment_signs_with_the_same_key(store):
    keys = {push_key(make_app(store).test_client()) for _ in range(2)}
    assert len(keys) == 1 and len(keys.pop()) == 87  # 65 bytes, base64url


def test_every_decision_of_a_timed_game_is_told_once_by_push_and_by_webhook(
        app, client, clock, deliver):
    """A human against a computer, left to its 10 s turn timer: each timed-out decision (each
    card of the play among them) gives one turn notification, by push and by webhook."""
    with Receiver() as push_service, Receiver() as hooks:
        created = create(client, [HUMAN, COMPUTER], {"turn_time_limit": 10,
                                                     "on_timeout": "computer"})
        ana = Player.creator(client, created)
        device = Device()
        assert subscribe(ana, device, push_service.url(), events=["turn"]).status_code == 201
        assert register(ana, hooks.url(), secret=SECRET, events=["turn"]).status_code == 201
        sweeper = Sweeper(app.extensions["cribbage.game_table"], period=0)
        decisions = 1  # the first, told to the subscription when it registered
        for _ in range(16):
            deliver()
            clock.advance(10.5)
            sweeper.sweep()
            view = ana.read()["view"]
            if ana.seat not in view["to_act"]:
                break
            decisions += 1
        assert decisions > 8
        deliver()
        pushed = [device.decrypt(message)["data"] for message in push_service.received]
        hooked = [message.payload["data"] for message in hooks.received]
        assert pushed[1:] == hooked  # the webhook came after that first notification
        assert len(pushed) == decisions
        assert len({told["version"] for told in pushed}) == decisions


def test_a_push_service_that_never_answers_delays_no_other_delivery(store, receiver):
    app = make_app(store, webhooks_allow_private=True)   # the real clock: the worker runs
    client, worker = app.test_client(), app.extensions[WORKER]
    with SilentReceiver() as silent:
        stalled, stalled_bea = two_humans(client)
        for _ in range(MAX_PUSH_PER_GAME):
            assert subscribe(stalled_bea, Device(), silent.url()).status_code == 201
        other, other_bea = two_humans(client)
        device = Device()
        assert subscribe(other_bea, device, receiver.url(), events=["turn"]).status_code == 201
        worker.start()
        try:
            assert receiver.wait_for(lambda: len(receiver.received) == 1)  # its first turn
            stalled.act(CUT)   # Bea's turn for each of her subscriptions that get no answer
            assert silent.wait_for(lambda: silent.open == 4)  # the destination's bound
            moved = time.perf_counter()
            version = other.act(CUT)["version"]
            assert receiver.wait_for(lambda: len(receiver.received) == 2, timeout=60)
            arrived, _ = receiver.arrivals[1]
            assert device.decrypt(receiver.received[1])["data"]["version"] == version
            assert arrived - moved < 2.0
        finally:
            silent.close()
            worker.stop()


def test_a_turn_alarm_goes_at_80_percent_of_the_clock_to_the_seat_away_only(
        app, client, clock, deliver):
    """Both seats must cut within 100 s: at 80 s Ana, whose stream is open, is not alarmed;
    Bea, who joined and left, is, on her device, once."""
    with Receiver() as push_service:
        created = create(client, [HUMAN, HUMAN], {"turn_time_limit": 100})
        ana = Player.creator(client, created)
        bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
        devices = {"/ana": Device(), "/bea": Device()}
        for player, path in ((ana, "/ana"), (bea, "/bea")):
            assert subscribe(player, devices[path], push_service.url(path),
                             events=["turn_alarm"]).status_code == 201
        stream = Stream(client.get(f"/v1/games/{ana.game_id}/stream", buffered=False,
                                   headers=ana.headers()))
        assert stream.next_message()["event"] == "snapshot"
        sweeper = Sweeper(app.extensions["cribbage.game_table"], period=0)
        clock.advance(79.9)
        sweeper.sweep()
        deliver()
        assert push_service.received == []
        clock.advance(0.2)
        sweeper.sweep()
        clock.advance(5)
        sweeper.sweep()
        deliver()
        alarms = [(message.path, devices[message.path].decrypt(message)) for message in
                  push_service.received]
        deadline = server_time(START + 100)
        assert [(path, alarm["type"], alarm["data"]["seats"], alarm["data"]["deadline"])
                for path, alarm in alarms] == [("/bea", "turn_alarm", [1], deadline)]
        assert push_service.received[0].headers["urgency"] == "high"
        events = [event for event in ana.events().get_json()["events"]
                  if event["type"] == "turn_alarm"]
        assert [(event["seats"], event["deadline"]) for event in events] == [([1], deadline)]
        stream.close()
