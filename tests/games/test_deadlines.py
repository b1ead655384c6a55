"""Count time limits hold even when the late player never comes back."""

from __future__ import annotations

import random
import time

from service.games.event_log import server_time
from tests.games.conftest import make_app
from tests.games.helpers import HUMAN, Player, create, random_action

MANUAL = {"counting": "manual", "count_time_limit": 15, "target": 1000}


def seated(client) -> list[Player]:
    created = create(client, [HUMAN, HUMAN], MANUAL)
    ana = Player.creator(client, created)
    return [ana, Player.joining(client, ana.game_id, created["invites"][0]["code"])]


def play_to_the_show(players: list[Player]) -> dict:
    rng = random.Random(5)
    while True:
        game = players[0].read()
        if game["view"]["phase"] == "show":
            return game
        seat = game["view"]["to_act"][0]
        players[seat].act(random_action(players[seat].read()["view"], rng))


def test_the_view_shows_the_deadline_of_the_count(client, clock):
    game = play_to_the_show(seated(client))
    assert game["view"]["deadline"] == server_time(clock.now + 15)
    assert game["view"]["deadline_ms_left"] == 15000  # by the server's clock
    assert game["view"]["counting"] == {"seat": game["view"]["pone"], "hand": "hand"}


def test_a_read_after_the_deadline_applies_the_timeout_first(client, clock):
    players = seated(client)
    game = play_to_the_show(players)
    late = game["view"]["counting"]["seat"]
    clock.advance(15.5)
    after = players[1 - late].read()
    assert after["version"] == game["version"] + 1
    assert after["last_event"] > game["last_event"]
    assert after["view"]["counting"]["seat"] != late or after["view"]["counting"]["hand"] == "crib"
    new = players[1 - late].events(after=game["last_event"]).get_json()["events"]
    assert new[0]["type"] == "count_timeout"
    assert (new[0]["seat"], new[0]["hand"]) == (late, "hand")


def test_an_action_after_the_deadline_comes_after_the_timeout(client, clock):
    players = seated(client)
    game = play_to_the_show(players)
    late = game["view"]["counting"]["seat"]
    claim = {"type": "claim", "points": 0}
    clock.advance(16)
    refused = players[late].post(claim)
    assert (refused.status_code, refused.get_json()["code"]) == (409, "not_your_turn")
    events = players[late].events(after=game["last_event"]).get_json()["events"]
    assert [event["type"] for event in events][:1] == ["count_timeout"]


def test_an_event_request_after_the_deadline_sees_the_timeout(client, clock):
    players = seated(client)
    game = play_to_the_show(players)
    clock.advance(20)
    spectator = Player(client, players[0].game_id, None, None)
    body = spectator.events(after=game["last_event"]).get_json()
    assert body["events"][0]["type"] == "count_timeout"


def test_a_long_poll_wakes_up_at_the_deadline_and_applies_it(store):
    shift = [0.0]
    app = make_app(store, clock=lambda: time.time() + shift[0])
    client = app.test_client()
    players = seated(client)
    game = play_to_the_show(players)
    shift[0] += game["view"]["deadline_ms_left"] / 1000 - 0.3  # the deadline is 0.3 s away
    body = players[0].events(after=game["last_event"], wait=20).get_json()
    assert body["events"][0]["type"] == "count_timeout"
