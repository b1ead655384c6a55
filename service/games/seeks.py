"""Seeks: a player asks for a game of some kind and is seated with others who asked the same.

A seek is state in the store, not a connection: it waits while its owner is offline, until it
is paired, cancelled or expires (SEEK_TTL_SECONDS). Seeks that may sit together (the same
layout, target, options and rated flag: one table kind) share a pool, whose id starts the
seek's id. Pairing (service.games.pairing) runs on a pool's open seeks after each new seek, and
in each sweeper round for the seeks waiting on a wider range or on computers. Its search
(pair_pool) is a compute job ("pair", service.compute): the web worker reads the pool's
documents, waits and seats the tables found; only a pool of INLINE_SEEKS or fewer is searched
in the round itself. In a process, one round of a pool runs at a time (service.games.rounds).

Pairing a table is crash safe and never seats a seek twice, across processes and on a Cluster:
1. one atomic write (GameStore.take_seeks) closes the table's seeks, if all are still open, as
   paired to a game id chosen beforehand, and keeps the pairing as under way;
2. the game is created under that id (a second try finds it created: GameExists);
3. the pairing is no longer under way.
A process that dies between 1 and 3 leaves the pairing under way; the next pairing round of the
pool, in any process, creates its game. One process at a time leads a pool's pairing (a lease),
so rounds do not race for the same seeks; should two run anyway, step 1 lets one win.

The seat of a paired seek is linked to its player and opened by the player's token, which
stands for its seat token: no seat token is made, kept or shown.

An open seek holds a place among its player's live games (service.games.caps): past the cap a
new seek is refused (TooManyLiveGames) as a new game is, so a pairing never finds a seeker
with no room. The paired game takes the places of its seeks over (step 2, before the game is
created) and counts against its players until it is over; a seek cancelled or expired gives
its place back.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace

from service import engine, metrics
from service.bots import DEFAULT_LEVEL, LEVELS
from service.compute import MOVE, ComputeRefused
from service.engine import GameOptions
from service.errors import DomainError, InvalidInputError
from service.ratings import format_of
from service.store import GameExists, GameStore, StoreError

from . import timers, tokens
from .errors import PlayerRefused, SeekNotFound, SeekRefused
from .new_game import game_options, game_seed, linked
from .pairing import Ticket, pair
from .players import Player, Players
from .record import GameRecord, Seat
from .rounds import Rounds
from .table import GameTable

log = logging.getLogger(__name__)

SEEK_TTL_SECONDS = 3600        # an open seek waits this long for a table, then expires
CLOSED_KEPT_SECONDS = 86400    # a closed seek (paired, cancelled, expired) can be read this long
LEAD_SECONDS = 10.0            # a pool's pairing lead lapses after this (its holder died)
SEARCH_SECONDS = 5.0           # a round waits this long for its search: well within its lead
MAX_WAIT = 25.0                # a long poll on a seek waits at most this long
# A pool of this many open seeks or fewer is searched in the round, not by the compute tier:
# pair_pool over 16 takes 0.05 ms of CPU (0.2 ms when their documents are first parsed), less
# than the hand-off to a compute process costs the web worker (0.2 ms); over 1,000, 4.6 ms.
INLINE_SEEKS = 16
TAKEN_OVER = 2**31  # the limit of a paired game's claim: never reached (its seek held the place)
# Options a seek may not set: the coach's (a preset position or deck).
COACH_OPTIONS = ("start_scores", "first_dealer", "preset_deck", "hints")

RatingLookup = Callable[[Player, str], int]


def displayed_rating(player: Player, fmt: str) -> int:
    """The rating a seek is paired by: the player's displayed rating in the format (its
    initial one, provisional, before its first rated game)."""
    return player.rating(fmt).display


@dataclass(frozen=True)
class ComputerFill:
    """Computers of `level` take the empty seats once the seek has waited `after` seconds."""

    level: str
    after: int


@dataclass(frozen=True)
class SeekRequest:
    options: GameOptions
    rated: bool = False
    within: int | None = None          # rating points either side; None: any rating
    computers: ComputerFill | None = None


@dataclass(frozen=True)
class Seek:
    seek_id: str
    player_id: str
    player_key: str      # the owner's digest: its seat's key once paired
    name: str | None
    options: GameOptions
    rated: bool
    rating: int
    within: int | None
    computers: ComputerFill | None
    created: float
    expires: float
    status: str = "open"           # open | paired | cancelled | expired
    game_id: str | None = None     # once paired
    seat: int | None = None        # once paired
    owners: tuple[str, ...] = ()   # whose live games it holds a place among (its player's)

    @property
    def pool(self) -> str:
        return pool_of(self.seek_id)

    def closed(self, status: str, game_id: str | None = None, seat: int | None = None) -> Seek:
        """The seek closed (paired, cancelled or expired), without its owner's name: only an
        open seek shows it (a paired seat takes the player's own), so an erasure of the
        player finds none in the seeks it closed before."""
        return replace(self, status=status, name=None, game_id=game_id, seat=seat)

    @property
    def format(self) -> str:
        return format_of(self.options)

    def to_json(self) -> str:
        data = asdict(self)
        data["options"] = self.options.to_dict()
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Seek:
        data = json.loads(text)
        computers = data.pop("computers")
        return cls(**{**data, "options": GameOptions.from_dict(data["options"]),
                      "computers": None if computers is None else ComputerFill(**computers),
                      "owners": tuple(data.get("owners", ()))})

    def ticket(self, now: float) -> Ticket:
        return Ticket(self.seek_id, self.player_id, self.rating, self.within,
                      max(now - self.created, 0.0),
                      None if self.computers is None else self.computers.after)


POOL_LENGTH = 12


def pool_for(options: GameOptions, rated: bool) -> str:
    """The pool of a table kind: a digest of its options and rated flag."""
    kind = json.dumps({"options": options.to_dict(), "rated": rated}, sort_keys=True)
    return hashlib.sha256(kind.encode()).hexdigest()[:POOL_LENGTH]


def pool_of(seek_id: str) -> str:
    return seek_id[:POOL_LENGTH]


def seek_options(options: dict, players: int, teams: str | None) -> GameOptions:
    """A seek's game options from a client's: its layout, no coach's options."""
    for name in COACH_OPTIONS:
        if name in options:
            raise InvalidInputError(f"option {name}: not for a seek", code="invalid_options",
                                    field=name, allowed="not set in a seek")
    if options.get("teams", teams) != teams:
        raise InvalidInputError(f"teams is {teams!r}, but options.teams is {options['teams']!r}",
                                code="invalid_options", field="teams", allowed=str(teams))
    return game_options({**options, "teams": teams}, players)


def computer_fill(level: str | None, after: int) -> ComputerFill:
    chosen = level or DEFAULT_LEVEL
    if chosen not in LEVELS:
        raise InvalidInputError(f"no computer level {chosen!r}", code="unknown_level",
                                field="computers.level", level=chosen, allowed=", ".join(LEVELS))
    return ComputerFill(chosen, after)


class Seeks:
    def __init__(self, table: GameTable, players: Players,
                 rating: RatingLookup = displayed_rating, ttl_seconds: int = SEEK_TTL_SECONDS):
        self.table = table
        self.players = players
        self.rating = rating
        self.ttl_seconds = ttl_seconds
        self.holder = secrets.token_hex(8)   # this process, as a pool's pairing lead
        self._rounds = Rounds()

    @property
    def store(self) -> GameStore:
        return self.table.store

    def create(self, player: Player, request: SeekRequest) -> Seek:
        """A new open seek of `player`, holding a place among its live games (TooManyLiveGames
        if none is left); pairs its pool at once (it may come back paired)."""
        options = request.options
        pool = pool_for(options, request.rated)
        now = self.table.clock()
        caps = player.cap(self.table.players)
        seek = Seek(pool + secrets.token_urlsafe(12), player.player_id, player.key, player.name,
                    options, request.rated, self.rating(player, format_of(options)),
                    request.within, request.computers, now, now + self.ttl_seconds,
                    owners=tuple(cap.owner for cap in caps))
        self.table.claim(caps, seek.seek_id)
        try:
            # kept past its expiry, so that it is read as expired, not as never made
            self.store.add_seek(pool, seek.seek_id, seek.to_json(),
                                self.ttl_seconds + CLOSED_KEPT_SECONDS)
        except BaseException:
            self.table.release(seek.owners, seek.seek_id)
            raise
        try:
            self.pair(pool)
        except (StoreError, ComputeRefused) as error:  # the seek stands: the sweepers pair it
            log.warning("seek pool %s not paired after a new seek: %s", pool, error)
        return self.read(seek.seek_id)

    def read(self, seek_id: str) -> Seek:
        data = self.store.load_seek(pool_of(seek_id), seek_id) if _well_formed(seek_id) else None
        if data is None:
            raise SeekNotFound(f"no seek {seek_id}")
        seek = Seek.from_json(data)
        if seek.status == "open" and seek.expires <= self.table.clock():
            return seek.closed("expired")   # the next pairing round closes it
        return seek

    def owned(self, seek_id: str, player: Player) -> Seek:
        seek = self.read(seek_id)
        if seek.player_key != player.key:
            raise SeekRefused("this seek is another player's")
        return seek

    def cancel(self, seek_id: str, player: Player) -> Seek:
        """Close the player's open seek; a seek already closed (paired) is returned as it is."""
        seek = self.owned(seek_id, player)
        if seek.status != "open":
            return seek
        cancelled = seek.closed("cancelled")
        if self.store.take_seeks(seek.pool, {seek_id: cancelled.to_json()},
                                 CLOSED_KEPT_SECONDS):
            self.table.release(seek.owners, seek_id)
            return cancelled
        return self.read(seek_id)  # paired meanwhile

    def wait(self, seek_id: str, player: Player | None, wait: float) -> Seek:
        """The seek once it is no longer open, or as it is after `wait` seconds (at most 25)."""
        with self.store.watch("seeks:" + pool_of(seek_id)) as watch:
            seek = self.read(seek_id)
            end = self.table.clock() + min(wait, MAX_WAIT)
            while seek.status == "open":
                remaining = end - self.table.clock()
                if remaining <= 0:
                    break
                watch.wait(remaining)
                seek = self.read(seek_id)
        return seek

    def open_seeks(self, limit: int) -> list[Seek]:
        """Open seeks of every pool, the longest waiting first."""
        now = self.table.clock()
        found = [_open_seek(data) for pool in self.store.seek_pools()
                 for data in self.store.open_seeks(pool)]
        live = sorted((seek for seek in found if seek.expires > now),
                      key=lambda seek: (seek.created, seek.seek_id))
        return live[:limit]

    # Pairing -------------------------------------------------------------------------------------
    def sweep(self) -> int:
        """A sweeper's round: pair every pool with seeks; returns the games created."""
        created = 0
        for pool in self.store.seek_pools():
            try:
                created += self.pair(pool)
            except (StoreError, DomainError) as error:
                log.warning("seek pool %s not paired this round: %s", pool, error)
        return created

    def pair(self, pool: str) -> int:
        """Pair the pool's open seeks if no other process is at it; returns the games created.
        Seeks that came during a round are paired by another. While this process pairs the
        pool, a call waits for that (Rounds) up to SEARCH_SECONDS."""
        return self._rounds.run(pool, lambda: self._lead(pool), SEARCH_SECONDS)

    def _lead(self, pool: str) -> int:
        version = self.store.lead_pairing(pool, self.holder, LEAD_SECONDS)
        created = 0
        while version is not None:
            created += self._finish_pairings(pool)
            created += self._round(pool)
            version = self.store.end_pairing_lead(pool, self.holder, version)
        return created

    def _round(self, pool: str) -> int:
        documents = self.store.open_seeks(pool)
        if not documents:
            return 0
        found = self._search(documents, self.table.clock())
        for number in found.expired:
            seek = _open_seek(documents[number])
            if self.store.take_seeks(pool, {seek.seek_id: seek.closed("expired").to_json()},
                                     CLOSED_KEPT_SECONDS):
                self.table.release(seek.owners, seek.seek_id)
        created = 0
        for places, computers in found.tables:
            created += self._seat(pool, [_open_seek(documents[number]) for number in places],
                                  computers)
        return created

    def _search(self, documents: list[str], now: float) -> PoolPairing:
        """pair_pool, by the compute tier unless the pool is small. At the priority of a
        computer's move: a seeker waits for the game as a player for a move."""
        if len(documents) <= INLINE_SEEKS:
            return pair_pool(documents, now)
        found: PoolPairing = self.table.compute.run("pair", (documents, now), MOVE,
                                                    wait=SEARCH_SECONDS)
        return found

    def _seat(self, pool: str, seeks: Sequence[Seek], computers: int) -> int:
        game_id = secrets.token_urlsafe(12)
        paired = {seek.seek_id: seek.closed("paired", game_id=game_id, seat=number).to_json()
                  for number, seek in enumerate(seeks)}
        first = seeks[0]
        pairing = json.dumps({
            "game_id": game_id, "options": first.options.to_dict(),
            "rated": first.rated and not computers,
            "players": [seek.player_key for seek in seeks],
            "computers": computers,
            "level": first.computers.level if first.computers else DEFAULT_LEVEL,
            "claims": [[owner, seek.seek_id] for seek in seeks for owner in seek.owners],
        }, separators=(",", ":"))
        if not self.store.take_seeks(pool, paired, CLOSED_KEPT_SECONDS, (game_id, pairing)):
            return 0  # a seek of the table was taken meanwhile: the next round pairs the rest
        self._start(pool, pairing)
        return 1

    def _finish_pairings(self, pool: str) -> int:
        """Create the games of pairings left under way (their process died)."""
        pending = self.store.pairings(pool)
        for pairing in pending.values():
            self._start(pool, pairing)
        return len(pending)

    def _start(self, pool: str, pairing: str) -> None:
        """Create a pairing's game (once, whoever tries), then end the pairing."""
        plan = json.loads(pairing)
        game_id = plan["game_id"]
        seats = []
        for number, key in enumerate(plan["players"]):
            seats.append(self._player_seat(number, key))
        for number in range(len(seats), len(seats) + plan["computers"]):
            seats.append(Seat("computer", f"Computer {number + 1}", plan["level"]))
        claims = plan.get("claims", ())   # none in a pairing made before seeks held places
        for owner, seek_id in claims:  # made again if tried again: the same claims
            self.store.claim_live_game(owner, game_id, TAKEN_OVER)
            self.table.release([owner], seek_id)
        try:
            self._create(game_id, GameOptions.from_dict(plan["options"]), seats, plan["rated"],
                         tuple(owner for owner, _ in claims))
        except GameExists:
            pass
        self.store.end_pairing(pool, game_id)

    def _player_seat(self, number: int, key: str) -> Seat:
        """A paired player's seat, opened by the player's token (player_hash). Taken, its own
        token's digest is that of a secret made and dropped here: no seat token exists, so a
        player's token, once replaced, opens none of its paired seats."""
        unused = tokens.digest(tokens.new_secret())
        try:
            player = self.players.by_key(key)
        except PlayerRefused:  # the player expired while it waited: its seat stays, unnamed
            return Seat("human", f"Player {number + 1}", token_hash=unused, player_hash=key)
        seat = Seat("human", player.name or f"Player {number + 1}", token_hash=unused)
        return linked(seat, player)

    def _create(self, game_id: str, options: GameOptions, seats: list[Seat], rated: bool,
                owners: tuple[str, ...]) -> None:
        table = self.table
        now = table.clock()
        player_webhooks = tuple(seat.player_hash for seat in seats
                                if seat.player_hash is not None and self._has_webhooks(seat))
        new, opening = engine.start_game(options, game_seed(None), now=now)
        state, moves, computers_due = table.advance(seats, new, now)
        events = opening + moves
        record = timers.scheduled(GameRecord(
            tuple(seats), state, len(events), owners, updated=now, human_moved=now,
            abandon_check=now + timers.abandoned_after(options),
            acted_times=(now,) * len(seats), connected=(True,) * len(seats),
            player_webhooks=player_webhooks, computers_due=computers_due, rated=rated))
        table.insert(record, events, (), game_id)
        metrics.record_game_created()
        table.link_players(record, game_id)

    def _has_webhooks(self, seat: Seat) -> bool:
        try:
            return bool(seat.player_hash and self.players.by_key(seat.player_hash).webhooks)
        except PlayerRefused:
            return False


@dataclass(frozen=True)
class PoolPairing:
    """What a round's search found, each seek by its place in the pool's documents: the seeks
    expired, and the tables to seat (their seeks, the longest waiting first; their computers)."""

    expired: tuple[int, ...]
    tables: tuple[tuple[tuple[int, ...], int], ...]


def pair_pool(documents: Sequence[str], now: float) -> PoolPairing:
    """A pairing round's search over a pool's open seeks as stored (the compute job "pair"):
    a pure function of the documents and `now`. Parsing them is as dear as pairing them, so
    it is done here too (in a compute process, which keeps them parsed: _open_seek)."""
    seeks = [_open_seek(document) for document in documents]
    expired = tuple(number for number, seek in enumerate(seeks) if seek.expires <= now)
    waiting = [seek for seek in seeks if seek.expires > now]
    if not waiting:
        return PoolPairing(expired, ())
    place = {seek.seek_id: number for number, seek in enumerate(seeks)}
    tables = pair([seek.ticket(now) for seek in waiting], waiting[0].options.players)
    return PoolPairing(expired, tuple((tuple(place[seek_id] for seek_id in table.seek_ids),
                                       table.computers) for table in tables))


@functools.lru_cache(maxsize=8192)
def _open_seek(data: str) -> Seek:
    """An open seek's document parsed once: a round reads every open seek of its pool, and an
    open seek's document does not change (bench/seeks.py: with 1,000 waiting, parsing them all
    again was most of a round)."""
    return Seek.from_json(data)


def _well_formed(seek_id: str) -> bool:
    return len(seek_id) > POOL_LENGTH and all(c in "0123456789abcdef"
                                              for c in seek_id[:POOL_LENGTH])
