"""The request's language: negotiated from Accept-Language, and named in the response."""
from __future__ import annotations

from flask import request

from service.api.messages import DEFAULT_LANGUAGE, PROBLEMS

LANGUAGES = tuple(PROBLEMS)

_MAX_HEADER = 1024  # an Accept-Language longer than this is read only this far


def negotiate(accept_language: str | None) -> str:
    """The supported language the client prefers most (RFC 9110 q-values); English by default.

    Garbage never raises: unreadable entries are skipped.
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for entry in accept_language[:_MAX_HEADER].split(","):
        tag, _, params = entry.partition(";")
        primary = tag.strip().lower().split("-", 1)[0]
        if primary == "*":
            primary = DEFAULT_LANGUAGE
        if primary not in LANGUAGES:
            continue
        q = _quality(params)
        # Equal q-values keep the earlier entry, as the client listed it first.
        if q > best_q:
            best, best_q = primary, q
    return best


def _quality(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


_ENVIRON_LANGUAGE = "cribbage.language"


def request_language() -> str:
    """The request's language (en or es), from Accept-Language.

    The response then carries Content-Language and Vary: Accept-Language: the WSGI layer adds
    `language_headers` to every response (see service.api.observability), so no view or error
    handler can forget them.
    """
    # `request.environ` costs 5 times more. Flask types `request` as the Request it stands for;
    # it is a werkzeug LocalProxy.
    environ = request._get_current_object().environ  # type: ignore[attr-defined]
    language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
    environ[_ENVIRON_LANGUAGE] = language
    return language


def language_headers(environ) -> list[tuple[str, str]]:
    """The headers naming the language of a response whose texts followed `request_language`;
    none for a response that has no such texts."""
    language = environ.get(_ENVIRON_LANGUAGE)
    if language is None:
        return []
    return [("Content-Language", language), ("Vary", "Accept-Language")]
