"""The player's own account: read, rename, hide from leaderboards, rotate the token (the old
one stops opening the player and its seats), erase (the games stay whole); on each store."""

from __future__ import annotations

from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import make_app

from tests.games.helpers import HUMAN, Player
from tests.games.test_players import bearer, lobby, new_player
from tests.games.test_ratings_http import profile, rated_game


def test_a_new_player_reads_its_empty_profile(client):
    ana = new_player(client)
    assert profile(client, ana["token"]) == {
        "player_id": ana["player_id"], "name": "Ana", "created_at": "2027-01-15T08:00:00.000Z",
        "ratings": [], "stats": [], "listed": True}
    assert client.get("/v1/players/me").status_code == 401


def test_a_player_renames_itself_and_hides_from_leaderboards(client):
    ana = new_player(client)
    changed = client.patch("/v1/players/me", headers=bearer(ana["token"]),
                           json={"name": "Ana María", "listed": False})
    assert changed.status_code == 200
    assert changed.get_json() == {**profile(client, ana["token"]), "name": "Ana María",
                                  "listed": False}
    assert "token" not in changed.get_json()


def test_a_rotated_token_replaces_the_old_one_for_the_player_and_its_seats(store):
    client = make_app(store).test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    ana_seat, bea_seat = rated_game(client, ana, bea)
    rotated = client.patch("/v1/players/me", headers=bearer(ana["token"]),
                           json={"rotate_token": True})
    assert rotated.status_code == 200
    token = rotated.get_json()["token"]
    assert token != ana["token"]
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 401
    old = client.get(f"/v1/games/{ana_seat.game_id}", headers=bearer(ana["token"]))
    assert (old.status_code, old.get_json()["code"]) == (403, "invalid_token")
    assert Player(client, ana_seat.game_id, token, 0).read()["seat"] == 0
    assert [game["game_id"] for game in lobby(client, token)["games"]] == [ana_seat.game_id]
    # The game's end still counts for the player under its new token
    bea_seat.act({"type": "resign"})
    assert profile(client, token)["ratings"][0]["rating"] == 1069


def test_an_erased_player_is_gone_and_its_games_stay_whole(store):
    client = make_app(store).test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    finished, bea_seat = rated_game(client, ana, bea)
    bea_seat.act({"type": "resign"})
    live = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [{**HUMAN, "name": "Ana"}, HUMAN]}).get_json()
    erased = client.delete("/v1/players/me", headers=bearer(ana["token"]))
    assert (erased.status_code, erased.data) == (204, b"")
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 401
    # The seat token still plays the live game, where the seat shows a neutral name
    seat = Player(client, live["game_id"], live["token"], 0)
    assert seat.read()["seats"][0]["name"] == "Former player"
    assert seat.act({"type": "resign"})["view"]["phase"] == "game_over"
    # So does the finished game's, in the reader's language; the player token opens nothing
    spanish = client.get(f"/v1/games/{finished.game_id}",
                         headers={**bearer(bea["token"]), "Accept-Language": "es"})
    assert spanish.get_json()["seats"][0]["name"] == "Antiguo jugador"
    assert spanish.headers["Content-Language"] == "es"
    assert client.get(f"/v1/games/{finished.game_id}",
                      headers=bearer(ana["token"])).status_code == 403
    assert profile(client, bea["token"])["ratings"][0]["rating"] == 963
