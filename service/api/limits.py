"""Rate limits sized for play: per bearer token, per client address, per seat on actions.

Three policies, each named in the RateLimit headers:
- "token": every request bearing `Authorization: Bearer <token>` (a seat token, or any other
  token sent that way) counts against that token, keyed by its digest (CRIBBAGE_TOKEN_RATE_LIMIT).
- "address": every request counts against its client address (CRIBBAGE_RATE_LIMIT), except one
  whose token proved a seat or a player (an answer below 400 from an operation that checks the
  token): a game played with its token, or a player's lobby, costs the token's allowance, not
  its address's, so one address can play game after game while unproven requests (no token, a
  made-up one, a refusal, creating or joining a game) stay bounded per address. The address is
  the peer's, or with CRIBBAGE_TRUSTED_PROXY_HOPS set, the one that many trusted proxies saw
  (werkzeug's ProxyFix over X-Forwarded-For).
- "actions": game actions per token (CRIBBAGE_ACTION_RATE_LIMIT).

Every limited answer says where the client stands, in the fields of
draft-ietf-httpapi-ratelimit-headers-11: `RateLimit-Policy: "address";q=300;w=60, ...` (quota and
window of each policy that applied) and `RateLimit: "address";r=299;t=42, ...` (what remains,
and the seconds until the window resets).

Counters live in the game store's Redis (standalone or Cluster) when one is configured, so all
workers and replicas share them; otherwise in this process's memory. Over a limit the answer is
a 429 problem+json with Retry-After. If the limits' Redis fails (or is out of memory), each
worker falls back to counting in memory until it answers again: limits never turn an outage into
errors of their own.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any, TypedDict

from flask import Flask, Response, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter, RequestLimit
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many
from werkzeug.middleware.proxy_fix import ProxyFix

from service.api.metrics_access import bears_metrics_token
from service.api.problems import PROBLEM_MEDIA_TYPE, problem_response
from service.api.responses import document_on_every_operation
from service.config import Settings, SettingsError

log = logging.getLogger(__name__)

EXTENSION = "cribbage.limiter"
KEY_PREFIX = "cribbage-limits"
# Game actions, limited per seat token as well as per address.
ACTION_ENDPOINTS = ("games.act_in_game",)
# Operations that check the bearer token against a game's seats or a player: an answer below
# 400 proves it. Creating and joining games are not among them: what they start is bounded per
# address.
TOKEN_CHECKING_ENDPOINTS = frozenset({
    "games.get_game", "games.act_in_game", "games.list_events", "games.create_stream_ticket",
    "games.stream_game", "games.rename_seat", "games.get_game_analysis", "games.rematch_game",
    "games.decline_rematch", "players.list_player_games", "webhooks.create_game_webhook",
    "webhooks.list_game_webhooks", "webhooks.delete_game_webhook",
    "webhooks.list_game_webhook_deliveries", "webhooks.create_player_webhook",
    "webhooks.list_player_webhooks", "webhooks.delete_player_webhook",
    "webhooks.list_player_webhook_deliveries", "push.create_game_push_subscription",
    "push.list_game_push_subscriptions", "push.delete_game_push_subscription",
    "push.create_player_push_subscription", "push.list_player_push_subscriptions",
    "push.delete_player_push_subscription", "push.list_game_push_deliveries",
    "push.list_player_push_deliveries"})
TOKEN_SCOPE = "token"
# Never limited: orchestration probes, the docs pages and the play page's files (its API calls
# are limited as any client's). /metrics is limited like any route
# (it costs several pings), but for a scrape bearing CRIBBAGE_METRICS_TOKEN.
EXEMPT_ENDPOINTS = frozenset({"health.livez", "health.readyz"})
METRICS_ENDPOINT = "observability.metrics"
EXEMPT_BLUEPRINTS = frozenset({"docs", "manual", "play"})
EXEMPT_PATHS = frozenset({"/livez", "/readyz"})  # the same, as OpenAPI paths

TOO_MANY_REQUESTS: dict[str, Any] = {  # an OpenAPI response object
    "description": "Too many requests from this client address (CRIBBAGE_RATE_LIMIT), with "
                   "this bearer token (CRIBBAGE_TOKEN_RATE_LIMIT), or actions from this seat "
                   "(CRIBBAGE_ACTION_RATE_LIMIT); retry after Retry-After seconds",
    "headers": {"Retry-After": {"description": "Seconds to wait before retrying",
                                "schema": {"type": "integer", "minimum": 1}}},
    # and the RateLimit headers, as on every answer of a limited operation
    "content": {PROBLEM_MEDIA_TYPE: {
        "schema": {"$ref": "#/components/schemas/Problem"},
        "example": {"type": "urn:cribbage:problem:rate_limited", "title": "Too many requests",
                    "status": 429, "detail": "More than 300 per 1 minute; retry after 12 s",
                    "code": "rate_limited"}}},
}


def init_app(app: Flask) -> None:
    """Limit the app's routes as its settings say and document the 429 and the RateLimit
    headers in the OpenAPI document.

    Call after every blueprint is registered: the per-token limits wrap the registered views.
    """
    _document_429(app)
    settings: Settings = app.config["SETTINGS"]
    if settings.trusted_proxy_hops:
        # Flask's documented way to wrap its WSGI app, which its types declare a method
        app.wsgi_app = ProxyFix(app.wsgi_app,  # type: ignore[method-assign]
                                x_for=settings.trusted_proxy_hops)
    if not settings.rate_limit_enabled:
        return
    _check_limit("CRIBBAGE_RATE_LIMIT", settings.rate_limit)
    _check_limit("CRIBBAGE_ACTION_RATE_LIMIT", settings.action_rate_limit)
    _check_limit("CRIBBAGE_TOKEN_RATE_LIMIT", settings.token_rate_limit)
    app.after_request(_rate_limit_headers)  # before the limiter's: it runs after its counting
    limiter = _limiter(app, settings)
    app.extensions[EXTENSION] = limiter
    app.before_request(_keep_application_limits)
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    per_seat = limiter.limit(settings.action_rate_limit, key_func=token_key,
                             override_defaults=False)
    # A limit decorator returns the view's own type (Callable[P, R]); given Flask's union of
    # sync and async views, mypy infers a view returning either, which neither member accepts.
    for endpoint in ACTION_ENDPOINTS:
        if endpoint in app.view_functions:
            app.view_functions[endpoint] = per_seat(  # type: ignore[assignment]
                app.view_functions[endpoint])
    per_token = limiter.shared_limit(settings.token_rate_limit, scope=TOKEN_SCOPE,
                                     key_func=token_key, exempt_when=_without_bearer,
                                     override_defaults=False)
    for endpoint, view in list(app.view_functions.items()):
        app.view_functions[endpoint] = per_token(view)  # type: ignore[assignment]


def _check_limit(name: str, text: str) -> None:
    """Refuse to start with a limit Flask-Limiter could not read (it would ignore it)."""
    try:
        parse_many(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r}: expected a limit such as 300/minute "
                            f"or 10/second;1000/hour") from None


def client_address() -> str:
    return request.remote_addr or "unknown"


def address_key() -> str:
    return "address:" + client_address()


def _bearer_token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _without_bearer() -> bool:
    return _bearer_token() is None


def token_key() -> str:
    """A digest of the bearer token: the token itself is never stored or logged."""
    token = _bearer_token()
    if token is None:
        return address_key()
    return "token:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _counts_against_address(response: Response) -> bool:
    """Every answer but one to a request whose bearer token proved a seat or a player."""
    proved = (request.endpoint in TOKEN_CHECKING_ENDPOINTS and _bearer_token() is not None
              and response.status_code < 400)
    return not proved


def storage_uri(settings: Settings) -> str:
    """Where the counters live: the store's Redis (as limits spells a Cluster), else memory."""
    if not settings.uses_redis:
        return "memory://"
    if settings.redis_cluster:
        scheme, _, rest = settings.redis_url.partition("://")
        return "redis+cluster://" + rest.split("/", 1)[0]
    return settings.redis_url


