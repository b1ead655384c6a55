"""MemoryGameStore: the embedded, per-process store used when no Redis is configured."""

from __future__ import annotations

import heapq
import itertools
import json
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from . import archive
from .base import (DELIVERIES_KEPT, DELIVERY_LOG_TTL, FINISHED_REPLAYS_KEPT, PLAYER_GAMES_KEPT, PRESENCE_KEPT,
                   REPLAYS_KEPT, DeliveryLog, GameExists, GameNotFound, GameStore, QueuedEntry,
                   StoredGame, StoredPlayer, StoreFull, VersionConflict, finished_ttl)
from .presence import SeatHolds
from .waiters import KeptCopy, Waiters

SWEEP_INTERVAL = 60.0


@dataclass
class _Game:
    version: int
    data: str
    expires_at: float
    events: list[str] = field(default_factory=list)  # after those archived
    archived: bytes | None = None                     # a finished game's events (archive.py)
    replays: dict[str, str] = field(default_factory=dict)
    tickets: dict[str, tuple[int, float]] = field(default_factory=dict)  # hash: seat, expiry
    presence: dict[str, tuple[int, float]] = field(default_factory=dict)  # lease: seat, until


@dataclass
class _DeliveryLog:
    records: dict[str, str]   # delivery id -> record, the oldest first
    expires_at: float


@dataclass
class _Pending:
    text: str
    consumer: str
    taken_at: float   # epoch seconds, as the consumer said


@dataclass
class _SeekPool:
    docs: dict[str, tuple[str, float]] = field(default_factory=dict)  # seek id: data, expiry
    open: dict[str, str] = field(default_factory=dict)                # seek id: data
    pairings: dict[str, str] = field(default_factory=dict)            # game id: pairing
    version: int = 0
    lead: tuple[str, float] = ("", 0.0)                                # holder, until


@dataclass
class _Player:
    data: str
    expires_at: float
    games: dict[tuple[str, int], None] = field(default_factory=dict)  # oldest link first


