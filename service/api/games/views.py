"""Games over HTTP: create, join, read, act and follow events; the store is chosen here."""

from __future__ import annotations

import re
from collections.abc import Callable, Generator
from typing import cast

from flask import Flask, Response, current_app, request
from flask_smorest import Api

from service.api.blueprint import Blueprint
from service.api.games import examples
from service.api.games.actions import ActionSchema
from service.api.games.bodies import (analysis_body, events_body, game_body, live_game_body,
                                      rematch_access_body, seat_access_body)
from service.api.games.preconditions import (IF_MATCH_PATTERN, accepted_versions, etag,
                                             none_match)
from service.api.games.schemas import (
    CreatedGameSchema,
    CreateGameSchema,
    EventsQuerySchema,
    EventsSchema,
    GameAnalysisSchema,
    GameSchema,
    JoinSchema,
    LiveGamesQuerySchema,
    LiveGamesSchema,
    RematchAccessSchema,
    RenameSchema,
    SeatTokenSchema,
    StreamQuerySchema,
    StreamTicketSchema,
)
from service.api.games.stream import server_sent_events
from service.api.health import add_readiness_check
from service.api.language import request_language
from service.api.compute import cpu_client
from service.api.limits import client_address
from service.api.problems import PROBLEM_MEDIA_TYPE, ProblemSchema
from service.api.responses import document_errors, json_response, problem_example
from service.compute import ComputeTier
from service.games import (ActionRequest, EventsPage, GameSnapshot, Games, GameTable, Players,
                           Rematches, StreamTickets)
from service.games.accounts import Accounts
from service.games.caps import LiveGamesCap, address_owner
from service.games.players import Player, PlayerPolicy
from service.games.spectating import live_games
from service.games.sweeper import Sweeper
from service.games.errors import GameNotFound, TokenRequired
from service.errors import InvalidInputError
from service.store import GameStore

blp = Blueprint("games", __name__, url_prefix="/v1/games",
                description="Turn-based games: create, join, read, act, follow the events")

TABLE = "cribbage.game_table"
GAMES = "cribbage.games"
PLAYERS = "cribbage.players"
TICKETS = "cribbage.stream_tickets"
REMATCHES = "cribbage.rematches"
SWEEPER = "cribbage.sweeper"
ACCOUNTS = "cribbage.accounts"
GAME_ID = re.compile(r"[A-Za-z0-9_-]{16}")
LAST_EVENT_ID = re.compile(r"[0-9]{1,9}")
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")
IDEMPOTENCY_KEY_PATTERN = f"^{IDEMPOTENCY_KEY.pattern}$"
BEARER = re.compile(r"Bearer +([\x21-\x7e]{1,200})", re.IGNORECASE)

# OpenAPI security requirements (scheme -> scopes); without a token you read as a spectator
TOKEN_OPTIONAL: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"seatToken": []}]

SEAT_TOKEN_SCHEME = {"type": "http", "scheme": "bearer",
                     "description": "The seat token from creating or joining a game, or the "
                                    "token of the player linked to the seat"}
PLAYER_TOKEN_SCHEME = {"type": "http", "scheme": "bearer",
                       "description": "A player token (POST /v1/players)"}
# with a player token, the seat is linked to it
PLAYER_OPTIONAL: list[dict[str, list[str]]] = [{}, {"playerToken": []}]


def init_app(app: Flask, api: Api, store: GameStore, clock: Callable[[], float],
             compute: ComputeTier) -> None:
    """Register the games blueprint on `api`, its games kept in `store`, its searches run by
    `compute`."""
    settings = app.config["SETTINGS"]
    players = PlayerPolicy(settings.player_ttl_seconds, settings.max_live_games_per_player)
    table = GameTable(store, clock, players, compute, settings.compute_reply_seconds)
    app.extensions[TABLE] = table
    app.extensions[GAMES] = Games(table, settings.stream_seconds)
    app.extensions[PLAYERS] = Players(store, clock, players)
    app.extensions[ACCOUNTS] = Accounts(table, app.extensions[PLAYERS])
    app.extensions[TICKETS] = StreamTickets(table)
    app.extensions[REMATCHES] = Rematches(table)
    # Started by the server process (service/server/hooks.py post_worker_init), not here.
    app.extensions[SWEEPER] = Sweeper(table, settings.sweep_seconds)
    add_readiness_check(app, "store", lambda: store.ping() is None)
    api.spec.components.security_scheme("seatToken", SEAT_TOKEN_SCHEME)
    api.spec.components.security_scheme("playerToken", PLAYER_TOKEN_SCHEME)
    api.register_blueprint(blp)


