"""A finished game's result as its record keeps it (service.games.results works it out)."""

from __future__ import annotations

from dataclasses import dataclass

from service.ratings import Rating, Stats


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player_key: str               # the player's store key when the game ended
    player_id: str
    stats: Stats
    before: Rating | None = None  # rated games only
    after: Rating | None = None

    def to_dict(self) -> dict:
        data = {"seat": self.seat, "player_key": self.player_key, "player_id": self.player_id,
                "stats": self.stats.to_dict()}
        if self.before is not None and self.after is not None:
            data.update(before=self.before.to_dict(), after=self.after.to_dict())
        return data

    @classmethod
    def from_dict(cls, data: dict) -> SeatResult:
        rated = "before" in data
        return cls(data["seat"], data["player_key"], data["player_id"],
                   Stats.from_dict(data["stats"]),
                   Rating.from_dict(data["before"]) if rated else None,
                   Rating.from_dict(data["after"]) if rated else None)


@dataclass(frozen=True)
class GameResult:
    format: str
    rated: bool
    seats: tuple[SeatResult, ...]
    due: float                    # when the sweeper finishes counting it, if not settled
    settled: bool = False         # every player has counted it

    def to_dict(self) -> dict:
        return {"format": self.format, "rated": self.rated, "due": self.due,
                "settled": self.settled, "seats": [seat.to_dict() for seat in self.seats]}

    @classmethod
    def from_dict(cls, data: dict) -> GameResult:
        return cls(data["format"], data["rated"],
                   tuple(SeatResult.from_dict(seat) for seat in data["seats"]), data["due"],
                   data["settled"])
