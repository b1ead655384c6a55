"""Caps on games in play: per client address (CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT, counted until
they end) and in the embedded store (CRIBBAGE_MEMORY_MAX_GAMES)."""

from __future__ import annotations

from service.api import create_app
from service.config import Settings
from tests.games.conftest import make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, create


def create_from(client, address: str, **headers):
    return client.post("/v1/games", json={"seats": [HUMAN, COMPUTER]},
                       environ_base={"REMOTE_ADDR": address}, headers=headers)


def test_a_client_at_its_cap_is_refused_until_one_of_its_games_ends(store):
    client = make_app(store, max_live_games_per_client=2).test_client()
    first, second = (create_from(client, "10.0.0.1").get_json() for _ in range(2))
    refused = create_from(client, "10.0.0.1")
    assert (refused.status_code, refused.get_json()["code"]) == (409, "too_many_live_games")
    assert refused.get_json()["detail"] == (
        "This client has 2 games in play or seeks open already; finish or cancel one, or wait "
        "for an abandoned game to expire, before starting another")
    spanish = create_from(client, "10.0.0.1", Accept_Language="es").get_json()
    assert spanish["title"] == "Demasiadas partidas en juego"
    assert create_from(client, "10.0.0.2").status_code == 201
    Player.creator(client, first).act({"type": "resign"})
    assert create_from(client, "10.0.0.1").status_code == 201
    assert create_from(client, "10.0.0.1").status_code == 409
    assert Player.creator(client, second).read()["view"]["phase"] == "cut_for_deal"


def test_a_cap_of_0_is_no_cap(store):
    client = make_app(store, max_live_games_per_client=0).test_client()
    for _ in range(5):
        create(client, [HUMAN, COMPUTER])


def test_the_embedded_store_full_of_games_in_play_is_503_until_one_ends():
    app = create_app({"TESTING": True, "SETTINGS": Settings(
        rate_limit_enabled=False, max_live_games_per_client=0, memory_max_games=2)})
    client = app.test_client()
    first, second = create(client, [HUMAN, COMPUTER]), create(client, [HUMAN, COMPUTER])
    full = create_from(client, "10.0.0.1", Accept_Language="es")
    assert (full.status_code, full.headers["Retry-After"]) == (503, "30")
    assert full.get_json() == {
        "type": "urn:cribbage:problem:store_full", "title": "Almacén de partidas lleno",
        "status": 503, "detail": "El almacén de partidas está lleno; inténtelo más tarde",
        "code": "store_full"}
    Player.creator(client, first).act({"type": "resign"})
    assert create_from(client, "10.0.0.1").status_code == 201
    assert Player.creator(client, first).get().status_code == 404  # finished: evicted
    assert Player.creator(client, second).get().status_code == 200
