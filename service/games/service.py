"""GamesService: create, join, read and act on games; the one path from the API to engine and
store. It raises domain errors and returns domain values; what they look like in HTTP is the
API's business.

Every operation loads the game, first catches up on what is already due (an expired count
deadline, then any computer seat whose turn it is), then does its own change, and saves with a
compare-and-set on the version it loaded; if another request saved first, it starts over.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import time
from datetime import datetime, timezone
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass, replace

from service import engine, metrics
from service.bots import DEFAULT_LEVEL, LEVELS
from service.engine import Event, GameOptions, GameState, SeatView
from service.errors import DomainError, IllegalActionError, InvalidInputError
from service.store import (GameExists, GameNotFound, GameStore, StoredGame, StoreError,
                           VersionConflict)

from . import idempotency, tokens
from .caps import LiveGamesCap
from .errors import (GameBusy, GameNotFound as NoSuchGame, SeatRefused, SeatTaken, TokenRequired,
                     TooManyLiveGames, VersionMismatch)
from .idempotency import ReplayRecord
from .muggins import held_from_computers
from .record import GameRecord, Seat, is_over
from .requests import ActionRequest, to_action

log = logging.getLogger(__name__)

MAX_WAIT = 25.0
SAFETY_REREAD = 60.0       # a waiter re-reads this often even if no notification came
HEARTBEAT = 15.0           # a stream says it is alive at least this often
TICKET_SECONDS = 60        # a stream ticket is good for this long, and once
STREAM_SECONDS = 3600.0    # a stream closes after this long; its client resumes where it was
WRITE_ATTEMPTS = 50        # compare-and-set rounds before giving up on a very busy game
COMPUTER_MOVES = 1000      # bound on computer moves in one request; a whole hand needs far fewer
DEADLINE_SLACK = 0.05      # a long poll wakes this long after a deadline to apply it
HUMAN_DECISIONS = frozenset({"resign", "next_game", "end_match"})  # never a computer's


@dataclass(frozen=True)
class GameSnapshot:
    """A game as one seat (or a spectator, seat None) sees it at a stored version."""

    game_id: str
    version: int
    seat: int | None
    seats: tuple[Seat, ...]
    last_event: int
    view: SeatView
    replayed: bool = False    # the response to an earlier request with the same key

    @property
    def ended(self) -> bool:
        """Nothing more will happen in this game."""
        return is_over(self.view.phase, self.view.options.match)


@dataclass(frozen=True)
class Invite:
    seat: int
    code: str


@dataclass(frozen=True)
class SeatAccess:
    """A seat taken: its token (shown once) and, for the creator, the other seats' invites."""

    game: GameSnapshot
    token: str
    invites: tuple[Invite, ...] = ()


@dataclass(frozen=True)
class NumberedEvent:
    number: int
    data: dict  # the event as the seat may see it (service.engine.view_event)
    time: str | None = None  # when the server recorded it (server_time), if it was recorded so


@dataclass(frozen=True)
class EventsPage:
    """Events after a number, and the game as the seat sees it after the last of them."""

    game: GameSnapshot
    events: tuple[NumberedEvent, ...]

    @property
    def ended(self) -> bool:
        return self.game.ended


@dataclass(frozen=True)
class StreamTicket:
    ticket: str
    expires_in: int


