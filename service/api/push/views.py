"""Web Push over HTTP: the deployment's VAPID public key, and the push subscriptions of a seat
(seat token) or of a player (player token). Notifications go out through the webhook delivery
worker (service.webhooks.delivery), encrypted for each subscription."""

from __future__ import annotations

import re

from flask import Flask, Response, current_app
from flask_smorest import Api

from service.api.blueprint import Blueprint
from service.api.games.views import _game_id, _problem, _token
from service.api.push import examples
from service.api.push.schemas import (CreatePushSubscriptionSchema, PushKeySchema,
                                      PushSubscriptionSchema, PushSubscriptionsSchema)
from service.api.responses import document_errors, json_response
from service.api.webhooks.schemas import DeliveriesSchema
from service.api.webhooks.views import (FORBIDDEN, GAME_NOT_FOUND, PLAYER_REQUIRED,
                                        PLAYER_UNAUTHORIZED, PLAYER_UNAVAILABLE, PUSH_KEY,
                                        SEAT_REQUIRED, SEAT_UNAUTHORIZED, UNAVAILABLE, WEBHOOKS,
                                        _player, _private)
from service.games.event_log import server_time
from service.games.webhooks import PushRequest, Webhooks
from service.webhooks.errors import PushSubscriptionNotFound
from service.webhooks.model import EVENT_TYPES, MAX_PUSH_PER_GAME, MAX_PUSH_PER_PLAYER, Webhook

blp = Blueprint("push", __name__, url_prefix="/v1",
                description="Web Push: turns, endings and presence pushed to browsers and "
                            "apps, encrypted, with no server of your own")

SUBSCRIPTION_ID = re.compile(r"ps_[A-Za-z0-9_-]{16}")
PAYLOADS = (
    "Each notification is a Web Push message (RFC 8030) encrypted for the subscription "
    "(RFC 8291, aes128gcm) and signed with the service's VAPID key (RFC 8292, `GET "
    "/v1/push/key`). Decrypted, it is the JSON a webhook receives, `{type, timestamp, data}`: "
    "`turn` for every decision of the subscription's seat (each card of the play included) "
    "and `turn_alarm` at 80% of its turn timer when it is away: a seat's subscription hears "
    "only of its own seat's, a player's of the player's seats; `rematch_offered`, `game_over` "
    "and `presence` as a spectator sees them; no payload carries a card. A game's messages "
    "share a `Topic` (the game id), so a device that was offline gets the newest turn, not "
    "each one; `turn` goes with `Urgency: high`. A subscription its push service reports "
    "gone (404 or 410) is deleted; other failures are retried like a webhook's.")
REFUSED_ENDPOINT = _problem(
    422, "invalid_push_keys",
    "The keys are not a subscription's (invalid_push_keys), or the endpoint is not an https "
    "URL (invalid_webhook_url) of a host that resolves to public addresses "
    "(webhook_host_unresolved, webhook_address_refused)", {"field": "keys"}, field="keys")
SUBSCRIPTION_NOT_FOUND = _problem(404, "push_subscription_not_found",
                                  "No such game (game_not_found), or no push subscription of "
                                  "yours under this id (push_subscription_not_found)",
                                  {"subscription_id": examples.SUBSCRIPTION_ID})
PLAYER_SUBSCRIPTION_NOT_FOUND = _problem(404, "push_subscription_not_found",
                                         "No push subscription of the player under this id "
                                         "(push_subscription_not_found)",
                                         {"subscription_id": examples.SUBSCRIPTION_ID})


def init_app(app: Flask, api: Api) -> None:
    """Register the operations (after the webhooks', whose domain object they share)."""
    api.register_blueprint(blp)


def _webhooks() -> Webhooks:
    return current_app.extensions[WEBHOOKS]


@blp.route("/push/key", methods=["GET"])
@blp.doc(operationId="getPushKey")
@document_errors(blp, 500)
@UNAVAILABLE
@blp.documented_response(200, PushKeySchema, example=examples.KEY)
def get_push_key():
    """The service's VAPID public key

    Subscribe with it (`pushManager.subscribe({userVisibleOnly: true, applicationServerKey})`),
    then register the subscription for a seat or a player. The key is the same for every
    process of a deployment and across restarts (CRIBBAGE_VAPID_PRIVATE_KEY, or one the
    service made once and keeps in its store)."""
    key = current_app.extensions[PUSH_KEY].get()
    response = json_response({"public_key": key.public_key, "subject": key.subject})
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


# A seat's -----------------------------------------------------------------------------------------
@blp.route("/games/<game_id>/push-subscriptions", methods=["POST"])
@blp.doc(operationId="createGamePushSubscription", security=SEAT_REQUIRED,
         description="Your seat's device is told when it is a seat's turn, when the game ends, "
                     "and when a seat comes or goes. " + PAYLOADS)
