"""Webhooks of a game (registered by a seat) and of a player (told of all its seats' games).

A game's webhooks live in its record, so a save knows without a read whether to queue
notifications; a player's live in the player's document, and the records of its games name
the player (GameRecord.player_webhooks) from its first webhook on. Each caller sees and
deletes only its own: a seat those it registered, a player its own. A secret is given (24 to
128 characters) or made here and shown once; it is never shown again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from service.games.errors import TokenRequired
from service.store import StoreError
from service.webhooks import addresses
from service.webhooks.delivery import log_key
from service.webhooks.errors import TooManyWebhooks, WebhookNotFound
from service.webhooks.model import (MAX_PER_GAME, MAX_PER_PLAYER, Webhook, new_secret,
                                    new_webhook_id)

from .players import Player
from .record import GameRecord
from .service import GamesService


@dataclass(frozen=True)
class NewWebhook:
    webhook: Webhook
    secret: str | None    # the secret the service made, shown once; None if the caller gave one


@dataclass(frozen=True)
class WebhookRequest:
    url: str
    secret: str | None
    events: tuple[str, ...]


class Webhooks:
    def __init__(self, games: GamesService, allow_private: bool = False):
        self.games = games
        self.allow_private = allow_private

    # A game's -----------------------------------------------------------------------------------
    def add_to_game(self, game_id: str, token: str | None, request: WebhookRequest) -> NewWebhook:
        if not token:
            raise TokenRequired("registering a webhook needs the seat's token")
        new = self._new(request)

        def add(record: GameRecord, seat: int | None) -> GameRecord:
            if len(record.webhooks) >= MAX_PER_GAME:
                raise TooManyWebhooks(f"a game has at most {MAX_PER_GAME} webhooks",
                                      limit=MAX_PER_GAME)
            return replace(record, webhooks=record.webhooks + (replace(new.webhook, seat=seat),))

        _, seat = self.games.change(game_id, token, add)
        return replace(new, webhook=replace(new.webhook, seat=seat))

    def of_game(self, game_id: str, token: str | None) -> tuple[Webhook, ...]:
        record, seat = self.games.seat_of(game_id, _required(token))
        return tuple(webhook for webhook in record.webhooks if webhook.seat == seat)

    def remove_from_game(self, game_id: str, token: str | None,
                         webhook_id: str) -> tuple[Webhook, ...]:
        """Delete one of the seat's webhooks; returns those it has left."""
        def remove(record: GameRecord, seat: int | None) -> GameRecord:
            kept = tuple(webhook for webhook in record.webhooks
                         if not (webhook.webhook_id == webhook_id and webhook.seat == seat))
            if len(kept) == len(record.webhooks):
                raise _not_found(webhook_id)
            return replace(record, webhooks=kept)

        record, seat = self.games.change(game_id, _required(token), remove)
        return tuple(webhook for webhook in record.webhooks if webhook.seat == seat)

    def game_deliveries(self, game_id: str, token: str | None, webhook_id: str) -> list[dict]:
        if webhook_id not in {webhook.webhook_id for webhook in self.of_game(game_id, token)}:
            raise _not_found(webhook_id)
        return self._deliveries(log_key(f"game:{game_id}", webhook_id))

    # A player's ---------------------------------------------------------------------------------
    def add_to_player(self, player: Player, request: WebhookRequest) -> NewWebhook:
        new = self._new(request)

        def add(current: Player) -> Player:
            if len(current.webhooks) >= MAX_PER_PLAYER:
                raise TooManyWebhooks(f"a player has at most {MAX_PER_PLAYER} webhooks",
                                      limit=MAX_PER_PLAYER)
            return replace(current, webhooks=current.webhooks + (new.webhook,))

        self._name_player_in_games(self.games.change_player(player, add))
        return new

    def remove_from_player(self, player: Player, webhook_id: str) -> tuple[Webhook, ...]:
        """Delete one of the player's webhooks; returns those it has left."""
        def remove(current: Player) -> Player:
            kept = tuple(webhook for webhook in current.webhooks
                         if webhook.webhook_id != webhook_id)
            if len(kept) == len(current.webhooks):
                raise _not_found(webhook_id)
            return replace(current, webhooks=kept)

        return self.games.change_player(player, remove).webhooks

    def player_deliveries(self, player: Player, webhook_id: str) -> list[dict]:
        if webhook_id not in {webhook.webhook_id for webhook in player.webhooks}:
            raise _not_found(webhook_id)
        return self._deliveries(log_key(f"player:{player.player_id}", webhook_id))

    def of_player_key(self, player_key: str) -> tuple[str, tuple[Webhook, ...]] | None:
        """The player's id and webhooks, for the delivery worker; None if it expired."""
        stored = self.games.store.load_player(player_key, self.games.players.ttl_seconds)
        if stored is None:
            return None
        data = json.loads(stored.data)
        return data["player_id"], tuple(Webhook.from_dict(webhook)
                                        for webhook in data.get("webhooks", ()))

    # Steps --------------------------------------------------------------------------------------
    def _new(self, request: WebhookRequest) -> NewWebhook:
        addresses.check(request.url, self.allow_private)
        secret = request.secret or new_secret()
        webhook = Webhook(new_webhook_id(), request.url, secret, request.events,
                          self.games.clock())
        return NewWebhook(webhook, None if request.secret else secret)

    def _name_player_in_games(self, player: Player) -> None:
        """Name the player in the records of its games in play, so their saves notify it. A game
        that cannot be changed now is left out (it notifies the player's next games only)."""
        def name(record: GameRecord, seat: int | None) -> GameRecord:
            if record.ended or player.key in record.player_webhooks:
                return record
            return replace(record, player_webhooks=record.player_webhooks + (player.key,))

        for game_id in dict.fromkeys(game_id for game_id, _ in player.games):
            try:
                self.games.change(game_id, None, name)
            except (StoreError, ValueError):
                continue

    def _deliveries(self, key: str) -> list[dict]:
        return [json.loads(record) for record in self.games.store.delivery_log(key)]


def _required(token: str | None) -> str:
    if not token:
        raise TokenRequired("a game's webhooks need the seat's token")
    return token


def _not_found(webhook_id: str) -> WebhookNotFound:
    return WebhookNotFound(f"no webhook {webhook_id} of yours", webhook_id=webhook_id)

