"""Games open to spectators: the live games, the newest first, a page at a time.

Every game can be watched by its id (GET /v1/games/{id} without a token: the spectator's
view). This lists the games in play to find one: from the store's live games index (written
with each game's creation: GameStore.create), each game read again and shown by its public
parts only (seats' names, scores, phase); a game found ended or expired leaves the index as
the listing meets it. On a Cluster an entry is written just before its game: an entry found
without a game is skipped while it is younger than CREATING_SECONDS (its game may be on its
way), and dropped after (its creation failed or its process died).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from service.errors import InvalidInputError

from .record import GameRecord, Seat
from .table import GameTable

EXTRA_READ = 20   # games read beyond a page: those found ended or expired are dropped
CREATING_SECONDS = 30.0  # how long an entry of the index may wait for its game to be stored


@dataclass(frozen=True)
class LiveGame:
    game_id: str
    created: float
    record: GameRecord

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.record.seats


@dataclass(frozen=True)
class LivePage:
    games: tuple[LiveGame, ...]
    cursor: str | None    # for the next page; None: this is the last


def live_games(table: GameTable, cursor: str | None, limit: int) -> LivePage:
    """A page of the games in play, the newest first, after `cursor` (from the page before)."""
    before, last_id = _cursor(cursor)
    found: list[LiveGame] = []
    while len(found) < limit:
        read = table.store.live_games(before, limit + EXTRA_READ)
        entries = [(game_id, created) for game_id, created in read
                   if before is None or (created, game_id) < (before, last_id or "")]
        gone, more = [], False
        creating_since = table.clock() - CREATING_SECONDS
        for (game_id, created), stored in zip(entries, table.store.load_many(
                [game_id for game_id, _ in entries])):
            record = None if stored is None else GameRecord.from_json(stored.data)
            if record is None and created > creating_since:
                continue
            if record is None or record.ended:
                gone.append(game_id)
            elif len(found) < limit:
                found.append(LiveGame(game_id, created, record))
            else:
                more = True
                break
        table.store.unindex_live_games(gone)
        if more:
            break
        if len(read) < limit + EXTRA_READ or not entries:
            return LivePage(tuple(found), None)   # the index's end (or a page of ties read)
        before, last_id = entries[-1][1], entries[-1][0]
    last = found[-1]
    return LivePage(tuple(found), f"{last.created!r}:{last.game_id}")


def _cursor(cursor: str | None) -> tuple[float | None, str | None]:
    if cursor is None:
        return None, None
    created, _, game_id = cursor.partition(":")
    try:
        before = float(created)
    except ValueError:
        before = math.nan
    if not math.isfinite(before) or not game_id:
        raise InvalidInputError("cursor: not one a page gave", code="invalid_cursor",
                                field="cursor")
    return before, game_id
