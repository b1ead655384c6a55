"""Request and response examples of the webhook operations (a test validates each one)."""

WEBHOOK_ID = "wh_Qm9hcmRHYW1lcyEh"
URL = "https://push.example/cribbage/notify"
CREATE_REQUEST = {"url": URL, "events": ["turn", "game_over"]}
CREATED = {"webhook_id": WEBHOOK_ID, "url": URL, "events": ["turn", "game_over"], "seat": 0,
           "created_at": "2026-11-25T10:04:05.678Z",
           "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
LISTED = {"webhooks": [{key: value for key, value in CREATED.items() if key != "secret"}]}
PLAYER_CREATED = {**CREATED, "seat": None, "events": ["turn", "game_over", "presence",
                                                       "turn_alarm", "rematch_offered"]}
PLAYER_LISTED = {"webhooks": [{key: value for key, value in PLAYER_CREATED.items()
                               if key != "secret"}]}
DELIVERIES = {"webhook_id": WEBHOOK_ID, "deliveries": [
    {"delivery_id": "msg_5d1c0a7e9b2f44e1a3c6d8f0", "event": "turn", "attempts": 3,
     "outcome": "delivered", "status": 204, "error": None,
     "created_at": "2026-11-25T10:04:05.678Z", "last_attempt_at": "2026-11-25T10:04:25.901Z",
     "next_attempt_at": None, "delivered_at": "2026-11-25T10:04:25.901Z"},
    {"delivery_id": "msg_0b9e4c2d7a1f5e3c8d6b2a40", "event": "turn", "attempts": 1,
     "outcome": "retrying", "status": 503, "error": None,
     "created_at": "2026-11-25T10:03:58.102Z", "last_attempt_at": "2026-11-25T10:03:58.230Z",
     "next_attempt_at": "2026-11-25T10:04:03.230Z", "delivered_at": None},
]}
