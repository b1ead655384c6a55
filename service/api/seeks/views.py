"""Seeks: ask for a game of some kind, be paired with other seekers, list the open seeks."""

from __future__ import annotations

from flask import Flask, current_app
from flask_smorest import Api

from service.api.blueprint import Blueprint
from service.api.games.views import PLAYERS, SWEEPER, TABLE, _player, _problem, _token
from service.api.problems import PROBLEM_MEDIA_TYPE, ProblemSchema
from service.api.responses import document_errors, json_response, problem_example
from service.api.seeks import examples
from service.api.seeks.schemas import (
    CreateSeekSchema,
    SeekQuerySchema,
    SeekSchema,
    SeeksQuerySchema,
    SeeksSchema,
)
from service.games.errors import TokenRequired
from service.games.event_log import server_time
from service.games.players import Player
from service.games.seeks import (
    ComputerFill,
    Seek,
    SeekRequest,
    Seeks,
    computer_fill,
    displayed_rating,
    seek_options,
)

blp = Blueprint("seeks", __name__, url_prefix="/v1/seeks",
                description="Seeks: find opponents; seekers of the same game are paired")

SEEKS = "cribbage.seeks"
PLAYER_REQUIRED: list[dict[str, list[str]]] = [{"playerToken": []}]
PLAYER_OPTIONAL: list[dict[str, list[str]]] = [{}, {"playerToken": []}]
# The links carry no token: the owner's player token is its client's already (a paired seek's
# answer repeats it as the seat's token).
SEEK_LINKS = {
    "getSeek": {"operationId": "getSeek", "parameters": {"seek_id": "$response.body#/seek_id"},
                "description": "Read the seek (its game once paired); ?wait= long polls"},
    "cancelSeek": {"operationId": "cancelSeek",
                   "parameters": {"seek_id": "$response.body#/seek_id"},
                   "description": "Cancel the seek"},
    "getGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/game_id"},
                "description": "Once paired: the game (with the token, as the seat sees it)"},
}
UNAVAILABLE = _problem(503, "store_unavailable", "The game store is unreachable "
                                                 "(store_unavailable) or full (store_full); "
                                                 "retry after Retry-After seconds")
UNAUTHORIZED = _problem(401, "invalid_player_token",
                        "No player token (missing_token), or one of no player: unknown or "
                        "expired (invalid_player_token)")
NOT_FOUND = blp.alt_response(404, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                             description="No seek under this id, or it expired a day after "
                                         "it closed (seek_not_found)",
                             example=problem_example(404, "seek_not_found", {}))


def init_app(app: Flask, api: Api, rating=displayed_rating) -> None:
    """Register the seeks on `api`, paired by the games' table; `rating` is the lookup of a
    player's rating in a format (service.games.seeks.displayed_rating)."""
    seeks = Seeks(app.extensions[TABLE], app.extensions[PLAYERS], rating)
    app.extensions[SEEKS] = seeks
    app.extensions[SWEEPER].add_round(seeks.sweep)
    api.register_blueprint(blp)


def _seeks() -> Seeks:
    seeks: Seeks = current_app.extensions[SEEKS]
    return seeks


def _owner() -> Player:
    player = _player()
    if player is None:
        raise TokenRequired("a seek is a player's: send its player token")
    return player


@blp.route("", methods=["POST"])
@blp.doc(operationId="createSeek", security=PLAYER_REQUIRED,
         responses={201: {"links": SEEK_LINKS}})
@document_errors(blp, 400, 413, 415, 500)
@UNAUTHORIZED
@_problem(409, "too_many_live_games",
          "The player has CRIBBAGE_MAX_LIVE_GAMES_PER_PLAYER games in play and seeks open "
          "(too_many_live_games): an open seek holds a place among the player's live games "
          "until it is paired (its game takes the place over), cancelled or expired",
          {"limit": 100})
@_problem(422, "invalid_options",
          "The body does not follow the schema, or its parts do not fit together: teams for "
          "another number of players, muggins or a count time limit without manual counting "
          "(invalid_options)", {"field": "muggins", "allowed": "off unless counting is manual"},
          field="muggins")
@UNAVAILABLE
@blp.arguments(CreateSeekSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, SeekSchema, example=examples.OPEN, headers={
    "Location": {"description": "The seek", "schema": {"type": "string"}}})
