"""Players: create an identity, list its games (each seat then opens with the player token)."""

from __future__ import annotations

import base64
import json

from service.api.blueprint import Blueprint
from flask import Response, current_app

from service.api.games.bodies import seat_name
from service.api.games.views import ACCOUNTS, _players, _problem, _token
from service.api.players import examples
from service.api.players.schemas import (ChangedProfileSchema, CreatePlayerSchema,
                                         PlayerChangeSchema, PlayerGamesQuerySchema,
                                         PlayerGamesSchema, PlayerSchema, ProfileSchema)
from service.api.responses import document_errors, json_response
from service.games.errors import TokenRequired
from service.games.accounts import Accounts
from service.errors import InvalidInputError
from service.games.players import LobbyGame, LobbyPlace, Player
from service.games.event_log import server_time
from service.ratings import FORMATS, Stats

blp = Blueprint("players", __name__, url_prefix="/v1/players",
                description="Players: one identity over many seats, and its games")

PLAYER_REQUIRED: list[dict[str, list[str]]] = [{"playerToken": []}]  # OpenAPI security
UNAVAILABLE = _problem(503, "store_unavailable", "The game store is unreachable "
                                                 "(store_unavailable) or full (store_full); "
                                                 "retry after Retry-After seconds")


PLAYER_BEARER = {"header.Authorization": "Bearer {$response.body#/token}"}
CREATED_LINKS = {
    "getPlayer": {"operationId": "getPlayer", "parameters": PLAYER_BEARER,
                  "description": "Read the player's profile"},
    "changePlayer": {"operationId": "changePlayer", "parameters": PLAYER_BEARER,
                     "description": "Rename the player, hide it, or rotate its token"},
    "getLeaderboard": {"operationId": "getLeaderboard", "parameters": {
        **PLAYER_BEARER, "path.format": "2", "query.around": "me"},
        "description": "The places around the player on the 2-player board"},
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


@blp.route("/me", methods=["GET"])
@blp.doc(operationId="getPlayer", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@_problem(401, "invalid_player_token", "No player token (missing_token), or one of no player: "
                                       "unknown or expired (invalid_player_token)")
@UNAVAILABLE
@blp.documented_response(200, ProfileSchema, example=examples.PROFILE)
def get_player():
    """The player's profile: name, ratings and statistics per format

    A format is the game's layout: 2 to 6 players each for themselves, or the teams (2x2,
    3x2, 2x3). Ratings move only in rated games; statistics count every finished game with a
    winner, rated or not, once it ends."""
    response = json_response(profile(_identified("reading a player")))
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")
    return response


@blp.route("/me", methods=["PATCH"])
@blp.doc(operationId="changePlayer", security=PLAYER_REQUIRED)
@document_errors(blp, 400, 413, 415, 422, 500)
@_problem(401, "invalid_player_token", "No player token (missing_token), or one of no player: "
                                       "unknown or expired (invalid_player_token)")
@UNAVAILABLE
@blp.arguments(PlayerChangeSchema, example=examples.CHANGE_REQUEST)
@blp.documented_response(200, ChangedProfileSchema, example=examples.CHANGED)
def change_player(change: dict):
    """Rename the player, hide it from leaderboards or show it, or rotate its token

    With `rotate_token: true` the answer holds the new token, shown only here; from then on
    the old token opens neither the player nor any of its seats (each seat token keeps
    working). Every change asked is made; the answer is the profile after them."""
    player = _identified("changing a player")
    if "name" in change or "listed" in change:
        player = _accounts().change(player, change.get("name"), change.get("listed"))
    body = profile(player)
    if change.get("rotate_token"):
        body["token"] = _accounts().rotate(player).token
    response = json_response(body)
    response.headers["Cache-Control"] = "no-store"
    response.vary.add("Authorization")
    return response


@blp.route("/me", methods=["DELETE"])
@blp.doc(operationId="deletePlayer", security=PLAYER_REQUIRED,
         responses={204: {"description": "The player is erased"}})
@document_errors(blp, 500)
@_problem(401, "invalid_player_token", "No player token (missing_token), or one of no player: "
                                       "unknown or expired (invalid_player_token)")
@UNAVAILABLE
def delete_player():
    """Erase the player

    Its name, ratings, statistics and webhooks are gone, its notifications stop and it leaves
    every leaderboard, its open seeks are cancelled. Its games stay whole: each seat keeps
    working with its own seat token (no longer with the player token), and its seats, and the
    events that named them, show the name "Former player" ("Antiguo jugador" in Spanish)."""
    _accounts().erase(_identified("erasing a player"))
    return Response(status=204)


def _accounts() -> Accounts:
    accounts: Accounts = current_app.extensions[ACCOUNTS]
    return accounts


def _identified(doing: str) -> Player:
    token = _token()
    if token is None:
        raise TokenRequired(f"{doing} needs its player token")
    return _players().identify(token)


def profile(player: Player) -> dict:
    ratings = dict(player.ratings)
    stats = dict(player.stats)
    return {
        "player_id": player.player_id, "name": player.name,
        "created_at": server_time(player.created),
        "ratings": [{"format": fmt, "rating": ratings[fmt].display,
                     "change": player.change_in(fmt), "provisional": ratings[fmt].provisional,
                     "games": ratings[fmt].games} for fmt in FORMATS if fmt in ratings],
        "stats": [_stats(fmt, stats[fmt]) for fmt in FORMATS if fmt in stats],
        "listed": player.listed,
    }


def _stats(fmt: str, stats: Stats) -> dict:
    def per(points: int, deals: int) -> float:
        return round(points / deals, 2) if deals else 0.0

    return {"format": fmt, "games": stats.games, "wins": stats.wins,
            "skunks_given": stats.skunks_given, "skunks_taken": stats.skunks_taken,
            "deals": stats.deals, "average": {
                "hand": per(stats.hand_points, stats.deals),
                "crib": per(stats.crib_points, stats.cribs),
                "pegging": per(stats.pegging_points, stats.deals)}}


@blp.route("/me/games", methods=["GET"])
@blp.doc(operationId="listPlayerGames", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@_problem(401, "invalid_player_token", "No player token (missing_token), or one of no player: "
                                       "unknown or expired (invalid_player_token)")
@_problem(422, "invalid_cursor", "A query parameter out of its range, or a cursor this "
                                 "service did not give (invalid_cursor)", field="cursor")
@UNAVAILABLE
@blp.arguments(PlayerGamesQuerySchema, location="query")
@blp.documented_response(200, PlayerGamesSchema, example=examples.GAMES)
def list_player_games(query: dict):
    """The player's games: those in play, then those recently finished

    Each with the player's seat, whose turn it is, the scores and the other seats' names:
    what a lobby screen shows. Read or act in any of them with the player token. A game
    leaves the list when it expires. Paged: `limit` games, then `next` is the cursor of
    the page after."""
    player = _identified("listing a player's games")
    after = None if query.get("cursor") is None else _place(query["cursor"])
    lines, last = _players().games_page(player, query["limit"], after)
    response = json_response({"player_id": player.player_id,
                              "games": [_line(line) for line in lines],
                              "next": None if last is None else _cursor(last)})
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
    return {"seat": number, "kind": seat.kind, "name": seat_name(seat.name)}


def _cursor(place: LobbyPlace) -> str:
    text = json.dumps(list(place), separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _place(cursor: str) -> LobbyPlace:
    try:
        ended, updated, game_id, seat = json.loads(
            base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not (isinstance(ended, bool) and isinstance(updated, (int, float))
                and isinstance(game_id, str) and isinstance(seat, int)):
            raise ValueError(cursor)
    except (ValueError, TypeError) as error:
        raise InvalidInputError("this cursor was not given by this service",
                                code="invalid_cursor", field="cursor") from error
    return (ended, float(updated), game_id, seat)
