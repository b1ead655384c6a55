"""The player's own account: read, rename, hide from leaderboards, rotate the token (the old
one stops opening the player and its seats), erase (the games stay whole); on each store."""

from __future__ import annotations

import pytest

from service.store import StoreUnavailable
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


class Interleaved:
    """A real store that, once armed, runs `then` right after the first call of `method` whose
    arguments `when` accepts: another request's work between two steps of this one's."""

    def __init__(self, store, method: str, when):
        self.store, self.method, self.when = store, method, when
        self.then = None

    def __getattr__(self, name: str):
        attribute = getattr(self.store, name)
        if name != self.method:
            return attribute

        def interleaved(*args, **kwargs):
            result = attribute(*args, **kwargs)
            if self.then is not None and self.when(*args):
                then, self.then = self.then, None
                then()
            return result
        return interleaved


# The steps of a rotation (service.games.accounts) a game's result may be counted after
ROTATION_STEPS = {
    "copied": ("create_player", lambda key, data, ttl: True),
    "marked": ("save_player", lambda key, expected, data, ttl: '"moved_to"' in data
               and '"closed"' not in data),
    "linked": ("link_player_game", lambda *args: True),
    "relinked": ("save", lambda *args: True),
    "closed": ("save_player", lambda key, expected, data, ttl: '"closed"' in data),
}


@pytest.mark.parametrize("step", ROTATION_STEPS)
def test_a_result_counted_while_the_token_rotates_counts_once_for_the_player(store, step):
    method, when = ROTATION_STEPS[step]
    interleaved = Interleaved(store, method, when)
    client = make_app(interleaved).test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    _, bea_seat = rated_game(client, ana, bea)
    interleaved.then = lambda: bea_seat.act({"type": "resign"})
    rotated = client.patch("/v1/players/me", headers=bearer(ana["token"]),
                           json={"rotate_token": True})
    assert rotated.status_code == 200, rotated.get_json()
    assert interleaved.then is None   # the game ended between two steps of the rotation
    seen = profile(client, rotated.get_json()["token"])
    assert [(rating["rating"], rating["games"]) for rating in seen["ratings"]] == [(1069, 1)]
    assert [(stats["games"], stats["wins"]) for stats in seen["stats"]] == [(1, 1)]
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 401


def test_a_rotation_cut_off_half_way_is_finished_by_the_next(store):
    method, when = ROTATION_STEPS["marked"]
    interleaved = Interleaved(store, method, when)
    client = make_app(interleaved).test_client()
    ana, bea = new_player(client), new_player(client, "Bea")
    ana_seat, bea_seat = rated_game(client, ana, bea)

    def cut_off():
        raise StoreUnavailable("the process died here")
    interleaved.then = cut_off
    first = client.patch("/v1/players/me", headers=bearer(ana["token"]),
                         json={"rotate_token": True})
    assert first.status_code == 503
    assert profile(client, ana["token"])["player_id"] == ana["player_id"]   # still opens it
    rotated = client.patch("/v1/players/me", headers=bearer(ana["token"]),
                           json={"rotate_token": True})
    assert rotated.status_code == 200, rotated.get_json()
    token = rotated.get_json()["token"]
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 401
    assert Player(client, ana_seat.game_id, token, 0).read()["seat"] == 0
    bea_seat.act({"type": "resign"})
    assert [rating["rating"] for rating in profile(client, token)["ratings"]] == [1069]
