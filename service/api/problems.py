"""RFC 9457 problem+json: every error the API returns is built here, in the client's language.

Errors are classes, and one table says what each means in HTTP: the domain's (service.errors,
service.games.errors), the store's, and the API's own `Problem` for a request that cannot be
read. One handler turns any of them into a problem.
"""
from __future__ import annotations

import json
import logging

import marshmallow as ma
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from service.api.language import request_language
from service.api.item_errors import domain_params, flatten_messages
from service.api.messages import problem_text, translate_errors
from service.compute import ComputeRefused, CpuBudgetExhausted
from service.errors import DomainError, IllegalActionError, InvalidInputError
from service.games.errors import (GameBusy, GameNotFound, PlayerBusy, SeatRefused,
                                  SeekNotFound, SeekRefused,
                                  TokenRequired, TooManyLiveGames, VersionMismatch)
from service.store import StoreFull, StoreUnavailable

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:cribbage:problem:"
RETRY_AFTER_SECONDS = "1"
# A full store frees memory only as games expire or an operator acts: retrying sooner is futile.
RETRY_AFTER_FULL_SECONDS = "30"

log = logging.getLogger(__name__)

# The HTTP status of each error class; an error takes the status of the first of its classes
# (its own, then its bases) found here.
STATUS_OF: dict[type[Exception], int] = {
    InvalidInputError: 422,
    IllegalActionError: 409,
    GameNotFound: 404,
    SeekNotFound: 404,
    SeekRefused: 403,
    TokenRequired: 401,
    SeatRefused: 403,
    VersionMismatch: 412,
    TooManyLiveGames: 409,  # not a rate: retrying helps only once a game of the client ends
    GameBusy: 503,
    PlayerBusy: 503,
    StoreFull: 503,
    StoreUnavailable: 503,
    CpuBudgetExhausted: 429,
    ComputeRefused: 503,
    DomainError: 422,
}
# Headers each status adds: how to authenticate, when to come back.
HEADERS_OF = {401: {"WWW-Authenticate": "Bearer"}, 408: {"Connection": "close"},
              503: {"Retry-After": RETRY_AFTER_SECONDS}}

_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
               406: "not_acceptable", 408: "request_timeout", 413: "payload_too_large",
               415: "unsupported_media_type"}


class Problem(Exception):
    """A request the API cannot read (a body that is not JSON, a field marshmallow refuses):
    `code` picks the localized title and detail."""

    def __init__(self, status: int, code: str, fallback: str = "", *,
                 extra: dict | None = None, **params):
        super().__init__(fallback or code)
        self.status = status
        self.code = code
        self.fallback = fallback
        self.extra = extra or {}
        self.params = params


class ItemErrorSchema(ma.Schema):
    """What is wrong with one item of a batch (documentation only: built by `item_problem`)."""

    index = ma.fields.Integer(required=True, metadata={"description": "The item's position"})
    code = ma.fields.String(required=True, metadata={"example": "unknown_card"})
    field = ma.fields.String(required=True, metadata={"example": "shows[2].hand[1]"})
    detail = ma.fields.String(required=True, metadata={
        "description": "What is wrong, in the request's language",
        "example": 'shows[2].hand[1]: "5X" is not a card'})
    errors = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.List(ma.fields.String()),
        metadata={"description": "For `validation_failed`: the messages by field"})


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem detail (documentation only: problems are built by `problem_response`)."""

    type = ma.fields.String(required=True, metadata={
        "description": "URI naming the kind of problem (`about:blank` for plain HTTP errors)",
        "example": "urn:cribbage:problem:unknown_card"})
    title = ma.fields.String(required=True, metadata={"example": "Unknown card"})
    status = ma.fields.Integer(required=True, metadata={"example": 422})
    detail = ma.fields.String(required=True, metadata={
        "description": "What went wrong, in the request's language (Accept-Language: en, es)",
        "example": 'hand[2]: "5X" is not a card'})
    code = ma.fields.String(required=True, metadata={
        "description": "Stable machine-readable error code", "example": "unknown_card"})
    field = ma.fields.String(metadata={
        "description": "The request field at fault, with its index", "example": "hand[2]"})
    index = ma.fields.Integer(metadata={
        "description": "Position of the offending item in its list", "example": 2})
    errors = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.List(ma.fields.String()),
        metadata={"description": "Validation messages by field",
                  "example": {"hand": ["Length must be between 4 and 5."]}})
    items = ma.fields.List(ma.fields.Nested(ItemErrorSchema), metadata={
        "description": "For `invalid_items`: each refused item of the batch"})


def problem_response(status: int, code: str, *, fallback: str = "", params: dict | None = None,
                     extra: dict | None = None, headers=None) -> Response:
    """The problem+json response: title and detail in the request's language."""
    title, detail = problem_text(code, request_language(), params or {}, fallback)
    body = {"type": TYPE_PREFIX + code, "title": title, "status": status, "detail": detail,
            "code": code, **(extra or {})}
    return Response(json.dumps(body, ensure_ascii=False), status=status,
                    mimetype=PROBLEM_MEDIA_TYPE, headers=headers)


