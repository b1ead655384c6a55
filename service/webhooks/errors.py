"""What webhook and push subscription registration refuses."""

from __future__ import annotations

from service.errors import IllegalActionError, InvalidInputError
from service.games.errors import GameNotFound


class WebhookUrlInvalid(InvalidInputError):
    """Not an https URL with a host (http too when private addresses are allowed)."""

    code = "invalid_webhook_url"


class WebhookAddressRefused(InvalidInputError):
    """The URL's host does not resolve, or resolves to an address that is not public."""

    code = "webhook_address_refused"


class TooManyWebhooks(IllegalActionError):
    code = "too_many_webhooks"


class WebhookNotFound(GameNotFound):
    """No webhook of the caller under this id: not found, like a game."""

    code = "webhook_not_found"


class InvalidPushKeys(InvalidInputError):
    """A subscription's p256dh is not a P-256 public key, or its auth not 16 bytes."""

    code = "invalid_push_keys"


class TooManyPushSubscriptions(IllegalActionError):
    code = "too_many_push_subscriptions"


class PushSubscriptionNotFound(GameNotFound):
    """No push subscription of the caller under this id: not found, like a game."""

    code = "push_subscription_not_found"
