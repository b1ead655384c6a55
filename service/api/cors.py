"""CORS: browsers on the configured origins (CRIBBAGE_CORS_ORIGINS) may call the API.

Only an origin on the allow-list gets `Access-Control-Allow-Origin` (its own origin, never `*`)
on answers and preflights; any other origin gets no CORS header, so its browser withholds the
answer. Seat and player tokens travel in `Authorization`, which a page sends explicitly, and the
service sets no cookie: answers never say `Access-Control-Allow-Credentials`, so a page calls
with `fetch(url, {headers: {Authorization: ...}})` and the default `credentials` mode.
"""

from __future__ import annotations

from flask import Flask, Response, request

# What a page may send: the token, bodies, the preconditions, retries, language, resuming.
ALLOWED_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match",
                   "Idempotency-Key", "Accept-Language", "Last-Event-ID", "X-Request-ID")
# What a page may read besides the CORS-safelisted headers.
EXPOSED_HEADERS = ("ETag", "Location", "Retry-After", "RateLimit", "RateLimit-Policy",
                   "Content-Language", "Idempotent-Replayed", "WWW-Authenticate", "Allow",
                   "X-Request-ID")
PREFLIGHT_MAX_AGE = 600  # seconds a browser may reuse a preflight's answer


def init_app(app: Flask) -> None:
    origins = frozenset(app.config["SETTINGS"].cors_origins)
    if not origins:
        return

    @app.before_request
    def answer_preflight() -> Response | None:
        origin = request.headers.get("Origin")
        rule = request.url_rule
        if request.method != "OPTIONS" or origin not in origins \
                or "Access-Control-Request-Method" not in request.headers \
                or rule is None or rule.methods is None:
            return None
        response = Response(status=204)
        response.headers["Access-Control-Allow-Methods"] = ", ".join(
            sorted(rule.methods - {"HEAD"}))
        response.headers["Access-Control-Allow-Headers"] = ", ".join(ALLOWED_HEADERS)
        response.headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
        return response

    @app.after_request
    def allow_origin(response: Response) -> Response:
        response.vary.add("Origin")
        origin = request.headers.get("Origin")
        if origin in origins:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
        return response
