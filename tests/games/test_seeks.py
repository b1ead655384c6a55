"""Seeks over HTTP on every store: pairing, what each caller sees, cancel, long poll, expiry,
computers filling, the widening range, and a pairing left under way by a dead process."""
from __future__ import annotations

import itertools
import json
import random
import threading

import pytest

from service.games.event_log import server_time
from service.games.seeks import CLOSED_KEPT_SECONDS, SEEK_TTL_SECONDS, pool_of
from service.store import GameNotFound
from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import make_app

# Each test seeks games of a target of its own: the session's Redis keeps other tests' pools.
_targets = itertools.count(random.Random().randrange(31, 500))


@pytest.fixture
def target():
    return next(_targets)


@pytest.fixture
def app(store, clock):  # noqa: F811
    return make_app(store, clock)


@pytest.fixture
def seeks(app):
    return app.extensions["cribbage.seeks"]


def new_player(client, name):
    body = client.post("/v1/players", json={"name": name}).json
    return {"token": body["token"], "player_id": body["player_id"], "name": name,
            "auth": {"Authorization": "Bearer " + body["token"]}}


def seek(client, player, target, clock, **fields):
    """A seek made a second after the last: the longest waiting is seated first."""
    clock.advance(1)
    return client.post("/v1/seeks", json={"players": 2, "options": {"target": target},
                                          **fields}, headers=player["auth"])


def public(player, target, seek_id, made, status="open", **fields):
    return {
        "seek_id": seek_id, "status": status, "player_id": player["player_id"],
        "name": player["name"] if status == "open" else None, "players": 2, "teams": None,
        "options": {"target": target, "counting": "auto", "muggins": "off",
                    "count_time_limit": None, "skunk": "standard", "exact_finish": False,
                    "match": False, "turn_time_limit": None, "on_timeout": "computer",
                    "timeout_level": "hard"},
        "rated": False, "rating": 1000, "rating_range": None, "computers": None,
        "created_at": server_time(made), "expires_at": server_time(made + SEEK_TTL_SECONDS),
        **fields}


def test_two_seekers_of_one_game_are_paired_into_one_game_of_their_players(client, target, clock):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock)
    made = clock.now
    assert first.status_code == 201
    assert first.json == public(ana, target, first.json["seek_id"], made)
    assert first.headers["Location"] == "/v1/seeks/" + first.json["seek_id"]
    second = seek(client, bea, target, clock)
    game_id = second.json["game_id"]
    assert second.json == public(bea, target, second.json["seek_id"], made + 1, "paired",
                                 game_id=game_id, seat=1, token=bea["token"])
    mine = client.get("/v1/seeks/" + first.json["seek_id"], headers=ana["auth"])
    assert mine.json == public(ana, target, first.json["seek_id"], made, "paired",
                               game_id=game_id, seat=0, token=ana["token"])
    game = client.get(f"/v1/games/{game_id}", headers=bea["auth"]).json
    assert (game["seat"], game["view"]["phase"], game["rated"]) == (1, "cut_for_deal", False)
    assert [s["name"] for s in game["seats"]] == ["Ana", "Bea"]
    lobby = client.get("/v1/players/me/games", headers=ana["auth"]).json
    assert [(line["game_id"], line["seat"]) for line in lobby["games"]] == [(game_id, 0)]
    cut = client.post(f"/v1/games/{game_id}/actions", json={"type": "cut_for_deal"},
                      headers=ana["auth"])
    assert cut.status_code == 200


def test_others_see_only_a_seeks_public_fields_and_the_list_only_open_seeks(client, target, clock):
    ana, bea, cal = (new_player(client, name) for name in ("Ana", "Bea", "Cal"))
    first = seek(client, ana, target, clock).json
    made = clock.now
    listed = client.get("/v1/seeks").json["seeks"]
    assert public(ana, target, first["seek_id"], made) in listed
    seek(client, bea, target, clock)
    for headers in ({}, cal["auth"], bea["auth"]):
        seen = client.get("/v1/seeks/" + first["seek_id"], headers=headers)
        assert seen.status_code == 200
        assert seen.json == public(ana, target, first["seek_id"], made, "paired")
    assert first["seek_id"] not in [s["seek_id"] for s in client.get("/v1/seeks").json["seeks"]]


def test_a_player_is_never_paired_with_themself(client, target, clock):
    ana = new_player(client, "Ana")
    one, two = seek(client, ana, target, clock).json, seek(client, ana, target, clock).json
    assert (one["status"], two["status"]) == ("open", "open")


