"""Request and response examples of the push operations (a test validates each one)."""

SUBSCRIPTION_ID = "ps_Qm9hcmRHYW1lcyEh"
ENDPOINT = "https://push.example/wp/dQw4w9WgXcQ:APA91bH"
KEYS = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e"
                  "8QcYP7DkM",
        "auth": "tBHItJI5svbpez7KI4CCXg"}
KEY = {"public_key": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHB"
                     "Q8ZFbt3aD7xm8", "subject": "mailto:ops@cribbage.example"}
CREATE_REQUEST = {"endpoint": ENDPOINT, "keys": KEYS, "events": ["turn", "game_over"]}
CREATED = {"subscription_id": SUBSCRIPTION_ID, "endpoint": ENDPOINT,
           "events": ["turn", "game_over"], "seat": 0, "created_at": "2026-11-29T10:04:05.678Z"}
LISTED = {"subscriptions": [CREATED]}
PLAYER_CREATED = {**CREATED, "seat": None}
PLAYER_LISTED = {"subscriptions": [PLAYER_CREATED]}
DELIVERIES = {"webhook_id": SUBSCRIPTION_ID, "deliveries": [
    {"delivery_id": "msg_5d1c0a7e9b2f44e1a3c6d8f0", "event": "turn", "attempts": 1,
     "outcome": "delivered", "status": 201, "error": None,
     "created_at": "2026-11-29T10:04:05.678Z", "last_attempt_at": "2026-11-29T10:04:05.901Z",
     "next_attempt_at": None, "delivered_at": "2026-11-29T10:04:05.901Z"},
    {"delivery_id": "msg_0b9e4c2d7a1f5e3c8d6b2a40", "event": "turn", "attempts": 1,
     "outcome": "retrying", "status": 429, "error": None,
     "created_at": "2026-11-29T10:03:58.102Z", "last_attempt_at": "2026-11-29T10:03:58.230Z",
     "next_attempt_at": "2026-11-29T10:04:03.230Z", "delivered_at": None},
]}
