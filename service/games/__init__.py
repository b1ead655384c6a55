"""Games over HTTP, minus the HTTP: the application service between the API, engine and store.

One class per job, each given the GameTable they share (service.games.table): Games (create,
join, read, act, follow), Players (service.games.players), StreamTickets (tickets), Rematches
(rematches) and the Sweeper (sweeper).
"""

from .games import MAX_WAIT, Games
from .players import Players
from .rematches import Rematches
from .requests import ActionRequest, ClaimedItem
from .snapshots import EventsPage, GameSnapshot, Invite, NumberedEvent, RematchAccess, SeatAccess
from .table import GameTable
from .tickets import StreamTicket, StreamTickets

__all__ = ["ActionRequest", "ClaimedItem", "EventsPage", "GameSnapshot", "GameTable", "Games",
           "Invite", "MAX_WAIT", "NumberedEvent", "Players", "RematchAccess", "Rematches",
           "SeatAccess", "StreamTicket", "StreamTickets"]