class _LimiterOptions(TypedDict):
    key_func: Callable[[], str]
    application_limits: list[str | Callable[[], str] | ApplicationLimit]
    application_limits_deduct_when: Callable[[Response], bool]
    strategy: str
    key_prefix: str
    headers_enabled: bool
    swallow_errors: bool
    in_memory_fallback_enabled: bool


def _limiter(app: Flask, settings: Settings) -> Limiter:
    options = _LimiterOptions(
        key_func=address_key,
        application_limits=[settings.rate_limit],
        application_limits_deduct_when=_counts_against_address,
        strategy="fixed-window",
        key_prefix=KEY_PREFIX,
        headers_enabled=False,
        swallow_errors=True,
        in_memory_fallback_enabled=True,
    )
    uri = storage_uri(settings)
    timeouts: dict[str, str | int] = {"socket_timeout": 1, "socket_connect_timeout": 1}
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


def _keep_application_limits() -> None:
    """Flask-Limiter forgets the application limits once a view's own limits are checked:
    keep them for the headers."""
    g.application_limits = list(current_app.extensions[EXTENSION].current_limits)


def _rate_limit_headers(response: Response) -> Response:
    """RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11) for every limit
    that applied to the request."""
    limiter: Limiter | None = current_app.extensions.get(EXTENSION)
    if limiter is None:
        return response
    try:
        applied = [*g.get("application_limits", ()), *limiter.current_limits]
        applied = list({limit.key: limit for limit in applied}.values())
        if not applied:
            return response
        now = time.time()
        policies, states = [], []
        for name, limit in _named(applied):
            policies.append(f'"{name}";q={limit.limit.amount};w={limit.limit.get_expiry()}')
            reset = max(0, math.ceil(limit.window[0] - now))
            states.append(f'"{name}";r={max(0, limit.remaining)};t={reset}')
    except Exception as error:  # the counters' store failed: answer without the headers
        log.warning("rate limit headers left out: %s", error)
        return response
    response.headers["RateLimit-Policy"] = ", ".join(policies)
    response.headers["RateLimit"] = ", ".join(states)
    return response


