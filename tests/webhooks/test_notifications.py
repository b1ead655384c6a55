"""What a save tells webhooks, as plain values: a turn for every decision (the game moved on,
or the seats to act changed), and one
notification per game_over or presence event; one entry per webhook that wants it and per
player; the same delivery id whenever the same notification is expanded for the same webhook."""

from __future__ import annotations

import json

from service.webhooks import notifications
from service.webhooks.model import Webhook, signing_key
from service.webhooks.notifications import Notification, Turn
from service.webhooks.signing import signature

TURN = Turn((1,), "play")
HOOK = Webhook("wh_1", "https://push.example/a", "s" * 24, ("turn", "game_over"), 0.0, 0)
PRESENCE_ONLY = Webhook("wh_2", "https://push.example/b", "s" * 24, ("presence",), 0.0, 1)


def kinds(found) -> list[tuple[str, dict]]:
    return [(notification.event, notification.data) for notification in found]


def test_a_turn_is_told_when_the_seats_or_the_phase_change_and_not_otherwise():
    told = notifications.notifications("g", 7, TURN, Turn((0,), "play"), None, [])
    assert kinds(told) == [("turn", {"game_id": "g", "seats": [1], "phase": "play",
                                     "version": 7, "deadline": None})]
    assert notifications.notifications("g", 8, TURN, TURN, None, []) == []
    assert kinds(notifications.notifications("g", 9, Turn((1,), "show"), TURN, None, []))[0][1][
        "phase"] == "show"


def test_a_turn_is_told_again_when_the_game_moved_on_to_the_same_seats_next_decision():
    """A human playing a computer: its card, the computer's reply, its turn again."""
    moves = [{"type": "card_played", "seat": 1, "card": "5H"},
             {"type": "card_played", "seat": 0, "card": "TD"}]
    told = notifications.notifications("g", 8, TURN, TURN, "2026-11-29T05:00:00.000Z", moves)
    assert kinds(told) == [("turn", {"game_id": "g", "seats": [1], "phase": "play",
                                     "version": 8, "deadline": "2026-11-29T05:00:00.000Z"})]
    timed_out = [{"type": "turn_timeout", "seat": 1, "on_timeout": "auto"}]
    assert len(notifications.notifications("g", 9, TURN, TURN, None, timed_out)) == 1


def test_a_presence_change_alone_is_no_new_decision():
    presence = [{"type": "presence", "seat": 0, "connected": False}]
    assert kinds(notifications.notifications("g", 8, TURN, TURN, None, presence)) == [
        ("presence", {"game_id": "g", "version": 8, "seat": 0, "connected": False})]


def test_no_turn_is_told_when_no_human_seat_is_to_act():
    assert notifications.notifications("g", 7, Turn((), "game_over"), TURN, None, []) == []


def test_game_over_and_presence_events_are_told_as_the_spectator_sees_them():
    events = [{"type": "card_played", "seat": 0, "card": "5H"},
              {"type": "presence", "seat": 1, "connected": False},
              {"type": "game_over", "reason": "resigned", "winner": 0, "scores": [61, 40]}]
    told = notifications.notifications("g", 3, Turn((), "game_over"), TURN, None, events)
    assert kinds(told) == [
        ("presence", {"game_id": "g", "version": 3, "seat": 1, "connected": False}),
        ("game_over", {"game_id": "g", "version": 3, "reason": "resigned", "winner": 0,
                       "scores": [61, 40]})]


def test_each_webhook_gets_what_it_wants_and_each_player_everything():
    found = [Notification("n1", "turn", {"x": 1}), Notification("n2", "presence", {"y": 2})]
    entries = [json.loads(text) for text in notifications.outbox(
        found, [HOOK, PRESENCE_ONLY], ["player-key"], "game:g", 5.0)]
    assert [(e["kind"], e.get("webhook_id"), e["event"]) for e in entries] == [
        ("delivery", "wh_1", "turn"), ("player", None, "turn"),
        ("delivery", "wh_2", "presence"), ("player", None, "presence")]
    assert entries[0] == {"kind": "delivery", "delivery_id": entries[0]["delivery_id"],
                          "owner": "game:g", "webhook_id": "wh_1", "url": HOOK.url,
                          "secret": HOOK.secret, "event": "turn", "data": {"x": 1},
                          "attempt": 0, "created": 5.0}


def test_a_notification_expanded_again_for_a_webhook_keeps_its_delivery_id():
    notification = Notification("n1", "turn", {})
    first = json.loads(notifications.delivery(notification, HOOK, "player:p", 1.0))
    again = json.loads(notifications.delivery(notification, HOOK, "player:p", 2.0))
    other = json.loads(notifications.delivery(notification, PRESENCE_ONLY, "player:p", 1.0))
    assert first["delivery_id"] == again["delivery_id"] != other["delivery_id"]


def test_the_signature_is_the_standard_webhooks_example():
    # The example of the Standard Webhooks specification (its reference libraries' tests).
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"test": 2432232314}'
    assert signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body) == (
        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    assert signing_key("not-a-whsec-secret") == b"not-a-whsec-secret"
