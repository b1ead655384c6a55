"""What the games service returns: a game as one seat sees it, a seat's access, a page of events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from service import engine
from service.bots.hints import Hint
from service.engine import SeatView

from . import presence
from .record import GameRecord, RematchOffer, Seat, is_over


@dataclass(frozen=True)
class GameSnapshot:
    """A game as one seat (or a spectator, seat None) sees it at a stored version."""

    game_id: str
    version: int
    seat: int | None
    seats: tuple[Seat, ...]
    last_event: int
    view: SeatView
    replayed: bool = False    # the response to an earlier request with the same key
    rematch: RematchOffer | None = None  # the rematch offered after this game
    rematch_of: str | None = None        # the game this one is a rematch of
    at: float = 0.0                      # the server's clock when the game was read
    connected: tuple[bool, ...] = ()     # per seat: at the table (service.games.presence)
    rated: bool = False                  # the game moves its players' ratings
    # Asks the compute tier for a seat's hint (GameTable.hinter); None: no hints.
    hinter: Callable[[SeatView], Hint | None] | None = field(default=None, compare=False,
                                                             repr=False)

    @property
    def ended(self) -> bool:
        """Nothing more will happen in this game."""
        return is_over(self.view.phase, self.view.options.match)

    @property
    def hint(self) -> Hint | None:
        """With options.hints, the analysis of the decision the seat faces now (computed when
        asked: a page of events never pays for it, nor a game without hints)."""
        if (not self.view.options.hints or self.seat is None
                or self.seat not in self.view.to_act or self.hinter is None):
            return None
        return self.hinter(self.view)


@dataclass(frozen=True)
class Invite:
    seat: int
    code: str


@dataclass(frozen=True)
class SeatAccess:
    """A seat taken: its token (shown once) and, for the creator, the other seats' invites."""

    game: GameSnapshot
    token: str
    invites: tuple[Invite, ...] = ()


@dataclass(frozen=True)
class RematchAccess:
    """A seat's part in a rematch: the finished game after it, the seat's token for the new
    game (shown once), and the new game once every human seat has accepted."""

    game: GameSnapshot
    token: str
    started: GameSnapshot | None = None


@dataclass(frozen=True)
class NumberedEvent:
    number: int
    data: dict  # the event as the seat may see it (service.engine.view_event)
    time: str | None = None  # when the server recorded it (server_time), if it was recorded so


@dataclass(frozen=True)
class EventsPage:
    """Events after a number, and the game as the seat sees it after the last of them."""

    game: GameSnapshot
    events: tuple[NumberedEvent, ...]

    @property
    def ended(self) -> bool:
        return self.game.ended


def snapshot(game_id: str, version: int, record: GameRecord, seat: int | None,
             replayed: bool = False, at: float = 0.0) -> GameSnapshot:
    """The game as `seat` sees it. Computer seats are never among those to act: any move of
    theirs has been made, and the decisions left are the humans'."""
    view = engine.view(record.state, seat)
    humans_to_act = tuple(s for s in view.to_act if record.seats[s].kind == "human")
    return GameSnapshot(game_id, version, seat, record.seats, record.events,
                        replace(view, to_act=humans_to_act), replayed, record.rematch,
                        record.rematch_of, at, presence.connected(record), record.rated)
