"""GameRecord: what the store keeps for one game (engine state, seats, event count) as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

from service.engine import GameState
from service.games.state_json import state_from_dict, state_to_dict


@dataclass(frozen=True)
class Seat:
    """A seat at the table. Humans hold it with a token; an open human seat has an invite."""

    kind: str                       # "human" | "computer"
    name: str
    level: str | None = None        # computer seats: the player registered under this name
    token_hash: str | None = None   # SHA-256 of the seat token, once the seat is taken
    invite_hash: str | None = None  # SHA-256 of the invite code; kept after joining

    @property
    def taken(self) -> bool:
        return self.kind == "computer" or self.token_hash is not None


@dataclass(frozen=True)
class GameRecord:
    seats: tuple[Seat, ...]
    state: GameState
    events: int = 0                 # how many events the game's log holds
    owners: tuple[str, ...] = ()    # whose live games it counts among (service.games.caps)
    # Per seat: the engine version of the state its last own action was applied to (-1: none
    # yet); what decides when computers may call muggins (service.games.muggins).
    acted_at: tuple[int, ...] = ()

    @property
    def ended(self) -> bool:
        return is_over(self.state.phase, self.state.options.match)

    def with_seat(self, number: int, seat: Seat) -> GameRecord:
        seats = self.seats[:number] + (seat,) + self.seats[number + 1:]
        return replace(self, seats=seats)

    def acted(self, seat: int) -> GameRecord:
        """The record after `seat` acted on the current state."""
        acted_at = self.acted_at or (-1,) * len(self.seats)
        acted_at = acted_at[:seat] + (self.state.version,) + acted_at[seat + 1:]
        return replace(self, acted_at=acted_at)

    def to_json(self) -> str:
        return json.dumps(
            {
                "seats": [asdict(seat) for seat in self.seats],
                "state": state_to_dict(self.state),
                "events": self.events,
                "owners": list(self.owners),
                "acted_at": list(self.acted_at),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        return cls(
            seats=tuple(Seat(**seat) for seat in data["seats"]),
            state=state_from_dict(data["state"]),
            events=data["events"],
            owners=tuple(data.get("owners", ())),
            acted_at=tuple(data.get("acted_at", ())),
        )


def is_over(phase: str, match: bool) -> bool:
    """Nothing more will happen in a game in `phase`: its match is over, or it was no match."""
    return phase == "match_over" or (phase == "game_over" and not match)
