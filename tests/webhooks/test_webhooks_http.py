"""Webhooks end to end: registered over HTTP, queued with the game's save, delivered by the
worker to a real receiver on loopback that checks the signature with its own code."""

from __future__ import annotations

import base64

import pytest

from service.games.event_log import server_time
from service.games.webhooks import WebhookRequest
from service.webhooks.model import MAX_PER_GAME
from tests.games.conftest import START
from tests.games.helpers import HUMAN, Player, create
from tests.webhooks.helpers import SECRET, register, two_humans
from tests.webhooks.receiver import Receiver, make_test_ca, verified


def deliveries(player: Player, webhook_id: str) -> list[dict]:
    response = player.client.get(f"/v1/games/{player.game_id}/webhooks/{webhook_id}/deliveries",
                                 headers=player.headers())
    assert response.status_code == 200, response.get_json()
    return response.get_json()["deliveries"]


def test_a_turn_is_delivered_signed_and_the_receiver_verifies_the_signature(
        client, receiver, deliver):
    ana, bea = two_humans(client)
    created = register(ana, receiver.url(), secret=SECRET, events=["turn"])
    assert created.status_code == 201, created.get_json()
    webhook = created.get_json()
    assert webhook == {"webhook_id": webhook["webhook_id"], "url": receiver.url(),
                       "events": ["turn"], "seat": 0, "created_at": server_time(START)}
    deliver()
    [first] = receiver.received
    assert verified(first, SECRET.encode())
    assert first.headers["webhook-timestamp"] == str(int(START))
    version = ana.read()["version"]
    assert first.payload == {"type": "turn", "timestamp": server_time(START), "data": {
        "game_id": ana.game_id, "seats": [0, 1], "phase": "cut_for_deal", "version": version,
        "deadline": None}}
    assert first.delivery_id.startswith("msg_")


