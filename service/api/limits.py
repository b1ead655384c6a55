"""Rate limits: per client address on every route, and per seat token on game actions.

Counters live in the game store's Redis (standalone or Cluster) when one is configured, so all
workers and replicas share them; otherwise in this process's memory. Over a limit the answer is
a 429 problem+json with Retry-After. If the limits' Redis fails (or is out of memory), each
worker falls back to counting in memory until it answers again: limits never turn an outage into
errors of their own.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many

from service.api.metrics_access import bears_metrics_token
from service.api.problems import PROBLEM_MEDIA_TYPE, problem_response
from service.api.responses import document_on_every_operation
from service.config import Settings, SettingsError

log = logging.getLogger(__name__)

EXTENSION = "cribbage.limiter"
KEY_PREFIX = "cribbage-limits"
# Game actions, limited per seat token as well as per address.
ACTION_ENDPOINTS = ("games.act_in_game",)
# Never limited: orchestration probes, the docs pages and the play page's files (its API calls
# are limited as any client's). /metrics is limited like any route
# (it costs several pings), but for a scrape bearing CRIBBAGE_METRICS_TOKEN.
EXEMPT_ENDPOINTS = frozenset({"health.livez", "health.readyz"})
METRICS_ENDPOINT = "observability.metrics"
EXEMPT_BLUEPRINTS = frozenset({"docs", "play"})
EXEMPT_PATHS = frozenset({"/livez", "/readyz"})  # the same, as OpenAPI paths

TOO_MANY_REQUESTS = {
    "description": "Too many requests from this client address (CRIBBAGE_RATE_LIMIT), or "
                   "actions from this seat (CRIBBAGE_ACTION_RATE_LIMIT); retry after "
                   "Retry-After seconds",
    "headers": {"Retry-After": {"description": "Seconds to wait before retrying",
                                "schema": {"type": "integer", "minimum": 1}}},
    "content": {PROBLEM_MEDIA_TYPE: {
        "schema": {"$ref": "#/components/schemas/Problem"},
        "example": {"type": "urn:cribbage:problem:rate_limited", "title": "Too many requests",
                    "status": 429, "detail": "More than 300 per 1 minute; retry after 12 s",
                    "code": "rate_limited"}}},
}


def init_app(app: Flask) -> None:
    """Limit the app's routes as its settings say and document the 429 in the OpenAPI document.

    Call after every blueprint is registered: the action limit wraps the registered views.
    """
    _document_429(app)
    settings: Settings = app.config["SETTINGS"]
    if not settings.rate_limit_enabled:
        return
    _check_limit("CRIBBAGE_RATE_LIMIT", settings.rate_limit)
    _check_limit("CRIBBAGE_ACTION_RATE_LIMIT", settings.action_rate_limit)
    limiter = _limiter(app, settings)
    app.extensions[EXTENSION] = limiter
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    per_seat = limiter.limit(settings.action_rate_limit, key_func=seat_key,
                             override_defaults=False)
    for endpoint in ACTION_ENDPOINTS:
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = per_seat(app.view_functions[endpoint])


def _check_limit(name: str, text: str) -> None:
    """Refuse to start with a limit Flask-Limiter could not read (it would ignore it)."""
    try:
        parse_many(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r}: expected a limit such as 300/minute "
                            f"or 10/second;1000/hour") from None


def client_address() -> str:
    return request.remote_addr or "unknown"


def seat_key() -> str:
    """A digest of the bearer token: the token itself is never stored or logged."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return "address:" + client_address()
    return "seat:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def storage_uri(settings: Settings) -> str:
    """Where the counters live: the store's Redis (as limits spells a Cluster), else memory."""
    if not settings.uses_redis:
        return "memory://"
    if settings.redis_cluster:
        scheme, _, rest = settings.redis_url.partition("://")
        return "redis+cluster://" + rest.split("/", 1)[0]
    return settings.redis_url


def _limiter(app: Flask, settings: Settings) -> Limiter:
    options = dict(
        key_func=client_address,
        application_limits=[settings.rate_limit],
        strategy="fixed-window",
        key_prefix=KEY_PREFIX,
        headers_enabled=False,
        swallow_errors=True,
        in_memory_fallback_enabled=True,
    )
    uri = storage_uri(settings)
    timeouts = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0}
    limiter = Limiter(storage_uri=uri, storage_options=timeouts if uri != "memory://" else {},
                      **options)
    try:
        limiter.init_app(app)
    except Exception as error:  # a Cluster client reads the slot map when it is built
        log.warning("rate limit storage unreachable at start-up, counting in memory: %s", error)
        limiter = Limiter(storage_uri="memory://", **options)
        limiter.init_app(app)
    limiter.request_filter(_exempt)
    return limiter


def _exempt() -> bool:
    if request.endpoint == METRICS_ENDPOINT:
        return bears_metrics_token()
    return request.endpoint in EXEMPT_ENDPOINTS or request.blueprint in EXEMPT_BLUEPRINTS


def _rate_limited(error: RateLimitExceeded) -> Response:
    limiter: Limiter = current_app.extensions[EXTENSION]
    retry_after = 1
    try:
        breached = limiter.current_limit
        if breached is not None:
            retry_after = max(1, math.ceil(breached.reset_at - time.time()))
    except Exception:  # the counters' store failed between the check and here
        pass
    return problem_response(
        429, "rate_limited", fallback="too many requests",
        params={"limit": str(error.limit.limit), "retry_after": retry_after},
        headers={"Retry-After": str(retry_after)})


def _document_429(app: Flask) -> None:
    document_on_every_operation(app, 429, TOO_MANY_REQUESTS, EXEMPT_PATHS)
