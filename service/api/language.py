"""The request's language: negotiated from Accept-Language, and named in the response."""
from __future__ import annotations

from flask import request

from service.i18n import negotiate

_ENVIRON_LANGUAGE = "cribbage.language"


def request_language() -> str:
    """The request's language (en or es), from Accept-Language.

    The response then carries Content-Language and Vary: Accept-Language: the WSGI layer adds
    `language_headers` to every response (see service.api.observability), so no view or error
    handler can forget them.
    """
    environ = request._get_current_object().environ  # `request.environ` costs 5 times more
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
