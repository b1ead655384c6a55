"""A player's account over time: a new token (the old one stops), and erasure.

A seat is linked to a player by the digest of the player's token (Seat.player_hash), which is
also the player's key in the store. Rotating the token therefore moves the player, in steps
that no single write can make (on a Redis Cluster the two digests live apart):
1. a copy of its document under the new digest, then the old document marked as moving there
   (`moved_to`), with a compare-and-set on the document copied: a result counted on the old
   document in between fails the mark, and the copy is made again;
2. its games linked under the new digest, and every seat of them re-linked to it (and a result
   of the game still to count, counted under it);
3. the old document closed: it keeps only where it forwards to, and its games list goes.
From the mark on, whoever reads the player by its old digest (a result to count, a change,
the old token) is sent to the new document (players.current), so a result is counted once on
the player's one document whatever step of the move it meets. Until the close the old token
still opens the player; a rotation cut off before it is finished by the next one, which closes
the old digests it was found by (Player.aliases).

Erasure forgets everything personal the service keeps of the player, and leaves its games
whole: in each of its games every seat of the player is unlinked (its seat token keeps
working), named ERASED_NAME, and its webhooks and push subscriptions dropped, and the names it
had in the game's events (seat_joined, seat_renamed) become ERASED_NAME too; the game's
scores, events and replay stay as they were. The deliveries still queued for its webhooks and
push subscriptions (the player's and its seats') go, with their logs. Its open seeks are
cancelled without its name,
its leaderboard entries and their name go, then its documents (and any left by an unfinished
rotation) are deleted. What is left names no one: the player id (random) in the games'
results and `rated` events, and digests of its dead tokens (a closed seek keeps no name,
Seek.closed); an idempotency record of a join keeps a digest of the request (its name among
it) while the game does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace

from service.store import VersionConflict
from service.webhooks.delivery import log_key

from . import leaderboards, tokens
from .errors import GameNotFound, PlayerBusy, PlayerRefused
from .players import WRITE_ATTEMPTS, NewPlayer, Player, Players, player_document, player_from
from .record import GameRecord, Seat
from .seeks import CLOSED_KEPT_SECONDS, Seek
from .table import GameTable

# The name of an erased player's seat, in the seat and in the events that named it: empty, a
# name no one can give (names have 1 to 40 characters), which the API shows in the reader's
# language.
ERASED_NAME = ""
NAMING_EVENTS = ("seat_joined", "seat_renamed")


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
        key = tokens.digest(token)
        marked = self._mark(player, key)
        games = self._games_of(replace(player, games=marked.games))
        for game_id, seat in reversed(games):   # the oldest first: the newest ends first
            store.link_player_game(key, game_id, seat, ttl)
        moved = replace(marked, key=key, games=games)
        self._each_game(games, lambda _, record: _relinked(record, moved))
        for old in (player.key, *player.aliases):
            self._close(old, key)
        return NewPlayer(replace(moved, aliases=()), token)

    def erase(self, player: Player) -> None:
        """Forget the player; its games stay whole."""
        store = self.table.store
        self._cancel_seeks(player)
        games = self._games_of(player)
        webhooks = {log_key(f"player:{player.player_id}", webhook.webhook_id)
                    for webhook in player.webhooks}

        def unlinked(game_id: str, record: GameRecord) -> GameRecord:
            changed = _unlinked(record, player)
            webhooks.update(log_key(f"game:{game_id}", webhook.webhook_id)
                            for webhook in record.webhooks if webhook not in changed.webhooks)
            return changed

        self._each_game(games, unlinked)
        for game_id, _ in games:
            self._erase_names(game_id)
        store.drop_deliveries(sorted(webhooks))
        leaderboards.withdraw(store, player, self.table.clock())
        for key in (*player.aliases, player.key):
            store.delete_player(key)

    def _games_of(self, player: Player) -> tuple[tuple[str, int], ...]:
        """The player's games, with those still listed only under its aliases."""
        games = list(player.games)
        for alias in player.aliases:
            stored = self.table.store.load_player(alias, self.players.policy.ttl_seconds)
            games += [] if stored is None else [link for link in stored.games
                                                if link not in games]
        return tuple(games)

    def _mark(self, player: Player, key: str) -> Player:
        """Step 1 of a rotation to `key`: the player as its document was copied there."""
        store, ttl = self.table.store, self.players.policy.ttl_seconds
        for _ in range(WRITE_ATTEMPTS):
            stored = store.load_player(player.key, ttl)
            if stored is None:
                raise PlayerRefused("this player token is unknown or expired")
            data = json.loads(stored.data)
            if "moved_to" in data:
                raise PlayerBusy("this player's token is being replaced; retry")
            found = player_from(player.key, stored)
            store.create_player(key, player_document(replace(found, key=key)), ttl)
            if store.save_player(player.key, stored.data,
                                 json.dumps({**data, "moved_to": key}, separators=(",", ":")),
                                 ttl):
                return found
        raise PlayerBusy("too many simultaneous changes to this player; retry")

    def _close(self, old: str, key: str) -> None:
        """Step 3: the old digest only forwards to `key`, and lists no game."""
        store, ttl = self.table.store, self.players.policy.ttl_seconds
        closed = json.dumps({"moved_to": key, "closed": True}, separators=(",", ":"))
        for _ in range(WRITE_ATTEMPTS):
            stored = store.load_player(old, ttl)
            if stored is None:
                return
            if store.save_player(old, stored.data, closed, ttl):
                store.unlink_player_games(old, stored.games)
                return
        raise PlayerBusy("too many simultaneous changes to this player; retry")

    def _each_game(self, games: Sequence[tuple[str, int]],
                   change: Callable[[str, GameRecord], GameRecord]) -> None:
        for game_id, _ in games:
            def changed(record: GameRecord, _seat: int | None, game_id: str = game_id
                        ) -> GameRecord:
                return change(game_id, record)

            try:
                self.table.change(game_id, None, changed)
            except GameNotFound:
                continue   # expired: nothing links it any more

    def _erase_names(self, game_id: str) -> None:
        """The names of the game's erased seats gone from its events too."""
        store = self.table.store
        for _ in range(WRITE_ATTEMPTS):
            try:
                stored = store.load(game_id, events_after=0)
                erased = {number for number, seat in
                          enumerate(GameRecord.from_json(stored.data).seats)
                          if seat.kind == "human" and seat.name == ERASED_NAME}
                texts = [_unnamed(text, erased) for text in stored.events]
                if texts != list(stored.events):
                    store.rewrite_events(game_id, stored.version, texts)
                return
            except VersionConflict:
                continue
            except GameNotFound:
                return
        raise PlayerBusy(f"game {game_id} too busy to erase a name from; retry")

    def _cancel_seeks(self, player: Player) -> None:
        """The player's open seeks cancelled, without its name. One paired meanwhile is
        left: its game is one of the player's, erased with them."""
        store = self.table.store
        for pool in store.seek_pools():
            for text in store.open_seeks(pool):
                seek = Seek.from_json(text)
                if seek.player_id == player.player_id and store.take_seeks(
                        pool, {seek.seek_id: seek.closed("cancelled").to_json()},
                        CLOSED_KEPT_SECONDS):
                    self.table.release(seek.owners, seek.seek_id)  # its live-game place


