"""Webhooks over HTTP: register, list and delete a game's or a player's, and see their
deliveries. The delivery worker that sends them is made here and started by the server."""

from __future__ import annotations

import re

from flask import Flask, Response, current_app
from flask_smorest import Api

from service.api.blueprint import Blueprint
from service.api.games.views import PLAYERS, TABLE, _game_id, _players, _problem, _token
from service.api.responses import document_errors, json_response
from service.api.webhooks import examples
from service.api.webhooks.schemas import (CreatedWebhookSchema, CreateWebhookSchema,
                                          DeliveriesSchema, WebhooksSchema)
from service.config import Settings
from service.games.errors import TokenRequired
from service.games.players import Player
from service.games.event_log import server_time
from service.games.webhooks import NewWebhook, WebhookRequest, Webhooks
from service.webhooks.delivery import Bounds, DeliveryWorker, RetryPolicy
from service.webhooks.errors import WebhookNotFound
from service.webhooks.model import EVENT_TYPES, MAX_PER_GAME, MAX_PER_PLAYER, Webhook
from service.webhooks.push import DeploymentKey
from service.webhooks.sender import SendPolicy

blp = Blueprint("webhooks", __name__, url_prefix="/v1",
                description="Webhooks: turns, endings and presence POSTed to your server, "
                            "signed, retried")

WEBHOOKS = "cribbage.webhooks"
WORKER = "cribbage.webhook_worker"
PUSH_KEY = "cribbage.push_key"
WEBHOOK_ID = re.compile(r"wh_[A-Za-z0-9_-]{16}")
SEAT_REQUIRED: list[dict[str, list[str]]] = [{"seatToken": []}]  # OpenAPI security
PLAYER_REQUIRED: list[dict[str, list[str]]] = [{"playerToken": []}]


def init_app(app: Flask, api: Api) -> None:
    """Register the operations, and make the delivery worker (app.extensions[WORKER]) that
    the server's workers start (service/server/hooks.py); nothing starts here."""
    settings: Settings = app.config["SETTINGS"]
    table = app.extensions[TABLE]
    webhooks = Webhooks(table, app.extensions[PLAYERS], settings.webhooks_allow_private)
    app.extensions[WEBHOOKS] = webhooks
    push_key = DeploymentKey(settings.vapid_private_key, settings.vapid_subject,
                             table.store.shared_value)
    app.extensions[PUSH_KEY] = push_key
    app.extensions[WORKER] = DeliveryWorker(
        table.store, webhooks.of_player_key,
        SendPolicy(settings.webhooks_allow_private, settings.webhook_ca_file),
        RetryPolicy(settings.webhook_attempts, settings.webhook_retry_base_ms / 1000,
                    idle_seconds=settings.webhook_idle_seconds),
        table.clock, Bounds(settings.webhook_concurrency, settings.webhook_per_destination),
        push_key, webhooks.forget)
    api.register_blueprint(blp)


def _webhooks() -> Webhooks:
    return current_app.extensions[WEBHOOKS]


SEAT_UNAUTHORIZED = _problem(401, "missing_token", "No seat token (missing_token): send "
                                                   "Authorization: Bearer <token>")
PLAYER_UNAUTHORIZED = _problem(401, "invalid_player_token",
                               "No player token (missing_token), or one of no player: unknown "
                               "or expired (invalid_player_token)")
FORBIDDEN = _problem(403, "invalid_token", "The token holds no seat of this game "
                                           "(invalid_token)")
GAME_NOT_FOUND = _problem(404, "game_not_found", "No such game, or it expired (game_not_found)",
                          {"game_id": "Qm9hcmRHYW1lcyEh"})
WEBHOOK_NOT_FOUND = _problem(404, "webhook_not_found",
                             "No such game (game_not_found), or no webhook of yours under this "
                             "id (webhook_not_found)", {"webhook_id": examples.WEBHOOK_ID})
PLAYER_WEBHOOK_NOT_FOUND = _problem(404, "webhook_not_found",
                                    "No webhook of the player under this id (webhook_not_found)",
                                    {"webhook_id": examples.WEBHOOK_ID})
UNAVAILABLE = _problem(503, "store_unavailable", "The game store is unreachable "
                                                 "(store_unavailable) or full (store_full); "
                                                 "retry after Retry-After seconds")
PLAYER_UNAVAILABLE = _problem(503, "player_busy",
                              "Too many simultaneous changes to the player (player_busy), or "
                              "the game store is unreachable (store_unavailable) or full "
                              "(store_full); retry after Retry-After seconds")