def _games() -> Games:
    games: Games = current_app.extensions[GAMES]
    return games


def _players() -> Players:
    players: Players = current_app.extensions[PLAYERS]
    return players


def _tickets() -> StreamTickets:
    tickets: StreamTickets = current_app.extensions[TICKETS]
    return tickets


def _rematches() -> Rematches:
    rematches: Rematches = current_app.extensions[REMATCHES]
    return rematches


# Documentation helpers ---------------------------------------------------------------------------
def _problem(status: int, code: str, description: str, params: dict | None = None, **extra):
    return blp.alt_response(status, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                            description=description,
                            example=problem_example(status, code, params, **extra))


def _header(name: str, description: str, **schema) -> dict:
    return {"in": "header", "name": name, "required": False, "description": description,
            "schema": {"type": "string", **schema}}


PLAYER_UNAUTHORIZED = _problem(401, "invalid_player_token",
                               "Authorization names no player (invalid_player_token): an "
                               "unknown or expired player token, or not `Bearer <token>` "
                               "(missing_token)")
UNAUTHORIZED = _problem(401, "missing_token", "No seat token (missing_token): send "
                                               "Authorization: Bearer <token>")
MALFORMED_TOKEN = _problem(401, "missing_token", "An Authorization header that is not "
                                                 "`Bearer <token>` (send none to read as a "
                                                 "spectator)")
FORBIDDEN = _problem(403, "invalid_token", "The token holds no seat of this game "
                                           "(invalid_token), or not the seat the action names "
                                           "(not_your_seat)")
NOT_FOUND = _problem(404, "game_not_found", "No such game, or it expired after its idle time "
                                            "(game_not_found)",
                     {"game_id": examples.GAME_ID})
UNAVAILABLE = _problem(503, "store_unavailable", "The game store is unreachable "
                                                 "(store_unavailable) or out of memory and "
                                                 "takes no changes (store_full); retry after "
                                                 "Retry-After seconds")
ETAG_HEADER = {"ETag": {"description": "The version this body shows, per seat",
                        "schema": {"type": "string"}}}


def _links(token: str) -> dict:
    """Links from a response holding a game id and a seat token to what the seat can do next."""
    game_id = "$response.body#/game_id"
    bearer = {"header.Authorization": f"Bearer {{{token}}}"}
    return {
        "getGame": {"operationId": "getGame", "parameters": {"game_id": game_id, **bearer},
                    "description": "Read the game as this seat"},
        "actInGame": {"operationId": "actInGame",
                      "parameters": {"game_id": game_id, **bearer,
                                     "header.If-Match": "$response.header.ETag"},
                      "description": "Act as this seat"},
        "listEvents": {"operationId": "listEvents", "parameters": {"game_id": game_id, **bearer},
                       "description": "Follow the game's events as this seat"},
    }


STREAM_DESCRIPTION = (
    "Server-Sent Events. `event: snapshot` (data: the game as getGame returns it) comes first; "
    "then each game event as an unnamed message (data: the event as listEvents shows it, `id:` "
    "its number); `event: state` (data: the seat's state) after each batch; `event: end` "
    "(`id:` the last event's number) when the game is over, also on a stream opened on a game "
    "already over, after which the server closes the stream. Lines starting with `:` are "
    "heartbeats. On the wire:\n\n```\nretry: 3000\nevent: snapshot\ndata: {\"game_id\": "
    "\"...\", \"version\": 7, ...}\n\nid: 8\ndata: {\"number\": 8, \"type\": "
    "\"card_played\", ...}\n\nevent: state\ndata: {\"version\": 8, \"etag\": "
    "\"\\\"8-0\\\"\", \"to_act\": [0], ...}\n\n: heartbeat\n```")
# One message of the stream, as an EventSource parses it (`data` is JSON text).
SSE_MESSAGE = {
    "type": "object", "required": ["data"],
    "properties": {
        "event": {"type": "string", "enum": ["snapshot", "message", "state", "end"],
                  "description": "message (the default name): a game event"},
        "id": {"type": "string", "pattern": "^[0-9]+$",
               "description": "The event's number, on game events"},
        "data": {"type": "string", "description": "JSON: the game (snapshot), an event as "
                                                  "listEvents shows it, or the seat's state"},
        "retry": {"type": "integer", "minimum": 0},
    }}