def test_a_generated_secret_is_shown_once_and_signs_with_the_bytes_it_encodes(
        client, receiver, deliver):
    ana, _ = two_humans(client)
    created = register(ana, receiver.url()).get_json()
    secret = created["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 24
    listed = client.get(f"/v1/games/{ana.game_id}/webhooks", headers=ana.headers()).get_json()
    assert listed == {"webhooks": [{key: value for key, value in created.items()
                                    if key != "secret"}]}
    deliver()
    [first] = receiver.received
    assert verified(first, base64.b64decode(secret[6:]))
    assert not verified(first, secret.encode())


def test_a_failing_receiver_gets_the_same_delivery_again_until_it_answers_2xx(
        client, clock, deliver):
    with Receiver(statuses=[503, 500]) as receiver:
        ana, _ = two_humans(client)
        webhook_id = register(ana, receiver.url(), secret=SECRET).get_json()["webhook_id"]
        deliver()
        [log] = deliveries(ana, webhook_id)
        assert (log["attempts"], log["outcome"], log["status"], log["next_attempt_at"]) == (
            1, "retrying", 503, server_time(START + 5))
        clock.advance(4.9)
        deliver()
        assert len(receiver.received) == 1
        clock.advance(0.1)
        deliver()
        clock.advance(15)
        deliver()
        ids = [received.delivery_id for received in receiver.received]
        assert ids == [ids[0]] * 3
        assert all(verified(received, SECRET.encode()) for received in receiver.received)
        assert [received.body for received in receiver.received] == [receiver.received[0].body] * 3
        [log] = deliveries(ana, webhook_id)
        assert log == {"delivery_id": ids[0], "event": "turn", "attempts": 3,
                       "outcome": "delivered", "status": 204, "error": None,
                       "created_at": server_time(START), "last_attempt_at": server_time(START + 20),
                       "next_attempt_at": None, "delivered_at": server_time(START + 20)}


def test_a_delivery_gives_up_after_its_attempts(store, clock, tmp_path):
    from tests.games.conftest import make_app
    app = make_app(store, clock, webhooks_allow_private=True, webhook_attempts=2,
                   webhook_retry_base_ms=1000)
    client, worker = app.test_client(), app.extensions["cribbage.webhook_worker"]
    with Receiver(statuses=[500, 502, 503]) as receiver:
        ana, _ = two_humans(client)
        webhook_id = register(ana, receiver.url(), secret=SECRET).get_json()["webhook_id"]
        for _ in range(3):
            while worker.run_once():
                pass
            clock.advance(1)
        assert len(receiver.received) == 2
        [log] = deliveries(ana, webhook_id)
        assert (log["attempts"], log["outcome"], log["status"], log["next_attempt_at"]) == (
            2, "given_up", 502, None)


def test_https_to_a_receiver_whose_certificate_a_test_ca_signed(store, clock, tmp_path):
    from tests.games.conftest import make_app
    ca_file, tls = make_test_ca(tmp_path)
    app = make_app(store, clock, webhooks_allow_private=True, webhook_ca_file=str(ca_file))
    client, worker = app.test_client(), app.extensions["cribbage.webhook_worker"]
    with Receiver(tls=tls) as receiver:
        ana, _ = two_humans(client)
        for host in ("localhost", "127.0.0.1"):
            assert register(ana, receiver.url(host=host), secret=SECRET).status_code == 201
        ana.act({"type": "cut_for_deal", "depth": 10})  # a new turn for both
        while worker.run_once():
            pass
        port = receiver.server.server_address[1]
        assert sorted(received.headers["host"] for received in receiver.received) == [
            f"127.0.0.1:{port}", f"localhost:{port}", f"localhost:{port}"]
        assert all(verified(received, SECRET.encode()) for received in receiver.received)


def test_https_without_the_test_ca_is_not_trusted(client, deliver, tmp_path):
    _, tls = make_test_ca(tmp_path)
    with Receiver(tls=tls) as receiver:
        ana, _ = two_humans(client)
        webhook_id = register(ana, receiver.url(), secret=SECRET).get_json()["webhook_id"]
        deliver()
        assert receiver.received == []
        [log] = deliveries(ana, webhook_id)
        assert (log["outcome"], log["status"]) == ("retrying", None)
        assert "CERTIFICATE_VERIFY_FAILED" in log["error"]


def test_each_seat_lists_and_deletes_only_its_own_webhooks(client, receiver):
    ana, bea = two_humans(client)
    own = register(ana, receiver.url(), secret=SECRET).get_json()["webhook_id"]
    other = register(bea, receiver.url("/bea"), secret=SECRET).get_json()["webhook_id"]
    listed = client.get(f"/v1/games/{bea.game_id}/webhooks", headers=bea.headers()).get_json()
    assert [webhook["webhook_id"] for webhook in listed["webhooks"]] == [other]
    path = f"/v1/games/{ana.game_id}/webhooks"
    refused = client.delete(f"{path}/{other}", headers=ana.headers())
    assert (refused.status_code, refused.get_json()["code"]) == (404, "webhook_not_found")
    assert client.get(f"{path}/{other}/deliveries",
                      headers=ana.headers()).status_code == 404
    deleted = client.delete(f"{path}/{own}", headers=ana.headers())
    assert (deleted.status_code, deleted.get_json()) == (200, {"webhooks": []})
    assert client.delete(f"{path}/{own}", headers=ana.headers()).status_code == 404
    assert client.get(path, headers=ana.headers()).get_json() == {"webhooks": []}
    assert client.get(path).status_code == 401
    assert client.get(path, headers={"Authorization": "Bearer nobody-at-all"}).status_code == 403


def test_a_game_holds_a_bounded_number_of_webhooks(client, receiver):
    ana, _ = two_humans(client)
    for _ in range(MAX_PER_GAME):
        assert register(ana, receiver.url(), secret=SECRET).status_code == 201
    refused = register(ana, receiver.url(), secret=SECRET)
    assert (refused.status_code, refused.get_json()["code"]) == (409, "too_many_webhooks")


def test_a_game_without_webhooks_queues_nothing(client, store):
    ana, bea = two_humans(client)
    ana.act({"type": "cut_for_deal", "depth": 10})
    bea.act({"type": "cut_for_deal", "depth": 20})
    assert store.queue_depth() == 0


def test_turns_are_told_only_when_the_seats_to_act_change(client, receiver, deliver):
    ana, bea = two_humans(client)
    register(ana, receiver.url(), secret=SECRET, events=["turn"])
    ana.act({"type": "cut_for_deal", "depth": 10})
    bea.act({"type": "cut_for_deal", "depth": 20})
    deliver()
    turns = [(r.payload["data"]["seats"], r.payload["data"]["phase"]) for r in receiver.received]
    view = ana.read()["view"]
    assert turns[:2] == [([0, 1], "cut_for_deal"), ([1], "cut_for_deal")]
    assert turns[-1] == (view["to_act"], view["phase"])
    assert all(told != next_told for told, next_told in zip(turns, turns[1:]))


def test_a_player_webhook_hears_of_the_players_games(client, receiver, deliver):
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                          headers=auth).get_json()
    registered = client.post("/v1/players/me/webhooks", json={
        "url": receiver.url("/player"), "secret": SECRET}, headers=auth)
    assert registered.status_code == 201, registered.get_json()
    webhook = registered.get_json()
    assert (webhook["seat"], webhook["events"]) == (None, ["turn", "game_over", "presence",
                                                          "turn_alarm", "rematch_offered"])
    ana = Player(client, created["game_id"], player["token"], 0)
    ana.act({"type": "cut_for_deal", "depth": 10})
    later = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                        headers=auth).get_json()
    Player.joining(client, later["game_id"], later["invites"][0]["code"])
    deliver()
    told = [(r.path, r.payload["data"]["game_id"], r.payload["data"]["seats"])
            for r in receiver.received]
    assert told == [("/player", created["game_id"], [0, 1]),  # the turn when it registered
                    ("/player", created["game_id"], [1]),
                    ("/player", later["game_id"], [0, 1])]   # a game created after it
    assert all(verified(received, SECRET.encode()) for received in receiver.received)
    path = f"/v1/players/me/webhooks/{webhook['webhook_id']}"
    logged = client.get(f"{path}/deliveries", headers=auth).get_json()["deliveries"]
    assert sorted(log["delivery_id"] for log in logged) == sorted(
        r.delivery_id for r in receiver.received)
    assert client.get("/v1/players/me/webhooks", headers=auth).get_json() == {
        "webhooks": [{key: value for key, value in webhook.items() if key != "secret"}]}
    assert client.delete(path, headers=auth).get_json() == {"webhooks": []}
    assert client.get("/v1/players/me/webhooks", headers=auth).get_json() == {"webhooks": []}


