"""Players: a player token links the seats it creates or joins, lists their games, opens them
(recovery on a new device), and caps the player's live games; on each store."""

from __future__ import annotations

from service.games import tokens
from service.games.event_log import server_time
from service.store import MemoryGameStore
from service.store.redis_store import game_keys
from tests.games.backends import store  # noqa: F401  (the store on every backend)
from tests.games.conftest import START, make_app
from tests.games.helpers import COMPUTER, HUMAN, Player, create


def new_player(client, name="Ana") -> dict:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def lobby(client, token: str) -> dict:
    response = client.get("/v1/players/me/games", headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_player_lists_its_games_and_recovers_each_seat_with_its_token(client):
    ana, bea = new_player(client), new_player(client, "Bea")
    assert sorted(ana) == ["name", "player_id", "token"] and ana["name"] == "Ana"
    with_computer = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [HUMAN, {**HUMAN, "name": "Ana"}, COMPUTER], "creator_seat": 1}).get_json()
    with_bea = client.post("/v1/games", headers=bearer(ana["token"]), json={
        "seats": [{**HUMAN, "name": "Ana"}, HUMAN], "options": {"target": 61}}).get_json()
    joined = client.post(f"/v1/games/{with_bea['game_id']}/join", headers=bearer(bea["token"]),
                         json={"code": with_bea["invites"][0]["code"], "name": "Bea"})
    assert joined.status_code == 200

    # A new device holds only the player token: the lobby lists both games...
    games = lobby(client, ana["token"])
    assert games["player_id"] == ana["player_id"]
    assert [(g["game_id"], g["seat"], g["phase"], g["ended"]) for g in games["games"]] == [
        (with_bea["game_id"], 0, "cut_for_deal", False),
        (with_computer["game_id"], 1, "cut_for_deal", False)]
    newest = games["games"][0]
    assert newest == {
        "game_id": with_bea["game_id"], "seat": 0, "phase": "cut_for_deal", "to_act": [0, 1],
        "your_turn": True, "scores": [0, 0], "side": 0, "partners": [],
        "opponents": [{"seat": 1, "kind": "human", "name": "Bea"}],
        "updated_at": server_time(START), "ended": False, "rematch_of": None, "rematch": None}
    assert games["games"][1]["opponents"] == [
        {"seat": 0, "kind": "human", "name": "Player 1"},
        {"seat": 2, "kind": "computer", "name": "Computer 3"}]
    # ... and the player token opens each seat where the seat token does
    recovered = Player(client, with_bea["game_id"], ana["token"], None)
    game = recovered.read()
    assert (game["seat"], game["view"]["legal_actions"][0]["type"]) == (0, "cut_for_deal")
    recovered.act({"type": "cut_for_deal", "depth": None})
    seat_token = Player.creator(client, with_bea)
    assert seat_token.read()["seat"] == 0  # the old device's seat token still works
    assert lobby(client, bea["token"])["games"][0]["seat"] == 1
    other = Player(client, with_computer["game_id"], bea["token"], None)
    assert other.get().get_json()["code"] == "invalid_token"


def test_the_lobby_shows_whose_turn_and_moves_finished_games_after_those_in_play(client, clock):
    ana = new_player(client)
    first = client.post("/v1/games", headers=bearer(ana["token"]),
                        json={"seats": [HUMAN, COMPUTER]}).get_json()
    clock.advance(5)
    second = client.post("/v1/games", headers=bearer(ana["token"]),
                         json={"seats": [HUMAN, COMPUTER]}).get_json()
    clock.advance(5)
    Player.creator(client, first).act({"type": "resign"})
    lines = lobby(client, ana["token"])["games"]
    assert [(g["game_id"], g["ended"], g["phase"], g["updated_at"]) for g in lines] == [
        (second["game_id"], False, "cut_for_deal", server_time(START + 5)),
        (first["game_id"], True, "game_over", server_time(START + 10))]
    assert (lines[0]["your_turn"], lines[0]["to_act"], lines[1]["your_turn"]) == (True, [0], False)


