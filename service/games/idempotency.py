"""Idempotency records: what a retry with the same Idempotency-Key needs, and nothing more.

A record keeps the request's fingerprint, the game's version after the write and the seat (for
a join also the seat token, sealed with the invite code and the key: tokens.seal). A retry
with the same fingerprint is answered with the game as that seat sees it now, marked replayed:
the very body of the first response while nothing else has happened in the game, a later
version of it otherwise; the action is never applied twice. The first response's body is not
kept: at 2-4 KB a record, 64 records a game, it made a finished game cost ~280 KB in Redis.

A record's key is a digest of who sent the key (the seat token, or the invite code of a join)
and the key, so its size does not depend on the key's length and neither is kept in clear.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

from . import tokens
from .errors import IdempotencyKeyReused

DIGEST_CHARS = 32  # 128 bits: hex digits kept of a SHA-256, for record keys and fingerprints


@dataclass(frozen=True)
class ReplayRecord:
    fingerprint: str
    version: int              # the game's version the first response showed
    seat: int
    sealed: str | None = None  # a join's seat token, sealed

    def to_json(self) -> str:
        fields = {name: value for name, value in asdict(self).items() if value is not None}
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> ReplayRecord:
        return cls(**json.loads(text))

    def answering(self, fingerprint: str) -> ReplayRecord:
        """This record, if the retry is the same request; else IdempotencyKeyReused."""
        if fingerprint != self.fingerprint:
            raise IdempotencyKeyReused("this Idempotency-Key was used with a different request")
        return self

    def unsealed_token(self, code: str, key: str) -> str:
        """The seat token this record keeps sealed (a join's or a rematch's: tokens.seal)."""
        if self.sealed is None:
            raise ValueError("this idempotency record keeps no seat token")
        return tokens.unseal(self.sealed, code, key)


def action_key(token: str, idempotency_key: str) -> str:
    """The record key of an action: the key is the seat's own (keys of two seats never meet)."""
    return _digest("action", token, idempotency_key)


def join_key(code: str, idempotency_key: str) -> str:
    """The record key of a join with an invite code."""
    return _digest("join", code, idempotency_key)


def rematch_key(credential: str, idempotency_key: str) -> str:
    """The record key of a rematch offer or acceptance, under the seat's credential."""
    return _digest("rematch", credential, idempotency_key)


def fingerprint(fields: dict) -> str:
    """Equal for equal requests: what a record compares a retry with."""
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:DIGEST_CHARS]


def _digest(kind: str, secret: str, idempotency_key: str) -> str:
    text = f"{kind}\0{secret}\0{idempotency_key}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(text).hexdigest()[:DIGEST_CHARS]
