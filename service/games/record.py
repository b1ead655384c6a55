"""GameRecord: what the store keeps for one game (engine state, seats, event count) as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

from service.engine import GameState
from service.engine.legal import whose_turn
from service.games.state_json import state_from_dict, state_to_dict
from service.webhooks.model import Webhook
from service.webhooks.notifications import Turn

# A turn alarm is told once this share of a turn timer has run, to the seats on the clock that
# are not at the table (lichess's: at 80% of a correspondence clock).
ALARM_AT = 0.8


@dataclass(frozen=True)
class Seat:
    """A seat at the table. Humans hold it with a token; an open human seat has an invite."""

    kind: str                       # "human" | "computer"
    name: str
    level: str | None = None        # computer seats: the player registered under this name
    token_hash: str | None = None   # SHA-256 of the seat token, once the seat is taken
    invite_hash: str | None = None  # SHA-256 of the invite code; kept after joining
    player_id: str | None = None    # the player linked to the seat (service.games.players)
    player_hash: str | None = None  # SHA-256 of that player's token: it opens the seat too

    @property
    def taken(self) -> bool:
        return self.kind == "computer" or self.token_hash is not None

    @property
    def on_the_clock(self) -> bool:
        """Whether a turn timer runs out for this seat: a human seat someone has taken. A seat
        nobody has joined yet never times out (with `forfeit` the creator would win before the
        invitee sat down); the timer starts again when it is taken (Games.join)."""
        return self.kind == "human" and self.token_hash is not None


@dataclass(frozen=True)
class RematchOffer:
    game_id: str                            # the new game's id, chosen with the offer
    offered_by: int
    expires_at: float                       # epoch seconds
    accepted: tuple[tuple[int, str], ...]   # (seat, digest of its token for the new game)
    declined_by: int | None = None
    expired: bool = False
    started: bool = False

    @property
    def open(self) -> bool:
        return not (self.started or self.expired or self.declined_by is not None)

    @property
    def status(self) -> str:
        if self.started:
            return "started"
        if self.declined_by is not None:
            return "declined"
        return "expired" if self.expired else "open"

    @property
    def accepted_seats(self) -> tuple[int, ...]:
        return tuple(sorted(seat for seat, _ in self.accepted))

    def to_dict(self) -> dict:
        return {"game_id": self.game_id, "offered_by": self.offered_by,
                "expires_at": self.expires_at, "accepted": [list(pair) for pair in self.accepted],
                "declined_by": self.declined_by, "expired": self.expired,
                "started": self.started}

    @classmethod
    def from_dict(cls, data: dict) -> RematchOffer:
        return cls(**{**data, "accepted": tuple(tuple(pair) for pair in data["accepted"])})


@dataclass(frozen=True)
class GameRecord:
    seats: tuple[Seat, ...]
    state: GameState
    events: int = 0                 # how many events the game's log holds
    owners: tuple[str, ...] = ()    # whose live games it counts among (service.games.caps)
    # Per seat: the engine version of the state its last own action was applied to (-1: none
    # yet); what decides when computers may call muggins (service.games.muggins).
    acted_at: tuple[int, ...] = ()
    updated: float = 0.0            # epoch seconds of the last write
    rematch: RematchOffer | None = None  # the offer of a rematch of this game (rematch.py)
    rematch_of: str | None = None   # the game this one is a rematch of
    human_moved: float = 0.0        # epoch seconds of the last human action (or the creation)
    abandon_check: float | None = None  # when to look whether the game is abandoned
    scheduled: float | None = None  # next_due as the store's deadline index was last given it
    presence_due: float | None = None  # a presence check the index holds before `scheduled`
    acted_times: tuple[float, ...] = ()  # per seat: epoch seconds of its last action (0: none)
    connected: tuple[bool, ...] = ()     # per seat: present, as the table was last told
    webhooks: tuple[Webhook, ...] = ()     # the game's own (service.games.webhooks)
    player_webhooks: tuple[str, ...] = ()  # keys of linked players that have webhooks
    notified_turn: Turn | None = None      # the turn last told to the webhooks
    # When the computers' replies (or a timed-out turn) the compute tier could not give in
    # time are due to be tried again by the sweeper (service.games.computers).
    computers_due: float | None = None
    alarmed: float | None = None  # the turn deadline whose alarm (ALARM_AT) was told
    rated: bool = False           # a rated pairing of players only (service.games.seeks)

    @property
    def notifies(self) -> bool:
        """Saves of this game queue webhook notifications."""
        return bool(self.webhooks or self.player_webhooks)

    @property
    def ended(self) -> bool:
        return is_over(self.state.phase, self.state.options.match)

    def with_seat(self, number: int, seat: Seat) -> GameRecord:
        seats = self.seats[:number] + (seat,) + self.seats[number + 1:]
        return replace(self, seats=seats)

    def acted(self, seat: int, now: float) -> GameRecord:
        """The record after `seat` (a human) acted on the current state at `now`."""
        acted_at = self.acted_at or (-1,) * len(self.seats)
        acted_at = acted_at[:seat] + (self.state.version,) + acted_at[seat + 1:]
        times = self.acted_times or (0.0,) * len(self.seats)
        times = times[:seat] + (now,) + times[seat + 1:]
        return replace(self, acted_at=acted_at, human_moved=now, acted_times=times)

    @property
    def timed_turn_deadline(self) -> float | None:
        """The turn timer's deadline, if a seat it runs out for is to act (Seat.on_the_clock)."""
        if self.state.turn_deadline is None:
            return None
        clocked = any(self.seats[seat].on_the_clock for seat in whose_turn(self.state))
        return self.state.turn_deadline if clocked else None

    @property
    def alarm_due(self) -> float | None:
        """When the notifications' turn alarm is due: ALARM_AT of the turn timer, in a game that
        notifies (webhooks, push) and has not told it for this deadline."""
        deadline, limit = self.timed_turn_deadline, self.state.options.turn_time_limit
        if not self.notifies or deadline is None or limit is None or self.alarmed == deadline:
            return None
        return deadline - (1 - ALARM_AT) * limit

    @property
    def next_due(self) -> float | None:
        """When something is next due in the game with no one asking: its turn timer or count
        time limit runs out, it is time to look whether it is abandoned, or (once it is over)
        its open rematch offer lapses, or the computers' replies are to be tried again."""
        if self.ended:
            offer = self.rematch
            return offer.expires_at if offer is not None and offer.open else None
        due = [self.timed_turn_deadline, self.state.deadline, self.abandon_check,
               self.computers_due, self.alarm_due]
        return min((at for at in due if at is not None), default=None)

    def to_json(self) -> str:
        data = {
            "seats": [asdict(seat) for seat in self.seats],
            "state": state_to_dict(self.state),
            "events": self.events,
            "owners": list(self.owners),
            "acted_at": list(self.acted_at),
            "updated": self.updated,
            "rematch": None if self.rematch is None else self.rematch.to_dict(),
            "rematch_of": self.rematch_of,
            "human_moved": self.human_moved,
            "abandon_check": self.abandon_check,
            "scheduled": self.scheduled,
            "acted_times": list(self.acted_times),
            "connected": list(self.connected),
        }
        if self.computers_due is not None:
            data["computers_due"] = self.computers_due
        if self.alarmed is not None:
            data["alarmed"] = self.alarmed
        if self.presence_due is not None:
            data["presence_due"] = self.presence_due
        if self.rated:
            data["rated"] = True
        if self.notifies:  # a game without webhooks keeps the document it always had
            data.update(webhooks=[webhook.to_dict() for webhook in self.webhooks],
                        player_webhooks=list(self.player_webhooks),
                        notified_turn=None if self.notified_turn is None
                        else self.notified_turn.to_list())
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        return cls(
            seats=tuple(Seat(**seat) for seat in data["seats"]),
            state=state_from_dict(data["state"]),
            events=data["events"],
            owners=tuple(data.get("owners", ())),
            acted_at=tuple(data.get("acted_at", ())),
            updated=data.get("updated", 0.0),
            rematch=None if data.get("rematch") is None
            else RematchOffer.from_dict(data["rematch"]),
            rematch_of=data.get("rematch_of"),
            human_moved=data.get("human_moved", 0.0),
            abandon_check=data.get("abandon_check"),
            scheduled=data.get("scheduled"),
            presence_due=data.get("presence_due"),
            acted_times=tuple(data.get("acted_times", ())),
            connected=tuple(data.get("connected", ())),
            webhooks=tuple(Webhook.from_dict(webhook) for webhook in data.get("webhooks", ())),
            player_webhooks=tuple(data.get("player_webhooks", ())),
            notified_turn=None if data.get("notified_turn") is None
            else Turn.from_list(data["notified_turn"]),
            computers_due=data.get("computers_due"),
            alarmed=data.get("alarmed"),
            rated=data.get("rated", False),
        )


def is_over(phase: str, match: bool) -> bool:
    """Nothing more will happen in a game in `phase`: its match is over, or it was no match."""
    return phase == "match_over" or (phase == "game_over" and not match)