def create_seek(spec: dict):
    """Seek a game

    Asks for a game of this kind: `players` seats (`teams`), the game's `options`, rated or
    casual, opponents within `rating_range` points (widening by 50 each minute waited), and
    whether computers may fill the empty seats after a wait. Seeks of the same kind are
    paired as soon as there are enough: the answer may already be paired. Otherwise read it
    with `?wait=` (a long poll) or be told by the player's webhooks (the game's first turn).
    A seek waits while its player is offline, for an hour at most. An open seek counts among
    the player's live games, as the game it becomes will."""
    player = _owner()
    options = seek_options(spec["options"], spec["players"], spec["teams"])
    computers = spec.get("computers")
    fill: ComputerFill | None = None
    if computers is not None:
        fill = computer_fill(computers.get("level"), computers["after"])
    seek = _seeks().create(player, SeekRequest(options, spec["rated"], spec["rating_range"],
                                               fill))
    response = json_response(seek_body(seek, _token()), status=201)
    response.headers["Location"] = f"/v1/seeks/{seek.seek_id}"
    response.headers["Cache-Control"] = "no-store"
    return response


@blp.route("", methods=["GET"])
@blp.doc(operationId="listSeeks")
@document_errors(blp, 422, 500)
@UNAVAILABLE
@blp.arguments(SeeksQuerySchema, location="query")
@blp.documented_response(200, SeeksSchema, example=examples.LIST)
def list_seeks(query: dict):
    """List the open seeks

    The seeks waiting for opponents, the longest waiting first: what a lobby shows. Public
    fields only: no seek's game or token."""
    seeks = _seeks().open_seeks(query["limit"])
    return json_response({"seeks": [seek_body(seek, None) for seek in seeks]})


@blp.route("/<seek_id>", methods=["GET"])
@blp.doc(operationId="getSeek", security=PLAYER_OPTIONAL,
         responses={200: {"links": {"getGame": SEEK_LINKS["getGame"],
                                    "cancelSeek": SEEK_LINKS["cancelSeek"]}}})
@document_errors(blp, 422, 500)
@UNAUTHORIZED
@NOT_FOUND
@UNAVAILABLE
@blp.arguments(SeekQuerySchema, location="query")
@blp.documented_response(200, SeekSchema, example=examples.PAIRED)
def get_seek(query: dict, seek_id: str):
    """Read a seek

    Its owner (with its player token) sees, once it is paired, the game, its seat and the
    seat's token (the player token); anyone else sees the public fields. With `?wait=`
    seconds the answer waits while the seek is open (a long poll)."""
    player = _player()
    seeks = _seeks()
    seek = seeks.wait(seek_id, player, query["wait"]) if query["wait"] else seeks.read(seek_id)
    owned = player is not None and seek.player_key == player.key
    response = json_response(seek_body(seek, _token() if owned else None))
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")
    return response


@blp.route("/<seek_id>", methods=["DELETE"])
@blp.doc(operationId="cancelSeek", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@UNAUTHORIZED
@_problem(403, "not_your_seek", "The seek is another player's (not_your_seek)")
@NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, SeekSchema, example={**examples.OPEN, "status": "cancelled"})
def cancel_seek(seek_id: str):
    """Cancel a seek

    An open seek is closed (cancelled); one paired meanwhile stays paired, and the answer
    shows its game."""
    seek = _seeks().cancel(seek_id, _owner())
    return json_response(seek_body(seek, _token()))


def seek_body(seek: Seek, owner_token: str | None) -> dict:
    """The seek's public fields; with the owner's token, once paired, its game and seat."""
    options = seek.options.to_dict()
    for name in ("players", "teams", "start_scores", "first_dealer", "preset_deck", "hints"):
        options.pop(name, None)
    body = {
        "seek_id": seek.seek_id, "status": seek.status, "player_id": seek.player_id,
        "name": seek.name, "players": seek.options.players, "teams": seek.options.teams,
        "options": options, "rated": seek.rated, "rating": seek.rating,
        "rating_range": seek.within,
        "computers": None if seek.computers is None
        else {"level": seek.computers.level, "after": seek.computers.after},
        "created_at": server_time(seek.created), "expires_at": server_time(seek.expires),
    }
    if owner_token is not None and seek.game_id is not None:
        body.update(game_id=seek.game_id, seat=seek.seat, token=owner_token)
    return body