STREAM_EXAMPLE = {
    "id": "8",
    "data": '{"number": 8, "time": "2026-11-25T10:05:09.804Z", "type": "card_played", '
            '"seat": 1, "card": "5H", "count": 5}'}

CREATE_LINKS = {
    **_links("$response.body#/token"),
    "joinGame": {"operationId": "joinGame", "parameters": {"game_id": "$response.body#/game_id"},
                 "requestBody": {"code": "$response.body#/invites/0/code"},
                 "description": "Take the first open seat with its invite code"},
    "createGameWebhook": {"operationId": "createGameWebhook",
                          "parameters": {"game_id": "$response.body#/game_id",
                                         "header.Authorization": "Bearer {$response.body#/token}"},
                          "description": "Have your server told of turns and the ending"},
}
# A read or an action leads on to the next action (on the version it showed) and to the events
# after it. The seat token cannot travel in a link (it is in no earlier request parameter or
# response): a client keeps it from the create or join response.
FOLLOW_LINKS = {
    "actInGame": {"operationId": "actInGame",
                  "parameters": {"game_id": "$request.path.game_id",
                                 "header.If-Match": "$response.header.ETag"},
                  "description": "Act on the version just shown (send your seat token)"},
    "listEvents": {"operationId": "listEvents",
                   "parameters": {"game_id": "$request.path.game_id",
                                  "after": "$response.body#/last_event"},
                   "description": "Wait for what happens next"},
    "getGame": {"operationId": "getGame", "parameters": {"game_id": "$request.path.game_id"},
                "description": "Read the game again"},
    "getGameAnalysis": {"operationId": "getGameAnalysis",
                        "parameters": {"game_id": "$request.path.game_id"},
                        "description": "Your decisions so far, judged by `hard`"},
    "rematchGame": {"operationId": "rematchGame",
                    "parameters": {"game_id": "$request.path.game_id"},
                    "description": "Once the game is over: offer or accept a rematch"},
    "declineRematch": {"operationId": "declineRematch",
                       "parameters": {"game_id": "$request.path.game_id"},
                       "description": "Decline the rematch offered"},
}


# Operations --------------------------------------------------------------------------------------
@blp.route("", methods=["POST"])
@blp.doc(operationId="createGame", security=PLAYER_OPTIONAL,
         responses={201: {"links": CREATE_LINKS}})
@document_errors(blp, 400, 413, 415, 500)
@PLAYER_UNAUTHORIZED
@_problem(409, "too_many_live_games",
          "This client address has CRIBBAGE_MAX_LIVE_GAMES_PER_CLIENT games in play "
          "(too_many_live_games): a game counts until it is over or, abandoned, until the idle "
          "expiry has passed since its creation; or the player has "
          "CRIBBAGE_MAX_LIVE_GAMES_PER_PLAYER",
          {"limit": 100})
@_problem(422, "creator_not_human",
          "The body does not follow the schema, or its parts do not fit together (what the "
          "schema cannot say): `creator_seat` past the seats or on a computer seat "
          "(creator_not_human), no human seat (no_human_seat), `rated` without a player token "
          "or with a computer seat (rated_needs_players), teams for another number of seats, "
          "or muggins or a count time limit without manual counting (invalid_options)",
          {"seat": 2}, field="creator_seat")
@_problem(503, "store_unavailable", "The game store is unreachable (store_unavailable), or "
                                    "full (store_full): Redis out of memory, or the embedded "
                                    "store holding CRIBBAGE_MEMORY_MAX_GAMES games in play; "
                                    "retry after Retry-After seconds")
@blp.arguments(CreateGameSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, CreatedGameSchema, example=examples.CREATED, headers={
    **ETAG_HEADER, "Location": {"description": "The game", "schema": {"type": "string"}}})
def create_game(spec: dict):
    """Create a game

    Seats are human or computer, clockwise from seat 0. The creator takes a human seat and
    gets its token (shown only here); every other human seat gets an invite code. Computer
    seats act as soon as it is their turn (here: the cut for deal). A client address has at
    most a set number of games in play at once. With a player token, the creator's seat is
    linked to the player: it lists the game, and its token opens the seat."""
    player = _player()
    access = _games().create(spec["seats"], spec["options"], spec.get("creator_seat"),
                               _live_games_caps(), player, spec["rated"])
    response = _json(access.game, seat_access_body(access, with_invites=True), status=201)
    response.headers["Location"] = f"/v1/games/{access.game.game_id}"
    return response


