"""Every way a game ends gives exactly one game_over event, the last one, with its reason:
through the API, on the embedded store and on Redis. (Timed out and abandoned games, which end
with no request, are in test_turn_timers.py.)"""

from __future__ import annotations

import pytest

from service.store import MemoryGameStore, RedisGameStore
from tests.games.conftest import make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, create, first_legal


@pytest.fixture(params=["memory", "redis"])
def client(request, clock):
    if request.param == "memory":
        store = MemoryGameStore(3600)
    else:
        store = RedisGameStore(request.getfixturevalue("redis_server").url, 3600)
    return make_app(store, clock).test_client()


def the_game_over(player: Player) -> dict:
    events = player.events().get_json()["events"]
    over = [event for event in events if event["type"] == "game_over"]
    assert len(over) == 1 and events[-1] == over[0]
    assert events[-2]["type"] == "game_seed_revealed"
    return {key: over[0][key] for key in ("reason", "winner", "seats")}


def test_a_game_played_to_the_target_ends_won(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER], {"target": 31}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]))
    winner = game["view"]["winner"]
    assert the_game_over(player) == {"reason": "won", "winner": winner, "seats": [winner]}


def test_resigning_ends_resigned(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER]))
    player.act({"type": "resign"})
    assert the_game_over(player) == {"reason": "resigned", "winner": 1, "seats": [1]}


def test_any_human_seat_aborts_before_the_first_card_and_no_one_wins(client):
    created = create(client, [HUMAN, HUMAN, COMPUTER])
    ana = Player.creator(client, created)
    bea = Player.joining(client, ana.game_id, created["invites"][0]["code"])
    assert ana.read()["view"]["can_abort"] is True
    game = bea.act({"type": "abort"})
    assert (game["view"]["phase"], game["view"]["winner"], game["view"]["can_abort"]) == (
        "game_over", None, False)
    assert the_game_over(ana) == {"reason": "aborted", "winner": None, "seats": []}
    assert bea.post({"type": "abort"}).get_json()["code"] == "game_over"


def test_a_match_ended_by_a_seat_ends_once_with_the_match(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER],
                                           {"target": 31, "match": True}))
    game = player.read()
    while game["view"]["phase"] != "game_over":
        game = player.act(first_legal(game["view"]))
    assert [e for e in player.events().get_json()["events"] if e["type"] == "game_over"] == []
    player.act({"type": "end_match"})
    winner = game["view"]["winner"]
    assert the_game_over(player) == {"reason": "won", "winner": winner, "seats": [winner]}


def test_abort_is_refused_once_the_first_card_is_played(client):
    player = Player.creator(client, create(client, [HUMAN, COMPUTER]))
    game = player.read()
    while not game["view"]["table"]:
        game = player.act(first_legal(game["view"]))
    assert game["view"]["can_abort"] is False
    refused = player.post({"type": "abort"})
    assert (refused.status_code, refused.get_json()["code"]) == (409, "too_late_to_abort")