def test_an_expired_game_leaves_the_lobby_and_the_player_record(store, client):
    ana = new_player(client)
    game = client.post("/v1/games", headers=bearer(ana["token"]),
                       json={"seats": [HUMAN, COMPUTER]}).get_json()
    if isinstance(store, MemoryGameStore):
        store._games.pop(game["game_id"])  # as the idle expiry drops it
    else:
        store._connect().delete(*game_keys(game["game_id"])[:4])
    assert lobby(client, ana["token"])["games"] == []
    assert store.load_player(tokens.digest(ana["token"]), 60).games == ()


def test_unknown_player_tokens_and_a_second_seat_are_refused(client):
    unknown = client.get("/v1/players/me/games", headers=bearer("no-such-player-token-x"))
    assert (unknown.status_code, unknown.headers["WWW-Authenticate"]) == (401, "Bearer")
    assert unknown.get_json() == {
        "type": "urn:cribbage:problem:invalid_player_token", "title": "Unknown player",
        "status": 401, "detail": "The player token is unknown or has expired",
        "code": "invalid_player_token"}
    missing = client.get("/v1/players/me/games")
    assert (missing.status_code, missing.get_json()["code"]) == (401, "missing_token")
    creating = client.post("/v1/games", headers={**bearer("no-such-player-token-x"),
                                                 "Accept-Language": "es"},
                           json={"seats": [HUMAN, COMPUTER]})
    assert (creating.status_code, creating.get_json()["detail"]) == (
        401, "El token de jugador no existe o ha caducado")
    ana = new_player(client)
    created = client.post("/v1/games", headers=bearer(ana["token"]),
                          json={"seats": [HUMAN, HUMAN]}).get_json()
    twice = client.post(f"/v1/games/{created['game_id']}/join", headers=bearer(ana["token"]),
                        json={"code": created["invites"][0]["code"]})
    assert (twice.status_code, twice.get_json()["code"]) == (409, "player_already_seated")
    assert Player.creator(client, created).read()["seats"][1]["taken"] is False


def test_a_player_at_its_cap_creates_and_joins_nothing_more_until_a_game_ends(store):
    client = make_app(store, max_live_games_per_player=2).test_client()
    ana = new_player(client)
    games = [client.post("/v1/games", headers=bearer(ana["token"]),
                         json={"seats": [HUMAN, HUMAN]}).get_json() for _ in range(2)]
    refused = client.post("/v1/games", headers=bearer(ana["token"]),
                          json={"seats": [HUMAN, COMPUTER]})
    assert (refused.status_code, refused.get_json()["code"]) == (409, "too_many_live_games")
    other = create(client, [HUMAN, HUMAN])
    join = client.post(f"/v1/games/{other['game_id']}/join", headers=bearer(ana["token"]),
                       json={"code": other["invites"][0]["code"]})
    assert (join.status_code, join.get_json()["code"]) == (409, "too_many_live_games")
    Player.creator(client, games[0]).act({"type": "resign"})
    join = client.post(f"/v1/games/{other['game_id']}/join", headers=bearer(ana["token"]),
                       json={"code": other["invites"][0]["code"]})
    assert join.status_code == 200
    assert [g["game_id"] for g in lobby(client, ana["token"])["games"]] == [
        other["game_id"], games[1]["game_id"], games[0]["game_id"]]


def test_games_without_players_are_unchanged(client):
    created = create(client, [HUMAN, COMPUTER])
    game = Player.creator(client, created).read()
    assert (game["rematch"], game["rematch_of"]) == (None, None)


def test_a_players_games_come_in_pages_with_a_cursor_to_the_next(client, clock):
    ana = new_player(client)
    made = []
    for _ in range(5):
        made.append(client.post("/v1/games", headers=bearer(ana["token"]), json={
            "seats": [HUMAN, COMPUTER]}).get_json()["game_id"])
        clock.advance(1)
    seen, cursor = [], None
    while True:
        query = "?limit=2" + ("" if cursor is None else f"&cursor={cursor}")
        page = client.get(f"/v1/players/me/games{query}", headers=bearer(ana["token"]))
        assert page.status_code == 200
        body = page.get_json()
        seen.append([game["game_id"] for game in body["games"]])
        cursor = body["next"]
        if cursor is None:
            break
    assert seen == [made[:2:-1][:2], [made[2], made[1]], [made[0]]]
    refused = client.get("/v1/players/me/games?cursor=bm90LWEtY3Vyc29y",
                         headers=bearer(ana["token"]))
    assert (refused.status_code, refused.get_json()["code"]) == (422, "invalid_cursor")
