"""Webhooks of a game (registered by a seat) and of a player (told of all its seats' games).

A game's webhooks live in its record, so a save knows without a read whether to queue
notifications; a player's live in the player's document, and the records of its games name
the player (GameRecord.player_webhooks) from its first webhook on. Each caller sees and
deletes only its own: a seat those it registered, a player its own. A secret is given (24 to
128 characters) or made here and shown once; it is never shown again.

A push subscription (service.webhooks.push) is kept beside them as a webhook with keys; each
kind is listed, counted and deleted apart from the other.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace

from service.errors import DomainError
from service.games.errors import TokenRequired
from service.store import StoreError
from service.webhooks import addresses
from service.webhooks.delivery import log_key
from service.webhooks.errors import (InvalidPushKeys, PushSubscriptionNotFound,
                                     TooManyPushSubscriptions, TooManyWebhooks, WebhookNotFound)
from service.webhooks.model import (MAX_PER_GAME, MAX_PER_PLAYER, MAX_PUSH_PER_GAME,
                                    MAX_PUSH_PER_PLAYER, PlayerHooks, Webhook,
                                    is_subscription_id, new_secret, new_subscription_id,
                                    new_webhook_id)
from service.webhooks.push import public_key_error

from .errors import GameNotFound
from .players import Player, Players
from .record import GameRecord
from .table import GameTable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NewWebhook:
    webhook: Webhook
    secret: str | None    # the secret the service made, shown once; None if the caller gave one


@dataclass(frozen=True)
class WebhookRequest:
    url: str
    secret: str | None
    events: tuple[str, ...]


@dataclass(frozen=True)
class PushRequest:
    """A Web Push subscription as a browser's PushManager.subscribe() gives it."""

    endpoint: str
    p256dh: str
    auth: str
    events: tuple[str, ...]


