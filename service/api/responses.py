"""Fast JSON responses and the documented error responses shared by the operations."""
from __future__ import annotations

import copy

import orjson
from flask import Response

from service.api.messages import DEFAULT_LANGUAGE, problem_text
from service.api.problems import PROBLEM_MEDIA_TYPE, TYPE_PREFIX, ProblemSchema


def card_texts(cards) -> list[str]:
    """Cards as a response lists them: their canonical texts."""
    return [card.text for card in cards]


def json_response(payload, *, status: int = 200) -> Response:
    """The payload as JSON. The view builds the payload from domain values; its schema only
    documents it (no second serialization pass)."""
    # content_type, not mimetype: werkzeug's mimetype handling costs more than a small view
    return Response(orjson.dumps(payload), status=status, content_type="application/json")


def _problem_example(status: int, code: str, title: str, detail: str, **extra) -> dict:
    return {"type": TYPE_PREFIX + code, "title": title, "status": status, "detail": detail,
            "code": code, **extra}


def problem_example(status: int, code: str, params: dict | None = None, **extra) -> dict:
    """The problem the service answers for `code` with `params`, worded from the catalogue."""
    title, detail = problem_text(code, DEFAULT_LANGUAGE, params or {}, "")
    if not detail:
        raise ValueError(f"{code}: the example lacks a param of its detail")
    return _problem_example(status, code, title, detail, **extra)


# status -> (description, example) of each error an operation may document.
ERRORS = {
    400: ("The body is not valid JSON (invalid_json), or cannot be read at all, e.g. a malformed "
          "chunked encoding (bad_request)",
          _problem_example(400, "invalid_json", "Bad request",
                           "The request body is not valid JSON")),
    413: ("The body is larger than 64 KiB (payload_too_large)",
          _problem_example(413, "payload_too_large", "Payload too large",
                           "The request body is larger than 65536 bytes")),
    415: ("The body is not sent as application/json",
          _problem_example(415, "unsupported_media_type", "Unsupported media type",
                           "Send the request body as application/json")),
    422: ("The body is well-formed JSON but not a valid request (a field, an unknown or "
          "repeated card, an impossible count)",
          _problem_example(422, "unknown_card", "Unknown card", 'hand[2]: "5X" is not a card',
                           field="hand[2]", index=2)),
    500: ("Unexpected error (a bug; it is logged)",
          _problem_example(500, "internal_error", "Internal server error",
                           "An unexpected error occurred; it has been logged")),
    503: ("The service is not ready",
          _problem_example(503, "not_ready", "Service unavailable",
                           "The service is not ready: store")),
}
BODY_ERRORS = (400, 413, 415, 422, 500)


def document_errors(blp, *statuses: int, refusals: str = "", body_limit: int | None = None):
    """Decorator documenting the problem+json responses `statuses` of an operation; `refusals`
    names what its 422 refuses in a body that follows the schema (what the schema cannot say),
    `body_limit` the bytes its body may have, when not the usual 64 KiB."""
    def decorator(view):
        for status in statuses:
            description, example = ERRORS[status]
            if status == 422 and refusals:
                description += f". The schema cannot say it, but also refused: {refusals}"
            if status == 413 and body_limit is not None:
                description = (f"The body is larger than {body_limit // 1024} KiB "
                               "(payload_too_large)")
                example = problem_example(413, "payload_too_large", {"limit": body_limit})
            view = blp.alt_response(status, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                                    description=description, example=example)(view)
        return view
    return decorator


def document_on_every_operation(app, status: int, response: dict,
                                except_paths: frozenset[str] = frozenset(),
                                with_body_only: bool = False) -> None:
    """Add `response` under `status` to every operation the app has registered so far
    (`with_body_only`: to every one that takes a request body)."""
    spec = app.extensions["cribbage.api"].spec
    # apispec keeps registered operations in `_paths`; flask-smorest serves them from there.
    for path, operations in spec._paths.items():
        if path in except_paths:
            continue
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if with_body_only and "requestBody" not in operation:
                continue
            operation["responses"].setdefault(str(status), copy.deepcopy(response))


def _unreadable(status: int, code: str, description: str) -> dict:
    return {"description": description, "content": {PROBLEM_MEDIA_TYPE: {
        "schema": {"$ref": "#/components/schemas/Problem"},
        "example": problem_example(status, code)}}}


# What the server (service/server/worker.py) answers before a request reaches the app.
UNREADABLE_REQUESTS = {
    414: _unreadable(414, "uri_too_long", "The request line is longer than the server reads "
                                          "(4094 bytes)"),
    431: _unreadable(431, "header_fields_too_large", "More header fields, or longer ones, than "
                                                     "the server reads"),
}
# What the app answers when the server stops waiting for a request's body.
SLOW_BODY = _unreadable(408, "request_timeout", "The body did not arrive in time: nothing of it "
                                                "came for CRIBBAGE_READ_TIMEOUT seconds (30), or "
                                                "all of it took over CRIBBAGE_BODY_SECONDS (60); "
                                                "the connection closes")


def document_unreadable_requests(app) -> None:
    """Document the server's refusals of requests too large to read on every operation, and of
    a body too slow on every operation that takes one."""
    for status, response in UNREADABLE_REQUESTS.items():
        document_on_every_operation(app, status, response)
    document_on_every_operation(app, 408, SLOW_BODY, with_body_only=True)
