"""Request ids, JSON log lines and Prometheus metrics (correct under several gunicorn workers).

The log line format is service/logs.py; the metrics themselves are defined in service/metrics.py
(the games service counts games there).

Metrics live in prometheus_client's multiprocess mode when PROMETHEUS_MULTIPROC_DIR is set
(deploy/gunicorn.conf.py sets it for 2+ workers): each worker writes its own files and whichever
worker answers /metrics adds them all up.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid

from flask import Flask, Response, has_request_context, request
from prometheus_client import REGISTRY, CollectorRegistry, multiprocess
from prometheus_client.exposition import choose_encoder
from werkzeug.wsgi import ClosingIterator

from service.api.language import language_headers
from service.api.metrics_access import may_read_metrics
from service.api.problems import HEADERS_OF, problem_response
from service.logs import JsonFormatter
from service.metrics import (IN_FLIGHT, LATENCY, REQUESTS, STORE_ERRORS, STORE_FULL,
                             WAIT_LATENCY)

REQUEST_ID_HEADER = "X-Request-ID"
# A client's id is kept only if it is short and plain; anything else is replaced by a new one,
# so a log line can never be forged or bloated through this header.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")
_ENVIRON_REQUEST_ID = "cribbage.request_id"
_ENVIRON_STARTED = "cribbage.started"

METRICS_ENDPOINT = "observability.metrics"
# Requests that may wait for a game to change: timed apart from the others (WAIT_LATENCY).
STREAM_ENDPOINT = "games.stream_game"
EVENTS_ENDPOINT = "games.list_events"
UNMATCHED_ROUTE = "<unmatched>"
_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


def request_id() -> str | None:
    """The current request's id, or None outside a request."""
    if not has_request_context():
        return None
    return request.environ.get(_ENVIRON_REQUEST_ID)


def init_app(app: Flask) -> None:
    """Request ids on every response, JSON log lines, and metrics served at /metrics (only to
    a request bearing CRIBBAGE_METRICS_TOKEN, when that is set: service/api/metrics_access.py)."""
    # Flask's documented way to wrap its WSGI app, which its types declare a method
    app.wsgi_app = _RequestIdMiddleware(app.wsgi_app)  # type: ignore[method-assign]
    app.after_request(_record_request)
    app.add_url_rule("/metrics", METRICS_ENDPOINT, _metrics, methods=["GET"])
    configure_logging(app.config["SETTINGS"].log_level)


class _RequestIdMiddleware:
    """Gives every request an id and a start time before Flask sees it, and echoes the id back,
    with the response's language headers (`service.api.language`).

    Working below Flask means even a request refused before any view (a rate limit, a 404)
    carries its id into the response and into the access log.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        environ[_ENVIRON_STARTED] = time.perf_counter()
        given = environ.get("HTTP_X_REQUEST_ID", "")
        rid = given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        environ[_ENVIRON_REQUEST_ID] = rid

        def start_with_request_id(status, headers, exc_info=None):
            # No view sets any of these headers: they are only ever added here.
            return start_response(
                status, [*headers, *language_headers(environ), (REQUEST_ID_HEADER, rid)], exc_info)

        IN_FLIGHT.inc()
        try:
            body = self.wsgi_app(environ, start_with_request_id)
        except BaseException:
            IN_FLIGHT.dec()
            raise
        return ClosingIterator(body, IN_FLIGHT.dec)  # a stream is in flight until it closes


def _record_request(response: Response) -> Response:
    route = request.url_rule.rule if request.url_rule is not None else UNMATCHED_ROUTE
    method = request.method if request.method in _METHODS else "OTHER"
    started = request.environ.get(_ENVIRON_STARTED)
    if started is not None:
        histogram = WAIT_LATENCY if _may_wait() else LATENCY
        histogram.labels(method, route).observe(time.perf_counter() - started)
    REQUESTS.labels(method, route, str(response.status_code)).inc()
    if response.status_code == 503:
        code = _problem_code(response)
        if code == "store_unavailable":
            STORE_ERRORS.labels(route).inc()
        elif code == "store_full":
            STORE_FULL.labels(route).inc()
    return response


def _may_wait() -> bool:
    """Whether the request could wait for a game to change: an event stream (timed to its
    first byte) or a long poll with a `wait`."""
    if request.endpoint == STREAM_ENDPOINT:
        return True
    return request.endpoint == EVENTS_ENDPOINT and request.args.get("wait", "0") not in ("", "0")


def _problem_code(response: Response) -> str | None:
    if response.mimetype != "application/problem+json":
        return None
    try:
        return json.loads(response.get_data()).get("code")
    except (ValueError, AttributeError):
        return None


def _metrics() -> Response:
    if not may_read_metrics():
        return problem_response(401, "metrics_token_required", fallback="metrics token required",
                                headers=HEADERS_OF[401])
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))
    return Response(encode(registry), headers={"Content-Type": content_type})


# Logging -----------------------------------------------------------------------------------------
class _RequestIdFilter(logging.Filter):
    """Adds the current request's id to every record logged while a request is being answered."""

    def filter(self, record: logging.LogRecord) -> bool:
        rid = request_id()
        if rid is not None:
            record.request_id = rid
        return True


class _JsonHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is now; marks the one handler this module installs, so
    building many apps adds it once."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure_logging(level: str) -> None:
    """Send every log record (the service's, Flask's, the libraries') to stderr as JSON."""
    root = logging.getLogger()
    if not any(isinstance(handler, _JsonHandler) for handler in root.handlers):
        handler = _JsonHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        handler.addFilter(_RequestIdFilter())
        root.addHandler(handler)
    logging.getLogger("service").setLevel(level)
