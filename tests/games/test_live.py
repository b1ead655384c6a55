"""Live games: events replies a client can act on, seats joining as events, and the stream."""

import threading

from tests.games.helpers import COMPUTER, HUMAN, Player, Stream, create, first_legal


def two_humans(client) -> tuple[Player, Player]:
    created = create(client, [{"kind": "human", "name": "Ana"}, HUMAN])
    ana = Player.creator(client, created)
    return ana, Player.joining(client, ana.game_id, created["invites"][0]["code"])


def stream(player: Player, **headers):
    response = player.client.get(f"/v1/games/{player.game_id}/stream",
                                 headers=player.headers(**headers), buffered=False)
    assert response.status_code == 200, response.get_data()
    assert response.headers["Content-Type"] == "text/event-stream"
    return Stream(response)


def test_an_events_reply_ends_with_what_the_seat_needs_to_act(client):
    ana, bea = two_humans(client)
    game = ana.read()
    reply = ana.events(after=0).get_json()
    assert reply["last_event"] == game["last_event"]
    assert reply["state"] == {
        "version": game["version"], "etag": f'"{game["version"]}-0"', "phase": "cut_for_deal",
        "to_act": [0, 1], "legal_actions": game["view"]["legal_actions"], "deadline": None,
        "deadline_ms_left": None,
        "turn_deadline": None, "turn_ms_left": None}
    # The etag acts as If-Match: one turn is one action plus one wait.
    ana.act({"type": "cut_for_deal", "depth": 10}, If_Match=reply["state"]["etag"])
    later = bea.events(after=reply["last_event"]).get_json()
    assert [event["type"] for event in later["events"]] == ["dealer_cut"]
    assert later["state"]["to_act"] == [1] and later["state"]["version"] == game["version"] + 1


def test_taking_a_seat_is_an_event_with_the_players_name(client):
    created = create(client, [HUMAN, HUMAN])
    ana = Player.creator(client, created)
    before = ana.events().get_json()["last_event"]
    joined = client.post(f"/v1/games/{ana.game_id}/join",
                         json={"code": created["invites"][0]["code"], "name": "Bea"})
    assert joined.status_code == 200
    events = ana.events(after=before).get_json()["events"]
    assert events == [{"number": before + 1, "time": "2027-01-15T08:00:00.000Z",
                       "type": "seat_joined", "seat": 1, "name": "Bea"}]


def test_a_long_poll_is_woken_by_another_seats_action(client):
    ana, bea = two_humans(client)
    after = ana.read()["last_event"]
    replies = []
    waiter = threading.Thread(target=lambda: replies.append(bea.events(after=after, wait=20)))
    waiter.start()
    ana.act({"type": "cut_for_deal", "depth": 10})
    waiter.join(10)
    assert not waiter.is_alive()
    body = replies[0].get_json()
    assert [(e["type"], e["seat"]) for e in body["events"]] == [("dealer_cut", 0)]
    assert body["state"]["to_act"] == [1]


def test_a_stream_sends_a_snapshot_then_the_events_as_they_happen(client):
    ana, bea = two_humans(client)
    follow = stream(bea)
    snapshot = follow.next_message()
    assert snapshot["event"] == "snapshot" and snapshot["retry"] == "3000"
    assert snapshot["data"] == bea.read()
    ana.act({"type": "cut_for_deal", "depth": 10})
    event = follow.next_message()
    number = snapshot["data"]["last_event"] + 1
    assert (event["id"], event["data"]["number"], event["data"]["type"]) == (
        str(number), number, "dealer_cut")
    assert "event" not in event  # unnamed: EventSource's onmessage
    state = follow.next_message()
    assert state["event"] == "state" and state["data"]["to_act"] == [1]
    follow.close()


def test_a_stream_resumes_exactly_after_the_last_event_id(client):
    ana, bea = two_humans(client)
    first = stream(bea)
    first.next_message()
    ana.act({"type": "cut_for_deal", "depth": 10})
    seen = first.next_message()
    first.close()  # the connection drops; meanwhile the game goes on
    bea.act({"type": "cut_for_deal", "depth": 20})
    missed = bea.events(after=int(seen["id"])).get_json()["events"]
    again = stream(bea, Last_Event_ID=seen["id"])
    assert again.next_message()["event"] == "snapshot"
    resumed = [again.next_message() for _ in missed]
    assert [message["data"] for message in resumed] == missed
    assert [message["id"] for message in resumed] == [str(e["number"]) for e in missed]
    assert again.next_message()["event"] == "state"
    again.close()


