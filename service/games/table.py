"""GameTable: the plumbing every job of the games service shares, passed to each of them.

It loads a game and finds the seat a token holds, catches up on what is already due (an expired
count deadline, then any computer seat whose turn it is, a lapsed rematch offer, an abandoned
game, a seat gone from the table), and saves with a compare-and-set on the version it loaded;
an operation that lost that race starts over (`retrying`). It also keeps a game's claims on its
owners' live-game caps and its players' lists, and asks the compute tier for computer moves and
hints. It raises domain errors and returns domain values.
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from service import engine, metrics
from service.bots.hints import Hint
from service.compute import ANALYSIS, MOVE, ComputeRefused, ComputeTier
from service.engine import Event, GameState, SeatView
from service.store import (GameExists, GameNotFound, GameStore, StoredGame, StoreError,
                           VersionConflict)
from service.webhooks import notifications

from . import computers, presence, rematch, results, timers, tokens
from .caps import LiveGamesCap
from .errors import (AlreadySeated, GameBusy, GameNotFound as NoSuchGame, SeatRefused,
                     TooManyLiveGames)
from .event_log import public_event, server_time, stored_texts
from .players import Player, PlayerPolicy
from .record import GameRecord, Seat, is_over
from .snapshots import GameSnapshot, snapshot

log = logging.getLogger(__name__)

WRITE_ATTEMPTS = 50        # compare-and-set rounds before giving up on a very busy game
REPLY_SECONDS = 5.0        # how long a request waits for the computers' replies to its change

Result = TypeVar("Result")


class GameTable:
    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time,
                 players: PlayerPolicy = PlayerPolicy(), compute: ComputeTier | None = None,
                 reply_seconds: float = REPLY_SECONDS):
        self.store = store
        self.clock = clock
        self.players = players
        self.compute = compute or ComputeTier()
        self.reply_seconds = reply_seconds

    # Reading -------------------------------------------------------------------------------------
    def open(self, game_id: str, token: str | None, replay_key: str | None = None,
             events_after: int | None = None, watched: bool = False
             ) -> tuple[StoredGame, GameRecord, int | None]:
        """Load a game and find the seat `token` holds (None without a token); `watched`: for
        a waiting request (GameStore.load)."""
        stored = self.load(game_id, replay_key, events_after, watched)
        record = _watched_record(stored.data) if watched else GameRecord.from_json(stored.data)
        return stored, record, None if token is None else _seat_of(record, token)

    def open_seat(self, game_id: str, token: str, replay_key: str | None = None,
                  events_after: int | None = None) -> tuple[StoredGame, GameRecord, int]:
        """Load a game and find the seat `token` holds; SeatRefused if none."""
        stored = self.load(game_id, replay_key, events_after)
        record = GameRecord.from_json(stored.data)
        return stored, record, _seat_of(record, token)

    def load(self, game_id: str, replay_key: str | None = None,
             events_after: int | None = None, watched: bool = False) -> StoredGame:
        return self.store_call(self.store.load, game_id, replay_key, events_after, watched)

    @staticmethod
    def store_call(call: Callable[..., Result], game_id: str, *args: object) -> Result:
        """`call(game_id, *args)` on the store, a game it does not hold named as the domain's
        GameNotFound."""
        try:
            return call(game_id, *args)
        except GameNotFound:
            raise NoSuchGame(f"there is no game {game_id}", game_id=game_id) from None

    def read(self, game_id: str, token: str | None = None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token."""

        def attempt() -> GameSnapshot:
            stored, record, seat = self.open(game_id, token)
            version, record = self.catch_up(game_id, stored, record)
            return self.snapshot(game_id, version, record, seat)

        return self.retrying(attempt)

    def seat_of(self, game_id: str, token: str) -> tuple[GameRecord, int]:
        """The game as stored and the seat the token holds (read only)."""
        _, record, seat = self.open_seat(game_id, token)
        return record, seat

    def snapshot(self, game_id: str, version: int, record: GameRecord, seat: int | None,
                 replayed: bool = False) -> GameSnapshot:
        return replace(snapshot(game_id, version, record, seat, replayed, self.clock()),
                       hinter=self.hinter(game_id, seat))

    def hinter(self, game_id: str, seat: int | None) -> Callable[[SeatView], Hint | None]:
        """A seat's hints come from the compute tier, charged to the seat; when the tier is
        busy or the seat's CPU budget is spent the view goes without one."""

        def hinter(view: SeatView) -> Hint | None:
            try:
                hint: Hint | None = self.compute.run(
                    "hint", (view,), ANALYSIS, wait=self.reply_seconds,
                    client=f"seat:{game_id}:{seat}")
                return hint
            except ComputeRefused as refused:
                log.warning("no hint for seat %s of game %s: %s", seat, game_id, refused)
                return None

        return hinter

    # Changing ------------------------------------------------------------------------------------
    def retrying(self, attempt: Callable[[], Result]) -> Result:
        """`attempt()` again while another request's save wins the compare-and-set."""
        for _ in range(WRITE_ATTEMPTS):
            try:
                return attempt()
            except VersionConflict:
                continue
        raise GameBusy("too many simultaneous changes to this game; retry")

    def change(self, game_id: str, token: str | None,
               change: Callable[[GameRecord, int | None], GameRecord],
               ) -> tuple[GameRecord, int | None]:
        """Save `change(record, seat)` of the game (what is due applied first), as the seat
        `token` holds (None: no seat, no check); no event. Returns the record saved and the
        seat; nothing is saved if the change returns the record it was given."""

        def attempt() -> tuple[GameRecord, int | None]:
            stored, record, seat = self.open(game_id, token)
            version, record = self.catch_up(game_id, stored, record)
            changed = change(record, seat)
            if changed is not record:
                _, changed = self.save(game_id, version, changed, [], presence_check=(
                    presence.next_check(changed, stored.presence)))
            return changed, seat

        return self.retrying(attempt)

    def catch_up(self, game_id: str, stored: StoredGame, record: GameRecord,
                 reschedule: bool = False, wait: float | None = None
                 ) -> tuple[int, GameRecord]:
        """Apply what is due (an expired deadline, computer moves, turn timers run out, an
        abandoned game); save it if anything was. With `reschedule` the save sets the game's
        entry in the deadline index even if its time did not change. The computers' moves
        are waited for up to `wait` seconds (the request's bound when None); once they have
        been late (computers_due), only the sweeper (`reschedule`) asks for them again, and an
        attempt that fails again writes nothing."""
        now = self.clock()
        state, events = engine.expire(record.state, now)
        moves: list[Event] = []
        if record.computers_due is None or reschedule:  # late replies are the sweeper's
            state, moves, computers_due = self.advance(record.seats, state, now,
                                                       record.acted_at, wait)
            if (computers_due is None) != (record.computers_due is None):
                record = replace(record, computers_due=computers_due)
        lapsed_record, lapsed = rematch.lapse(self.settled(game_id, record, now), now)
        lapsed_record, state, abandoned = timers.abandoned(lapsed_record, state, now)
        present: list[Event] = []
        if not is_over(state.phase, state.options.match):  # none after a game_over made here
            lapsed_record, present = presence.update(lapsed_record, stored.presence, now)
            lapsed_record, alarm = timers.turn_alarm(lapsed_record, state, now)
            present += alarm
        if state is record.state and lapsed_record is record:
            return stored.version, record
        events += moves + lapsed + abandoned + present
        phase_before = record.state.phase
        record = replace(lapsed_record, state=state, events=record.events + len(events))
        version, record = self.save(game_id, stored.version, record, events,
                                    reschedule=reschedule,
                                    presence_check=presence.next_check(record, stored.presence))
        metrics.record_game_finished(phase_before, state.phase)
        return version, record

    def save(self, game_id: str, version: int, record: GameRecord, events: Sequence[Event],
             replay: tuple[str, str] | None = None, reschedule: bool = False,
             presence_check: float | None = None) -> tuple[int, GameRecord]:
        """Save with a compare-and-set (returns the new version and the record as saved); the
        game's entry in the deadline index is written with it only when its time changed (or
        `reschedule`): for a game without timers, at its creation (the abandon check), by the
        sweeper's checks and at its end, never per action; and when the `presence_check`
        (presence.next_check) comes before what the index holds, so that a seat that acts and
        leaves, with nothing else due, is told gone in time (a write when the check is
        earlier than the index's time, or when the check the index holds has passed; not when
        it moves later: the sweeper then wakes early, finds nothing due and puts the right
        time back). Such a write keeps the `presence_check` if it comes sooner
        (GameRecord.presence_due), so that moving a turn timer never drops the check of a seat
        that has gone. The webhook notifications of a game that has webhooks are queued with
        it."""
        if record.result is None and any(event.type == "game_over" for event in events):
            result, rated = results.judge(self.store, self.players.ttl_seconds, game_id,
                                          record.seats, record.state.options, record.rated,
                                          events, self.clock())
            record = replace(record, result=result, events=record.events + len(rated))
            events = [*events, *rated]
        scheduled = timers.scheduled(record)
        held = timers.earliest(record.scheduled, record.presence_due)  # what the index holds
        stale = record.presence_due is not None and record.presence_due <= self.clock()
        reschedule = (reschedule or stale or scheduled.scheduled != record.scheduled
                      or (presence_check is not None and (held is None or presence_check < held)))
        due = held
        if reschedule:
            check = presence_check
            if check is not None and scheduled.scheduled is not None \
                    and check >= scheduled.scheduled:
                check = None  # the index's time comes first anyway
            scheduled = replace(scheduled, presence_due=check)
            due = timers.earliest(scheduled.scheduled, check)
        record = replace(scheduled, updated=self.clock())
        outbox: list[str] = []
        if record.notifies:
            record, outbox = self.notify(game_id, version + 1, record, events)
        version = self.store.save(game_id, version, record.to_json(),
                                  stored_texts(events, self.clock()), replay,
                                  finished=record.ended, reschedule=reschedule,
                                  due=due, outbox=outbox,
                                  keep_seconds=timers.keep_seconds(record.state.options))
        metrics.record_endings(events)
        if record.ended:
            self.release(record.owners, game_id)
        if record.settling is not None:
            return self.settle(game_id, version, record)
        return version, record

    def settle(self, game_id: str, version: int, record: GameRecord) -> tuple[int, GameRecord]:
        """Count the result of a game that just ended for its players, and save that it is
        counted; should anything fail, the sweeper finishes it (results.SETTLE_AFTER)."""
        settled = self.settled(game_id, record, float("inf"))
        if settled is record:
            return version, record
        try:
            return self.save(game_id, version, settled, [])
        except StoreError as error:
            log.warning("game %s: its counted result left to the sweeper: %s", game_id, error)
            return version, record

    def settled(self, game_id: str, record: GameRecord, now: float) -> GameRecord:
        """The record with its result counted for its players, if that is due by `now`
        (unchanged if not, or if the store fails: it is tried again later)."""
        result = record.settling
        if result is None or now < result.due:
            return record
        try:
            return replace(record, result=results.settle(self.store, self.players.ttl_seconds,
                                                         game_id, result))
        except StoreError as error:
            log.warning("game %s: result not counted yet: %s", game_id, error)
            return record

    def notify(self, game_id: str, version: int, record: GameRecord,
               events: Sequence[Event]) -> tuple[GameRecord, list[str]]:
        """The webhook entries a save of `record` at `version` queues, and the record noting
        the turn they told. Payloads see the game as a spectator does."""
        state = record.state
        turn = notifications.Turn(
            tuple(s for s in engine.to_act(state) if record.seats[s].kind == "human"),
            state.phase)
        due = [when for when in (state.deadline, state.turn_deadline) if when is not None]
        deadline = server_time(min(due)) if due else None
        found = notifications.notifications(
            game_id, version, turn, record.notified_turn, deadline,
            [public_event(event, None) for event in events])
        entries = notifications.outbox(found, record.webhooks, record.player_webhooks,
                                       f"game:{game_id}", self.clock())
        return replace(record, notified_turn=turn), entries

    def advance(self, seats: Sequence[Seat], state: GameState, now: float,
                acted_at: Sequence[int] = (), wait: float | None = None
                ) -> tuple[GameState, list[Event], float | None]:
        """The computer seats' moves and the timed-out turns due in `state`, from the compute
        tier (computers.advance; made here when no level that searches is asked), waited for
        up to `wait` seconds (the request's bound when None). (state, events, computers_due):
        if no answer came in time, the state is unchanged and computers_due says when the
        sweeper should try again (now)."""
        if not computers.pending(seats, state, now, acted_at):
            return state, [], None
        if not computers.searches(seats, state, now):
            state, events = computers.advance(seats, state, now, acted_at)
            return state, events, None
        try:
            state, events = self.compute.run(
                "advance", (tuple(seats), state, now, tuple(acted_at)), MOVE,
                wait=self.reply_seconds if wait is None else wait)
        except ComputeRefused as refused:
            log.warning("computers' replies left to the sweeper: %s", refused)
            return state, [], now
        return state, events, None

    # A new game ----------------------------------------------------------------------------------
    def insert(self, record: GameRecord, events: list[Event],
               caps: Sequence[LiveGamesCap], game_id: str | None = None) -> str:
        """Store a new game under a fresh id, counted against `caps` and listed among the live
        games; returns the id. Under a `game_id` chosen beforehand, GameExists if it is taken
        (the claims of `caps` on it are given up: the game there holds its own)."""
        claimed = [cap.owner for cap in caps]
        while True:
            chosen = game_id
            game_id = chosen or secrets.token_urlsafe(12)
            inserted = record
            outbox: list[str] = []
            if record.notifies:  # its creator's player webhooks: tell them the first turn
                inserted, outbox = self.notify(game_id, 1, record, events)
            self.claim(caps, game_id)
            try:
                self.store_call(self.store.create, game_id, inserted.to_json(),
                                stored_texts(events, self.clock()), inserted.scheduled, outbox,
                                timers.keep_seconds(record.state.options), self.clock())
                return game_id
            except GameExists:
                self.release(claimed, game_id)
                if chosen is not None:
                    raise
                game_id = None
            except BaseException:
                self.release(claimed, game_id)
                raise

    def claim(self, caps: Sequence[LiveGamesCap], game_id: str) -> None:
        for number, cap in enumerate(caps):
            if not self.store.claim_live_game(cap.owner, game_id, cap.limit):
                self.release([claimed.owner for claimed in caps[:number]], game_id)
                raise TooManyLiveGames(f"{cap.owner} has {cap.limit} live games already",
                                       limit=cap.limit)

    def release(self, owners: Sequence[str], game_id: str) -> None:
        """Uncount a game from its owners' live games; if the store fails, the claims lapse
        by themselves."""
        for owner in owners:
            try:
                self.store.release_live_game(owner, game_id)
            except StoreError as error:
                log.warning("live game %s left claimed by %s: %s", game_id, owner, error)

    # Players' seats ------------------------------------------------------------------------------
    def seat_player(self, game_id: str, record: GameRecord, player: Player) -> GameRecord:
        """The game counted among the player's live games, which must not hold a seat of it."""
        if any(seat.player_hash == player.key for seat in record.seats):
            raise AlreadySeated("this player holds a seat of this game already")
        caps = player.cap(self.players)
        if not caps or caps[0].owner in record.owners:
            return record
        self.claim(caps, game_id)
        return replace(record, owners=record.owners + (caps[0].owner,))

    def link_players(self, record: GameRecord, game_id: str, only: int | None = None) -> None:
        """Add the game to the lists of the players its seats are linked to. Should the store
        fail, the game is played all the same; only the player's list misses it."""
        for number, seat in enumerate(record.seats):
            if seat.player_hash is None or only not in (None, number):
                continue
            try:
                self.store.link_player_game(seat.player_hash, game_id, number,
                                            self.players.ttl_seconds)
            except StoreError as error:
                log.warning("game %s not listed for its player: %s", game_id, error)


def _seat_of(record: GameRecord, token: str) -> int:
    """The seat `token` holds, as its seat token or its player's token; SeatRefused if none."""
    by_seat = tokens.match(token, [s.token_hash for s in record.seats])
    by_player = tokens.match(token, [s.player_hash for s in record.seats])
    seat = by_player if by_seat is None else by_seat
    if seat is None:
        raise SeatRefused("this token holds no seat of this game", code="invalid_token")
    return seat


@functools.lru_cache(maxsize=2048)
def _watched_record(data: str) -> GameRecord:
    """The record of a document that waiting requests read: a long poll asked again on a game
    that did not change gets the store's copy (GameStore.load) and parses nothing either.
    About 5 KB a game; 2,048 is more than the games one worker's waiters wait on."""
    return GameRecord.from_json(data)