class MemoryGameStore(GameStore):
    """Thread-safe dict of games; one lock guards everything, so each save is atomic. Saves
    wake this process's waiters directly. The one process is the only holder of seats: it never
    lapses.

    With `max_games`, a create past that many games first drops the expired ones, then the
    finished game whose last write is oldest; if every game is live, it raises StoreFull.
    `clock` (monotonic seconds) is injectable so tests can move time to check expiry.
    """

    def __init__(self, ttl_seconds: int, clock: Callable[[], float] = time.monotonic, *,
                 finished_ttl_seconds: int | None = None, max_games: int | None = None):
        self.ttl_seconds = ttl_seconds
        self.finished_ttl_seconds = finished_ttl(ttl_seconds, finished_ttl_seconds)
        self.max_games = max_games
        self._clock = clock
        self._games: dict[str, _Game] = {}
        self._finished: dict[str, None] = {}  # finished games' ids, the oldest last write first
        self._claims: dict[str, dict[str, float]] = {}  # owner: game id -> when its claim lapses
        self._players: dict[str, _Player] = {}
        self._seek_pools: dict[str, _SeekPool] = {}
        self._live_index: dict[str, float] = {}   # game id -> its creation time
        self._shared: dict[str, str] = {}
        self._boards: dict[str, dict[str, int]] = {}
        self._board_names: dict[str, str] = {}
        self._due: dict[str, float] = {}  # the deadline index: game id -> its time
        # The webhook queue: new entries in order, those taken and not finished, retries by
        # when due, and each webhook's log (dropped DELIVERY_LOG_TTL after its last write).
        self._queued: dict[str, str] = {}
        self._pending: dict[str, _Pending] = {}
        self._retries: list[tuple[float, int, str]] = []
        self._entry_numbers = itertools.count(1)
        self._logs: dict[str, _DeliveryLog] = {}
        self._lock = threading.Lock()
        self._entry_queued = threading.Condition(self._lock)
        self._waiters: Waiters[KeptCopy] = Waiters()
        self._seats: SeatHolds = SeatHolds(self.hold_presence, self._enroll, self._unenroll,
                                           self._beat)
        self._next_sweep = clock() + SWEEP_INTERVAL

    def create(self, game_id: str, data: str, events: Sequence[str] = (),
               due: float | None = None, outbox: Sequence[str] = (),
               keep_seconds: int = 0, listed: float | None = None) -> None:
        with self._lock:
            now = self._clock()
            self._sweep(now)
            if self._live(game_id, now) is not None:
                raise GameExists(game_id)
            self._make_room(now)
            self._games[game_id] = _Game(1, data, now + max(self.ttl_seconds, keep_seconds),
                                         list(events))
            self._schedule(game_id, due)
            self._queue(outbox)
            if listed is not None:
                self._live_index[game_id] = listed

    def load(self, game_id: str, idempotency_key: str | None = None,
             events_after: int | None = None, watched: bool = False) -> StoredGame:
        with self._lock:
            game = self._existing(game_id)
            replay = game.replays.get(idempotency_key) if idempotency_key is not None else None
            events = () if events_after is None else tuple(_events(game)[max(events_after, 0):])
            leases = [(name, seat, until) for name, (seat, until) in game.presence.items()]
            version, data = game.version, game.data
        return StoredGame(version, data, replay, events, self._seats.overlay(game_id, leases))

    def save(
        self,
        game_id: str,
        expected_version: int,
        data: str,
        events: Sequence[str] = (),
        idempotency: tuple[str, str] | None = None,
        finished: bool = False,
        reschedule: bool = False,
        due: float | None = None,
        outbox: Sequence[str] = (),
        keep_seconds: int = 0,
    ) -> int:
        with self._lock:
            game = self._existing(game_id)
            if game.version != expected_version:
                raise VersionConflict(game_id)
            game.version += 1
            game.data = data
            game.events.extend(events)
            if idempotency is not None:
                key, record = idempotency
                game.replays[key] = record
            kept = FINISHED_REPLAYS_KEPT if finished else REPLAYS_KEPT
            while len(game.replays) > kept:
                del game.replays[next(iter(game.replays))]  # the oldest
            if finished:
                game.archived, game.events = archive.pack(_events(game)), []
                self._finished.pop(game_id, None)
                self._finished[game_id] = None
            ttl = self.finished_ttl_seconds if finished else max(self.ttl_seconds, keep_seconds)
            game.expires_at = self._clock() + ttl
            if reschedule:
                self._schedule(game_id, due)
            version = game.version
            self._queue(outbox)
        self._waiters.notify(game_id)
        return version

    def rewrite_events(self, game_id: str, expected_version: int, events: Sequence[str]) -> int:
        with self._lock:
            game = self._existing(game_id)
            if game.version != expected_version:
                raise VersionConflict(game_id)
            game.version += 1
            if game.archived is None:
                game.events = list(events)
            else:
                game.archived, game.events = archive.pack(events), []
            version = game.version
        self._waiters.notify(game_id)
        return version

    def hold_presence(self, game_id: str, lease: str, seat: int, until: float,
                      check_at: float | None = None) -> None:
        with self._lock:
            leases = self._existing(game_id).presence
            leases[lease] = (seat, until)
            if math.isfinite(until):  # a held lease drops none
                for ended in [name for name, (_, end) in leases.items()
                              if end < until - PRESENCE_KEPT]:
                    del leases[ended]
            if check_at is not None and check_at < self._due.get(game_id, float("inf")):
                self._due[game_id] = check_at
        self._waiters.notify(game_id)

    def _enroll(self, holder: str, game_id: str, seat: int, now: float) -> bool:
        return True

    def _unenroll(self, holder: str, game_id: str, seat: int) -> None:
        return None

    def _beat(self, holder: str, now: float, lapsed_before: float) -> tuple[bool, list]:
        return True, []

    def claim_due(self, now: float, limit: int, lease: float) -> list[tuple[str, float]]:
        with self._lock:
            due = sorted((at, game_id) for game_id, at in self._due.items() if at <= now)
            claimed = [(game_id, now + lease) for _, game_id in due[:limit]]
            self._due.update(claimed)
            return claimed

    def release_due(self, game_id: str, claimed: float, due: float | None) -> None:
        with self._lock:
            if self._due.get(game_id) == claimed:
                self._schedule(game_id, due)

    def _schedule(self, game_id: str, due: float | None) -> None:
        if due is None:
            self._due.pop(game_id, None)
        else:
            self._due[game_id] = due

    def claim_live_game(self, owner: str, game_id: str, limit: int) -> bool:
        with self._lock:
            now = self._clock()
            claims = self._claims.setdefault(owner, {})
            for lapsed in [game for game, until in claims.items() if until <= now]:
                del claims[lapsed]
            if len(claims) >= limit:
                return False
            claims[game_id] = now + self.ttl_seconds
            return True

    def release_live_game(self, owner: str, game_id: str) -> None:
        with self._lock:
            claims = self._claims.get(owner, {})
            claims.pop(game_id, None)
            if not claims:
                self._claims.pop(owner, None)

    def shared_value(self, name: str, candidate: str) -> str:
        with self._lock:
            return self._shared.setdefault(name, candidate)

    def create_player(self, player_key: str, data: str, ttl: int) -> None:
        with self._lock:
            self._players[player_key] = _Player(data, self._clock() + ttl)

    def load_player(self, player_key: str, ttl: int) -> StoredPlayer | None:
        with self._lock:
            player = self._player(player_key, ttl)
            if player is None:
                return None
            return StoredPlayer(player.data, tuple(reversed(player.games)))

    def link_player_game(self, player_key: str, game_id: str, seat: int, ttl: int) -> bool:
        with self._lock:
            player = self._player(player_key, ttl)
            if player is None:
                return False
            player.games.pop((game_id, seat), None)
            player.games[(game_id, seat)] = None
            while len(player.games) > PLAYER_GAMES_KEPT:
                del player.games[next(iter(player.games))]
            return True

    def unlink_player_games(self, player_key: str, games: Sequence[tuple[str, int]]) -> None:
        with self._lock:
            player = self._players.get(player_key)
            if player is None:
                return
            for game_id, seat in games:
                player.games.pop((game_id, seat), None)

    def save_player(self, player_key: str, expected: str, data: str, ttl: int) -> bool:
        with self._lock:
            player = self._player(player_key, ttl)
            if player is None or player.data != expected:
                return False
            player.data = data
            return True

    def delete_player(self, player_key: str) -> None:
        with self._lock:
            self._players.pop(player_key, None)

    def rank(self, boards: Sequence[str], member: str, score: int, name: str) -> None:
        with self._lock:
            for board in boards:
                self._boards.setdefault(board, {})[member] = score
            self._board_names[member] = name

    def unrank(self, boards: Sequence[str], member: str) -> None:
        with self._lock:
            for board in boards:
                self._boards.get(board, {}).pop(member, None)
            self._board_names.pop(member, None)

    def board_page(self, board: str, start: int, count: int) -> list[tuple[str, int, str]]:
        with self._lock:
            places = self._places(board)[start:start + count]
            return [(member, score, self._board_names[member]) for member, score in places
                    if member in self._board_names]

    def board_place(self, board: str, member: str) -> int | None:
        with self._lock:
            members = [held for held, _ in self._places(board)]
            return members.index(member) if member in members else None

    def _places(self, board: str) -> list[tuple[str, int]]:
        """As Redis orders a sorted set read highest first (ZREVRANGE)."""
        return sorted(self._boards.get(board, {}).items(), key=lambda item: (item[1], item[0]),
                      reverse=True)
    def add_seek(self, pool: str, seek_id: str, data: str, ttl: int) -> None:
        with self._lock:
            found = self._seek_pools.setdefault(pool, _SeekPool())
            found.docs[seek_id] = (data, self._clock() + ttl)
            found.open[seek_id] = data
            found.version += 1

    def load_seek(self, pool: str, seek_id: str) -> str | None:
        with self._lock:
            data, expires_at = self._seek_pools.get(pool, _SeekPool()).docs.get(seek_id,
                                                                                 ("", 0.0))
            return data if expires_at > self._clock() else None

    def open_seeks(self, pool: str) -> list[str]:
        with self._lock:
            return list(self._seek_pools.get(pool, _SeekPool()).open.values())

    def take_seeks(self, pool: str, taken: Mapping[str, str], ttl: int,
                   pairing: tuple[str, str] | None = None) -> bool:
        with self._lock:
            found = self._seek_pools.get(pool)
            if found is None or not all(seek_id in found.open for seek_id in taken):
                return False
            expires_at = self._clock() + ttl
            for seek_id, data in taken.items():
                del found.open[seek_id]
                found.docs[seek_id] = (data, expires_at)
            if pairing is not None:
                found.pairings[pairing[0]] = pairing[1]
        self._waiters.notify("seeks:" + pool)
        return True

    def pairings(self, pool: str) -> dict[str, str]:
        with self._lock:
            return dict(self._seek_pools.get(pool, _SeekPool()).pairings)

    def end_pairing(self, pool: str, game_id: str) -> None:
        with self._lock:
            self._seek_pools.get(pool, _SeekPool()).pairings.pop(game_id, None)

    def lead_pairing(self, pool: str, holder: str, seconds: float) -> int | None:
        with self._lock:
            found = self._seek_pools.setdefault(pool, _SeekPool())
            now = self._clock()
            if found.lead[0] not in ("", holder) and found.lead[1] > now:
                return None
            found.lead = (holder, now + seconds)
            return found.version

    def end_pairing_lead(self, pool: str, holder: str, version: int) -> int | None:
        with self._lock:
            found = self._seek_pools.setdefault(pool, _SeekPool())
            if found.version != version:
                return found.version
            if found.lead[0] == holder:
                found.lead = ("", 0.0)
            return None

    def seek_pools(self) -> list[str]:
        with self._lock:
            now = self._clock()
            for pool, found in list(self._seek_pools.items()):
                for seek_id, (_, expires_at) in list(found.docs.items()):
                    if expires_at <= now:
                        del found.docs[seek_id]
                        found.open.pop(seek_id, None)
                if not found.docs and not found.pairings and found.lead[1] <= now:
                    del self._seek_pools[pool]
            return list(self._seek_pools)

    def live_games(self, before: float | None, limit: int) -> list[tuple[str, float]]:
        with self._lock:
            found = [(created, game_id) for game_id, created in self._live_index.items()
                     if before is None or created <= before]
        return [(game_id, created) for created, game_id in sorted(found, reverse=True)[:limit]]

    def unindex_live_games(self, game_ids: Sequence[str]) -> None:
        with self._lock:
            for game_id in game_ids:
                self._live_index.pop(game_id, None)

    def take_entries(self, consumer: str, count: int, now: float, idle_seconds: float,
                     block_seconds: float = 0) -> list[QueuedEntry]:
        with self._lock:
            if block_seconds > 0 and not self._queued and not self._entry_due(now, idle_seconds):
                self._entry_queued.wait(block_seconds)
            while self._retries and self._retries[0][0] <= now:
                self._queue([heapq.heappop(self._retries)[2]])
            taken = [entry_id for entry_id, pending in self._pending.items()
                     if now - pending.taken_at >= idle_seconds][:count]
            taken += list(itertools.islice(self._queued, count - len(taken)))
            entries = []
            for entry_id in taken:
                text = self._queued.pop(entry_id, None) or self._pending[entry_id].text
                self._pending[entry_id] = _Pending(text, consumer, now)
                entries.append(QueuedEntry(entry_id, text))
            return entries

    def finish_entry(self, entry_id: str, follow_ups: Sequence[str] = (),
                     retry: tuple[str, float] | None = None,
                     log: DeliveryLog | None = None) -> bool:
        with self._lock:
            if self._pending.pop(entry_id, None) is None:
                return False
            self._queue(follow_ups)
            if retry is not None:
                text, due = retry
                heapq.heappush(self._retries, (due, next(self._entry_numbers), text))
            if log is not None:
                kept = self._logs.setdefault(log.log_key, _DeliveryLog({}, 0.0))
                kept.expires_at = self._clock() + DELIVERY_LOG_TTL
                records = kept.records
                records[log.delivery_id] = log.record
                while len(records) > DELIVERIES_KEPT:
                    del records[next(iter(records))]
            return True

    def drop_deliveries(self, webhooks: Sequence[str]) -> None:
        def named(text: str) -> bool:
            entry = json.loads(text)
            return f"{entry.get('owner')}:{entry.get('webhook_id')}" in webhooks

        with self._lock:
            self._queued = {entry_id: text for entry_id, text in self._queued.items()
                            if not named(text)}
            self._pending = {entry_id: pending for entry_id, pending in self._pending.items()
                             if not named(pending.text)}
            self._retries = [retry for retry in self._retries if not named(retry[2])]
            heapq.heapify(self._retries)
            for webhook in webhooks:
                self._logs.pop(webhook, None)

    def delivery_log(self, log_key: str) -> list[str]:
        with self._lock:
            kept = self._logs.get(log_key)
            if kept is None or kept.expires_at <= self._clock():
                return []
            return list(reversed(kept.records.values()))

    def queue_depth(self) -> int:
        with self._lock:
            return len(self._queued) + len(self._pending) + len(self._retries)

    def _queue(self, entries: Sequence[str]) -> None:
        for text in entries:
            self._queued[f"{next(self._entry_numbers)}-0"] = text
        if entries:
            self._entry_queued.notify_all()

    def _entry_due(self, now: float, idle_seconds: float) -> bool:
        """A retry is due, or an entry was left pending too long."""
        return bool(self._retries and self._retries[0][0] <= now) or any(
            now - pending.taken_at >= idle_seconds for pending in self._pending.values())

    def _player(self, player_key: str, ttl: int) -> _Player | None:
        """The live player, its expiry started again."""
        now = self._clock()
        player = self._players.get(player_key)
        if player is None or player.expires_at <= now:
            self._players.pop(player_key, None)
            return None
        player.expires_at = now + ttl
        return player

    def watch(self, game_id: str):
        return self._waiters.watch(game_id)

    def add_ticket(self, game_id: str, ticket_hash: str, seat: int, ttl: int) -> None:
        with self._lock:
            tickets, now = self._existing(game_id).tickets, self._clock()
            for expired in [key for key, (_, expires_at) in tickets.items() if expires_at <= now]:
                del tickets[expired]
            tickets[ticket_hash] = (seat, now + ttl)

    def take_ticket(self, game_id: str, ticket_hash: str) -> int | None:
        with self._lock:
            seat, expires_at = self._existing(game_id).tickets.pop(ticket_hash, (None, 0.0))
            return seat if expires_at > self._clock() else None

    def ping(self) -> None:
        return None

    def _existing(self, game_id: str) -> _Game:
        game = self._live(game_id, self._clock())
        if game is None:
            raise GameNotFound(game_id)
        return game

    def _live(self, game_id: str, now: float) -> _Game | None:
        game = self._games.get(game_id)
        if game is not None and game.expires_at <= now:
            self._drop(game_id)
            return None
        return game

    def _make_room(self, now: float) -> None:
        if self.max_games is None or len(self._games) < self.max_games:
            return
        self._drop_expired(now)
        if len(self._games) < self.max_games:
            return
        if not self._finished:
            raise StoreFull(f"{len(self._games)} games in play, at most {self.max_games}")
        self._drop(next(iter(self._finished)))

    def _drop(self, game_id: str) -> None:
        del self._games[game_id]
        self._finished.pop(game_id, None)
        self._due.pop(game_id, None)

    def _drop_expired(self, now: float) -> None:
        for game_id in [g for g, game in self._games.items() if game.expires_at <= now]:
            self._drop(game_id)

    def _sweep(self, now: float) -> None:
        """Drop expired games, lapsed claims, expired players and delivery logs now and then, so
        that abandoned games, the claims of clients gone quiet and the logs of webhooks gone
        do not pile up."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_INTERVAL
        self._drop_expired(now)
        for owner, claims in list(self._claims.items()):
            if all(until <= now for until in claims.values()):
                del self._claims[owner]
        for key in [key for key, player in self._players.items() if player.expires_at <= now]:
            del self._players[key]
        for key in [key for key, kept in self._logs.items() if kept.expires_at <= now]:
            del self._logs[key]


def _events(game: _Game) -> list[str]:
    if game.archived is None:
        return game.events
    return archive.unpack(game.archived) + game.events
