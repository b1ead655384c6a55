"""Fast JSON responses and the documented error responses shared by the operations."""
from __future__ import annotations

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
    400: ("The body is not valid JSON",
          _problem_example(400, "invalid_json", "Bad request",
                           "The request body is not valid JSON")),
    413: ("The body is larger than 64 KiB",
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


def document_errors(blp, *statuses: int, refusals: str = ""):
    """Decorator documenting the problem+json responses `statuses` of an operation; `refusals`
    names what its 422 refuses in a body that follows the schema (what the schema cannot say)."""
    def decorator(view):
        for status in statuses:
            description, example = ERRORS[status]
            if status == 422 and refusals:
                description += f". The schema cannot say it, but also refused: {refusals}"
            view = blp.alt_response(status, schema=ProblemSchema, content_type=PROBLEM_MEDIA_TYPE,
                                    description=description, example=example)(view)
        return view
    return decorator
