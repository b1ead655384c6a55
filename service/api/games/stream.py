"""A game's stream as Server-Sent Events: the service's snapshot, pages and heartbeats as text."""

from __future__ import annotations

import logging
from collections.abc import Generator, Iterator

import orjson

from service.api.games.bodies import event_body, game_body, seat_state_body
from service.errors import DomainError
from service.games import EventsPage, GameSnapshot
from service.store import StoreError

log = logging.getLogger(__name__)

RECONNECT_MILLISECONDS = 3000


def server_sent_events(first: GameSnapshot, rest: Generator[EventsPage | None, None, None],
                       language: str) -> Iterator[bytes]:
    """`snapshot` first, then each game event as an unnamed message whose id is its number (what
    EventSource's onmessage receives and Last-Event-ID resumes from), a `state` message after
    each batch, a comment as heartbeat, and `end` when the game is over. A failure of the store
    ends the stream; the client reconnects and resumes. `language`: the request's, which
    erased players' seats are named in (the request has ended when the stream is written)."""
    yield f"retry: {RECONNECT_MILLISECONDS}\n".encode() + _message("snapshot",
                                                                   game_body(first, language))
    try:
        for page in rest:
            if page is None:
                yield b": heartbeat\n\n"
                continue
            yield b"".join(_message(None, event_body(event, language), event.number)
                           for event in page.events)
            yield _message("state", seat_state_body(page.game))
            if page.ended:
                # With the last event's id: an EventSource reconnects with it, gets 204 and
                # stops, also when the stream opened on a game already over.
                last = page.game.last_event
                yield _message("end", {"last_event": last}, last)
    except (DomainError, StoreError) as error:
        log.info("stream of %s ended: %s", first.game_id, error)
    finally:
        rest.close()  # at once, even when the client went away: the seat's presence ends


def _message(name: str | None, data: dict, number: int | None = None) -> bytes:
    lines = []
    if number is not None:
        lines.append(b"id: %d" % number)
    if name is not None:
        lines.append(b"event: " + name.encode())
    lines.append(b"data: " + orjson.dumps(data))
    return b"\n".join(lines) + b"\n\n"
