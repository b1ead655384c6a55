"""Players: create an identity, list its games (each seat then opens with the player token)."""

from __future__ import annotations

from service.api.blueprint import Blueprint
from service.api.games.views import _players, _problem, _token
from service.api.players import examples
from service.api.players.schemas import CreatePlayerSchema, PlayerGamesSchema, PlayerSchema
from service.api.responses import document_errors, json_response
from service.games.errors import TokenRequired
from service.games.players import LobbyGame
from service.games.event_log import server_time

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Players: one identity over many seats, and its games")

PLAYER_REQUIRED: list[dict[str, list[str]]] = [{"playerToken": []}]  # OpenAPI security
UNAVAILABLE = _problem(503, "store_unavailable", "The game store is unreachable "
                                                 "(store_unavailable) or full (store_full); "
                                                 "retry after Retry-After seconds")


PLAYER_BEARER = {"header.Authorization": "Bearer {$response.body#/token}"}
CREATED_LINKS = {
    "listPlayerGames": {"operationId": "listPlayerGames", "parameters": PLAYER_BEARER,
                        "description": "List the player's games"},
    "createGame": {"operationId": "createGame", "parameters": PLAYER_BEARER,
                   "description": "Create a game as this player"},
    "createSeek": {"operationId": "createSeek", "parameters": PLAYER_BEARER,
                   "description": "Seek a game as this player"},
}


@blp.route("", methods=["POST"])
@blp.doc(operationId="createPlayer", responses={201: {"links": CREATED_LINKS}})
@document_errors(blp, 400, 413, 415, 422, 500)
@UNAVAILABLE
@blp.arguments(CreatePlayerSchema, required=False, example=examples.CREATE_REQUEST)
@blp.documented_response(201, PlayerSchema, example=examples.CREATED)
def create_player(body: dict):
    """Create a player

    Returns the player token (shown only here). Send it as `Authorization: Bearer <token>`
    when creating or joining a game to link that seat to the player; the player token then
    opens the seat like its seat token, and the player lists its games. A player expires
    after CRIBBAGE_PLAYER_TTL_SECONDS without use (30 days)."""
    created = _players().create(body.get("name"))
    player = created.player
    response = json_response({"player_id": player.player_id, "name": player.name,
                              "token": created.token}, status=201)
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route("/me/games", methods=["GET"])
@blp.doc(operationId="listPlayerGames", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@_problem(401, "invalid_player_token", "No player token (missing_token), or one of no player: "
                                       "unknown or expired (invalid_player_token)")
@UNAVAILABLE
@blp.documented_response(200, PlayerGamesSchema, example=examples.GAMES)
def list_player_games():
    """The player's games: those in play, then those recently finished

    Each with the player's seat, whose turn it is, the scores and the other seats' names:
    what a lobby screen shows. Read or act in any of them with the player token. A game
    leaves the list when it expires."""
    token = _token()
    if token is None:
        raise TokenRequired("listing a player's games needs its player token")
    players = _players()
    player = players.identify(token)
    games = [_line(line) for line in players.games_of(player)]
    response = json_response({"player_id": player.player_id, "games": games})
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")
    return response


def _line(line: LobbyGame) -> dict:
    own_side = line.side
    return {
        "game_id": line.game_id, "seat": line.seat, "phase": line.phase,
        "to_act": list(line.to_act), "your_turn": line.your_turn, "scores": list(line.scores),
        "side": own_side,
        "partners": [_table_seat(number, seat) for number, seat in line.seats
                     if number != line.seat and line.side_of_seat[number] == own_side],
        "opponents": [_table_seat(number, seat) for number, seat in line.seats
                      if line.side_of_seat[number] != own_side],
        "updated_at": server_time(line.updated), "ended": line.ended, "rematch_of": line.rematch_of,
        "rematch": line.rematch_game_id,
    }


def _table_seat(number: int, seat) -> dict:
    return {"seat": number, "kind": seat.kind, "name": seat.name}