@blp.route("/<game_id>/join", methods=["POST"])
@blp.doc(operationId="joinGame", security=PLAYER_OPTIONAL,
         responses={200: {"links": _links("$response.body#/token")}}, parameters=[
             _header("Idempotency-Key", "Any unique string: a retry with the same key and code "
                                        "returns the same seat token (a lost response never "
                                        "loses the seat)", pattern=IDEMPOTENCY_KEY_PATTERN),
         ])
@document_errors(blp, 400, 413, 415, 422, 500)
@PLAYER_UNAUTHORIZED
@_problem(403, "invalid_invite", "The code opens no seat of this game (invalid_invite)")
@NOT_FOUND
@_problem(409, "seat_taken", "The seat of this code is already taken (seat_taken), the player "
                             "holds another seat of this game (player_already_seated), or the "
                             "player has CRIBBAGE_MAX_LIVE_GAMES_PER_PLAYER games in play "
                             "(too_many_live_games)", {"seat": 1})
@UNAVAILABLE
@blp.arguments(JoinSchema, example=examples.JOIN_REQUEST)
@blp.documented_response(200, SeatTokenSchema, example=examples.JOINED, headers=ETAG_HEADER)
def join_game(join: dict, game_id: str):
    """Take an open seat with its invite code

    Returns the seat's token (shown only here, and to a retry with the same Idempotency-Key).
    Each invite code works once. With a player token, the seat is linked to the player."""
    player = _player()
    access = _games().join(_game_id(game_id), join["code"], join.get("name"),
                             _idempotency_key(), player)
    return _json(access.game, seat_access_body(access, with_invites=False))


@blp.route("/<game_id>/seats/<int:seat>", methods=["PATCH"])
@blp.doc(operationId="renameSeat", security=TOKEN_REQUIRED)
@document_errors(blp, 400, 413, 415, 422, 500)
@UNAUTHORIZED
@FORBIDDEN
@NOT_FOUND
@UNAVAILABLE
@blp.arguments(RenameSchema, example=examples.RENAME_REQUEST)
@blp.documented_response(200, GameSchema, example=examples.RENAMED, headers=ETAG_HEADER)
def rename_seat(rename: dict, game_id: str, seat: int):
    """Change the name your seat shows

    Every seat sees the new name, and a `seat_renamed` event says it. Only the seat's own
    token may rename it."""
    snapshot = _games().rename(_game_id(game_id), _token(), seat, rename["name"])
    return _json(snapshot, game_body(snapshot))


@blp.route("", methods=["GET"])
@blp.doc(operationId="listLiveGames",
         responses={200: {"links": {"watchGame": {
             "operationId": "getGame", "parameters": {"game_id": "$response.body#/games/0/game_id"},
             "description": "Watch the first game listed, as a spectator"}}}})
@document_errors(blp, 500)
@_problem(422, "invalid_cursor", "The query does not follow the schema, or the cursor is not "
                                 "one a page gave (invalid_cursor)", field="cursor")
@UNAVAILABLE
@blp.arguments(LiveGamesQuerySchema, location="query")
@blp.documented_response(200, LiveGamesSchema, example=examples.LIVE_GAMES)
def list_live_games(query: dict):
    """List the games open to spectators

    The games in play, the newest first, a page at a time (`next_cursor`), each by its public
    parts: seats' names, scores, phase. Watch one with GET /v1/games/{game_id} without a token
    (a spectator sees no hand)."""
    page = live_games(current_app.extensions[TABLE], query.get("cursor"), query["limit"])
    return json_response({"games": [live_game_body(game) for game in page.games],
                          "next_cursor": page.cursor})


@blp.route("/<game_id>", methods=["GET"])
@blp.doc(operationId="getGame", security=TOKEN_OPTIONAL,
         responses={200: {"links": FOLLOW_LINKS}},
         parameters=[_header("If-None-Match", "An ETag from an earlier read: 304 if unchanged")])
