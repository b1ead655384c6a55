"""Seat tokens and invite codes: 128-bit random secrets, kept only as SHA-256 digests."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence


def new_secret() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def match(secret: str, digests: Sequence[str | None]) -> int | None:
    """Index of the digest `secret` hashes to, or None.

    Compares against every digest in constant time and never stops early, so the time
    taken says nothing about which seat (if any) the secret belongs to.
    """
    candidate = digest(secret)
    found = None
    for index, known in enumerate(digests):
        if hmac.compare_digest(candidate, known or ""):
            found = index
    return found
