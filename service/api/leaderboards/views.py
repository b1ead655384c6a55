"""Leaderboards: the top of a format's board, or the places around a player."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app
from flask_smorest import Api

from service.api.blueprint import Blueprint
from service.api.games.views import _players, _problem, _token
from service.api.leaderboards import examples
from service.api.leaderboards.schemas import BoardQuerySchema, BoardSchema
from service.api.responses import document_errors, json_response
from service.errors import InvalidInputError
from service.games.errors import TokenRequired
from service.games.leaderboards import Leaderboards
from service.ratings import FORMATS
from service.store import GameStore

blp = Blueprint("leaderboards", __name__, url_prefix="/v1/leaderboards",
                description="Leaderboards: the best rated players of each format")

LEADERBOARDS = "cribbage.leaderboards"
PLAYER_OPTIONAL: list[dict[str, list[str]]] = [{}, {"playerToken": []}]


def init_app(app: Flask, api: Api, store: GameStore, clock: Callable[[], float]) -> None:
    app.extensions[LEADERBOARDS] = Leaderboards(store, clock)
    api.register_blueprint(blp)


@blp.route("/<format>", methods=["GET"])
@blp.doc(operationId="getLeaderboard", security=PLAYER_OPTIONAL)
@document_errors(blp, 400, 500)
@_problem(401, "missing_token", "around=me without a player token (missing_token), or with "
                                "one of no player (invalid_player_token)")
@_problem(422, "invalid_season", "A query parameter out of its range, no such format "
                                 "(invalid_format) or season (invalid_season)",
          {"season": "2027-13"}, field="season")
@_problem(503, "store_unavailable", "The game store is unreachable (store_unavailable); "
                                    "retry after Retry-After seconds")
@blp.arguments(BoardQuerySchema, location="query")
@blp.documented_response(200, BoardSchema, example=examples.BOARD)
def get_leaderboard(query: dict, format: str):  # noqa: A002 (the path's own name)
    """A format's leaderboard: the top, or the places around you

    Formats: `2` to `6` players each for themselves, `2x2`, `3x2`, `2x3` teams. Each month
    (UTC) is a season with its own board; `all` is all time. Only players out of their 5
    placement games are on a board, and a player may hide from them (PATCH
    /v1/players/me)."""
    fmt = format
    if fmt not in FORMATS:
        raise InvalidInputError(f"no format {fmt!r}", code="invalid_format", field="format",
                                format=fmt, allowed=", ".join(FORMATS))
    boards: Leaderboards = current_app.extensions[LEADERBOARDS]
    season = boards.season(query.get("season"))
    limit = query["limit"]
    if query.get("around") == "me":
        token = _token()
        if token is None:
            raise TokenRequired("around=me needs a player token")
        places = boards.around(fmt, season, _players().identify(token), limit)
    else:
        places = boards.top(fmt, season, limit)
    response = json_response({"format": fmt, "season": season, "places": [
        {"place": place.place, "player_id": place.player_id, "name": place.name,
         "rating": place.rating} for place in places]})
    response.headers["Cache-Control"] = "private, no-cache" if "around" in query \
        else "public, max-age=30"
    return response
