"""A seat's statistics in one finished game, counted from the game's events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from service.engine import GameOptions

PEGGING = ("card_played", "last_card", "count_reset")   # events whose points are pegged
SHOWN = ("show_scored", "claim", "count_timeout")       # events whose points a show scored


@dataclass(frozen=True)
class Stats:
    """Counts that add up over games; the averages per deal are read from them."""

    games: int = 0
    wins: int = 0
    skunks_given: int = 0   # losing sides skunked (or double-skunked) by the player's side
    skunks_taken: int = 0   # games the player's side lost skunked
    deals: int = 0
    cribs: int = 0          # deals the player dealt (its crib)
    hand_points: int = 0
    crib_points: int = 0
    pegging_points: int = 0

    def __add__(self, other: Stats) -> Stats:
        return Stats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> Stats:
        return cls(**data)


def stats_of(events: Iterable[dict], options: GameOptions, seat: int) -> Stats:
    """`seat`'s statistics in a finished game: `events` its log (each {"type", "public", ...},
    Event.to_dict), in order."""
    side = options.side_of(seat)
    count = {f.name: 0 for f in fields(Stats)}
    for event in events:
        kind, public = event["type"], event["public"]
        if kind == "dealt":
            count["deals"] += 1
            count["cribs"] += public["dealer"] == seat
        elif kind in PEGGING and public["seat"] == seat:
            count["pegging_points"] += public["points"]
        elif kind in SHOWN and public["seat"] == seat:
            count["crib_points" if public["hand"] == "crib" else "hand_points"] += public["points"]
        elif kind == "game_won":
            skunked = [level > 0 for level in public["skunks"]]
            if public["winner"] == side:
                count["skunks_given"] += sum(skunked)
            count["skunks_taken"] += skunked[side]
        elif kind == "game_over":
            count["games"] = 1
            count["wins"] = int(public["winner"] == side)
    return Stats(**count)