REFUSED_URL = _problem(
    422, "webhook_address_refused",
    "The URL is not https://host/path without credentials (invalid_webhook_url), its host "
    "does not resolve (webhook_host_unresolved), or it resolves to an address that is not "
    "public: loopback, private, link-local, multicast, reserved (webhook_address_refused)",
    {"field": "url", "host": "localhost"}, field="url")
WEBHOOK_LINK = {"game_id": "$request.path.game_id", "webhook_id": "$response.body#/webhook_id"}
CREATED_LINKS = {
    "listGameWebhookDeliveries": {"operationId": "listGameWebhookDeliveries",
                                  "parameters": WEBHOOK_LINK,
                                  "description": "See its deliveries (send your seat token)"},
    "deleteGameWebhook": {"operationId": "deleteGameWebhook", "parameters": WEBHOOK_LINK,
                          "description": "Delete it (send your seat token)"},
}
PAYLOADS = (
    "Each notification is a POST of JSON `{type, timestamp, data}` with the Standard Webhooks "
    "headers `webhook-id` (the delivery's id: the same on every retry), `webhook-timestamp` "
    "(epoch seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "
    "\"<id>.<timestamp>.<body>\">`. `turn`: `data` = {game_id, seats (the human seats to act "
    "now), phase, version, deadline}, sent for every decision: whenever the game moves on "
    "(an action, a computer's reply, a timeout: each card of the play) with human seats to "
    "act, or those seats or the phase change; "
    "`game_over`, `presence`, `turn_alarm` (80% of a turn timer has run and seats it runs "
    "for are away) and `rematch_offered`: the game's event of that type as a spectator sees "
    "it, with game_id and version. No payload carries a card. Any 2xx answer is a delivery; anything "
    "else (or no answer within 5 s, or a redirect) is retried after 5 s, 15 s, 45 s, ... up "
    "to CRIBBAGE_WEBHOOK_ATTEMPTS attempts.")


# A game's -----------------------------------------------------------------------------------------
@blp.route("/games/<game_id>/webhooks", methods=["POST"])
@blp.doc(operationId="createGameWebhook", security=SEAT_REQUIRED,
         responses={201: {"links": CREATED_LINKS}}, description=(
    "Your seat's server is told when it is a seat's turn, when the game ends, and when a seat "
    "comes or goes. " + PAYLOADS))
@document_errors(blp, 400, 413, 415, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@GAME_NOT_FOUND
@_problem(409, "too_many_webhooks", f"The game has {MAX_PER_GAME} webhooks already "
                                    "(too_many_webhooks)", {"limit": MAX_PER_GAME})
@REFUSED_URL
@UNAVAILABLE
@blp.arguments(CreateWebhookSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, CreatedWebhookSchema, example=examples.CREATED)
def create_game_webhook(body: dict, game_id: str):
    """Register a webhook for this game"""
    new = _webhooks().add_to_game(_game_id(game_id), _token(), _request(body))
    return _created(new)


@blp.route("/games/<game_id>/webhooks", methods=["GET"])
@blp.doc(operationId="listGameWebhooks", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@GAME_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, WebhooksSchema, example=examples.LISTED)
def list_game_webhooks(game_id: str):
    """The webhooks your seat registered for this game (never their secrets)"""
    found = _webhooks().of_game(_game_id(game_id), _token())
    return _private(json_response({"webhooks": [_webhook(webhook) for webhook in found]}))


@blp.route("/games/<game_id>/webhooks/<webhook_id>", methods=["DELETE"])
@blp.doc(operationId="deleteGameWebhook", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@WEBHOOK_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, WebhooksSchema, example={"webhooks": []})
def delete_game_webhook(game_id: str, webhook_id: str):
    """Delete a webhook your seat registered

    No new notification goes to it; deliveries already queued are still attempted. Returns
    the seat's webhooks left."""
    left = _webhooks().remove_from_game(_game_id(game_id), _token(), _webhook_id(webhook_id))
    return _private(json_response({"webhooks": [_webhook(webhook) for webhook in left]}))


@blp.route("/games/<game_id>/webhooks/<webhook_id>/deliveries", methods=["GET"])
@blp.doc(operationId="listGameWebhookDeliveries", security=SEAT_REQUIRED)
@document_errors(blp, 500)
@SEAT_UNAUTHORIZED
@FORBIDDEN
@WEBHOOK_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, DeliveriesSchema, example=examples.DELIVERIES)
def list_game_webhook_deliveries(game_id: str, webhook_id: str):
    """The webhook's recent deliveries, for debugging

    Each with its attempts, the last answer or error, and when it is tried next or was
    delivered."""
    webhook_id = _webhook_id(webhook_id)
    found = _webhooks().game_deliveries(_game_id(game_id), _token(), webhook_id)
    return _private(json_response({"webhook_id": webhook_id, "deliveries": found}))


