"""RFC 9457 problem+json: every error the API returns is built here, in the client's language."""
from __future__ import annotations

import json
import logging

import marshmallow as ma
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from service.api.language import request_language
from service.api.validation_messages import translate_errors
from service.i18n import problem_text

PROBLEM_MEDIA_TYPE = "application/problem+json"
TYPE_PREFIX = "urn:cribbage:problem:"

log = logging.getLogger(__name__)

# HTTP status of each domain error code; codes not listed are malformed input (422).
# Other modules add theirs with `register_status` (e.g. rule violations of a game: 409).
STATUS_BY_CODE: dict[str, int] = {}

# Where a domain error points when it names no field itself.
DEFAULT_FIELD_BY_CODE = {"count_exceeds_31": "pile"}

_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
               406: "not_acceptable", 413: "payload_too_large", 415: "unsupported_media_type"}


def register_status(code: str, status: int) -> None:
    STATUS_BY_CODE[code] = status


class Problem(Exception):
    """Raise from a view to answer with a problem: `code` picks the localized title and detail."""

    def __init__(self, status: int, code: str, fallback: str = "", *, headers=None,
                 extra: dict | None = None, **params):
        super().__init__(fallback or code)
        self.status = status
        self.code = code
        self.fallback = fallback
        self.headers = headers or {}
        self.extra = extra or {}
        self.params = params


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


def problem_response(status: int, code: str, *, fallback: str = "", params: dict | None = None,
                     extra: dict | None = None, headers=None) -> Response:
    language = request_language()
    title, detail = problem_text(code, language, params or {}, fallback)
    body = {"type": TYPE_PREFIX + code, "title": title, "status": status, "detail": detail,
            "code": code, **(extra or {})}
    response = Response(json.dumps(body, ensure_ascii=False), status=status,
                        mimetype=PROBLEM_MEDIA_TYPE, headers=headers)
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(Problem, _handle_problem)
    app.register_error_handler(HTTPException, _handle_http_exception)
    app.register_error_handler(Exception, _handle_exception)


def _handle_problem(error: Problem) -> Response:
    return problem_response(error.status, error.code, fallback=error.fallback,
                            params=error.params, extra=error.extra, headers=error.headers)


def _handle_http_exception(error: HTTPException) -> Response:
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if error.code == 422 and messages is not None:
        return _handle_problem(validation_problem(messages.get("json", messages)))
    if error.code == 400 and messages is not None:
        return problem_response(400, "invalid_json", fallback="invalid JSON")
    headers = [(name, value) for name, value in error.get_headers()
               if name.lower() != "content-type"]
    code = _HTTP_CODES.get(error.code, "http_error")
    params = {"path": request.path, "method": request.method,
              "allowed": ", ".join(getattr(error, "valid_methods", None) or ()),
              "limit": request.max_content_length, "description": error.description or ""}
    return problem_response(error.code or 500, code, fallback=error.description or "",
                            params=params, headers=headers)


def _handle_exception(error: Exception) -> Response:
    code = getattr(error, "code", None)
    if isinstance(code, str) and isinstance(error, ValueError):
        return domain_problem(error)
    if isinstance(error, RecursionError):  # JSON nested too deeply to read
        return problem_response(400, "invalid_json", fallback="invalid JSON")
    log.exception("unexpected error on %s %s", request.method, request.path)
    return problem_response(500, "internal_error", fallback="internal error")


def domain_problem(error: ValueError) -> Response:
    """A domain error (a ValueError with a stable `.code`, `.params` and maybe `.index`)."""
    code = error.code
    params = dict(getattr(error, "params", None) or {})
    index = getattr(error, "index", None)
    field = params.get("field") or DEFAULT_FIELD_BY_CODE.get(code)
    where = params.get("where") or field or ""
    if field and index is not None:
        where = f"{field}[{index}]"
    if where:  # else a detail that starts with the field falls back to the error's own message
        params.setdefault("where", where)
    params.setdefault("field", field or "")
    extra = {}
    if where:
        extra["field"] = where
    if index is not None:
        extra["index"] = index
    return problem_response(STATUS_BY_CODE.get(code, 422), code, fallback=str(error),
                            params=params, extra=extra)


def validation_problem(messages) -> Problem:
    """A 422 naming each invalid field, with marshmallow's messages in the request's language."""
    errors = translate_errors(flatten_messages(messages), request_language())
    return Problem(422, "validation_failed", "invalid request", fields=", ".join(errors),
                   extra={"errors": errors})


def flatten_messages(messages, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow's nested messages as {"hand[0]": [...], "crib": [...]}; `_schema` is "body"."""
    if isinstance(messages, (list, tuple)):
        if all(isinstance(message, str) for message in messages):
            return {prefix or "body": list(messages)}
        flat = {}
        for message in messages:
            flat.update(flatten_messages(message, prefix))
        return flat
    if not isinstance(messages, dict):
        return {prefix or "body": [str(messages)]}
    flat: dict[str, list[str]] = {}
    for key, value in messages.items():
        if key == "_schema":
            name = prefix or "body"
        elif isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            name = f"{prefix}[{key}]"
        else:
            name = f"{prefix}.{key}" if prefix else str(key)
        for field, texts in flatten_messages(value, name).items():
            flat.setdefault(field, []).extend(texts)
    return flat