def init_app(app: Flask) -> None:
    app.register_error_handler(Exception, handle_error)


def handle_error(error: Exception) -> Response:
    """Any exception a view raised (or Flask did) as a problem; an unexpected one is a logged
    500."""
    if isinstance(error, Problem):
        return problem_response(error.status, error.code, fallback=error.fallback,
                                params=error.params, extra=error.extra)
    if isinstance(error, DomainError):
        return _domain_problem(error)
    if isinstance(error, StoreFull):
        return problem_response(503, "store_full", fallback="the game store is full",
                                headers={"Retry-After": RETRY_AFTER_FULL_SECONDS})
    if isinstance(error, StoreUnavailable):
        return problem_response(503, "store_unavailable", fallback="the game store is unavailable",
                                headers=HEADERS_OF[503])
    if isinstance(error, HTTPException):
        return _http_problem(error)
    if isinstance(error, RecursionError):  # JSON nested too deeply to read
        return problem_response(400, "invalid_json", fallback="invalid JSON")
    log.exception("unexpected error on %s %s", request.method, request.path)
    return problem_response(500, "internal_error", fallback="internal error")


def status_of(error: Exception) -> int:
    return next(STATUS_OF[cls] for cls in type(error).__mro__ if cls in STATUS_OF)


def _domain_problem(error: DomainError) -> Response:
    status = status_of(error)
    params, extra = domain_params(error, error.where)
    if error.index is not None:
        extra["index"] = error.index
    headers = dict(HEADERS_OF.get(status, {}))
    if "retry_after" in error.params:
        headers["Retry-After"] = str(error.params["retry_after"])
    return problem_response(status, error.code, fallback=str(error), params=params, extra=extra,
                            headers=headers)


def _http_problem(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if error.code == 422 and messages is not None:
        return handle_error(validation_problem(messages.get("json", messages)))
    if error.code == 400 and messages is not None:
        return problem_response(400, "invalid_json", fallback="invalid JSON")
    headers = [(name, value) for name, value in error.get_headers()
               if name.lower() != "content-type"]
    status = error.code or 500
    headers += HEADERS_OF.get(status, {}).items()
    code = _HTTP_CODES.get(status, "http_error")
    params = {"path": request.path, "method": request.method,
              "allowed": ", ".join(getattr(error, "valid_methods", None) or ()),
              "limit": request.max_content_length, "description": error.description or ""}
    return problem_response(status, code, fallback=error.description or "",
                            params=params, headers=headers)


def validation_problem(messages) -> Problem:
    """A 422 naming each invalid field, with marshmallow's messages in the request's language."""
    errors = translate_errors(flatten_messages(messages), request_language())
    return Problem(422, "validation_failed", "invalid request", fields=", ".join(errors),
                   extra={"errors": errors})
