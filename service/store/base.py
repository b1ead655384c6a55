"""The GameStore interface: what the games service needs from storage, nothing more."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from .waiters import Watch


class StoreError(Exception):
    """Base class of everything a store raises on purpose."""


class GameNotFound(StoreError):
    """No game under this id: never created, or expired after its idle time."""


class GameExists(StoreError):
    """A game with this id already exists (create never overwrites)."""


class VersionConflict(StoreError):
    """The game's version moved on since it was loaded: another write won."""


class StoreUnavailable(StoreError):
    """The backing store cannot be reached right now; retrying later may succeed."""


class StoreFull(StoreUnavailable):
    """The store is out of memory and refuses writes that may grow it; nothing was written.
    Writing again may succeed once memory is freed."""


@dataclass(frozen=True)
class StoredGame:
    """One game as loaded: its version, its document, the events after the number asked for
    (read with the document, so they end at the event the document counts), and a replayed
    response if asked for."""

    version: int
    data: str
    replay: str | None = None
    events: tuple[str, ...] = ()
    presence: tuple[tuple[int, float], ...] = ()  # (seat, until) of each presence lease


@dataclass(frozen=True)
class QueuedEntry:
    """An entry of the webhook queue taken by a consumer: its id in the queue and its text."""

    entry_id: str
    text: str


@dataclass(frozen=True)
class DeliveryLog:
    """A delivery's record for its webhook's log: under `log_key` (the webhook's owner and id),
    `delivery_id` -> `record` (JSON)."""

    log_key: str
    delivery_id: str
    record: str


@dataclass(frozen=True)
class StoredPlayer:
    """A player as loaded: its document and its games, (game id, seat) newest first."""

    data: str
    games: tuple[tuple[str, int], ...] = ()


# Idempotency records kept per game (the newest ones). A retry older than that is checked by
# the rules again, and they refuse an action already applied: the game has moved on.
REPLAYS_KEPT = 64
# Once a game is over only a retry of the last requests can still come: the newest few do.
FINISHED_REPLAYS_KEPT = 16
# Presence leases that ended longer ago than this are dropped (they tell nothing any more).
PRESENCE_KEPT = 600
# A player's games kept, the newest: far more than a lobby shows; older ones have expired.
PLAYER_GAMES_KEPT = 200
# Deliveries kept in each webhook's log (the newest), and how long a log outlives its last write.
DELIVERIES_KEPT = 50
DELIVERY_LOG_TTL = 7 * 86400


class SeatKeeper(Protocol):
    """The seats held by this process (presence.SeatHolds, which imports this module)."""

    def hold(self, game_id: str, seat: int, now: float) -> None: ...

    def release(self, game_id: str, seat: int, until: float, check_at: float) -> None: ...

    def keep(self, now: float, grace: float) -> None: ...


