"""A webhook as a game record or a player document keeps it, and its secret's signing key.

A push subscription (Web Push: service.webhooks.push) is kept and queued as a webhook whose
`url` is the subscription's endpoint and whose `keys` are its p256dh and auth keys; it has no
secret (the payload is encrypted for the subscription instead of signed)."""

from __future__ import annotations

import base64
import secrets
from dataclasses import asdict, dataclass

EVENT_TYPES = ("turn", "game_over", "presence", "turn_alarm", "rematch_offered")
MAX_PER_GAME = 10        # webhooks one game may hold, all seats together
MAX_PER_PLAYER = 5       # webhooks one player may hold
MAX_PUSH_PER_GAME = 12   # push subscriptions one game may hold, all seats together
MAX_PUSH_PER_PLAYER = 10  # push subscriptions one player may hold (its devices and browsers)
SECRET_PREFIX = "whsec_"  # a generated secret: base64 of its key, as Standard Webhooks prints it
SECRET_BYTES = 24
SUBSCRIPTION_PREFIX = "ps_"  # a push subscription's id; a webhook's starts wh_


@dataclass(frozen=True)
class Webhook:
    webhook_id: str
    url: str
    secret: str
    events: tuple[str, ...]
    created: float                 # epoch seconds
    seat: int | None = None        # a game's webhook: the seat that registered it
    keys: tuple[str, str] | None = None  # a push subscription's p256dh and auth (base64url)

    @property
    def is_push(self) -> bool:
        return self.keys is not None

    def wants(self, event: str) -> bool:
        return event in self.events

    def to_dict(self) -> dict:
        data = {**asdict(self), "events": list(self.events)}
        if self.keys is None:
            del data["keys"]  # a webhook's document as it always was
        else:
            data["keys"] = list(self.keys)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Webhook:
        keys = data.get("keys")
        return cls(**{**data, "events": tuple(data["events"]),
                      "keys": None if keys is None else tuple(keys)})


@dataclass(frozen=True)
class PlayerHooks:
    """What the delivery worker needs of a player to expand its entries: its id, its webhooks
    and push subscriptions, and its seat in each of its games (by game id)."""

    player_id: str
    webhooks: tuple[Webhook, ...]
    seats: dict[str, int]


def new_webhook_id() -> str:
    return "wh_" + secrets.token_urlsafe(12)


def new_subscription_id() -> str:
    return SUBSCRIPTION_PREFIX + secrets.token_urlsafe(12)


def is_subscription_id(webhook_id: str) -> bool:
    """The id names a push subscription, not a webhook."""
    return webhook_id.startswith(SUBSCRIPTION_PREFIX)


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