@document_errors(blp, 500)
@MALFORMED_TOKEN
@FORBIDDEN
@NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, GameSchema, example=examples.GAME, headers=ETAG_HEADER)
@blp.alt_response(304, description="Not modified since the If-None-Match ETag")
def get_game(game_id: str):
    """Read the game as a seat or a spectator

    With a seat token: the public state plus the seat's own cards and legal actions. Without
    one: what a spectator may see. Deadlines that passed are applied first."""
    snapshot = _games().read(_game_id(game_id), _token())
    current = etag(snapshot)
    if none_match(request.headers.get("If-None-Match"), current):
        response = Response(status=304)
        _cache_headers(response, current)
        return response
    return _json(snapshot, game_body(snapshot))


@blp.route("/<game_id>/actions", methods=["POST"])
@blp.doc(operationId="actInGame", security=TOKEN_REQUIRED,
         responses={200: {"links": FOLLOW_LINKS}}, parameters=[
             _header("Idempotency-Key", "Any unique string: a retry with the same key applies "
                                        "nothing twice and returns the game as it is now (the "
                                        "first response, while nothing else happened)",
                     pattern=IDEMPOTENCY_KEY_PATTERN),
             _header("If-Match", "The ETag of the version you acted on (or a list of them, or "
                                 "`*`): 412 if the game has moved on", pattern=IF_MATCH_PATTERN),
         ])
@document_errors(blp, 400, 413, 415, 500)
@UNAUTHORIZED
@FORBIDDEN
@NOT_FOUND
@_problem(409, "not_your_turn",
          "The rules refuse the action in the game's state: not_your_turn, wrong_phase, "
          "card_not_in_hand, count_would_exceed_31, wrong_discard_count, invalid_cut_depth, "
          "invalid_claim (items and points disagree, or name cards not shown), nothing_to_call, "
          "not_a_claim_phase, game_over, too_late_to_abort (the first card has been played)")
@_problem(412, "version_mismatch", "If-Match names a version the game has left "
                                   "(version_mismatch)", {"version": 6})
@_problem(422, "invalid_action",
          "The action does not follow its schema, or what the schema cannot say: a claim with "
          "neither points nor items, or a play with both card and cards or neither "
          "(invalid_action), the same card twice under two names "
          "(duplicate_card), a rank alone held more than once (ambiguous_card), an "
          "Idempotency-Key reused with another body (idempotency_key_reused)")
@UNAVAILABLE
@blp.arguments(ActionSchema, examples=examples.ACTION_REQUESTS)
@blp.documented_response(200, GameSchema, example=examples.ACTED, headers=ETAG_HEADER)
def act_in_game(action: ActionRequest, game_id: str):
    """Act as your seat: cut, discard, play, claim, call muggins, resign, ...

    One action a request, each type with its own fields (see Action). A "go" needs no request.
    Computer seats then act before the response returns; it shows the game after them."""
    key = _idempotency_key()
    token = _token()
    if token is None:
        raise TokenRequired("acting needs the seat's token")
    snapshot = _games().act(_game_id(game_id), token, action, key,
                              accepted_versions(request.headers.get("If-Match")))
    return _json(snapshot, game_body(snapshot))


@blp.route("/<game_id>/events", methods=["GET"])
@blp.doc(operationId="listEvents", security=TOKEN_OPTIONAL)
@document_errors(blp, 500)
@MALFORMED_TOKEN
@FORBIDDEN
@NOT_FOUND
@_problem(422, "after_out_of_range",
          "`after` beyond the game's last event (after_out_of_range, what the schema cannot "
          "say), or `after` or `wait` outside the schema's range (validation_failed)",
          {"events": 6, "after": 9}, field="after")
@UNAVAILABLE
@blp.arguments(EventsQuerySchema, location="query")
@blp.documented_response(200, EventsSchema, examples={
    "opening": {"summary": "The opening cut, the deal and a discard", "value": examples.EVENTS},
    "game_over": {"summary": "The end of a game: its hand's seed, then the game seed, revealed",
                  "value": examples.GAME_OVER_EVENTS}})
def list_events(query: dict, game_id: str):
    """The game's numbered events, as your seat sees them

    Events numbered after `after`; with `wait` (at most 25 s) the request is held until the
    first one comes. Private parts (your cards) are included only for your own seat."""
    page = _games().events(_game_id(game_id), _token(), query["after"], query["wait"])
    response = json_response(events_body(page))
    _cache_headers(response, None)
    return response


