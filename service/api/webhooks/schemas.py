"""marshmallow schemas of the webhook operations."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.webhooks.addresses import MAX_URL_LENGTH
from service.webhooks.model import EVENT_TYPES

TIME = {"description": "RFC 3339, UTC", "example": "2026-11-25T10:04:05.678Z"}


class CreateWebhookSchema(ma.Schema):
    url = fields.String(required=True, validate=validate.Length(1, MAX_URL_LENGTH), metadata={
        "description": "Where to POST: https, a host that resolves to public addresses only",
        "example": "https://push.example/cribbage/notify"})
    secret = fields.String(validate=[validate.Length(24, 128),
                                     validate.Regexp(r"^[\x21-\x7e]+$")], metadata={
        "description": "The signing secret (24 to 128 visible ASCII characters). Omit it and "
                       "the service makes one (`whsec_` + base64) and returns it, once. A "
                       "`whsec_` secret signs with the bytes its base64 encodes, any other "
                       "with its UTF-8 bytes"})
    events = fields.List(fields.String(validate=validate.OneOf(EVENT_TYPES)),
                         validate=validate.Length(1, len(EVENT_TYPES)), metadata={
        "description": "Which notifications to send (default: all)",
        "example": ["turn", "game_over"]})


class WebhookSchema(ma.Schema):
    webhook_id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(EVENT_TYPES)), required=True)
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that registered it (null: a player's webhook)"})
    created_at = fields.String(required=True, metadata=TIME)


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(metadata={
        "description": "The secret the service made, shown only here (absent when you gave "
                       "one)"})


class WebhooksSchema(ma.Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True, metadata={
        "description": "Yours: the seat's in a game, the player's for a player"})


class DeliverySchema(ma.Schema):
    delivery_id = fields.String(required=True, metadata={
        "description": "The `webhook-id` header: the same on every attempt"})
    event = fields.String(required=True, validate=validate.OneOf(EVENT_TYPES))
    attempts = fields.Integer(required=True, metadata={"description": "Attempts made"})
    outcome = fields.String(required=True,
                            validate=validate.OneOf(["delivered", "retrying", "given_up",
                                                     "gone"]), metadata={
        "description": "gone: a push service reported the subscription gone (404, 410); it "
                       "was deleted"})
    status = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The receiver's status at the last attempt (null: no answer)"})
    error = fields.String(required=True, allow_none=True, metadata={
        "description": "Why the last attempt got no answer: refused address, connect, TLS, "
                       "timeout"})
    created_at = fields.String(required=True, metadata=TIME)
    last_attempt_at = fields.String(required=True, metadata=TIME)
    next_attempt_at = fields.String(required=True, allow_none=True, metadata=TIME)
    delivered_at = fields.String(required=True, allow_none=True, metadata=TIME)


class DeliveriesSchema(ma.Schema):
    webhook_id = fields.String(required=True)
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True, metadata={
        "description": "The newest first, the last 50; a delivery appears after its first "
                       "attempt"})
