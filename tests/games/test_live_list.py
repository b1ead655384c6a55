"""GET /v1/games?status=live: the games in play, the newest first, paged by cursor, public
parts only, on every store."""
from __future__ import annotations

import random
import secrets

import pytest

from service.games.event_log import server_time
from service.games.spectating import CREATING_SECONDS
from service.store import RedisGameStore
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


class Died(BaseException):
    """The process ends here (not an Exception: nothing on the way catches it)."""


def listed_up_to(client, created):
    """The live games listed from those created at `created` on: the session's Redis lists
    other tests' games, all made after the (past) times these tests take."""
    return client.get(f"/v1/games?status=live&limit=100&cursor={created + 1!r}:~").json["games"]


def test_a_game_is_listed_by_its_creation_alone_even_if_its_process_dies_right_after(
        store, clock):  # noqa: F811
    clock.advance(-10**7 - random.Random().randrange(10**6))
    client = make_app(store, clock).test_client()
    create = store.create

    def create_then_die(*args, **kwargs):
        create(*args, **kwargs)
        raise Died()

    store.create = create_then_die
    name = "Cut short " + secrets.token_hex(4)
    with pytest.raises(Died):
        client.post("/v1/games", json={"seats": [{"kind": "human", "name": name},
                                                 {"kind": "human"}]})
    del store.create
    listed = listed_up_to(client, clock.now)[0]
    assert (listed["seats"][0]["name"], listed["created_at"]) == (name, server_time(clock.now))
    assert client.get(f"/v1/games/{listed['game_id']}").status_code == 200


def test_an_entry_written_before_its_game_waits_for_it_then_is_dropped(store, clock):  # noqa: F811
    """A Cluster writes a game's entry first: the process may die before the game is stored."""
    if not isinstance(store, RedisGameStore):
        pytest.skip("the embedded store writes the entry with the game, at once")
    clock.advance(-10**7 - random.Random().randrange(10**6))
    client = make_app(store, clock).test_client()
    never, late = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
    store._index_live(never, clock.now)        # then the process died
    store._index_live(late, clock.now)         # its game comes below
    made_at = clock.now

    def listed() -> set[str]:
        return {game["game_id"] for game in listed_up_to(client, made_at)}

    assert not {never, late} & listed()
    made = client.post("/v1/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    store.create(late, store.load(made.json["game_id"]).data, listed=clock.now)
    assert {late, made.json["game_id"]} <= listed()
    assert (never, clock.now) in store.live_games(clock.now, 100)   # kept while it is young
    clock.advance(CREATING_SECONDS + 1)
    assert late in listed()
    assert never not in {entry for entry, _ in store.live_games(clock.now, 100)}
