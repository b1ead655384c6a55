"""A browser's side of Web Push, written from the RFCs for the tests: a subscription's keys, the
decryption of a message (RFC 8291) and the check of the VAPID token the push service gets
(RFC 8292: an ES256 JWT and the key it names)."""

from __future__ import annotations

import base64
import json
import os

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from tests.webhooks.receiver import Received


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    """One push subscription: its keys, and what it can read of a message sent to it."""

    def __init__(self):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str, **extra) -> dict:
        """What PushSubscription.toJSON() gives."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)}, **extra}

    def decrypt(self, received: Received) -> dict:
        assert received.headers["content-encoding"] == "aes128gcm"
        return json.loads(http_ece.decrypt(received.body, private_key=self.private_key,
                                           auth_secret=self.auth, version="aes128gcm"))


def vapid_claims(received: Received, public_key: str) -> dict:
    """The claims of the request's VAPID token, after checking its ES256 signature with the
    key the header names and that key against `public_key`; AssertionError if any fails."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    try:
        key.verify(utils.encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                              int.from_bytes(raw[32:], "big")),
                   f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID token's signature does not verify") from None
    return json.loads(unb64url(claims))