@document_errors(blp, 400, 413, 415, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@GAME_NOT_FOUND
@_problem(409, "too_many_push_subscriptions", f"The game has {MAX_PUSH_PER_GAME} push "
                                              "subscriptions already "
                                              "(too_many_push_subscriptions)",
          {"limit": MAX_PUSH_PER_GAME})
@REFUSED_ENDPOINT
@UNAVAILABLE
@blp.arguments(CreatePushSubscriptionSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, PushSubscriptionSchema, example=examples.CREATED)
def create_game_push_subscription(body: dict, game_id: str):
    """Push this game's notifications to a device"""
    created = _webhooks().add_push_to_game(_game_id(game_id), _token(), _request(body))
    return _created(created)


@blp.route("/games/<game_id>/push-subscriptions", methods=["GET"])
@blp.doc(operationId="listGamePushSubscriptions", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@GAME_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, PushSubscriptionsSchema, example=examples.LISTED)
def list_game_push_subscriptions(game_id: str):
    """The push subscriptions your seat registered for this game"""
    found = _webhooks().of_game(_game_id(game_id), _token(), push=True)
    return _listed(found)


@blp.route("/games/<game_id>/push-subscriptions/<subscription_id>", methods=["DELETE"])
@blp.doc(operationId="deleteGamePushSubscription", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@SUBSCRIPTION_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, PushSubscriptionsSchema, example={"subscriptions": []})
def delete_game_push_subscription(game_id: str, subscription_id: str):
    """Delete a push subscription your seat registered

    Returns the seat's push subscriptions left."""
    left = _webhooks().remove_from_game(_game_id(game_id), _token(),
                                        _subscription_id(subscription_id))
    return _listed(left)


@blp.route("/games/<game_id>/push-subscriptions/<subscription_id>/deliveries", methods=["GET"])
@blp.doc(operationId="listGamePushDeliveries", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@SUBSCRIPTION_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, DeliveriesSchema, example=examples.DELIVERIES)
def list_game_push_deliveries(game_id: str, subscription_id: str):
    """The push subscription's recent deliveries, for debugging

    Each with its attempts, the push service's last answer or error, and when it is tried
    next or was delivered. A subscription its push service reported gone is deleted, and its
    deliveries with it: the list of subscriptions shows it is gone."""
    subscription_id = _subscription_id(subscription_id)
    found = _webhooks().game_deliveries(_game_id(game_id), _token(), subscription_id)
    return _private(json_response({"webhook_id": subscription_id, "deliveries": found}))


# A player's ---------------------------------------------------------------------------------------
@blp.route("/players/me/push-subscriptions", methods=["POST"])
@blp.doc(operationId="createPlayerPushSubscription", security=PLAYER_REQUIRED,
         description="Told of the games of every seat linked to the player, those in play now "
                     "and those to come. " + PAYLOADS)
@document_errors(blp, 400, 413, 415, 500)
@PLAYER_UNAUTHORIZED
@_problem(409, "too_many_push_subscriptions", f"The player has {MAX_PUSH_PER_PLAYER} push "
                                              "subscriptions already "
                                              "(too_many_push_subscriptions)",
          {"limit": MAX_PUSH_PER_PLAYER})
@REFUSED_ENDPOINT
@PLAYER_UNAVAILABLE
@blp.arguments(CreatePushSubscriptionSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, PushSubscriptionSchema, example=examples.PLAYER_CREATED)
def create_player_push_subscription(body: dict):
    """Push every game of the player to a device"""
    return _created(_webhooks().add_push_to_player(_player(), _request(body)))


@blp.route("/players/me/push-subscriptions", methods=["GET"])
@blp.doc(operationId="listPlayerPushSubscriptions", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@UNAVAILABLE
@blp.documented_response(200, PushSubscriptionsSchema, example=examples.PLAYER_LISTED)
def list_player_push_subscriptions():
    """The player's push subscriptions"""
    return _listed([webhook for webhook in _player().webhooks if webhook.is_push])


@blp.route("/players/me/push-subscriptions/<subscription_id>", methods=["DELETE"])
@blp.doc(operationId="deletePlayerPushSubscription", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@PLAYER_SUBSCRIPTION_NOT_FOUND
@PLAYER_UNAVAILABLE
@blp.documented_response(200, PushSubscriptionsSchema, example={"subscriptions": []})
def delete_player_push_subscription(subscription_id: str):
    """Delete a push subscription of the player

    Returns the player's push subscriptions left."""
    return _listed(_webhooks().remove_from_player(_player(), _subscription_id(subscription_id)))


@blp.route("/players/me/push-subscriptions/<subscription_id>/deliveries", methods=["GET"])
@blp.doc(operationId="listPlayerPushDeliveries", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@PLAYER_SUBSCRIPTION_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, DeliveriesSchema, example=examples.DELIVERIES)
def list_player_push_deliveries(subscription_id: str):
    """The player's push subscription's recent deliveries, for debugging"""
    subscription_id = _subscription_id(subscription_id)
    found = _webhooks().player_deliveries(_player(), subscription_id)
    return _private(json_response({"webhook_id": subscription_id, "deliveries": found}))


# Request and response details ---------------------------------------------------------------------
def _request(body: dict) -> PushRequest:
    return PushRequest(body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"],
                       tuple(dict.fromkeys(body.get("events") or EVENT_TYPES)))


def _subscription_id(text: str) -> str:
    if not SUBSCRIPTION_ID.fullmatch(text):
        raise PushSubscriptionNotFound(f"no push subscription {text} of yours",
                                       subscription_id=text)
    return text


def _subscription(subscription: Webhook) -> dict:
    return {"subscription_id": subscription.webhook_id, "endpoint": subscription.url,
            "events": list(subscription.events), "seat": subscription.seat,
            "created_at": server_time(subscription.created)}


def _created(subscription: Webhook) -> Response:
    response = json_response(_subscription(subscription), status=201)
    response.headers["Cache-Control"] = "no-store"
    return response


def _listed(subscriptions) -> Response:
    return _private(json_response({"subscriptions": [_subscription(subscription)
                                                     for subscription in subscriptions]}))
