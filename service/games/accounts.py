"""A player's account over time: a new token (the old one stops), and erasure.

A seat is linked to a player by the digest of the player's token (Seat.player_hash), which is
also the player's key in the store. Rotating the token therefore moves the player: a copy of
its document and games list under the new token's digest, then every seat of its games
re-linked to it (and a result of the game still to count, counted under it), then the old key
deleted, so the old token opens neither the player nor any seat. Seats are found by the
player's id, not its old digest, so a rotation cut off half way and asked again re-links the
seats the first attempt had moved. Until the old key is deleted the old token still works; the
copy an unfinished attempt left expires unused. A game's result counted for the player while
its rotation runs (between the copy and the deletion) is counted on the old document and lost
with it: a known gap, narrow (a result is counted within seconds of its game's end).

Erasure unlinks every seat (the seat tokens keep working), gives the seats of finished games a
neutral name, drops the player's webhooks from its games (their notifications stop) and its
leaderboard entries, then deletes the player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace


from . import leaderboards, tokens
from .errors import GameNotFound
from .players import NewPlayer, Player, Players, player_document
from .record import GameRecord, Seat
from .table import GameTable

ERASED_NAME = "Former player"


class Accounts:
    def __init__(self, table: GameTable, players: Players):
        self.table = table
        self.players = players

    def change(self, player: Player, name: str | None, listed: bool | None) -> Player:
        """A new name, or hidden from the leaderboards (listed False) or shown on them."""
        changed = self.players.change(player, lambda stored: replace(
            stored, name=stored.name if name is None else name,
            listed=stored.listed if listed is None else listed))
        if changed.listed:
            leaderboards.show(self.table.store, changed)
        else:
            leaderboards.withdraw(self.table.store, changed, self.table.clock())
        return changed

    def rotate(self, player: Player) -> NewPlayer:
        """A new token for the player; the old one stops opening it and its seats."""
        store, ttl = self.table.store, self.players.policy.ttl_seconds
        token = tokens.new_secret()
        moved = replace(player, key=tokens.digest(token))
        store.create_player(moved.key, player_document(moved), ttl)
        for game_id, seat in reversed(player.games):   # the oldest first: the newest ends first
            store.link_player_game(moved.key, game_id, seat, ttl)
        self._each_game(player, lambda record: _relinked(record, player, moved.key))
        store.delete_player(player.key)
        return NewPlayer(moved, token)

    def erase(self, player: Player) -> None:
        """Forget the player; its games stay whole."""
        self._each_game(player, lambda record: _unlinked(record, player))
        leaderboards.withdraw(self.table.store, player, self.table.clock())
        self.table.store.delete_player(player.key)

    def _each_game(self, player: Player, change: Callable[[GameRecord], GameRecord]) -> None:
        for game_id, _ in player.games:
            try:
                self.table.change(game_id, None, lambda record, _: change(record))
            except GameNotFound:
                continue   # expired: nothing links it any more


def _relinked(record: GameRecord, player: Player, key: str) -> GameRecord:
    """The player's seats linked to `key`, and a result still to count counted under it."""
    seats = tuple(replace(seat, player_hash=key) if seat.player_id == player.player_id
                  else seat for seat in record.seats)
    webhooks = tuple(key if held == player.key else held for held in record.player_webhooks)
    result = record.result
    if result is not None and not result.settled:
        result = replace(result, seats=tuple(
            replace(seat, player_key=key) if seat.player_id == player.player_id else seat
            for seat in result.seats))
    if (seats, webhooks, result) == (record.seats, record.player_webhooks, record.result):
        return record
    return replace(record, seats=seats, player_webhooks=webhooks, result=result)


def _unlinked(record: GameRecord, player: Player) -> GameRecord:
    def unlinked(seat: Seat) -> Seat:
        if seat.player_id != player.player_id:
            return seat
        name = ERASED_NAME if record.ended else seat.name
        return replace(seat, player_id=None, player_hash=None, name=name)

    seats = tuple(unlinked(seat) for seat in record.seats)
    webhooks = tuple(held for held in record.player_webhooks if held != player.key)
    if seats == record.seats and webhooks == record.player_webhooks:
        return record
    return replace(record, seats=seats, player_webhooks=webhooks)


