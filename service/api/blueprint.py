"""The Blueprint every API module uses: JSON bodies read defensively, lean runtime wrappers."""
from __future__ import annotations

import functools
import io
import json

import flask_smorest
import marshmallow as ma
from flask import request
from webargs.core import is_json
from werkzeug.exceptions import (BadRequest, ClientDisconnected, RequestEntityTooLarge,
                                 RequestTimeout)

from service.api.problems import Problem, validation_problem

# The largest request body accepted (the app's MAX_CONTENT_LENGTH too); larger is a 413.
MAX_BODY_BYTES = 64 * 1024


def load_json_body(schema: ma.Schema, limit: int = MAX_BODY_BYTES):
    """The request body (at most `limit` bytes) loaded by `schema`.

    Raises Problem: 415 for a body not declared JSON, 400 for unreadable JSON (bad syntax,
    bad UTF-8, absurd nesting), 422 naming each invalid field. An empty body is an empty
    object, so every required field is reported missing.
    """
    # One proxy lookup, not one per attribute. Flask types `request` as the Request it stands
    # for; it is a werkzeug LocalProxy.
    current = request._get_current_object()  # type: ignore[attr-defined]
    raw = read_body(current, limit)
    if not raw:
        data = {}
    elif not is_json(current.environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()):
        raise Problem(415, "unsupported_media_type", "send application/json")
    else:
        data = parse_json(raw)
    try:
        return schema.load(data)
    except ma.ValidationError as error:
        raise validation_problem(error.messages) from None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


# One decoder, made once: json.loads with any option builds a new one on every call.
_STRICT_JSON = json.JSONDecoder(parse_constant=_reject_constant)


def parse_json(raw: bytes):
    """`raw` parsed as JSON, strictly (RFC 8259): UTF-8 only, no NaN or Infinity, no escaped
    lone surrogate (it could not be written back as UTF-8). Raises Problem 400, also for nesting
    deeper than the recursion limit.

    Not orjson: its loads runs AVX-512 code, and on the Xeons this service runs on, the Python
    code after it then runs about 15% slower for a while, far more than its faster parse saves
    (bench/json_parsers.py).
    """
    try:
        text = raw.decode("utf-8")
        data = _STRICT_JSON.decode(text)
        if "\\u" in text:
            json.dumps(data, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate
    # UnicodeError and JSONDecodeError are ValueErrors
    except (ValueError, RecursionError):
        raise Problem(400, "invalid_json", "invalid JSON") from None
    return data


def read_body(current, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request body, read straight from the WSGI input: werkzeug's general reader costs a
    scoring request 5-20 microseconds more. Over `limit`: 413. A body that does not arrive in
    time (reading it raises TimeoutError: the server's read timeout or body deadline): 408. One
    the server cannot read (it raises OSError or ValueError, as werkzeug's own server and
    service/server/worker.py do for a malformed chunk): 400."""
    if limit != MAX_BODY_BYTES:
        current.max_content_length = limit  # what a 413 names
    environ = current.environ
    length = environ.get("CONTENT_LENGTH", "")
    try:
        if not length.isdigit() or environ.get("HTTP_TRANSFER_ENCODING"):
            return _read_unsized(environ, limit)
        size = int(length)
        if size > limit:
            raise RequestEntityTooLarge()
        raw = environ["wsgi.input"].read(size) if size else b""
    except TimeoutError:
        raise RequestTimeout() from None
    except (OSError, ValueError):
        raise BadRequest() from None
    if len(raw) < size:
        raise ClientDisconnected()
    environ["wsgi.input"] = io.BytesIO(raw)  # still there for anyone reading the body later
    return raw


def _read_unsized(environ, limit: int) -> bytes:
    """A body of no announced size (chunked), to its end but at most one byte past `limit`: a
    longer body is refused, not cut (as werkzeug's get_data would, without a word). Only from a
    server that marks where such a body ends (wsgi.input_terminated); from any other, none. The
    server drains what is left of a refused body before the next request on the connection."""
    if not environ.get("wsgi.input_terminated"):
        return b""
    stream = environ["wsgi.input"]
    buffer = bytearray()
    while len(buffer) <= limit and (part := stream.read(limit + 1 - len(buffer))):
        buffer += part
    if len(buffer) > limit:
        raise RequestEntityTooLarge()
    raw = bytes(buffer)
    environ["wsgi.input"] = io.BytesIO(raw)
    return raw


def _documentation_only(decorator):
    """Apply a flask-smorest decorator for the documentation it records, keeping the view itself.

    flask-smorest wraps the view once per decorator, and each wrapper dispatches through
    `current_app.ensure_sync`; for decorators that only document, that is time spent on every
    request for nothing.
    """
    def apply(view):
        view._apidoc = decorator(view)._apidoc
        return view
    return apply


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with lean runtime wrappers.

    `doc` and `alt_response` only document. `arguments` adds one wrapper that loads the JSON
    body with `load_json_body` (at most `body_limit` bytes) or the query with `load_query`.
    `response` dumps the view's return value with its schema as usual; `documented_response`
    only documents, for views that return a finished Response (e.g. from
    `service.api.responses.json_response`).
    """

    def doc(self, **kwargs):
        return _documentation_only(flask_smorest.Blueprint.doc(**kwargs))

    def alt_response(self, status_code, *args, **kwargs):
        return _documentation_only(super().alt_response(status_code, *args, **kwargs))

    def documented_response(self, status_code, schema=None, **kwargs):
        return _documentation_only(super().response(status_code, schema, **kwargs))

    def arguments(self, schema, *, location="json", body_limit: int = MAX_BODY_BYTES, **kwargs):
        documenting = super().arguments(schema, location=location, **kwargs)
        if location not in ("json", "query") or set(kwargs) - {
                "example", "examples", "description", "required", "content_type"}:
            return documenting
        instance = schema() if isinstance(schema, type) else schema

        def load():
            if location == "query":
                return load_query(instance)
            return load_json_body(instance, body_limit)

        def decorator(view):
            @functools.wraps(view)
            def with_arguments(*args, **view_kwargs):
                return view(*args, load(), **view_kwargs)
            with_arguments._apidoc = documenting(view)._apidoc
            return with_arguments
        return decorator


def load_query(schema: ma.Schema):
    """The query string loaded by `schema` (the first value of a repeated parameter, unknown
    ones ignored, as webargs does), without webargs' per-request schema and proxies: a long
    poll asked again and again is mostly this request path. Raises Problem 422 naming each
    invalid parameter as `query.<name>`."""
    try:
        return schema.load(request.args.to_dict(), unknown=ma.EXCLUDE)
    except ma.ValidationError as error:
        raise validation_problem({"query": error.messages}) from None

