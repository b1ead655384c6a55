"""What a game's save tells its webhooks: the queue entries written with the save.

A save makes at most one notification of each kind: `turn` when human seats are to act and
either the game moved on (the save appends an event of the game, not only the table's: an
action, a computer's reply, a timeout; every decision is told, the cards of a play one by one) or they are not the
seats (or the phase) last notified, and one per `game_over` or `presence` event it appends. Each becomes one delivery entry per game webhook that wants it,
and one player entry per linked player with webhooks (the delivery worker expands those with
the player's webhooks, which the game record does not hold). Payloads are built from public
values only: seat numbers, phases, versions, deadlines, and events as a spectator sees them.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from .model import Webhook

NOTIFIED_EVENTS = ("game_over", "presence", "turn_alarm", "rematch_offered")
# The table's events, not the game's: none of them gives a seat a new decision.
QUIET_EVENTS = ("presence", "turn_alarm", "seat_joined", "seat_renamed", "rematch_offered",
                "rematch_accepted", "rematch_declined", "rematch_expired", "rematch_started")
# Notifications that name the seats they are for (`seats`): a seat's push subscription gets
# only those naming its seat (a phone is told of its own turn, not of the others').
SEATED_EVENTS = ("turn", "turn_alarm")


@dataclass(frozen=True)
class Turn:
    """Who must act now, as a turn notification names it."""

    seats: tuple[int, ...]
    phase: str

    def to_list(self) -> list:
        return [self.phase, *self.seats]

    @classmethod
    def from_list(cls, data: Sequence) -> Turn:
        return cls(tuple(data[1:]), data[0])


@dataclass(frozen=True)
class Notification:
    notification_id: str
    event: str
    data: dict


def notifications(game_id: str, version: int, turn: Turn, notified: Turn | None,
                  deadline: str | None, events: Sequence[dict]) -> list[Notification]:
    """The save's notifications. `events` are the appended events as a spectator sees them."""
    found = []
    moved = any(event["type"] not in QUIET_EVENTS for event in events)
    if turn.seats and (moved or turn != notified):
        found.append(("turn", {"game_id": game_id, "seats": list(turn.seats),
                               "phase": turn.phase, "version": version,
                               "deadline": deadline}))
    for event in events:
        if event["type"] in NOTIFIED_EVENTS:
            data = {key: value for key, value in event.items() if key != "type"}
            found.append((event["type"], {"game_id": game_id, "version": version, **data}))
    return [Notification(new_id(), kind, data) for kind, data in found]


def outbox(notified: Sequence[Notification], webhooks: Sequence[Webhook],
           player_keys: Sequence[str], owner: str, now: float) -> list[str]:
    """The queue entries (JSON text) for the game's webhooks and its players'."""
    entries = []
    for notification in notified:
        for webhook in webhooks:
            if webhook.wants(notification.event) and for_seat(notification, webhook.seat,
                                                              webhook.is_push):
                entries.append(delivery(notification, webhook, owner, now))
        for player_key in player_keys:
            entries.append(_text({"kind": "player", "player_key": player_key,
                                  "notification_id": notification.notification_id,
                                  "event": notification.event, "data": notification.data,
                                  "created": now}))
    return entries


def for_seat(notification: Notification, seat: int | None, push: bool) -> bool:
    """Whether a notification goes to a push subscription of `seat` (webhooks, and a player's
    subscriptions whose seat is unknown, get them all)."""
    return (not push or seat is None or notification.event not in SEATED_EVENTS
            or seat in notification.data.get("seats", ()))


def delivery(notification: Notification, webhook: Webhook, owner: str, now: float,
             player_key: str | None = None) -> str:
    """One delivery entry. Its id is the same whenever the same notification is expanded for
    the same webhook again (after a crash), so a receiver can drop the repeat. A player's push
    subscription's names the player's key, by which it is deleted if its push service says it
    is gone."""
    digest = hashlib.sha256(f"{notification.notification_id}/{webhook.webhook_id}".encode())
    entry = {"kind": "delivery", "delivery_id": "msg_" + digest.hexdigest()[:24],
             "owner": owner, "webhook_id": webhook.webhook_id, "url": webhook.url,
             "secret": webhook.secret, "event": notification.event,
             "data": notification.data, "attempt": 0, "created": now}
    if webhook.keys is not None:
        entry["keys"] = list(webhook.keys)
        if player_key is not None:
            entry["player_key"] = player_key
    return _text(entry)


def new_id() -> str:
    return secrets.token_urlsafe(12)


def _text(entry: dict) -> str:
    return json.dumps(entry, separators=(",", ":"))