# A player's ---------------------------------------------------------------------------------------
@blp.route("/players/me/webhooks", methods=["POST"])
@blp.doc(operationId="createPlayerWebhook", security=PLAYER_REQUIRED, description=(
    "Told of the games of every seat linked to the player, those in play now and those to "
    "come. " + PAYLOADS))
@document_errors(blp, 400, 413, 415, 500)
@PLAYER_UNAUTHORIZED
@_problem(409, "too_many_webhooks", f"The player has {MAX_PER_PLAYER} webhooks already "
                                    "(too_many_webhooks)", {"limit": MAX_PER_PLAYER})
@REFUSED_URL
@PLAYER_UNAVAILABLE
@blp.arguments(CreateWebhookSchema, example=examples.CREATE_REQUEST)
@blp.documented_response(201, CreatedWebhookSchema, example=examples.PLAYER_CREATED)
def create_player_webhook(body: dict):
    """Register a webhook for every game of the player"""
    return _created(_webhooks().add_to_player(_player(), _request(body)))


@blp.route("/players/me/webhooks", methods=["GET"])
@blp.doc(operationId="listPlayerWebhooks", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@UNAVAILABLE
@blp.documented_response(200, WebhooksSchema, example=examples.PLAYER_LISTED)
def list_player_webhooks():
    """The player's webhooks (never their secrets)"""
    found = [webhook for webhook in _player().webhooks if not webhook.is_push]
    return _private(json_response({"webhooks": [_webhook(webhook) for webhook in found]}))


@blp.route("/players/me/webhooks/<webhook_id>", methods=["DELETE"])
@blp.doc(operationId="deletePlayerWebhook", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@PLAYER_WEBHOOK_NOT_FOUND
@PLAYER_UNAVAILABLE
@blp.documented_response(200, WebhooksSchema, example={"webhooks": []})
def delete_player_webhook(webhook_id: str):
    """Delete a webhook of the player

    No new notification goes to it; deliveries already queued are still attempted. Returns
    the player's webhooks left."""
    left = _webhooks().remove_from_player(_player(), _webhook_id(webhook_id))
    return _private(json_response({"webhooks": [_webhook(webhook) for webhook in left]}))


@blp.route("/players/me/webhooks/<webhook_id>/deliveries", methods=["GET"])
@blp.doc(operationId="listPlayerWebhookDeliveries", security=PLAYER_REQUIRED)
@document_errors(blp, 500)
@PLAYER_UNAUTHORIZED
@PLAYER_WEBHOOK_NOT_FOUND
@UNAVAILABLE
@blp.documented_response(200, DeliveriesSchema, example=examples.DELIVERIES)
def list_player_webhook_deliveries(webhook_id: str):
    """The player's webhook's recent deliveries, for debugging"""
    webhook_id = _webhook_id(webhook_id)
    found = _webhooks().player_deliveries(_player(), webhook_id)
    return _private(json_response({"webhook_id": webhook_id, "deliveries": found}))


# Request and response details ---------------------------------------------------------------------
def _request(body: dict) -> WebhookRequest:
    return WebhookRequest(body["url"], body.get("secret"),
                          tuple(dict.fromkeys(body.get("events") or EVENT_TYPES)))


def _player() -> Player:
    token = _token()
    if token is None:
        raise TokenRequired("a player's webhooks need its player token")
    return _players().identify(token)


def _webhook_id(text: str) -> str:
    if not WEBHOOK_ID.fullmatch(text):
        raise WebhookNotFound(f"no webhook {text} of yours", webhook_id=text)
    return text


def _webhook(webhook: Webhook) -> dict:
    return {"webhook_id": webhook.webhook_id, "url": webhook.url, "events": list(webhook.events),
            "seat": webhook.seat, "created_at": server_time(webhook.created)}


def _created(new: NewWebhook) -> Response:
    body = _webhook(new.webhook)
    if new.secret is not None:
        body["secret"] = new.secret
    response = json_response(body, status=201)
    response.headers["Cache-Control"] = "no-store"
    return response


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Authorization")
    return response
