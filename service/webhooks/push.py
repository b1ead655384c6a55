"""Web Push: a notification for one browser or app push subscription.

The payload is encrypted for the subscription's keys (RFC 8291, `aes128gcm`: http_ece) and the
request carries a VAPID token (RFC 8292: py_vapid) signed with the deployment's key, which
the push service checks against the `applicationServerKey` the client subscribed with. The
request itself goes out as a webhook's does (service.webhooks.sender: the SSRF guard, timeouts).

The deployment's key is CRIBBAGE_VAPID_PRIVATE_KEY when set; otherwise one is made on first
use and kept in the store (GameStore.shared_value), so that every process of a deployment
signs with the same key and subscriptions outlive restarts.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

MAX_PAYLOAD = 3993        # RFC 8291: one 4096-byte record, less its header, tag and padding byte
TOKEN_SECONDS = 12 * 3600  # a VAPID token's life (RFC 8292 allows at most 24 h)
TTL_SECONDS = 24 * 3600    # how long a push service keeps a message for an offline device
URGENT_EVENTS = ("turn", "turn_alarm")  # Urgency: high (the device wakes); others normal
SHARED_KEY_NAME = "vapid_private_key"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def from_b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class VapidKey:
    """The deployment's signing key (an ECDSA P-256 private key)."""

    def __init__(self, private_key: ec.EllipticCurvePrivateKey, subject: str):
        self.vapid = Vapid02(private_key=private_key)
        self.subject = subject
        self.public_key = b64url(private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @classmethod
    def from_text(cls, text: str, subject: str) -> VapidKey:
        """A key as CRIBBAGE_VAPID_PRIVATE_KEY gives it: PEM, or the 32-byte private value in
        base64url (what web-push libraries print); ValueError if it is neither."""
        text = text.strip()
        if text.startswith("-----BEGIN"):
            key = serialization.load_pem_private_key(text.encode(), password=None)
            if not isinstance(key, ec.EllipticCurvePrivateKey) or \
                    not isinstance(key.curve, ec.SECP256R1):
                raise ValueError("a VAPID key is an EC key on the P-256 curve")
            return cls(key, subject)
        raw = from_b64url(text)
        if len(raw) != 32:
            raise ValueError("a VAPID private key is 32 bytes in base64url, or a PEM key")
        return cls(ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1()), subject)

    def authorization(self, endpoint: str, now: float) -> str:
        """The Authorization header for a request to `endpoint`'s push service."""
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.subject,
                  "exp": int(now) + TOKEN_SECONDS}
        return self.vapid.sign(claims)["Authorization"]


def new_private_key_text() -> str:
    """A new key, as from_text reads it."""
    value = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return b64url(value.to_bytes(32, "big"))


class DeploymentKey:
    """The key, found once per process: the configured one, or the store's (made if none)."""

    def __init__(self, configured: str, subject: str,
                 shared_value: Callable[[str, str], str]):
        self._configured = configured
        self._subject = subject
        self._shared_value = shared_value
        self._key: VapidKey | None = None
        self._lock = threading.Lock()

    def get(self) -> VapidKey:
        with self._lock:
            if self._key is None:
                text = self._configured or self._shared_value(SHARED_KEY_NAME,
                                                              new_private_key_text())
                self._key = VapidKey.from_text(text, self._subject)
            return self._key


def public_key_error(p256dh: str, auth: str) -> str | None:
    """Why a subscription's keys cannot be encrypted for (None if they can): p256dh is a P-256
    public key, 65 bytes uncompressed, and auth 16 bytes, each in base64url."""
    try:
        point = from_b64url(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        if len(point) != 65:
            raise ValueError
    except ValueError:
        return "keys.p256dh is not a P-256 public key (65 bytes, base64url)"
    try:
        if len(from_b64url(auth)) != 16:
            raise ValueError
    except ValueError:
        return "keys.auth is not 16 bytes in base64url"
    return None


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """The payload encrypted for a subscription's keys (a new sender key each message)."""
    return http_ece.encrypt(payload, private_key=ec.generate_private_key(ec.SECP256R1()),
                            dh=from_b64url(p256dh), auth_secret=from_b64url(auth),
                            version="aes128gcm")


def request(key: VapidKey, endpoint: str, p256dh: str, auth: str, payload: bytes,
            event: str, topic: str | None) -> tuple[bytes, dict]:
    """The body and headers of the POST to the subscription's endpoint. `topic` (at most 32
    URL-safe characters) lets the push service replace an undelivered message of the same
    topic: a game's newer turn replaces the older one on a device that was offline. The
    token's expiry is on the wall clock, which the push service checks it by."""
    headers = {"Authorization": key.authorization(endpoint, time.time()),
               "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
               "TTL": str(TTL_SECONDS), "Urgency": "high" if event in URGENT_EVENTS
               else "normal"}
    if topic:
        headers["Topic"] = topic
    return encrypt(payload, p256dh, auth), headers