class GamesService:
    def __init__(self, store: GameStore, clock: Callable[[], float] = time.time,
                 stream_seconds: float = STREAM_SECONDS):
        self.store = store
        self.clock = clock
        self.stream_seconds = stream_seconds

    # Operations ----------------------------------------------------------------------------------
    def create(self, specs: Sequence[dict], options: dict, creator_seat: int | None = None,
               caps: Sequence[LiveGamesCap] = ()) -> SeatAccess:
        """A new game; the creator gets a seat token and every other human seat an invite code.

        `specs`, one per seat: {"kind": "human"|"computer", "name": str?, "level": str?}. The
        game counts among the live games of each cap's owner until it is finished; past a
        cap, TooManyLiveGames.
        """
        game_options = _game_options(options, len(specs))
        seats = [_seat(number, spec) for number, spec in enumerate(specs)]
        humans = [number for number, seat in enumerate(seats) if seat.kind == "human"]
        if not humans:
            raise InvalidInputError("at least one seat must be human", code="no_human_seat",
                                    field="seats")
        creator = humans[0] if creator_seat is None else creator_seat
        if creator not in humans:
            raise InvalidInputError(f"seat {creator} is not a human seat",
                                    code="creator_not_human", field="creator_seat",
                                    seat=creator)
        token = tokens.new_secret()
        invites = tuple(Invite(number, tokens.new_secret())
                        for number in humans if number != creator)
        seats[creator] = replace(seats[creator], token_hash=tokens.digest(token))
        for invite in invites:
            seats[invite.seat] = replace(seats[invite.seat], invite_hash=tokens.digest(invite.code))
        new, opening = engine.start_game(game_options, secrets.token_bytes(32))
        state, moves = self._computers_play(seats, new, self.clock())
        events = opening + moves
        record = GameRecord(tuple(seats), state, len(events), tuple(cap.owner for cap in caps))
        game_id = self._insert(record, events, caps)
        metrics.record_game_created()
        return SeatAccess(_snapshot(game_id, 1, record, creator), token, invites)

    def join(self, game_id: str, code: str, name: str | None = None,
             idempotency_key: str | None = None) -> SeatAccess:
        """Take the open seat an invite code belongs to; returns that seat's token.

        With an Idempotency-Key, a retry gets the same token back, so a lost response never
        loses the seat. The store keeps that token only sealed with the code and the key
        (tokens.seal), neither of which it keeps itself.
        """
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.join_key(code, idempotency_key)
        fingerprint = idempotency.fingerprint({"name": name})

        def attempt() -> SeatAccess:
            stored, record, _ = self._open(game_id, None, replay_key)
            if stored.replay is not None:
                replay = ReplayRecord.from_json(stored.replay).answering(fingerprint)
                token = tokens.unseal(replay.sealed, code, idempotency_key)
                version, record = self._catch_up(game_id, stored, record)
                return SeatAccess(_snapshot(game_id, version, record, replay.seat, True), token)
            version, record = self._catch_up(game_id, stored, record)
            seat = tokens.match(code, [s.invite_hash for s in record.seats])
            if seat is None:
                raise SeatRefused("this invite code opens no seat of this game",
                                  code="invalid_invite")
            if record.seats[seat].taken:
                raise SeatTaken(f"seat {seat} is already taken", seat=seat)
            token = tokens.new_secret()
            taken = replace(record.seats[seat], token_hash=tokens.digest(token),
                            name=name or record.seats[seat].name)
            record = record.with_seat(seat, taken)
            joined = Event("seat_joined", {"seat": seat, "name": taken.name})
            record = replace(record, events=record.events + 1)
            replay = None
            if replay_key is not None:
                sealed = tokens.seal(token, code, idempotency_key)
                replay = (replay_key,
                          ReplayRecord(fingerprint, version + 1, seat, sealed).to_json())
            version = self._save(game_id, version, record, [joined], replay)
            return SeatAccess(_snapshot(game_id, version, record, seat), token)

        return self._retrying(attempt)

    def rename(self, game_id: str, token: str | None, seat: int, name: str) -> GameSnapshot:
        """Give the token's seat a new name; a `seat_renamed` event tells the table."""
        if not token:
            raise TokenRequired("renaming a seat needs the seat's token")

        def attempt() -> GameSnapshot:
            stored, record, own_seat = self._open(game_id, token)
            if seat != own_seat:
                raise SeatRefused(f"this token holds seat {own_seat}", code="not_your_seat",
                                  field="seat", seat=own_seat)
            version, record = self._catch_up(game_id, stored, record)
            renamed = Event("seat_renamed", {"seat": seat, "name": name})
            record = replace(record.with_seat(seat, replace(record.seats[seat], name=name)),
                             events=record.events + 1)
            version = self._save(game_id, version, record, [renamed])
            return _snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def read(self, game_id: str, token: str | None = None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token."""

        def attempt() -> GameSnapshot:
            stored, record, seat = self._open(game_id, token)
            version, record = self._catch_up(game_id, stored, record)
            return _snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def act(
        self,
        game_id: str,
        token: str | None,
        request: ActionRequest,
        idempotency_key: str | None = None,
        if_match: Container[int] | None = None,
    ) -> GameSnapshot:
        """Apply the seat's action, then let computer seats move; returns the seat's new view.

        A retry with the same Idempotency-Key applies nothing and returns the game as the seat
        sees it now (service.games.idempotency; the same key with another request is refused). `if_match`, the versions an If-Match
        header names, must hold the current version.
        """
        if not token:
            raise TokenRequired("acting needs the seat's token")
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.action_key(token, idempotency_key)
        fingerprint = request.fingerprint()

        def attempt() -> GameSnapshot:
            stored, record, seat = self._open(game_id, token, replay_key)
            if stored.replay is not None:
                ReplayRecord.from_json(stored.replay).answering(fingerprint)
                version, record = self._catch_up(game_id, stored, record)
                return _snapshot(game_id, version, record, seat, replayed=True)
            version, record = self._catch_up(game_id, stored, record)
            if if_match is not None and version not in if_match:
                raise VersionMismatch(
                    f"the game is at version {version}, not the one in If-Match",
                    version=version)
            if request.seat is not None and request.seat != seat:
                raise SeatRefused(f"this token holds seat {seat}", code="not_your_seat",
                                  field="seat", seat=seat)
            now = self.clock()
            phase_before = record.state.phase
            action = to_action(request, seat, record.state)
            state, events = engine.apply(record.state, action, now)
            record = record.acted(seat)
            state, moves = self._computers_play(record.seats, state, now, record.acted_at)
            events += moves
            record = replace(record, state=state, events=record.events + len(events))
            replay = None
            if replay_key is not None:
                replay = (replay_key, ReplayRecord(fingerprint, version + 1, seat).to_json())
            version = self._save(game_id, version, record, events, replay)
            metrics.record_game_finished(phase_before, state.phase)
            return _snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def events(self, game_id: str, token: str | None, after: int,
               wait: float = 0) -> EventsPage:
        """Events numbered after+1, ... as the seat may see them, and the game after them; waits
        up to `wait` seconds (at most 25) for the first one. While it waits it reads the game
        again only when the game changes or a deadline of the game passes (and applies it)."""
        if wait <= 0:
            return self._page(game_id, token, after)
        with self.store.watch(game_id) as watch:
            page = self._page(game_id, token, after)
            end = time.monotonic() + min(wait, MAX_WAIT)
            while not page.events:
                remaining = end - time.monotonic()
                due = self._until_deadline(page)
                if due is not None and due < remaining:
                    watch.wait(due)
                elif remaining <= 0 or not watch.wait(remaining):
                    break  # nothing changed: the page read last still holds
                page = self._page(game_id, token, after)
        return page

    def follow(self, game_id: str, token: str | None, after: int | None,
               seat: int | None = None) -> Iterator[GameSnapshot | EventsPage | None]:
        """A game's stream: the seat's snapshot first, then a page whenever events follow
        `after` (the snapshot's last event when None), None as a heartbeat at least every
        HEARTBEAT seconds; ends after the page in which the game ends, or after
        `stream_seconds`. `seat` is a seat already proven (by a stream ticket) in place of a
        token."""
        closes_at = time.monotonic() + self.stream_seconds
        with self.store.watch(game_id) as watch:
            page = self._page(game_id, token, after, seat)
            yield page.game
            last_read = time.monotonic()
            while True:
                if page.events:
                    yield page
                if page.ended:
                    return
                while True:
                    due = self._until_deadline(page)
                    timeout = HEARTBEAT if due is None else min(HEARTBEAT, due)
                    timeout = min(timeout, closes_at - time.monotonic())
                    if timeout <= 0:
                        return
                    if watch.wait(timeout) or timeout == due:
                        break
                    yield None
                    if time.monotonic() - last_read >= SAFETY_REREAD:
                        break  # after the heartbeat: a safety re-read never delays one
                page = self._page(game_id, token, page.game.last_event, seat)
                last_read = time.monotonic()

    def stream_ticket(self, game_id: str, token: str | None) -> StreamTicket:
        """A one-time pass to the seat's event stream, for clients that cannot send a header."""
        if not token:
            raise TokenRequired("a stream ticket needs the seat's token")
        _, _, seat = self._open(game_id, token)
        ticket = tokens.new_secret()
        self._store(self.store.add_ticket, game_id, tokens.digest(ticket), seat, TICKET_SECONDS)
        return StreamTicket(ticket, TICKET_SECONDS)

    def redeem_ticket(self, game_id: str, ticket: str) -> int:
        """The seat a stream ticket was given to; the ticket is used up."""
        seat = self._store(self.store.take_ticket, game_id, tokens.digest(ticket))
        if seat is None:
            raise SeatRefused("this stream ticket is unknown, used or expired",
                              code="invalid_ticket")
        return seat

    def _page(self, game_id: str, token: str | None, after: int | None,
              seat: int | None = None) -> EventsPage:
        """The game and the events after `after` (none when None), read together."""

        def attempt() -> EventsPage:
            stored, record, token_seat = self._open(game_id, token, events_after=after)
            viewer = token_seat if seat is None else seat
            version, caught_up = self._catch_up(game_id, stored, record)
            if caught_up is not record:
                raise VersionConflict(game_id)  # read again, with the events just written
            if after is not None and after > record.events:
                raise InvalidInputError(f"the game has {record.events} events, not {after}",
                                        code="after_out_of_range", field="after", after=after,
                                        events=record.events)
            numbered = tuple(
                _numbered(number, json.loads(text), viewer)
                for number, text in enumerate(stored.events, start=(after or 0) + 1))
            return EventsPage(_snapshot(game_id, version, record, viewer), numbered)

        return self._retrying(attempt)

    def _until_deadline(self, page: EventsPage) -> float | None:
        """Seconds until the game's deadline is due to be applied, if it has one."""
        deadline = page.game.view.deadline
        if deadline is None:
            return None
        return max(deadline - self.clock(), 0) + DEADLINE_SLACK

    # Steps shared by the operations -------------------------------------------------------------
    def _open(self, game_id: str, token: str | None, replay_key: str | None = None,
              events_after: int | None = None):
        """Load a game and find the seat `token` holds (None without a token)."""
        stored = self._store(self.store.load, game_id, replay_key, events_after)
        record = GameRecord.from_json(stored.data)
        seat = None
        if token is not None:
            seat = tokens.match(token, [s.token_hash for s in record.seats])
            if seat is None:
                raise SeatRefused("this token holds no seat of this game", code="invalid_token")
        return stored, record, seat

    def _catch_up(self, game_id: str, stored: StoredGame, record: GameRecord):
        """Apply what is due (an expired deadline, computer moves); save it if anything was."""
        now = self.clock()
        state, events = engine.expire(record.state, now)
        state, moves = self._computers_play(record.seats, state, now, record.acted_at)
        if state is record.state:
            return stored.version, record
        events += moves
        phase_before = record.state.phase
        record = replace(record, state=state, events=record.events + len(events))
        version = self._save(game_id, stored.version, record, events)
        metrics.record_game_finished(phase_before, state.phase)
        return version, record

    def _save(self, game_id: str, version: int, record: GameRecord, events: Sequence[Event],
              replay: tuple[str, str] | None = None) -> int:
        version = self.store.save(game_id, version, record.to_json(),
                                  _texts(events, self.clock()), replay,
                                  finished=record.ended)
        if record.ended:
            self._release(record.owners, game_id)
        return version

    def _computers_play(self, seats: Sequence[Seat], state: GameState, now: float,
                        acted_at: Sequence[int] = ()):
        """Let computer seats move for as long as one of them has a move to make."""
        events: list[Event] = []
        for _ in range(COMPUTER_MOVES):
            moved = _computer_move(seats, state, now, acted_at)
            if moved is None:
                return state, events
            state, produced = moved
            events += produced
        raise RuntimeError(f"computer seats made {COMPUTER_MOVES} moves in one request")

    def _insert(self, record: GameRecord, events: list[Event],
                caps: Sequence[LiveGamesCap]) -> str:
        while True:
            game_id = secrets.token_urlsafe(12)
            self._claim(caps, game_id)
            try:
                self._store(self.store.create, game_id, record.to_json(),
                            _texts(events, self.clock()))
                return game_id
            except GameExists:
                self._release(record.owners, game_id)
            except BaseException:
                self._release(record.owners, game_id)
                raise

    def _claim(self, caps: Sequence[LiveGamesCap], game_id: str) -> None:
        for number, cap in enumerate(caps):
            if not self.store.claim_live_game(cap.owner, game_id, cap.limit):
                self._release([claimed.owner for claimed in caps[:number]], game_id)
                raise TooManyLiveGames(f"{cap.owner} has {cap.limit} live games already",
                                       limit=cap.limit)

    def _release(self, owners: Sequence[str], game_id: str) -> None:
        """Uncount a game from its owners' live games; if the store fails, the claims lapse
        by themselves."""
        for owner in owners:
            try:
                self.store.release_live_game(owner, game_id)
            except StoreError as error:
                log.warning("live game %s left claimed by %s: %s", game_id, owner, error)

    def _retrying(self, attempt: Callable):
        for _ in range(WRITE_ATTEMPTS):
            try:
                return attempt()
            except VersionConflict:
                continue
        raise GameBusy("too many simultaneous changes to this game; retry")

    @staticmethod
    def _store(call: Callable, game_id: str, *args):
        try:
            return call(game_id, *args)
        except GameNotFound:
            raise NoSuchGame(f"there is no game {game_id}", game_id=game_id) from None


def _snapshot(game_id: str, version: int, record: GameRecord, seat: int | None,
              replayed: bool = False) -> GameSnapshot:
    """The game as `seat` sees it. Computer seats are never among those to act: any move of
    theirs has been made, and the decisions left are the humans'."""
    view = engine.view(record.state, seat)
    humans_to_act = tuple(s for s in view.to_act if record.seats[s].kind == "human")
    return GameSnapshot(game_id, version, seat, record.seats, record.events,
                        replace(view, to_act=humans_to_act), replayed)


def _computer_move(seats: Sequence[Seat], state: GameState, now: float,
                   acted_at: Sequence[int]):
    """The next computer seat's move applied, or None if no computer seat has one to make.
    A computer calls muggins only once the humans have had their chance (games.muggins)."""
    for number in engine.to_act(state):
        seat = seats[number]
        if seat.kind != "computer":
            continue
        rng = random.Random(hashlib.sha256(
            state.seed + b"computer" + state.version.to_bytes(8, "big") + bytes([number])).digest())
        view = engine.view(state, number)
        if held_from_computers(state, seats, acted_at, number):
            view = replace(view, legal_actions=tuple(
                option for option in view.legal_actions if option.type != "muggins"))
        action = LEVELS[seat.level].choose(view, rng)
        if action is None:
            continue
        try:
            if action.type in HUMAN_DECISIONS:
                raise IllegalActionError("computers leave this to the humans",
                                         code="invalid_action")
            return engine.apply(state, action, now)
        except DomainError as refused:
            # A level that picks an illegal move must not stall the game: play the first legal one.
            log.error("computer level %r chose %r: %s", seat.level, action, refused)
            fallback = LEVELS["first"].choose(view, rng)
            if fallback is not None:
                return engine.apply(state, fallback, now)
    return None


def _game_options(options: dict, players: int) -> GameOptions:
    if options.get("players", players) != players:
        raise InvalidInputError(f"{players} seats, but players is {options['players']}",
                                code="invalid_options", field="players", allowed=str(players))
    return GameOptions.from_dict({**options, "players": players})


def _seat(number: int, spec: dict) -> Seat:
    kind = spec.get("kind", "human")
    if kind == "computer":
        level = spec.get("level") or DEFAULT_LEVEL
        if level not in LEVELS:
            raise InvalidInputError(f"no computer level {level!r}", code="unknown_level",
                                    field=f"seats[{number}].level", level=level,
                                    allowed=", ".join(sorted(LEVELS)))
        return Seat("computer", spec.get("name") or f"Computer {number + 1}", level)
    return Seat("human", spec.get("name") or f"Player {number + 1}")


def _texts(events: Sequence[Event], now: float) -> list[str]:
    """The events as the store keeps them, each with the server's time of the write."""
    time_text = server_time(now)
    return [json.dumps({**event.to_dict(), "time": time_text}, separators=(",", ":"))
            for event in events]


def _numbered(number: int, stored: dict, viewer: int | None) -> NumberedEvent:
    return NumberedEvent(number, engine.view_event(Event.from_dict(stored), viewer),
                         stored.get("time"))


def server_time(now: float) -> str:
    """Epoch seconds as RFC 3339 in UTC with milliseconds: 2026-11-25T10:04:05.678Z."""
    moment = datetime.fromtimestamp(now, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
