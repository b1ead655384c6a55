"""Events as the store keeps them (JSON with the server's time) and as a seat may see them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timezone

from service import engine
from service.engine import Event

from .snapshots import NumberedEvent

# Event fields that hold an instant: kept as epoch seconds in the log, shown as RFC 3339.
INSTANT_FIELDS = ("deadline", "expires_at")


def stored_texts(events: Sequence[Event], now: float) -> list[str]:
    """The events as the store keeps them, each with the server's time of the write."""
    time_text = server_time(now)
    return [json.dumps({**event.to_dict(), "time": time_text}, separators=(",", ":"))
            for event in events]


def numbered(number: int, stored: dict, viewer: int | None) -> NumberedEvent:
    return NumberedEvent(number, public_event(Event.from_dict(stored), viewer),
                         stored.get("time"))


def public_event(event: Event, viewer: int | None) -> dict:
    """The event as `viewer` (None: a spectator) may see it, every instant in RFC 3339."""
    return shown_instants(engine.view_event(event, viewer))


def shown_instants(data: dict) -> dict:
    """An event's data with its instants (INSTANT_FIELDS) in RFC 3339."""
    return {key: server_time(value) if key in INSTANT_FIELDS and isinstance(value, (int, float))
            else value for key, value in data.items()}


def server_time(now: float) -> str:
    """Epoch seconds as RFC 3339 in UTC with milliseconds: 2026-11-25T10:04:05.678Z."""
    moment = datetime.fromtimestamp(now, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
