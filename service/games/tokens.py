"""Seat tokens and invite codes: 128-bit random secrets, kept only as SHA-256 digests."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence


def new_secret() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def seal(token: str, code: str, key: str) -> str:
    """`token` encrypted with a one-time pad derived from an invite code and an idempotency key.

    A store that keeps the sealed token, but neither the code nor the key in clear, cannot
    recover it; a retry that brings both again can (unseal).
    """
    secret = base64.urlsafe_b64decode(token + "==")
    return bytes(a ^ b for a, b in zip(secret, _pad(code, key))).hex()


def unseal(sealed: str, code: str, key: str) -> str:
    secret = bytes(a ^ b for a, b in zip(bytes.fromhex(sealed), _pad(code, key)))
    return base64.urlsafe_b64encode(secret).decode().rstrip("=")


def _pad(code: str, key: str) -> bytes:
    text = f"seat token\0{code}\0{key}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(text).digest()


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