def test_a_player_webhook_hears_the_first_turn_of_a_game_the_player_creates(
        client, receiver, deliver):
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    client.post("/v1/players/me/webhooks", json={"url": receiver.url("/player"),
                                                 "secret": SECRET, "events": ["turn"]},
                headers=auth)
    created = client.post("/v1/games", json={
        "seats": [HUMAN, {"kind": "computer", "level": "first"}],
        "options": {"turn_time_limit": 60}}, headers=auth).get_json()
    deliver()
    [told] = receiver.received
    assert told.payload["data"] == {
        "game_id": created["game_id"], "seats": [0], "phase": "cut_for_deal", "version": 1,
        "deadline": server_time(START + 60)}
    assert verified(told, SECRET.encode())


def test_a_player_webhook_registered_meanwhile_is_not_lost(app, client, receiver):
    """Two registrations that read the player at the same time both stand: the second write
    reads the first one's again instead of writing over it."""
    token = client.post("/v1/players", json={"name": "Ana"}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    read_before = app.extensions["cribbage.players"].identify(token)
    first = client.post("/v1/players/me/webhooks", json={"url": receiver.url("/first")},
                        headers=auth).get_json()
    second = app.extensions["cribbage.webhooks"].add_to_player(
        read_before, WebhookRequest(receiver.url("/second"), None, ("turn",)))
    listed = client.get("/v1/players/me/webhooks", headers=auth).get_json()["webhooks"]
    assert [webhook["webhook_id"] for webhook in listed] == [first["webhook_id"],
                                                             second.webhook.webhook_id]
    app.extensions["cribbage.webhooks"].remove_from_player(read_before, first["webhook_id"])
    listed = client.get("/v1/players/me/webhooks", headers=auth).get_json()["webhooks"]
    assert [webhook["webhook_id"] for webhook in listed] == [second.webhook.webhook_id]


def test_a_player_webhook_hears_of_a_game_the_player_joins(client, receiver, deliver):
    player = client.post("/v1/players", json={"name": "Bea"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    client.post("/v1/players/me/webhooks", json={"url": receiver.url("/player"),
                                                 "secret": SECRET, "events": ["turn"]},
                headers=auth)
    created = create(client, [HUMAN, HUMAN])  # by someone with no player
    ana = Player.creator(client, created)
    joined = client.post(f"/v1/games/{ana.game_id}/join",
                         json={"code": created["invites"][0]["code"]}, headers=auth)
    assert joined.status_code == 200, joined.get_json()
    ana.act({"type": "cut_for_deal", "depth": 10})
    deliver()
    told = [(r.path, r.payload["data"]["game_id"], r.payload["data"]["seats"])
            for r in receiver.received]
    assert told == [("/player", ana.game_id, [0, 1]),  # the turn when it joined
                    ("/player", ana.game_id, [1])]
    assert all(verified(received, SECRET.encode()) for received in receiver.received)


def test_a_player_webhook_hears_the_first_turn_of_a_rematch(client, receiver, deliver):
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                          headers=auth).get_json()
    ana = Player(client, created["game_id"], player["token"], 0)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    client.post("/v1/players/me/webhooks", json={"url": receiver.url("/player"),
                                                 "secret": SECRET, "events": ["turn"]},
                headers=auth)
    bea.act({"type": "resign"})
    assert client.post(f"/v1/games/{ana.game_id}/rematch", headers=auth).status_code == 202
    started = client.post(f"/v1/games/{ana.game_id}/rematch", headers=bea.headers())
    assert started.status_code == 201, started.get_json()
    new_game = started.get_json()["rematch"]["game_id"]
    deliver()
    told = [(r.payload["data"]["game_id"], r.payload["data"]["phase"], r.payload["data"]["seats"])
            for r in receiver.received]
    assert told[-1] == (new_game, "discard", [0, 1])  # no move made in it yet


def ending_event(player: Player) -> dict:
    events = player.client.get(f"/v1/games/{player.game_id}/events?after=0").get_json()["events"]
    [ending] = [event for event in events if event["type"] == "game_over"]
    return {key: value for key, value in ending.items() if key not in ("type", "number", "time")}


def test_an_abort_is_told_once_as_a_game_over_with_its_reason(client, receiver, deliver):
    ana, bea = two_humans(client)
    register(ana, receiver.url(), secret=SECRET, events=["game_over"])
    bea.act({"type": "abort"})
    deliver()
    [told] = receiver.received
    assert verified(told, SECRET.encode())
    assert told.payload["type"] == "game_over"
    assert told.payload["data"] == {"game_id": ana.game_id, "version": ana.read()["version"],
                                    **ending_event(ana)}
    assert told.payload["data"]["reason"] == "aborted"


def test_a_resignation_is_told_to_seat_and_player_webhooks_alike(client, receiver, deliver):
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    auth = {"Authorization": f"Bearer {player['token']}"}
    created = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "options": {}},
                          headers=auth).get_json()
    ana = Player(client, created["game_id"], player["token"], 0)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    client.post("/v1/players/me/webhooks", json={"url": receiver.url("/player"),
                                                 "secret": SECRET, "events": ["game_over"]},
                headers=auth)
    register(bea, receiver.url("/bea"), secret=SECRET, events=["game_over"])
    ana.act({"type": "cut_for_deal", "depth": 10})
    bea.act({"type": "resign"})
    deliver()
    told = sorted((r.path, r.payload["type"], r.payload["data"]["reason"],
                   r.payload["data"]["winner"]) for r in receiver.received)
    ending = ending_event(ana)
    assert told == [("/bea", "game_over", "resigned", ending["winner"]),
                    ("/player", "game_over", "resigned", ending["winner"])]
    # The version of the write that ended the game: the next one counts its result for the
    # player (service.games.results) and tells no one
    ended_at = ana.read()["version"] - 1
    assert all(r.payload["data"] == {"game_id": ana.game_id, "version": ended_at, **ending}
               for r in receiver.received)