def test_a_cancelled_seek_is_never_paired_and_only_its_owner_cancels(client, target, clock):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock).json
    made = clock.now
    refused = client.delete("/v1/seeks/" + first["seek_id"], headers=bea["auth"])
    assert (refused.status_code, refused.json["code"]) == (403, "not_your_seek")
    cancelled = client.delete("/v1/seeks/" + first["seek_id"], headers=ana["auth"])
    assert cancelled.json == public(ana, target, first["seek_id"], made, "cancelled")
    assert seek(client, bea, target, clock).json["status"] == "open"


def test_an_unknown_seek_is_404_and_a_seek_needs_a_player(client, target):
    missing = client.get("/v1/seeks/0123456789abXXXXXXXXXXXXXXXX")
    assert (missing.status_code, missing.json["code"]) == (404, "seek_not_found")
    assert client.get("/v1/seeks/nonsense").status_code == 404
    anonymous = client.post("/v1/seeks", json={"players": 2})
    assert (anonymous.status_code, anonymous.json["code"]) == (401, "missing_token")
    ana = new_player(client, "Ana")
    wrong = client.post("/v1/seeks", json={"players": 3, "teams": "2x2"}, headers=ana["auth"])
    assert (wrong.status_code, wrong.json["code"], wrong.json["field"]) == (
        422, "invalid_options", "teams")
    coach = client.post("/v1/seeks", json={"players": 2, "options": {"hints": True}},
                        headers=ana["auth"])
    assert coach.status_code == 422


def test_a_long_poll_on_a_seek_answers_once_it_is_paired(app, client, target, clock):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock).json
    made = clock.now
    answers = []
    waiting = threading.Thread(target=lambda: answers.append(app.test_client().get(
        f"/v1/seeks/{first['seek_id']}?wait=10", headers=ana["auth"]).json))
    waiting.start()
    threading.Event().wait(0.3)
    paired = seek(client, bea, target, clock).json
    waiting.join(12)
    assert answers == [public(ana, target, first["seek_id"], made, "paired",
                              game_id=paired["game_id"], seat=0, token=ana["token"])]


def test_computers_fill_the_empty_seats_after_the_wait_and_the_game_is_not_rated(
        app, client, clock, seeks, target):
    ana = new_player(client, "Ana")
    first = client.post("/v1/seeks", json={"players": 3, "options": {"target": target},
                                           "rated": True,
                                           "computers": {"level": "first", "after": 30}},
                        headers=ana["auth"]).json
    seeks.sweep()
    assert client.get("/v1/seeks/" + first["seek_id"]).json["status"] == "open"
    clock.advance(31)
    seeks.sweep()
    paired = client.get("/v1/seeks/" + first["seek_id"], headers=ana["auth"]).json
    game = client.get(f"/v1/games/{paired['game_id']}", headers=ana["auth"]).json
    assert [(s["kind"], s["name"]) for s in game["seats"]] == [
        ("human", "Ana"), ("computer", "Computer 2"), ("computer", "Computer 3")]
    assert json.loads(seeks.table.store.load(paired["game_id"]).data).get("rated") is None


def test_a_rated_pairing_makes_a_rated_game_its_view_and_the_listing_say_so(
        client, seeks, target, clock):
    clock.advance(-10**7 - random.Random().randrange(10**6))  # older than the session's games
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    seek(client, ana, target, clock, rated=True)
    paired = seek(client, bea, target, clock, rated=True).json
    assert json.loads(seeks.table.store.load(paired["game_id"]).data)["rated"] is True
    assert client.get(f"/v1/games/{paired['game_id']}", headers=bea["auth"]).json["rated"] is True
    assert client.get(f"/v1/games/{paired['game_id']}").json["rated"] is True
    listed = client.get(f"/v1/games?status=live&limit=1&cursor={clock.now + 1!r}:~").json
    assert [(game["game_id"], game["rated"]) for game in listed["games"]] == [
        (paired["game_id"], True)]
    casual = seek(client, ana, target, clock).json   # rated and casual seeks are not paired
    assert seek(client, bea, target, clock, rated=True).json["status"] == "open"
    assert casual["status"] == "open"