def _relinked(record: GameRecord, player: Player) -> GameRecord:
    """The player's seats linked to its new key, and a result still to count counted under
    it."""
    key = player.key
    seats = tuple(replace(seat, player_hash=key) if seat.player_id == player.player_id
                  else seat for seat in record.seats)
    old = {seat.player_hash for seat in record.seats if seat.player_id == player.player_id}
    webhooks = tuple(key if held in old else held for held in record.player_webhooks)
    result = record.result
    if result is not None and not result.settled:
        result = replace(result, seats=tuple(
            replace(seat, player_key=key) if seat.player_id == player.player_id else seat
            for seat in result.seats))
    if (seats, webhooks, result) == (record.seats, record.player_webhooks, record.result):
        return record
    return replace(record, seats=seats, player_webhooks=webhooks, result=result)


def _unlinked(record: GameRecord, player: Player) -> GameRecord:
    numbers = {number for number, seat in enumerate(record.seats)
               if seat.player_id == player.player_id}
    if not numbers:
        return record

    def unlinked(seat: Seat) -> Seat:
        return replace(seat, player_id=None, player_hash=None, name=ERASED_NAME)

    keys = {record.seats[number].player_hash for number in numbers}
    return replace(
        record,
        seats=tuple(unlinked(seat) if number in numbers else seat
                    for number, seat in enumerate(record.seats)),
        webhooks=tuple(webhook for webhook in record.webhooks if webhook.seat not in numbers),
        player_webhooks=tuple(held for held in record.player_webhooks if held not in keys))


def _unnamed(text: str, erased: set[int]) -> str:
    """An event's text, without the name it gave an erased seat."""
    event = json.loads(text)
    public = event["public"]
    if event["type"] not in NAMING_EVENTS or public["seat"] not in erased \
            or public["name"] == ERASED_NAME:
        return text
    return json.dumps({**event, "public": {**public, "name": ERASED_NAME}},
                      separators=(",", ":"))
