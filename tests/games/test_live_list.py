"""GET /v1/games?status=live: the games in play, the newest first, paged by cursor, public
parts only, on every store."""
from __future__ import annotations

import random

from service.games.event_log import server_time
from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import make_app


def test_live_games_are_listed_newest_first_a_page_at_a_time(store, clock):  # noqa: F811
    # the session's Redis lists other tests' games: these are newer than all of them
    clock.advance(10**7 + random.Random().randrange(10**6))
    client = make_app(store, clock).test_client()
    made = []
    for number in range(3):
        clock.advance(1)
        made.append(client.post("/v1/games", json={
            "seats": [{"kind": "human", "name": f"Ana {number}"}, {"kind": "human"}]}).json)
    first = client.get("/v1/games?status=live&limit=2")
    assert first.status_code == 200
    assert first.json == {
        "games": [{"game_id": game["game_id"], "players": 2, "teams": None, "target": 121,
                   "rated": False, "phase": "cut_for_deal", "scores": [0, 0],
                   "seats": [{"seat": 0, "kind": "human", "name": f"Ana {number}"},
                             {"seat": 1, "kind": "human", "name": "Player 2"}],
                   "created_at": server_time(clock.now - 2 + number),
                   "updated_at": server_time(clock.now - 2 + number)}
                  for number, game in reversed(list(enumerate(made)))][:2],
        "next_cursor": f"{clock.now - 1!r}:{made[1]['game_id']}"}
    second = client.get("/v1/games?status=live&limit=2&cursor=" + first.json["next_cursor"])
    assert second.json["games"][0]["game_id"] == made[0]["game_id"]
    text = first.get_data(as_text=True)
    assert not any(game["token"] in text for game in made)


def test_a_live_games_listing_needs_its_status_and_a_cursor_it_gave(client):
    missing = client.get("/v1/games")
    assert (missing.status_code, missing.json["code"]) == (422, "validation_failed")
    wrong = client.get("/v1/games?status=live&cursor=nonsense")
    assert (wrong.status_code, wrong.json["code"], wrong.json["field"]) == (
        422, "invalid_cursor", "cursor")