@blp.route("/<game_id>/analysis", methods=["GET"])
@blp.doc(operationId="getGameAnalysis", security=TOKEN_OPTIONAL)
@document_errors(blp, 500)
@MALFORMED_TOKEN
@FORBIDDEN
@NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, GameAnalysisSchema, examples={
    "own": {"summary": "A seat's own decisions of a finished hand, the game still on",
            "value": examples.OWN_ANALYSIS},
    "over": {"summary": "Every seat's decisions once the game is over",
             "value": examples.GAME_ANALYSIS},
    "teams": {"summary": "Four players in teams: no chance to win (more than two players)",
              "value": examples.TEAM_ANALYSIS}})
def get_game_analysis(game_id: str):
    """The game's decisions, judged by `hard`

    For each discard and each card played by choice (a forced card or a go is no decision):
    what was chosen, what `hard` chooses in the same position, the expected points lost and,
    in two-player games, the chance to win lost (null with more players, teams included); and
    a summary per seat and per side. Each position is rebuilt from the game's events as its
    seat saw it. You see your own decisions of each hand once its show is over, and every
    seat's once the game (or its match) is over; a spectator sees none before the end. A hand
    being played is not analysed."""
    analysis = _games().analysis(_game_id(game_id), _token(), cpu_client())
    response = json_response(analysis_body(analysis))
    _cache_headers(response, None)
    return response


@blp.route("/<game_id>/stream-tickets", methods=["POST"])
@blp.doc(operationId="createStreamTicket", security=TOKEN_REQUIRED)
@document_errors(blp, 500)
@UNAUTHORIZED
@FORBIDDEN
@NOT_FOUND
@UNAVAILABLE
@blp.documented_response(201, StreamTicketSchema, example=examples.TICKET)
def create_stream_ticket(game_id: str):
    """A one-time pass to your seat's event stream

    For clients that cannot send headers on a stream (a browser's EventSource): the ticket
    stands for the seat token once, for a minute, so the token never travels in a URL."""
    ticket = _tickets().issue(_game_id(game_id), _token())
    response = json_response({"ticket": ticket.ticket, "expires_in": ticket.expires_in},
                             status=201)
    _cache_headers(response, None)
    return response


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.doc(operationId="streamGame", security=TOKEN_OPTIONAL, parameters=[
             _header("Last-Event-ID", "Resume after this event (EventSource sends it when it "
                                      "reconnects)", pattern="^[0-9]{1,9}$")],
         responses={200: {"description": STREAM_DESCRIPTION,
                          "content": {"text/event-stream": {"schema": SSE_MESSAGE,
                                                            "example": STREAM_EXAMPLE}}},
                    204: {"description": "The game is over and you have all its events: "
                                         "EventSource stops reconnecting"}})
@document_errors(blp, 500)
@MALFORMED_TOKEN
@_problem(403, "invalid_ticket", "The token holds no seat of this game (invalid_token), or the "
                                 "stream ticket is unknown, used or expired (invalid_ticket)")
@NOT_FOUND
@_problem(422, "after_out_of_range",
          "`after` or Last-Event-ID beyond the game's last event (after_out_of_range, what the "
          "schema cannot say), or `after` outside the schema's range (validation_failed)",
          {"events": 6, "after": 9}, field="after")