def test_the_rating_range_widens_with_the_wait(client, clock, seeks, target):
    ratings = {"Ana": 1500, "Bea": 1700}
    seeks.rating = lambda player, fmt: ratings[player.name]
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock, rating_range=100).json
    assert seek(client, bea, target, clock, rating_range=100).json["status"] == "open"
    clock.advance(119)   # each range: 100 + 50 a minute; 198 < 200
    seeks.sweep()
    assert client.get("/v1/seeks/" + first["seek_id"]).json["status"] == "open"
    clock.advance(1)
    seeks.sweep()
    assert client.get("/v1/seeks/" + first["seek_id"]).json["status"] == "paired"


def test_an_open_seek_expires_after_its_ttl(client, clock, seeks, target):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock).json
    clock.advance(SEEK_TTL_SECONDS)
    seeks.sweep()
    assert client.get("/v1/seeks/" + first["seek_id"]).json["status"] == "expired"
    assert seek(client, bea, target, clock).json["status"] == "open"
    assert CLOSED_KEPT_SECONDS == 86400


def test_a_pairing_left_under_way_by_a_dead_process_gets_its_game(client, seeks, target, clock):
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock).json
    pool = pool_of(first["seek_id"])
    dead = type(seeks)(seeks.table, seeks.players)
    dead._start = lambda pool, pairing: None      # dies after closing the seeks
    clock.advance(1)
    second = dead.create(dead.players.identify(bea["token"]),
                         _request(seeks, target))
    assert second.status == "paired"
    assert seeks.table.store.pairings(pool) != {}
    with pytest.raises(GameNotFound):
        seeks.table.store.load(second.game_id)
    seeks.pair(pool)
    assert seeks.table.store.pairings(pool) == {}
    game = client.get(f"/v1/games/{second.game_id}", headers=bea["auth"]).json
    assert game["seat"] == 1


def _request(seeks, target):
    from service.games.seeks import SeekRequest, seek_options
    return SeekRequest(seek_options({"target": target}, 2, None))


def test_an_open_seek_and_its_paired_game_count_among_the_players_live_games(
        store, clock, target):  # noqa: F811
    client = make_app(store, clock, max_live_games_per_player=1).test_client()
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    assert seek(client, ana, target, clock).json["status"] == "open"
    refused = seek(client, ana, target + 1, clock)
    assert (refused.status_code, refused.json["code"], refused.json["detail"]) == (
        409, "too_many_live_games", "This client has 1 games in play or seeks open already; "
        "finish or cancel one, or wait for an abandoned game to expire, before starting another")
    created = client.post("/v1/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]},
                          headers=ana["auth"])
    assert (created.status_code, created.json["code"]) == (409, "too_many_live_games")
    game_id = seek(client, bea, target, clock).json["game_id"]
    for player in (ana, bea):    # the game took the seeks' places over
        assert seek(client, player, target + 1, clock).status_code == 409
    resigned = client.post(f"/v1/games/{game_id}/actions", json={"type": "resign"},
                           headers=ana["auth"])
    assert resigned.json["view"]["phase"] == "game_over"
    for player in (ana, bea):    # over: it counts no more
        assert seek(client, player, target + 1, clock).json["status"] in ("open", "paired")


def test_a_cancelled_or_expired_seek_gives_its_place_back(store, clock, target):  # noqa: F811
    app = make_app(store, clock, max_live_games_per_player=1)
    client = app.test_client()
    ana = new_player(client, "Ana")
    first = seek(client, ana, target, clock).json
    client.delete("/v1/seeks/" + first["seek_id"], headers=ana["auth"])
    second = seek(client, ana, target, clock)
    assert second.status_code == 201
    clock.advance(SEEK_TTL_SECONDS)
    app.extensions["cribbage.seeks"].sweep()
    assert client.get("/v1/seeks/" + second.json["seek_id"]).json["status"] == "expired"
    assert seek(client, ana, target, clock).status_code == 201


def test_a_pairing_finished_by_another_process_counts_its_game_for_its_players(
        store, clock, target):  # noqa: F811
    app = make_app(store, clock, max_live_games_per_player=1)
    client, seeks = app.test_client(), app.extensions["cribbage.seeks"]
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    first = seek(client, ana, target, clock).json
    dead = type(seeks)(seeks.table, seeks.players)
    dead._start = lambda pool, pairing: None      # dies after closing the seeks
    clock.advance(1)
    paired = dead.create(dead.players.identify(bea["token"]), _request(seeks, target))
    seeks.pair(pool_of(first["seek_id"]))
    assert client.get(f"/v1/games/{paired.game_id}", headers=ana["auth"]).status_code == 200
    for player in (ana, bea):
        assert seek(client, player, target + 1, clock).status_code == 409
