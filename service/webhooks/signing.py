"""Standard Webhooks signatures: HMAC-SHA256 over "<id>.<timestamp>.<body>", base64, as
`webhook-signature: v1,<signature>` (https://www.standardwebhooks.com)."""

from __future__ import annotations

import base64
import hashlib
import hmac

from .model import signing_key


def signature(secret: str, delivery_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{delivery_id}.{timestamp}.".encode() + body
    digest = hmac.new(signing_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secret: str, delivery_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {"webhook-id": delivery_id, "webhook-timestamp": str(timestamp),
            "webhook-signature": signature(secret, delivery_id, timestamp, body)}
