"""marshmallow schemas of the push operations."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.api.webhooks.schemas import TIME, CreateWebhookSchema, WebhookSchema
from service.webhooks.addresses import MAX_URL_LENGTH
BASE64URL = r"^[A-Za-z0-9_-]+={0,2}$"


class PushKeySchema(ma.Schema):
    public_key = fields.String(required=True, metadata={
        "description": "The VAPID public key (P-256, uncompressed, base64url): pass it as "
                       "`applicationServerKey` to PushManager.subscribe()"})
    subject = fields.String(required=True, metadata={
        "description": "The contact the push services are given (CRIBBAGE_VAPID_SUBJECT)"})


class SubscriptionKeysSchema(ma.Schema):
    p256dh = fields.String(required=True, validate=[validate.Length(1, 200),
                                                    validate.Regexp(BASE64URL)], metadata={
        "description": "The subscription's P-256 public key, base64url"})
    auth = fields.String(required=True, validate=[validate.Length(1, 200),
                                                  validate.Regexp(BASE64URL)], metadata={
        "description": "The subscription's 16-byte authentication secret, base64url"})


class CreatePushSubscriptionSchema(ma.Schema):
    endpoint = fields.String(required=True, validate=validate.Length(1, MAX_URL_LENGTH),
                             metadata={"description": "The subscription's endpoint: https, a "
                                                      "push service on a public address"})
    keys = fields.Nested(SubscriptionKeysSchema, required=True)
    expirationTime = fields.Float(allow_none=True, metadata={
        "description": "Ignored (epoch milliseconds or null): accepted so that "
                       "PushSubscription.toJSON() can be sent as it is"})
    events = CreateWebhookSchema._declared_fields["events"]  # the same notifications


class PushSubscriptionSchema(ma.Schema):
    subscription_id = fields.String(required=True)
    endpoint = fields.String(required=True)
    events = WebhookSchema._declared_fields["events"]
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that registered it (null: a player's)"})
    created_at = fields.String(required=True, metadata=TIME)


class PushSubscriptionsSchema(ma.Schema):
    subscriptions = fields.List(fields.Nested(PushSubscriptionSchema), required=True, metadata={
        "description": "Yours: the seat's in a game, the player's for a player"})