def test_a_stream_ticket_opens_the_seats_stream_once(client):
    ana, _ = two_humans(client)
    issued = client.post(f"/v1/games/{ana.game_id}/stream-tickets", headers=ana.headers())
    assert issued.status_code == 201
    ticket = issued.get_json()["ticket"]
    assert issued.get_json()["expires_in"] == 60 and ticket != ana.token
    url = f"/v1/games/{ana.game_id}/stream?ticket={ticket}"
    opened = client.get(url, buffered=False)
    assert opened.status_code == 200
    snapshot = Stream(opened).next_message()
    assert snapshot["data"]["seat"] == 0 and snapshot["data"]["view"]["hand"] == []
    opened.close()
    reused = client.get(url, headers={"Accept-Language": "es"})
    assert reused.status_code == 403
    assert reused.get_json()["code"] == "invalid_ticket"
    assert reused.get_json()["detail"] == ("El pase de stream no existe, ya se usó o caducó; "
                                           "pida uno nuevo")


def test_a_stream_ticket_needs_the_seat_token(client):
    ana, _ = two_humans(client)
    refused = client.post(f"/v1/games/{ana.game_id}/stream-tickets")
    assert (refused.status_code, refused.get_json()["code"]) == (401, "missing_token")


def test_a_finished_game_streams_its_last_events_then_ends(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 31}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]))
    last = game["last_event"]
    tail = player.events(after=last - 3).get_json()["events"]
    follow = stream(player, Last_Event_ID=str(last - 3))
    assert follow.next_message()["event"] == "snapshot"
    assert [follow.next_message()["data"] for _ in tail] == tail
    assert [event["type"] for event in tail] == ["hand_revealed", "game_seed_revealed",
                                                 "game_over"]
    assert follow.next_message()["event"] == "state"
    assert follow.next_message() == {"event": "end", "id": str(last),
                                     "data": {"last_event": last}}
    follow.close()
    # Reconnecting with every event already seen: 204, which stops an EventSource.
    done = client.get(f"/v1/games/{player.game_id}/stream", headers={
        **player.headers(), "Last-Event-ID": str(game["last_event"])})
    assert done.status_code == 204


def test_a_stream_opened_on_a_finished_game_ends_with_the_last_event_id(client):
    """No `after`: the snapshot, the seat's state and `end` carrying the last event's id, which
    an EventSource sends back when it reconnects and then gets 204 (without it, it would
    reconnect for the snapshot again every 3 s)."""
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 31}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]))
    last = game["last_event"]
    follow = stream(player)
    snapshot = follow.next_message()
    assert (snapshot["event"], snapshot["data"]["last_event"]) == ("snapshot", last)
    state = follow.next_message()
    assert (state["event"], state["data"]["phase"], state["data"]["to_act"]) == (
        "state", "game_over", [])
    assert follow.next_message() == {"event": "end", "id": str(last),
                                     "data": {"last_event": last}}
    assert next(follow._chunks, None) is None  # the server closed the stream
    again = client.get(f"/v1/games/{player.game_id}/stream",
                       headers={**player.headers(), "Last-Event-ID": str(last)})
    assert again.status_code == 204


def test_a_malformed_last_event_id_is_refused(client):
    ana, _ = two_humans(client)
    refused = client.get(f"/v1/games/{ana.game_id}/stream",
                         headers={**ana.headers(), "Last-Event-ID": "seven"})
    assert refused.status_code == 422
    assert (refused.get_json()["code"], refused.get_json()["field"]) == (
        "invalid_last_event_id", "Last-Event-ID")


def test_renaming_a_seat_is_an_event_every_seat_sees(client):
    ana, bea = two_humans(client)
    before = bea.read()["last_event"]
    renamed = client.patch(f"/v1/games/{ana.game_id}/seats/1", json={"name": "Beatriz"},
                           headers=bea.headers())
    assert renamed.status_code == 200
    assert renamed.get_json()["seats"][1]["name"] == "Beatriz"
    assert ana.read()["seats"][1]["name"] == "Beatriz"
    assert ana.events(after=before).get_json()["events"] == [
        {"number": before + 1, "time": "2027-01-15T08:00:00.000Z", "type": "seat_renamed",
         "seat": 1, "name": "Beatriz"}]


def test_only_a_seats_own_token_renames_it(client):
    ana, bea = two_humans(client)
    url = f"/v1/games/{ana.game_id}/seats/0"
    refused = client.patch(url, json={"name": "Mallory"}, headers=bea.headers())
    assert (refused.status_code, refused.get_json()["code"]) == (403, "not_your_seat")
    anonymous = client.patch(url, json={"name": "Mallory"})
    assert (anonymous.status_code, anonymous.get_json()["code"]) == (401, "missing_token")
    too_long = client.patch(url, json={"name": "x" * 41}, headers=ana.headers())
    assert (too_long.status_code, too_long.get_json()["errors"]) == (
        422, {"name": ["Length must be between 1 and 40."]})
    assert ana.read()["seats"][0]["name"] == "Ana"