@UNAVAILABLE
@blp.arguments(StreamQuerySchema, location="query")
def stream_game(query: dict, game_id: str):
    """The game as Server-Sent Events, as your seat sees it

    A snapshot of the game first, then every event as it happens and the seat's state after
    each batch, a heartbeat comment at least every 15 s; the stream ends with the game. Send
    your seat token as Authorization, or a stream ticket as `ticket`; with neither you watch
    as a spectator."""
    game_id = _game_id(game_id)
    token, seat = _token(), None
    if token is None and "ticket" in query:
        seat = _tickets().redeem(game_id, query["ticket"])
    after = query.get("after", _last_event_id())
    items = _games().follow(game_id, token, after, seat)
    first = next(items)
    if not isinstance(first, GameSnapshot):
        items.close()
        raise TypeError("a game's stream starts with its snapshot")
    if first.ended and after is not None and after >= first.last_event:
        items.close()
        return Response(status=204)
    # After the snapshot, `follow` yields pages and heartbeats (None) only.
    pages = cast("Generator[EventsPage | None, None, None]", items)
    response = Response(server_sent_events(first, pages, request_language()),
                        content_type="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # proxies must pass each event on at once
    return response


@blp.route("/<game_id>/rematch", methods=["POST"])
@blp.doc(operationId="rematchGame", security=TOKEN_REQUIRED,
         responses={201: {"links": _links("$response.body#/token")}}, parameters=[
             _header("Idempotency-Key", "Any unique string: a retry with the same key gets the "
                                        "same token for the new game back",
                     pattern=IDEMPOTENCY_KEY_PATTERN)])
@document_errors(blp, 500)
@UNAUTHORIZED
@FORBIDDEN
@NOT_FOUND
@_problem(409, "game_not_over",
          "The game is not over (game_not_over), your seat has accepted this rematch already "
          "(rematch_already_accepted), or starting it would take a player past its cap "
          "(too_many_live_games)", {"phase": "play"})
@_problem(422, "invalid_idempotency_key", "An Idempotency-Key that is not 1 to 255 visible "
                                          "ASCII characters (invalid_idempotency_key)",
          field="Idempotency-Key")
@UNAVAILABLE
@blp.documented_response(201, RematchAccessSchema, example=examples.REMATCH_STARTED)
@blp.alt_response(202, schema=RematchAccessSchema, example=examples.REMATCH_OFFERED,
                  description="Offered or accepted: the rematch starts once every human seat "
                              "has accepted (event rematch_started in this game)")
def rematch_game(game_id: str):
    """Offer a rematch of a finished game, or accept the one offered

    The new game has the same seats (computers too) and options, a new shuffle, and its
    first deal goes to the seat after this game's first dealer. The first call offers it
    (event rematch_offered), each other human seat accepts with the same call
    (rematch_accepted); every call gets that seat's token for the new game, shown only here.
    When the last one accepts, the game starts (rematch_started, 201 with the game). An offer
    lapses after an hour; DELETE declines it."""
    access = _rematches().offer_or_accept(_game_id(game_id), _token(), _idempotency_key(),
                                          _live_games_caps())
    response = json_response(rematch_access_body(access),
                             status=201 if access.started is not None else 202)
    _cache_headers(response, None)
    if access.game.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@blp.route("/<game_id>/rematch", methods=["DELETE"])
@blp.doc(operationId="declineRematch", security=TOKEN_REQUIRED)
@document_errors(blp, 500)
@UNAUTHORIZED
@FORBIDDEN
@NOT_FOUND
@_problem(409, "no_rematch_offer", "There is no open rematch offer (no_rematch_offer)")
@UNAVAILABLE
@blp.documented_response(200, GameSchema, example=examples.REMATCH_DECLINED,
                         headers=ETAG_HEADER)
def decline_rematch(game_id: str):
    """Decline the rematch offered (or withdraw your acceptance)

    The offer will not start (event rematch_declined); any seat may offer a new one."""
    snapshot = _rematches().decline(_game_id(game_id), _token())
    return _json(snapshot, game_body(snapshot))


# Request and response details --------------------------------------------------------------------
def _live_games_caps() -> list[LiveGamesCap]:
    limit = current_app.config["SETTINGS"].max_live_games_per_client
    if not limit:
        return []
    return [LiveGamesCap(address_owner(client_address()), limit)]


def _player() -> Player | None:
    """The player of a player token in Authorization, None without one; 401 if it is none."""
    token = _token()
    return None if token is None else _players().identify(token)


def _game_id(text: str) -> str:
    if not GAME_ID.fullmatch(text):
        raise GameNotFound(f"there is no game {text}", game_id=text)
    return text


def _token() -> str | None:
    """The Bearer token, or None without an Authorization header; 401 if it is not Bearer."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    found = BEARER.fullmatch(header.strip())
    if found is None:
        raise TokenRequired("use Authorization: Bearer <seat token>")
    return found.group(1)


def _last_event_id() -> int | None:
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return None
    if not LAST_EVENT_ID.fullmatch(header):
        raise InvalidInputError("Last-Event-ID must be an event number",
                                code="invalid_last_event_id", field="Last-Event-ID")
    return int(header)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise InvalidInputError("Idempotency-Key must be 1 to 255 visible ASCII characters",
                                code="invalid_idempotency_key", field="Idempotency-Key")
    return key


def _cache_headers(response: Response, tag: str | None) -> None:
    if tag is not None:
        response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")


def _json(snapshot: GameSnapshot, body: dict, status: int = 200) -> Response:
    response = json_response(body, status=status)
    _cache_headers(response, etag(snapshot))
    if snapshot.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response
