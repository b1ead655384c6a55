"""Stream tickets: one-time passes to a seat's event stream, for clients (a browser's
EventSource) that cannot send an Authorization header. The store keeps a ticket's digest only,
for TICKET_SECONDS."""

from __future__ import annotations

from dataclasses import dataclass

from . import tokens
from .errors import SeatRefused, TokenRequired
from .table import GameTable

TICKET_SECONDS = 60        # a stream ticket is good for this long, and once


@dataclass(frozen=True)
class StreamTicket:
    ticket: str
    expires_in: int


class StreamTickets:
    def __init__(self, table: GameTable):
        self.table = table

    def issue(self, game_id: str, token: str | None) -> StreamTicket:
        """A one-time pass to the seat's event stream."""
        if not token:
            raise TokenRequired("a stream ticket needs the seat's token")
        _, seat = self.table.seat_of(game_id, token)
        ticket = tokens.new_secret()
        self.table.store_call(self.table.store.add_ticket, game_id, tokens.digest(ticket), seat,
                              TICKET_SECONDS)
        return StreamTicket(ticket, TICKET_SECONDS)

    def redeem(self, game_id: str, ticket: str) -> int:
        """The seat a stream ticket was given to; the ticket is used up."""
        seat = self.table.store_call(self.table.store.take_ticket, game_id, tokens.digest(ticket))
        if seat is None:
            raise SeatRefused("this stream ticket is unknown, used or expired",
                              code="invalid_ticket")
        return seat