class GameStore(ABC):
    """Games as versioned JSON documents plus a numbered event log and idempotency records.

    A game is created at version 1; every save is a compare-and-set on the version that
    writes the new document, appends the new events and stores the idempotency record
    together, or does nothing at all. Events are numbered from 1 in append order. The newest
    REPLAYS_KEPT idempotency records of a game are kept.
    Every write refreshes the game's idle expiry (`ttl_seconds`); reads do not. A save that
    says the game is finished (over: only a rename or a join can still change it) sets the
    shorter `finished_ttl_seconds` instead, keeps only the newest FINISHED_REPLAYS_KEPT records
    and lets the store keep the events compressed (archive.py). Every save wakes the requests
    that `watch` the game, in every process using the store.
    A stream ticket is a one-time pass to a game's event stream, kept for `ttl` seconds.
    Live-game claims count each owner's (a client's) games, apart from the games themselves.
    Leaderboards are sorted sets of members (player ids) by score, read highest first; the
    names they show are kept once for all boards.
    A player is a document and the games it sits in, under the digest of its token, kept
    `ttl` seconds after the last write or read that names it (each call passes `ttl`).
    The deadline index holds at most one time per game (epoch seconds, by the caller's
    clock): when something is next due in it with no client asking (a turn timer, a check
    for an abandoned game). `create` and `save` set it only when given `due` (`reschedule`
    on a save; None removes the game's entry), in the same atomic write when the store can.
    Sweepers take due entries with `claim_due`, which moves each one's time on by a lease so
    that no other sweeper takes it meanwhile, and end with `release_due` (or a save).
    The webhook queue (service.webhooks) holds entries (JSON text) until a consumer finishes
    them: a create's or save's `outbox` entries are queued with it, atomically where the store can
    (not on Redis Cluster: there they are queued right after it). A taken entry stays pending
    for its consumer until finished; one pending `idle_seconds` (its consumer died) is taken
    over by the next consumer to ask. A retry waits, apart from the queue, until it is due.
    Presence leases of the seats this process holds are kept by `_seats`, a
    presence.SeatHolds each store builds over its own primitives (hold_presence, _enroll,
    _unenroll, _beat).
    Every method may raise StoreUnavailable; every write may raise StoreFull.
    """

    ttl_seconds: int
    finished_ttl_seconds: int
    _seats: SeatKeeper

    @abstractmethod
    def create(self, game_id: str, data: str, events: Sequence[str] = (),
               due: float | None = None, outbox: Sequence[str] = (),
               keep_seconds: int = 0, listed: float | None = None) -> None:
        """Store a new game at version 1, with its time in the deadline index if `due` is
        given and its `outbox` queued as a save's is; it expires after the store's lifetime or
        `keep_seconds`, whichever is longer. With `listed` (its creation time, epoch seconds)
        the game enters the live games index in the same atomic write; where the store cannot
        (a Cluster: the index has a slot of its own) the entry is written just before the game,
        so that no crash leaves a game unlisted (an entry whose game never came is dropped by
        the listing, live_games). Raises GameExists (nothing written), or StoreFull."""

    @abstractmethod
    def load(self, game_id: str, idempotency_key: str | None = None,
             events_after: int | None = None, watched: bool = False) -> StoredGame:
        """Load a game, with the record saved under `idempotency_key` if one is given and the
        events numbered events_after+1, ... up to the newest if `events_after` is given.
        `watched`: the caller watches the game (a long poll or stream); the store may answer
        from this process's copy of it, kept while the game is watched here and no change of
        it was notified since it was read, and read again (its version) at most once a minute.

        Raises GameNotFound.
        """

    @abstractmethod
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
        """Replace the document if the game is still at `expected_version`; return the new version.

        `idempotency` is (key, record), stored with the write so that a retry finds it.
        `outbox`: webhook queue entries queued with the write (see the class docstring).
        `finished`: the game is over after this write (see the class docstring).
        `reschedule`: the game's time in the deadline index becomes `due` (None: no entry).
        `keep_seconds`: a game in play is kept at least this long after the write (a slow
        game's turns outlast the store's lifetime). Raises VersionConflict (nothing written) or
        GameNotFound.
        """

    @abstractmethod
    def rewrite_events(self, game_id: str, expected_version: int, events: Sequence[str]) -> int:
        """Replace the text of every event of the game (`events`: all of them, in order, as
        many as it has) if the game is still at `expected_version`, keeping its document and
        its expiry; the version moves on and the game's watches are woken. What erasing a
        player's name from a game's history writes (service.games.accounts). Raises
        VersionConflict or GameNotFound (nothing written)."""

    def load_many(self, game_ids: Sequence[str]) -> list[StoredGame | None]:
        """The games (version and document only), None for each that does not exist."""
        found: list[StoredGame | None] = []
        for game_id in game_ids:
            try:
                found.append(self.load(game_id))
            except GameNotFound:
                found.append(None)
        return found

    def events(self, game_id: str, after: int) -> list[str]:
        """Events numbered after+1, after+2, ... up to the newest. Raises GameNotFound."""
        return list(self.load(game_id, events_after=after).events)

    @abstractmethod
    def claim_due(self, now: float, limit: int, lease: float) -> list[tuple[str, float]]:
        """Take up to `limit` games whose time in the deadline index is `now` or earlier, at
        once for all callers: each taken entry's time becomes now + lease, so no other caller
        takes it before then. Returns (game id, that new time) for each."""

    @abstractmethod
    def release_due(self, game_id: str, claimed: float, due: float | None) -> None:
        """Give a claimed entry the game's next time `due` (None: drop it), unless the entry no
        longer holds `claimed` (a save has rescheduled it since)."""

    @abstractmethod
    def hold_presence(self, game_id: str, lease: str, seat: int, until: float,
                      check_at: float | None = None) -> None:
        """Record that `seat` is at the table until `until` (epoch seconds; math.inf: held
        until a later call ends it) by the lease named `lease` (a later call with the same name
        ends it or holds it again). `load` returns the leases. With `check_at`, the game's time
        in the deadline index becomes `check_at` if that is earlier (or it has none). Leases
        ended PRESENCE_KEPT seconds before a finite `until` are dropped. The game's watches are
        woken, in every process (their copies of the game read again). Raises GameNotFound."""

    # Seats held by this process (service.store.presence): the games service's streams and
    # long polls hold and release seats; its sweeper keeps them.
    def hold_seat(self, game_id: str, seat: int, now: float) -> None:
        """A stream or long poll of `seat` opens in this process at `now`: the seat is at the
        table while one is open here, and while this process lives."""
        self._seats.hold(game_id, seat, now)

    def release_seat(self, game_id: str, seat: int, until: float, check_at: float) -> None:
        """A stream or long poll of `seat` closed at `until`; after this process's last, the
        seat's lease ends then, with a presence check due at `check_at`."""
        self._seats.release(game_id, seat, until, check_at)

    def keep_presence(self, now: float, grace: float) -> None:
        """A sweeper's round: beat for this process, end the leases of processes taken for
        dead (at their last beat, checked `grace` later), write the releases due."""
        self._seats.keep(now, grace)

    @abstractmethod
    def _enroll(self, holder: str, game_id: str, seat: int, now: float) -> bool:
        """Count the seat among `holder`'s and, if the holder is not among the living, count it
        (beaten at `now`). Returns whether it was."""

    @abstractmethod
    def _unenroll(self, holder: str, game_id: str, seat: int) -> None:
        """The seat is no longer `holder`'s."""

    @abstractmethod
    def _beat(self, holder: str, now: float, lapsed_before: float) -> tuple[bool, list]:
        """`holder` lives at `now` (returns whether it was among the living), and the holders
        last heard of before `lapsed_before` (presence.Lapsed), each taken over by one caller
        only: no longer among the living, its seats forgotten."""

    @abstractmethod
    def claim_live_game(self, owner: str, game_id: str, limit: int) -> bool:
        """Count the game among `owner`'s live games if it has fewer than `limit`, else return
        False. A claim lapses `ttl_seconds` after it is made, unless released before."""

    @abstractmethod
    def release_live_game(self, owner: str, game_id: str) -> None:
        """The game no longer counts among `owner`'s live games (it is finished)."""

    @abstractmethod
    def shared_value(self, name: str, candidate: str) -> str:
        """The deployment's value under `name`, kept without expiry: `candidate` if none was
        kept yet (the first writer's wins, so every process agrees)."""

    @abstractmethod
    def create_player(self, player_key: str, data: str, ttl: int) -> None:
        """Store a new player with no games."""

    @abstractmethod
    def load_player(self, player_key: str, ttl: int) -> StoredPlayer | None:
        """The player and its games, None if there is none (never created, or expired); its
        expiry starts again."""

    @abstractmethod
    def link_player_game(self, player_key: str, game_id: str, seat: int, ttl: int) -> bool:
        """Add the game to the player's games (only the newest PLAYER_GAMES_KEPT are kept);
        False if there is no such player."""

    @abstractmethod
    def unlink_player_games(self, player_key: str, games: Sequence[tuple[str, int]]) -> None:
        """Drop games (expired ones) from the player's games."""

    @abstractmethod
    def save_player(self, player_key: str, expected: str, data: str, ttl: int) -> bool:
        """Replace an existing player's document, keeping its games, if it is still `expected`
        (the document as loaded): False, with nothing written, if it was changed meanwhile or
        the player is gone."""

    # Seeks (service.games.seeks), by pool: the open seeks of one table kind, kept together so
    # that one atomic write takes a whole table's seeks at once.
    @abstractmethod
    def add_seek(self, pool: str, seek_id: str, data: str, ttl: int) -> None:
        """Keep a new open seek's document (one line of text) in its pool, `ttl` seconds after
        its last write; the pool's version moves on and the pool is listed (seek_pools)."""

    @abstractmethod
    def load_seek(self, pool: str, seek_id: str) -> str | None:
        """The seek's document, None if there is none (never made, or expired)."""

    @abstractmethod
    def open_seeks(self, pool: str) -> list[str]:
        """The documents of the pool's open seeks."""

    @abstractmethod
    def take_seeks(self, pool: str, taken: Mapping[str, str], ttl: int,
                   pairing: tuple[str, str] | None = None) -> bool:
        """At once: if every seek of `taken` (seek id -> its new document) is still open, close
        them all with their new documents and keep `pairing` (game id, its JSON) among the
        pool's pairings under way, waking the pool's watches; else write nothing, False."""

    @abstractmethod
    def pairings(self, pool: str) -> dict[str, str]:
        """The pool's pairings under way: game id -> its JSON (take_seeks)."""

    @abstractmethod
    def end_pairing(self, pool: str, game_id: str) -> None:
        """The pairing's game exists: it is no longer under way."""

    @abstractmethod
    def lead_pairing(self, pool: str, holder: str, seconds: float) -> int | None:
        """Take the pool's pairing lead for `seconds` unless another holder has it; the pool's
        version if taken, else None."""

    @abstractmethod
    def end_pairing_lead(self, pool: str, holder: str, version: int) -> int | None:
        """Give up the lead if the pool is still at `version` (None); else keep the lead and
        return the pool's new version (seeks came meanwhile: pair again)."""

    @abstractmethod
    def seek_pools(self) -> list[str]:
        """The pools holding a seek that has not expired."""

    # The live games index: games open to spectators, by when each was created (`create`
    # writes it; a hint: the listing reads each game and drops those that ended or expired).
    @abstractmethod
    def live_games(self, before: float | None, limit: int) -> list[tuple[str, float]]:
        """Up to `limit` (game id, creation time) of the index, the newest first, created at
        `before` or earlier (None: from the newest)."""

    @abstractmethod
    def unindex_live_games(self, game_ids: Sequence[str]) -> None:
        """Drop games (ended or expired) from the live games index."""

    @abstractmethod
    def delete_player(self, player_key: str) -> None:
        """Forget the player and its games list (nothing if there is none)."""

    @abstractmethod
    def rank(self, boards: Sequence[str], member: str, score: int, name: str) -> None:
        """Put `member` on each leaderboard at `score` (replacing its score there), shown
        under `name` on every board."""

    @abstractmethod
    def unrank(self, boards: Sequence[str], member: str) -> None:
        """Take `member` off these boards and forget its name: it is shown on none (boards
        that still hold it skip it)."""

    @abstractmethod
    def board_page(self, board: str, start: int, count: int) -> list[tuple[str, int, str]]:
        """(member, score, name) of the board's places start.. start+count-1 (from 0, the
        highest score first; equal scores by member, the greater first), skipping members
        with no name."""

    @abstractmethod
    def board_place(self, board: str, member: str) -> int | None:
        """The member's place on the board (from 0), None if it is not on it."""

    @abstractmethod
    def take_entries(self, consumer: str, count: int, now: float, idle_seconds: float,
                     block_seconds: float = 0) -> list[QueuedEntry]:
        """Up to `count` entries for `consumer`: retries due by `now` (epoch seconds) are queued
        first; entries pending `idle_seconds` for another consumer come before new ones. With
        none, wait up to `block_seconds` for a new one."""

    @abstractmethod
    def finish_entry(self, entry_id: str, follow_ups: Sequence[str] = (),
                     retry: tuple[str, float] | None = None,
                     log: DeliveryLog | None = None) -> bool:
        """Drop a taken entry from the queue and, together, queue `follow_ups`, keep `retry`
        (entry, due epoch seconds) until it is due and write `log`. False, with nothing done,
        if the entry was finished already (by a consumer that took it over)."""

    @abstractmethod
    def drop_deliveries(self, webhooks: Sequence[str]) -> None:
        """Forget the `webhooks`, each named by its owner and id as DeliveryLog.log_key names
        it: their entries queued, taken or waiting to be retried, and their delivery logs. A
        consumer sending one of them finds it finished already."""

    @abstractmethod
    def delivery_log(self, log_key: str) -> list[str]:
        """A webhook's delivery records, the newest first."""

    @abstractmethod
    def queue_depth(self) -> int:
        """Entries queued, pending or waiting to be retried."""

    @abstractmethod
    def watch(self, game_id: str) -> AbstractContextManager[Watch]:
        """A Watch woken by every save of the game while the block runs (Waiters.watch)."""

    @abstractmethod
    def add_ticket(self, game_id: str, ticket_hash: str, seat: int, ttl: int) -> None:
        """Keep a stream ticket (by its hash) for `seat` of the game."""

    @abstractmethod
    def take_ticket(self, game_id: str, ticket_hash: str) -> int | None:
        """The seat of a live ticket, which is used up; None if there is none."""

    @abstractmethod
    def ping(self) -> None:
        """Return if the store answers and takes writes, else raise StoreUnavailable (StoreFull
        while it is out of memory)."""

    def close(self) -> None:
        """Release connections; the store may not be used afterwards."""


def finished_ttl(ttl_seconds: int, finished_ttl_seconds: int | None) -> int:
    """A finished game's expiry: never later than a live game's."""
    return min(ttl_seconds, finished_ttl_seconds or ttl_seconds)