class Webhooks:
    def __init__(self, table: GameTable, players: Players, allow_private: bool = False):
        self.table = table
        self.players = players
        self.allow_private = allow_private

    # A game's -----------------------------------------------------------------------------------
    def add_to_game(self, game_id: str, token: str | None, request: WebhookRequest) -> NewWebhook:
        new = self._new(request)
        return replace(new, webhook=self._add_to_game(game_id, token, new.webhook))

    def add_push_to_game(self, game_id: str, token: str | None, request: PushRequest) -> Webhook:
        return self._add_to_game(game_id, token, self._new_push(request))

    def _add_to_game(self, game_id: str, token: str | None, webhook: Webhook) -> Webhook:
        if not token:
            raise TokenRequired("registering a webhook or push subscription needs the seat's "
                                "token")

        def add(record: GameRecord, seat: int | None) -> GameRecord:
            if sum(kept.is_push == webhook.is_push for kept in record.webhooks) >= \
                    _most_per_game(webhook):
                raise _too_many(webhook, "a game", _most_per_game(webhook))
            return replace(record, webhooks=record.webhooks + (replace(webhook, seat=seat),))

        _, seat = self.table.change(game_id, token, add)
        return replace(webhook, seat=seat)

    def of_game(self, game_id: str, token: str | None, push: bool = False
                ) -> tuple[Webhook, ...]:
        """The seat's webhooks (or, with `push`, its push subscriptions)."""
        record, seat = self.table.seat_of(game_id, _required(token))
        return tuple(webhook for webhook in record.webhooks
                     if webhook.seat == seat and webhook.is_push == push)

    def remove_from_game(self, game_id: str, token: str | None,
                         webhook_id: str) -> tuple[Webhook, ...]:
        """Delete one of the seat's webhooks (or push subscriptions); returns those of its kind
        it has left."""
        push = is_subscription_id(webhook_id)

        def remove(record: GameRecord, seat: int | None) -> GameRecord:
            kept = tuple(webhook for webhook in record.webhooks
                         if not (webhook.webhook_id == webhook_id and webhook.seat == seat))
            if len(kept) == len(record.webhooks):
                raise _not_found(webhook_id)
            return replace(record, webhooks=kept)

        record, seat = self.table.change(game_id, _required(token), remove)
        return tuple(webhook for webhook in record.webhooks
                     if webhook.seat == seat and webhook.is_push == push)

    def game_deliveries(self, game_id: str, token: str | None, webhook_id: str) -> list[dict]:
        seats = self.of_game(game_id, token, push=is_subscription_id(webhook_id))
        if webhook_id not in {webhook.webhook_id for webhook in seats}:
            raise _not_found(webhook_id)
        return self._deliveries(log_key(f"game:{game_id}", webhook_id))

    # A player's ---------------------------------------------------------------------------------
    def add_to_player(self, player: Player, request: WebhookRequest) -> NewWebhook:
        new = self._new(request)
        self._add_to_player(player, new.webhook)
        return new

    def add_push_to_player(self, player: Player, request: PushRequest) -> Webhook:
        subscription = self._new_push(request)
        self._add_to_player(player, subscription)
        return subscription

    def _add_to_player(self, player: Player, webhook: Webhook) -> None:
        def add(current: Player) -> Player:
            if sum(kept.is_push == webhook.is_push for kept in current.webhooks) >= \
                    _most_per_player(webhook):
                raise _too_many(webhook, "a player", _most_per_player(webhook))
            return replace(current, webhooks=current.webhooks + (webhook,))

        self._name_player_in_games(self.players.change(player, add))

    def remove_from_player(self, player: Player, webhook_id: str) -> tuple[Webhook, ...]:
        """Delete one of the player's webhooks (or push subscriptions); returns those of its kind
        it has left."""
        def remove(current: Player) -> Player:
            kept = tuple(webhook for webhook in current.webhooks
                         if webhook.webhook_id != webhook_id)
            if len(kept) == len(current.webhooks):
                raise _not_found(webhook_id)
            return replace(current, webhooks=kept)

        push = is_subscription_id(webhook_id)
        return tuple(webhook for webhook in self.players.change(player, remove).webhooks
                     if webhook.is_push == push)

    def forget(self, owner: str, webhook_id: str, player_key: str | None) -> None:
        """Delete a push subscription its push service reported gone: a game's (owner
        game:<id>) or a player's (the player's key). A game or player gone too, or one that
        cannot be changed now, is left: its next delivery finds the subscription gone again."""
        def without(webhooks: tuple[Webhook, ...]) -> tuple[Webhook, ...]:
            return tuple(webhook for webhook in webhooks if webhook.webhook_id != webhook_id)

        try:
            if player_key is None:
                self.table.change(owner.removeprefix("game:"), None, lambda record, seat: replace(
                    record, webhooks=without(record.webhooks)))
            else:
                # A delivery queued before the player's token was rotated names its old key.
                player = self.players.by_key(player_key, closed=True)
                self.players.change(player, lambda changed: (
                    replace(changed, webhooks=without(changed.webhooks))))
        except (StoreError, ValueError) as error:
            log.warning("gone push subscription %s of %s not deleted: %s", webhook_id, owner,
                        error)

    def player_deliveries(self, player: Player, webhook_id: str) -> list[dict]:
        if webhook_id not in {webhook.webhook_id for webhook in player.webhooks}:
            raise _not_found(webhook_id)
        return self._deliveries(log_key(f"player:{player.player_id}", webhook_id))

    def of_player_key(self, player_key: str) -> PlayerHooks | None:
        """The player's id, webhooks and seats, for the delivery worker; None if it expired."""
        stored = self.players.stored(player_key)
        if stored is None:
            return None
        data = json.loads(stored.data)
        return PlayerHooks(data["player_id"], tuple(Webhook.from_dict(webhook)
                                                    for webhook in data.get("webhooks", ())),
                           dict(stored.games))

    # Steps --------------------------------------------------------------------------------------
    def _new(self, request: WebhookRequest) -> NewWebhook:
        addresses.check(request.url, self.allow_private)
        secret = request.secret or new_secret()
        webhook = Webhook(new_webhook_id(), request.url, secret, request.events,
                          self.table.clock())
        return NewWebhook(webhook, None if request.secret else secret)

    def _new_push(self, request: PushRequest) -> Webhook:
        problem = public_key_error(request.p256dh, request.auth)
        if problem:
            raise InvalidPushKeys(problem, field="keys")
        try:
            addresses.check(request.endpoint, self.allow_private)
        except DomainError as refused:  # the same checks as a webhook's URL, named for push
            raise type(refused)(str(refused), code=refused.code,
                                **{**refused.params, "field": "endpoint"}) from None
        return Webhook(new_subscription_id(), request.endpoint, "", request.events,
                       self.table.clock(), keys=(request.p256dh, request.auth))

    def _name_player_in_games(self, player: Player) -> None:
        """Name the player in the records of its games in play, so their saves notify it. A game
        that cannot be changed now is left out (it notifies the player's next games only)."""
        def name(record: GameRecord, seat: int | None) -> GameRecord:
            if record.ended or player.key in record.player_webhooks:
                return record
            return replace(record, player_webhooks=record.player_webhooks + (player.key,))

        for game_id in dict.fromkeys(game_id for game_id, _ in player.games):
            try:
                self.table.change(game_id, None, name)
            except (StoreError, ValueError):
                continue

    def _deliveries(self, key: str) -> list[dict]:
        return [json.loads(record) for record in self.table.store.delivery_log(key)]


def _required(token: str | None) -> str:
    if not token:
        raise TokenRequired("a game's webhooks need the seat's token")
    return token


def _not_found(webhook_id: str) -> GameNotFound:
    if is_subscription_id(webhook_id):
        return PushSubscriptionNotFound(f"no push subscription {webhook_id} of yours",
                                        subscription_id=webhook_id)
    return WebhookNotFound(f"no webhook {webhook_id} of yours", webhook_id=webhook_id)


def _most_per_game(webhook: Webhook) -> int:
    return MAX_PUSH_PER_GAME if webhook.is_push else MAX_PER_GAME


def _most_per_player(webhook: Webhook) -> int:
    return MAX_PUSH_PER_PLAYER if webhook.is_push else MAX_PER_PLAYER


def _too_many(webhook: Webhook, holder: str, limit: int) -> Exception:
    if webhook.is_push:
        return TooManyPushSubscriptions(f"{holder} has at most {limit} push subscriptions",
                                        limit=limit)
    return TooManyWebhooks(f"{holder} has at most {limit} webhooks", limit=limit)
