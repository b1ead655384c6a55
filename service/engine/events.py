"""Events: what an action did, split into what everyone sees and what single seats see."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    """`public` is for every seat and spectators; `private[seat]` is added for that seat only."""

    type: str
    public: dict
    private: dict[int, dict] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"type": self.type, "public": self.public,
                "private": {str(seat): data for seat, data in self.private.items()}}

    @classmethod
    def from_dict(cls, data: dict) -> Event:
        return cls(data["type"], data["public"],
                   {int(seat): part for seat, part in data["private"].items()})


def items_data(items) -> list[dict]:
    """Scoring items (service.scoring.ScoreItem) as an event records them."""
    return [{"kind": item.kind, "cards": [card.text for card in item.cards],
             "points": item.points} for item in items]
