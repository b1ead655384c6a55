"""A webhook as a game record or a player document keeps it, and its secret's signing key."""

from __future__ import annotations

import base64
import secrets
from dataclasses import asdict, dataclass

EVENT_TYPES = ("turn", "game_over", "presence")
MAX_PER_GAME = 10        # webhooks one game may hold, all seats together
MAX_PER_PLAYER = 5       # webhooks one player may hold
SECRET_PREFIX = "whsec_"  # a generated secret: base64 of its key, as Standard Webhooks prints it
SECRET_BYTES = 24


@dataclass(frozen=True)
class Webhook:
    webhook_id: str
    url: str
    secret: str
    events: tuple[str, ...]
    created: float                 # epoch seconds
    seat: int | None = None        # a game's webhook: the seat that registered it

    def wants(self, event: str) -> bool:
        return event in self.events

    def to_dict(self) -> dict:
        return {**asdict(self), "events": list(self.events)}

    @classmethod
    def from_dict(cls, data: dict) -> Webhook:
        return cls(**{**data, "events": tuple(data["events"])})


def new_webhook_id() -> str:
    return "wh_" + secrets.token_urlsafe(12)


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def signing_key(secret: str) -> bytes:
    """A `whsec_` secret signs with the bytes it encodes (what Standard Webhooks libraries
    expect); any other secret with its UTF-8 bytes."""
    if secret.startswith(SECRET_PREFIX):
        try:
            return base64.b64decode(secret[len(SECRET_PREFIX):], validate=True)
        except ValueError:
            pass
    return secret.encode()
