"""Leaderboards: players out of their placement games, by rating, per season and all time,
the top or around a player; hidden and erased players are on none; on each store."""

from __future__ import annotations

from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import Clock, make_app
from tests.games.test_players import bearer, new_player
from tests.games.test_ratings_http import profile, rated_game


def board(client, query: str = "", token: str | None = None) -> dict:
    response = client.get(f"/v1/leaderboards/2{query}",
                          headers=bearer(token) if token else {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def ours(found: dict, *players: dict) -> list[tuple[str | None, int]]:
    """(name, rating) of these players on the board, in its order (the session's Redis holds
    other tests' boards too)."""
    ids = [player["player_id"] for player in players]
    return [(place["name"], place["rating"]) for place in found["places"]
            if place["player_id"] in ids]


def test_players_out_of_placement_are_ranked_per_season_and_all_time(store):
    clock = Clock()
    client = make_app(store, clock).test_client()
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    for game in range(5):
        # In their placement games they are on no board
        assert ours(board(client, "?season=all&limit=100"), ana, bea) == []
        _, bea_seat = rated_game(client, ana, bea)
        bea_seat.act({"type": "resign"})
    ana_rating = profile(client, ana["token"])["ratings"][0]
    bea_rating = profile(client, bea["token"])["ratings"][0]
    assert (ana_rating["provisional"], ana_rating["games"]) == (False, 5)
    for query in ("?season=2027-01&limit=100", "?season=all&limit=100", "?limit=100"):
        assert ours(board(client, query), ana, bea) == [
            ("Ana", ana_rating["rating"]), ("Bea", bea_rating["rating"])]
    assert board(client)["season"] == "2027-01"   # the clock's month
    assert ours(board(client, "?season=2027-02&limit=100"), ana, bea) == []
    around = board(client, "?season=2027-01&around=me&limit=1", bea["token"])
    assert [place["player_id"] for place in around["places"]] == [bea["player_id"]]
    # Hidden, Ana is on no board; shown again, back on the all-time one
    client.patch("/v1/players/me", headers=bearer(ana["token"]), json={"listed": False})
    for query in ("?season=2027-01&limit=100", "?season=all&limit=100"):
        assert ours(board(client, query), ana) == []
    assert board(client, "?season=all&around=me", ana["token"])["places"] == []
    client.patch("/v1/players/me", headers=bearer(ana["token"]), json={"listed": True})
    assert ours(board(client, "?season=all&limit=100"), ana) == [("Ana", ana_rating["rating"])]
    # Erased, Bea is on no board
    client.delete("/v1/players/me", headers=bearer(bea["token"]))
    for query in ("?season=2027-01&limit=100", "?season=all&limit=100"):
        assert ours(board(client, query), bea) == []


def test_a_board_numbers_its_places_from_the_top(store):
    client = make_app(store).test_client()
    ana, bea = new_player(client, "Ana"), new_player(client, "Bea")
    for _ in range(5):
        _, bea_seat = rated_game(client, ana, bea)
        bea_seat.act({"type": "resign"})
    found = board(client, "?season=all&limit=100")["places"]
    numbers = [place["place"] for place in found]
    assert numbers == list(range(1, len(found) + 1))
    ratings = [place["rating"] for place in found]
    assert ratings == sorted(ratings, reverse=True)
    assert board(client, "?season=all&limit=1")["places"] == found[:1]
