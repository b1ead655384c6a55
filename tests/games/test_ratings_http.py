"""Rated games: between players only, the change told right after game_over and counted once
in each player's profile, with the statistics of every finished game; on each store."""

from __future__ import annotations

from dataclasses import replace

from service.games import GameTable
from service.games.players import player_document, player_from
from service.games.record import GameRecord
from service.games.sweeper import Sweeper
from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import START, make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, first_legal
from tests.games.test_players import bearer, new_player

ANA_WINS = {"format": "2", "rating": 1069, "change": 69, "provisional": True, "games": 1}
BEA_LOSES = {"format": "2", "rating": 963, "change": -37, "provisional": True, "games": 1}


def rated_game(client, ana: dict, bea: dict, seats=2) -> tuple[Player, Player]:
    created = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [HUMAN] * seats, "rated": True}).get_json()
    joined = client.post(f"/v1/games/{created['game_id']}/join", headers=bearer(bea["token"]),
                         json={"code": created["invites"][0]["code"]})
    assert joined.status_code == 200, joined.get_json()
    return (Player(client, created["game_id"], ana["token"], 0),
            Player(client, created["game_id"], bea["token"], 1))


def profile(client, token: str) -> dict:
    response = client.get("/v1/players/me", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_resigned_rated_game_moves_both_ratings_once(store):
    client = make_app(store).test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    ana_seat, bea_seat = rated_game(client, ana, bea)
    bea_seat.act({"type": "resign"})
    events = ana_seat.events().get_json()["events"]
    assert [event["type"] for event in events[-2:]] == ["game_over", "rated"]
    assert {key: value for key, value in events[-1].items() if key != "time"} == {
        "type": "rated", "number": len(events), "format": "2", "seats": [
            {"seat": 0, "player_id": ana["player_id"], "rating": 1069, "change": 69,
             "provisional": True},
            {"seat": 1, "player_id": bea["player_id"], "rating": 963, "change": -37,
             "provisional": True}]}
    seen = profile(client, ana["token"])
    assert seen["ratings"] == [ANA_WINS]
    # A resignation at 0 to 0: the loser is skunked
    assert seen["stats"] == [{"format": "2", "games": 1, "wins": 1, "skunks_given": 1,
                              "skunks_taken": 0, "deals": 0,
                              "average": {"hand": 0.0, "crib": 0.0, "pegging": 0.0}}]
    assert profile(client, bea["token"])["ratings"] == [BEA_LOSES]
    # Reading the game again, or a later save of it, counts nothing twice
    ana_seat.read()
    client.patch(f"/v1/games/{ana_seat.game_id}/seats/0", json={"name": "Ana B"},
                 headers=bearer(ana["token"]))
    assert profile(client, ana["token"])["ratings"] == [ANA_WINS]


def test_a_result_whose_counting_was_cut_off_is_finished_once_it_is_due(store, clock):
    app = make_app(store, clock)
    client = app.test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    ana_seat, bea_seat = rated_game(client, ana, bea)
    bea_seat.act({"type": "resign"})
    # As if the process died after the save that ended the game: the result saved, counted
    # for Ana only, its record not marked settled
    stored = store.load(ana_seat.game_id)
    record = GameRecord.from_json(stored.data)
    assert record.result is not None and record.result.settled
    unsettled = replace(record, result=replace(record.result, settled=False))
    bea_key = record.seats[1].player_hash
    bea_stored = store.load_player(bea_key, 3600)
    blank = replace(player_from(bea_key, bea_stored), ratings=(), stats=(), changes=(),
                    settled=())
    assert store.save_player(bea_key, bea_stored.data, player_document(blank), 3600)
    store.save(ana_seat.game_id, stored.version, unsettled.to_json(), [], finished=True,
               reschedule=True, due=unsettled.next_due)
    assert unsettled.next_due == START + 10.0
    assert profile(client, bea["token"])["ratings"] == []
    clock.advance(11)
    due = dict(store.claim_due(clock(), 1000, 30.0))   # the sweeper's round, for this game
    assert ana_seat.game_id in due
    Sweeper(GameTable(store, clock), period=0).sweep_game(ana_seat.game_id,
                                                          due[ana_seat.game_id])
    assert profile(client, ana["token"])["ratings"] == [ANA_WINS]
    assert profile(client, bea["token"])["ratings"] == [BEA_LOSES]
    assert GameRecord.from_json(store.load(ana_seat.game_id).data).result.settled


def test_a_rated_game_is_played_between_players_only(client):
    ana = new_player(client)
    refused = client.post("/v1/games", json={"seats": [HUMAN, HUMAN], "rated": True})
    assert (refused.status_code, refused.get_json()["code"]) == (422, "rated_needs_players")
    with_computer = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [HUMAN, COMPUTER], "rated": True})
    assert (with_computer.status_code, with_computer.get_json()["code"]) == (
        422, "rated_needs_players")
    created = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [HUMAN, HUMAN], "rated": True}).get_json()
    anonymous = client.post(f"/v1/games/{created['game_id']}/join",
                            json={"code": created["invites"][0]["code"]})
    assert (anonymous.status_code, anonymous.get_json()["code"]) == (401, "missing_token")
    twice = client.post(f"/v1/games/{created['game_id']}/join", headers=bearer(ana["token"]),
                        json={"code": created["invites"][0]["code"]})
    assert (twice.status_code, twice.get_json()["code"]) == (409, "player_already_seated")


def test_a_casual_game_played_out_counts_stats_and_moves_no_rating(client):
    ana, bea = new_player(client), new_player(client, "Bea")
    created = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [HUMAN, HUMAN], "options": {"target": 61}}).get_json()
    seats = [Player(client, created["game_id"], ana["token"], 0),
             Player.joining(client, created["game_id"], created["invites"][0]["code"])]
    view = seats[0].read()
    while view["view"]["phase"] != "game_over":
        seat = seats[view["view"]["to_act"][0]]
        view = seat.act(first_legal(seat.read()["view"]))
    seen = profile(client, ana["token"])
    assert seen["ratings"] == []
    [stats] = seen["stats"]
    deals = seats[0].read()["view"]["hand_number"]
    assert (stats["format"], stats["games"], stats["deals"]) == ("2", 1, deals)
    assert profile(client, bea["token"])["stats"] == []   # Bea joined without a player


def test_a_game_made_of_linked_seats_is_rated_and_each_seat_has_its_token(app, client):
    ana, bea = new_player(client), new_player(client, "Bea")
    games = app.extensions["cribbage.games"]
    players = app.extensions["cribbage.players"]
    game_id, seat_tokens = games.create_linked(
        [players.identify(ana["token"]), players.identify(bea["token"])], {}, rated=True)
    by_seat = Player(client, game_id, seat_tokens[1], 1)
    assert by_seat.read()["seat"] == 1
    assert Player(client, game_id, bea["token"], None).read()["seat"] == 1
    by_seat.act({"type": "resign"})
    assert profile(client, ana["token"])["ratings"] == [ANA_WINS]
    assert profile(client, bea["token"])["ratings"] == [BEA_LOSES]
