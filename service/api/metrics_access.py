"""Who may read /metrics: anyone, or, with CRIBBAGE_METRICS_TOKEN set, a request bearing it."""
from __future__ import annotations

import hashlib
import hmac

from flask import current_app, request


def bears_metrics_token() -> bool:
    """A token is set and this request sends it as `Authorization: Bearer <token>`."""
    token = current_app.config["SETTINGS"].metrics_token
    if not token:
        return False
    scheme, _, given = request.headers.get("Authorization", "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    # Digests, so the comparison takes the same time whatever was sent, its length included.
    return hmac.compare_digest(_digest(given.strip()), _digest(token))


def may_read_metrics() -> bool:
    return not current_app.config["SETTINGS"].metrics_token or bears_metrics_token()


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()
