"""Leaderboards: per format, one per season (a calendar month, UTC) and one for all time.

A board holds each player's displayed rating in the format (service.ratings), as of the
player's last rated game there: the season's board those who played a rated game in it, the
all-time board everyone. A player is put on them when a rated game of the format is counted
for it (results.settle) and only once out of its placement games (Rating.provisional); it is
taken off the current season's and the all-time boards when it hides itself (Player.listed) or
is erased, and its name is forgotten, so it shows on no board at all, past seasons included.
Shown again, it is back on the all-time boards at once and on a season's with its next rated
game in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from service.errors import InvalidInputError
from service.ratings import FORMATS, Rating
from service.store import GameStore

from .players import Player

ALL_TIME = "all"
SEASON = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")


@dataclass(frozen=True)
class Place:
    place: int         # from 1
    player_id: str
    name: str | None
    rating: int


def season_of(now: float) -> str:
    """The season (a month, UTC) an instant falls in: "2026-12"."""
    return datetime.fromtimestamp(now, timezone.utc).strftime("%Y-%m")


def board(fmt: str, season: str) -> str:
    return f"{fmt}:{season}"


def post(store: GameStore, player: Player, fmt: str, rating: Rating, now: float) -> None:
    """The player's rating on the format's boards of the season of `now` and of all time, if
    the player is listed and out of its placement games."""
    if player.listed and not rating.provisional:
        store.rank([board(fmt, season_of(now)), board(fmt, ALL_TIME)], player.player_id,
                   rating.display, player.name or "")


def withdraw(store: GameStore, player: Player, now: float) -> None:
    """The player off the boards of the current season and all time, and its name forgotten."""
    store.unrank([board(fmt, season) for fmt in FORMATS
                  for season in (season_of(now), ALL_TIME)], player.player_id)


def show(store: GameStore, player: Player) -> None:
    """A listed player (back) on the all-time boards of its rated formats, under its name; a
    season's board takes it again with its next rated game there."""
    for fmt, rating in player.ratings:
        if player.listed and not rating.provisional:
            store.rank([board(fmt, ALL_TIME)], player.player_id, rating.display,
                       player.name or "")


class Leaderboards:
    def __init__(self, store: GameStore, clock: Callable[[], float]):
        self.store = store
        self.clock = clock

    def season(self, asked: str | None) -> str:
        """The season asked for ("all", "2026-12"), the current one if none."""
        if asked is None:
            return season_of(self.clock())
        if asked != ALL_TIME and not SEASON.fullmatch(asked):
            raise InvalidInputError(f"no season {asked!r}: a month as 2026-12, or all",
                                    code="invalid_season", field="season", season=asked)
        return asked

    def top(self, fmt: str, season: str, limit: int) -> list[Place]:
        return self._page(fmt, season, 0, limit)

    def around(self, fmt: str, season: str, player: Player, limit: int) -> list[Place]:
        """`limit` places with the player's in the middle; none if it is not on the board."""
        place = self.store.board_place(board(fmt, season), player.player_id)
        if place is None:
            return []
        return self._page(fmt, season, max(0, place - limit // 2), limit)

    def _page(self, fmt: str, season: str, start: int, limit: int) -> list[Place]:
        rows = self.store.board_page(board(fmt, season), start, limit)
        return [Place(start + number + 1, member, name or None, score)
                for number, (member, score, name) in enumerate(rows)]
