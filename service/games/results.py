"""A finished game's result for its players: the rating change of a rated game and every
linked seat's statistics, counted exactly once per game.

The result is worked out in the save that ends the game (the one whose events hold its
`game_over`) and kept in the game's record: each linked player's rating before and after, and
its stats in this game. That versioned save decides it once, whatever retries come. Each player
then counts it with a compare-and-set of its own document that names the game (Player.settled),
so counting it again changes nothing; once every player has, the record says so (`settled`).
A player whose token is replaced meanwhile (service.games.accounts) is found where its old
digest forwards to (players.current), so the count lands once on the player's one document
whatever step of the move it meets.
A process that dies in between leaves the record unsettled, and the game due in the deadline
index SETTLE_AFTER seconds after its end: the sweeper (or the next request to the game)
finishes the counting. Each rated player is then put on the leaderboards (leaderboards.post,
which sets the rating it has: again is the same). Rated: every seat linked to a distinct player and a side won (an
aborted or abandoned game moves no rating and counts in no stats).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace

from service.engine import Event, GameOptions
from service.ratings import format_of, rate, stats_of
from service.ratings.model import ranks_of
from service.store import GameStore, StoreError

from . import leaderboards
from .game_result import GameResult, SeatResult
from .players import WRITE_ATTEMPTS, Player, current, player_document, player_from
from .record import Seat

SETTLE_AFTER = 10.0   # seconds after its end a game whose result is not counted yet is due


def is_rated(seats: Sequence[Seat]) -> bool:
    """Every seat is linked to a player, and no player holds two."""
    players = [seat.player_id for seat in seats]
    return None not in players and len(set(players)) == len(players)


def judge(store: GameStore, ttl: int, game_id: str, seats: Sequence[Seat],
          options: GameOptions, rated: bool, events: Sequence[Event],
          now: float) -> tuple[GameResult | None, list[Event]]:
    """The result of a game that ends with `events` (its last save's), and the `rated` event
    that follows its game_over in a rated game. None when no seat is linked or no side won."""
    over = next(event for event in events if event.type == "game_over")
    linked = [(number, seat) for number, seat in enumerate(seats) if seat.player_hash]
    if not linked or over.public["winner"] is None:
        return None, []
    history = [json.loads(text) for text in store.load(game_id, None, 0).events]
    history += [event.to_dict() for event in events]
    fmt = format_of(options)
    players = {number: _player(store, ttl, seat) for number, seat in linked}
    results = {number: SeatResult(number, seat.player_hash or "", seat.player_id or "",
                                  stats_of(history, options, number))
               for number, seat in linked}
    rated = rated and is_rated(seats) and None not in players.values()
    if not rated:
        return GameResult(fmt, False, tuple(results.values()), now + SETTLE_AFTER), []
    sides = [options.seats_of(side) for side in range(options.sides)]
    before = {number: player.rating(fmt) for number, player in players.items() if player}
    after = rate([[before[number] for number in side] for side in sides],
                 ranks_of(over.public["winner"], over.public["scores"]))
    for side, moved in zip(sides, after):
        for number, rating in zip(side, moved):
            results[number] = replace(results[number], before=before[number], after=rating)
    result = GameResult(fmt, True, tuple(results[number] for number in sorted(results)),
                        now + SETTLE_AFTER)
    return result, [rated_event(result)]


def rated_event(result: GameResult) -> Event:
    return Event("rated", {"format": result.format, "seats": [
        {"seat": seat.seat, "player_id": seat.player_id, "rating": seat.after.display,
         "change": seat.after.display - seat.before.display,
         "provisional": seat.after.provisional}
        for seat in result.seats if seat.before is not None and seat.after is not None]})


def settle(store: GameStore, ttl: int, game_id: str, result: GameResult) -> GameResult:
    """Count the result for each of its players (those who counted it already are left as
    they are); the result marked settled. StoreError leaves it to be settled again."""
    for seat in result.seats:
        player = _count(store, ttl, game_id, result.format, seat)
        if player is not None and result.rated:
            leaderboards.post(store, player, result.format, player.rating(result.format),
                              result.due - SETTLE_AFTER)
    return replace(result, settled=True)


def _count(store: GameStore, ttl: int, game_id: str, fmt: str,
           seat: SeatResult) -> Player | None:
    """The player as it stands once it has counted the game (None if it is gone)."""
    for _ in range(WRITE_ATTEMPTS):
        found = current(store, seat.player_key, ttl)
        if found is None:
            return None   # the player expired, or erased itself: nothing to count for it
        key, stored, _ = found
        player = player_from(key, stored)
        if game_id in player.settled:
            return player
        ratings, changes = dict(player.ratings), dict(player.changes)
        if seat.before is not None and seat.after is not None:
            ratings[fmt] = player.rating(fmt).moved(seat.before, seat.after)
            changes[fmt] = ratings[fmt].display - player.rating(fmt).display
        stats = dict(player.stats)
        stats[fmt] = player.stats_in(fmt) + seat.stats
        counted = replace(player, ratings=tuple(ratings.items()), stats=tuple(stats.items()),
                          changes=tuple(changes.items()), settled=player.settled + (game_id,))
        if store.save_player(key, stored.data, player_document(counted), ttl):
            return counted
    raise StoreError(f"player of seat {seat.seat} too busy to count game {game_id}")


def _player(store: GameStore, ttl: int, seat: Seat) -> Player | None:
    found = current(store, seat.player_hash or "", ttl)
    return None if found is None else player_from(found[0], found[1])
