"""Games over HTTP, minus the HTTP: the application service between the API, engine and store."""

from .requests import ActionRequest, ClaimedItem
from .service import (MAX_WAIT, EventsPage, GameSnapshot, GamesService, Invite,
                      NumberedEvent, RematchAccess, SeatAccess, StreamTicket)

__all__ = ["ActionRequest", "ClaimedItem", "EventsPage", "GameSnapshot", "GamesService",
           "Invite", "MAX_WAIT", "NumberedEvent", "RematchAccess", "SeatAccess", "StreamTicket"]