def test_presence_is_told_when_seats_go_and_come_back(client, clock, receiver, deliver):
    ana, bea = two_humans(client)
    register(ana, receiver.url(), secret=SECRET, events=["presence"])
    clock.advance(65)
    ana.read()  # what is due is applied: both seats are told gone
    bea.act({"type": "cut_for_deal", "depth": 20})  # bea is back
    deliver()
    told = [(r.payload["type"], r.payload["data"]["seat"], r.payload["data"]["connected"])
            for r in receiver.received]
    assert told == [("presence", 0, False), ("presence", 1, False), ("presence", 1, True)]
    assert all(verified(received, SECRET.encode()) for received in receiver.received)
    events = client.get(f"/v1/games/{ana.game_id}/events?after=0").get_json()["events"]
    presence = [{key: value for key, value in event.items() if key not in ("number", "time")}
                for event in events if event["type"] == "presence"]
    assert [{"type": "presence", **{key: value for key, value in r.payload["data"].items()
                                    if key not in ("game_id", "version")}}
            for r in receiver.received] == presence


@pytest.mark.parametrize("language, title, detail", [
    ("en", "Player busy", "Too many simultaneous changes to this player; try again"),
    ("es", "Jugador ocupado", "Demasiados cambios simultáneos en este jugador; inténtelo de "
                              "nuevo"),
])
def test_a_player_change_that_keeps_losing_to_other_writes_is_a_503_player_busy(
        client, store, monkeypatch, language, title, detail):
    """Another request saves the player's document just before each of this one's attempts,
    so every compare-and-set loses: the answer names the player, not a game."""
    player = client.post("/v1/players", json={"name": "Ana"}).get_json()
    save = store.save_player

    def another_request_saves_first(player_key: str, expected: str, data: str, ttl: int):
        assert save(player_key, expected, expected.replace('"Ana', '"Ana.'), ttl)
        return save(player_key, expected, data, ttl)

    monkeypatch.setattr(store, "save_player", another_request_saves_first)
    response = client.post("/v1/players/me/webhooks", json={"url": "http://127.0.0.1:9/hook"},
                           headers={"Authorization": f"Bearer {player['token']}",
                                    "Accept-Language": language})
    assert (response.status_code, response.headers["Retry-After"]) == (503, "1")
    assert response.get_json() == {"type": "urn:cribbage:problem:player_busy", "title": title,
                                   "status": 503, "detail": detail, "code": "player_busy"}


def test_a_player_webhook_hears_of_the_game_its_seek_is_paired_into(client, receiver, deliver):
    """Told when paired: the paired game's first turn goes to each seeker's webhooks."""
    players = [client.post("/v1/players", json={"name": name}).get_json()
               for name in ("Ana", "Bea")]
    auth = [{"Authorization": f"Bearer {player['token']}"} for player in players]
    client.post("/v1/players/me/webhooks", json={"url": receiver.url("/ana"),
                                                 "secret": SECRET, "events": ["turn"]},
                headers=auth[0])
    seek = {"players": 2, "options": {"target": 91}}
    client.post("/v1/seeks", json=seek, headers=auth[0])
    paired = client.post("/v1/seeks", json=seek, headers=auth[1]).get_json()
    deliver()
    [told] = receiver.received
    assert (told.path, told.payload["data"]) == ("/ana", {
        "game_id": paired["game_id"], "seats": [0, 1], "phase": "cut_for_deal", "version": 1,
        "deadline": None})