def _named(applied: list[RequestLimit]) -> list[tuple[str, RequestLimit]]:
    """Each limit with its policy's name; a policy of several windows (10/second;1000/hour)
    names each by its window: "address-1s", "address-3600s"."""
    named = []
    for limit in applied:
        _, key, scope = limit.request_args[-3:]
        if scope == TOKEN_SCOPE:
            named.append(("token", limit))
        elif key.startswith("address:") and scope == "global":
            named.append(("address", limit))
        else:
            named.append(("actions", limit))
    counts = {name: sum(1 for other, _ in named if other == name) for name, _ in named}
    return [(name if counts[name] == 1 else f"{name}-{limit.limit.get_expiry()}s", limit)
            for name, limit in named]


RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": {
        "description": "The quota policies that applied to the request "
                       "(draft-ietf-httpapi-ratelimit-headers-11): `address` (per client "
                       "address; a request whose bearer token proved a seat or a player "
                       "is not counted), `token` (per bearer token), `actions` (game actions "
                       "per token); `q` requests per `w` seconds. A policy of several windows "
                       "names each by its window (`address-1s`). The analyses add `cpu`: `q` "
                       "milliseconds of compute CPU per `w` seconds, per client. Absent when "
                       "limiting is off",
        "schema": {"type": "string"},
        "example": '"address";q=300;w=60, "token";q=600;w=60'},
    "RateLimit": {
        "description": "Where the client stands under each policy of RateLimit-Policy: `r` "
                       "requests (for `cpu`, milliseconds) left, `t` seconds until the window "
                       "resets",
        "schema": {"type": "string"},
        "example": '"address";r=297;t=42, "token";r=583;t=42'},
}


def _document_429(app: Flask) -> None:
    spec = app.extensions["cribbage.api"].spec
    for name, header in RATE_LIMIT_HEADERS.items():
        spec.components.header(name, header)
    refs = {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS}
    too_many = {**TOO_MANY_REQUESTS, "headers": {**TOO_MANY_REQUESTS["headers"], **refs}}
    document_on_every_operation(app, 429, too_many, EXEMPT_PATHS)
    for path, operations in spec._paths.items():
        if path in EXEMPT_PATHS:
            continue
        for operation in operations.values():
            if not isinstance(operation, dict):
                continue  # the path's parameters
            for response in operation.get("responses", {}).values():
                if isinstance(response, dict) and "$ref" not in response:
                    response.setdefault("headers", {}).update(copy.deepcopy(refs))
