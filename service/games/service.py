"""GamesService: create, join, read and act on games; the one path from the API to engine and
store. It raises domain errors and returns domain values; what they look like in HTTP is the
API's business.

Every operation loads the game, first catches up on what is already due (an expired count
deadline, then any computer seat whose turn it is), then does its own change, and saves with a
compare-and-set on the version it loaded; if another request saved first, it starts over.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import secrets
import time
from datetime import datetime, timezone
from collections.abc import Callable, Container, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from service import engine, metrics
from service.bots import DEFAULT_LEVEL, LEVELS
from service.bots.hints import Hint
from service.compute import ANALYSIS, MOVE, ComputeRefused, ComputeTier
from service.engine import Event, GameOptions, GameState, SeatView
from service.engine.legal import whose_turn
from service.errors import IllegalActionError, InvalidInputError
from service.store import (GameExists, GameNotFound, GameStore, StoredGame, StoredPlayer,
                           StoreError, VersionConflict)
from service.webhooks import notifications
from service.webhooks.model import Webhook

from . import computers, idempotency, presence, rematch, tokens
from .analysis import GameAnalysis
from .caps import LiveGamesCap
from .errors import (AlreadySeated, GameBusy, GameNotFound as NoSuchGame, PlayerBusy,
                     PlayerRefused, SeatRefused, SeatTaken, TokenRequired, TooManyLiveGames,
                     VersionMismatch)
from .idempotency import ReplayRecord
from .players import LobbyGame, NewPlayer, Player, PlayerPolicy, player_owner
from .record import GameRecord, RematchOffer, Seat, is_over
from .requests import ActionRequest, to_action

log = logging.getLogger(__name__)

MAX_WAIT = 25.0
SAFETY_REREAD = 60.0       # a waiter re-reads this often even if no notification came
HEARTBEAT = 15.0           # a stream says it is alive at least this often
TICKET_SECONDS = 60        # a stream ticket is good for this long, and once
STREAM_SECONDS = 3600.0    # a stream closes after this long; its client resumes where it was
WRITE_ATTEMPTS = 50        # compare-and-set rounds before giving up on a very busy game
DEADLINE_SLACK = 0.05      # a long poll wakes this long after a deadline to apply it
REPLY_SECONDS = 5.0        # how long a request waits for the computers' replies to its change
SWEEP_REPLY_SECONDS = 25.0  # how long the sweeper waits for them: less than its lease (30 s)
ABANDONED_AFTER = 3 * 86400.0  # a game no human has moved in for this long ends, abandoned
# (or, with a turn timer longer than half that, two whole turns: abandoned_after)
KEPT_PAST_ABANDON = 86400  # a game's store lifetime outlasts its abandon time by this


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
    rematch: RematchOffer | None = None  # the rematch offered after this game
    rematch_of: str | None = None        # the game this one is a rematch of
    at: float = 0.0                      # the server's clock when the game was read
    connected: tuple[bool, ...] = ()     # per seat: at the table (service.games.presence)
    # Asks the compute tier for a seat's hint (GamesService._hinter); None: no hints.
    hinter: Callable[[SeatView], Hint | None] | None = field(default=None, compare=False,
                                                             repr=False)

    @property
    def ended(self) -> bool:
        """Nothing more will happen in this game."""
        return is_over(self.view.phase, self.view.options.match)

    @property
    def hint(self) -> Hint | None:
        """With options.hints, the analysis of the decision the seat faces now (computed when
        asked: a page of events never pays for it, nor a game without hints)."""
        if (not self.view.options.hints or self.seat is None
                or self.seat not in self.view.to_act or self.hinter is None):
            return None
        return self.hinter(self.view)


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
class RematchAccess:
    """A seat's part in a rematch: the finished game after it, the seat's token for the new
    game (shown once), and the new game once every human seat has accepted."""

    game: GameSnapshot
    token: str
    started: GameSnapshot | None = None


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
                 stream_seconds: float = STREAM_SECONDS, players: PlayerPolicy = PlayerPolicy(),
                 compute: ComputeTier | None = None, reply_seconds: float = REPLY_SECONDS):
        self.store = store
        self.clock = clock
        self.stream_seconds = stream_seconds
        self.players = players
        self.compute = compute or ComputeTier()
        self.reply_seconds = reply_seconds

    # Operations ----------------------------------------------------------------------------------
    def create(self, specs: Sequence[dict], options: dict, creator_seat: int | None = None,
               caps: Sequence[LiveGamesCap] = (), player: Player | None = None) -> SeatAccess:
        """A new game; the creator gets a seat token and every other human seat an invite code.

        `specs`, one per seat: {"kind": "human"|"computer", "name": str?, "level": str?}. The
        game counts among the live games of each cap's owner until it is finished; past a
        cap, TooManyLiveGames. With a `player`, the creator's seat is linked to it.
        """
        deck_seed = options.get("deck_seed")
        game_options = _game_options({**{key: value for key, value in options.items()
                                         if key != "deck_seed"},
                                      "preset_deck": deck_seed is not None}, len(specs))
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
        if player is not None:
            seats[creator] = _linked(seats[creator], player)
            caps = [*caps, *player.cap(self.players)]
        player_webhooks = (player.key,) if player is not None and player.webhooks else ()
        for invite in invites:
            seats[invite.seat] = replace(seats[invite.seat], invite_hash=tokens.digest(invite.code))
        now = self.clock()
        new, opening = engine.start_game(game_options, game_seed(deck_seed), now=now)
        state, moves, computers_due = self._advance(seats, new, now)
        events = opening + moves
        record = _scheduled(GameRecord(
            tuple(seats), state, len(events), tuple(cap.owner for cap in caps), updated=now,
            human_moved=now, abandon_check=now + abandoned_after(game_options),
            acted_times=tuple(now if number == creator else 0.0 for number in range(len(seats))),
            connected=tuple(seat.kind == "computer" or number == creator
                            for number, seat in enumerate(seats)),
            player_webhooks=player_webhooks, computers_due=computers_due))
        game_id = self._insert(record, events, caps)
        metrics.record_game_created()
        self._link_players(record, game_id)
        return SeatAccess(self._snapshot(game_id, 1, record, creator), token, invites)

    def join(self, game_id: str, code: str, name: str | None = None,
             idempotency_key: str | None = None, player: Player | None = None) -> SeatAccess:
        """Take the open seat an invite code belongs to; returns that seat's token. With a
        `player`, the seat is linked to it and the game counts among its live games.

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
                return SeatAccess(self._snapshot(game_id, version, record, replay.seat, True),
                                  token)
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
            if player is not None:
                record = self._seat_player(game_id, record, player)
                taken = _linked(taken, player)
                if player.webhooks and player.key not in record.player_webhooks:
                    record = replace(record, player_webhooks=record.player_webhooks + (player.key,))
            record = presence.joined(record.with_seat(seat, taken), seat, self.clock())
            record = _timer_started(record, seat, self.clock())
            joined = Event("seat_joined", {"seat": seat, "name": taken.name})
            record = replace(record, events=record.events + 1)
            replay = None
            if replay_key is not None:
                sealed = tokens.seal(token, code, idempotency_key)
                replay = (replay_key,
                          ReplayRecord(fingerprint, version + 1, seat, sealed).to_json())
            version, record = self._save(
                game_id, version, record, [joined], replay,
                presence_check=presence.next_check(record, stored.presence))
            self._link_players(record, game_id, only=seat)
            return SeatAccess(self._snapshot(game_id, version, record, seat), token)

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
            version, record = self._save(game_id, version, record, [renamed],
                                         presence_check=presence.next_check(
                                             record, stored.presence))
            return self._snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def read(self, game_id: str, token: str | None = None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token."""

        def attempt() -> GameSnapshot:
            stored, record, seat = self._open(game_id, token)
            version, record = self._catch_up(game_id, stored, record)
            return self._snapshot(game_id, version, record, seat)

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
                return self._snapshot(game_id, version, record, seat, replayed=True)
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
            record, returned = presence.update(record.acted(seat, now), stored.presence, now)
            state, moves, computers_due = self._advance(record.seats, state, now,
                                                        record.acted_at)
            events = returned + events + moves  # back at the table before its action
            record = replace(record, state=state, events=record.events + len(events),
                             computers_due=computers_due)
            replay = None
            if replay_key is not None:
                replay = (replay_key, ReplayRecord(fingerprint, version + 1, seat).to_json())
            version, record = self._save(game_id, version, record, events, replay,
                                         presence_check=presence.next_check(
                                             record, stored.presence))
            metrics.record_game_finished(phase_before, state.phase)
            return self._snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def events(self, game_id: str, token: str | None, after: int,
               wait: float = 0) -> EventsPage:
        """Events numbered after+1, ... as the seat may see them, and the game after them; waits
        up to `wait` seconds (at most 25) for the first one. While it waits it reads the game
        again only when the game changes or a deadline of the game passes (and applies it).
        A seat's wait holds the seat at the table (_present)."""
        if wait <= 0:
            return self._page(game_id, token, after)
        with self.store.watch(game_id) as watch:
            page = self._page(game_id, token, after)
            with self._present(page.game):
                if _returning(page.game):
                    page = self._page(game_id, token, after)  # tells the table at once
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

    def analysis(self, game_id: str, token: str | None = None,
                 client: str | None = None) -> GameAnalysis:
        """Each decision of the game the token's seat (or a spectator) may see analysed
        (service.games.analysis), rebuilt from the game's whole event log by the compute tier;
        `client` is charged its CPU."""

        def attempt() -> GameAnalysis:
            stored, record, seat = self._open(game_id, token, events_after=0)
            version, caught_up = self._catch_up(game_id, stored, record)
            if caught_up is not record:
                raise VersionConflict(game_id)  # read again, with the events just written
            events = [Event.from_dict(json.loads(text)) for text in stored.events]
            return self.compute.run(
                "game_analysis", (game_id, seat, record.state.options, events,
                                  record.state.over), ANALYSIS, client=client)

        return self._retrying(attempt)

    def follow(self, game_id: str, token: str | None, after: int | None, seat: int | None = None
               ) -> Generator[GameSnapshot | EventsPage | None, None, None]:
        """A game's stream: the seat's snapshot first, then a page whenever events follow
        `after` (the snapshot's last event when None), None as a heartbeat at least every
        HEARTBEAT seconds; ends after the page in which the game ends, or after
        `stream_seconds`. `seat` is a seat already proven (by a stream ticket) in place of a
        token. The stream holds the seat at the table while it is open (_present)."""
        closes_at = time.monotonic() + self.stream_seconds
        with self.store.watch(game_id) as watch:
            page = self._page(game_id, token, after, seat)
            with self._present(page.game):
                if _returning(page.game):
                    page = self._page(game_id, token, after, seat)
                yield page.game
                last_read = time.monotonic()
                while True:
                    if page.events or page.ended:
                        yield page  # a finished game's last page, even empty, says it ended
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

    @contextmanager
    def _present(self, game: GameSnapshot) -> Iterator[None]:
        """While a seat's stream or wait is open: the seat held at the table by this process
        (one lease in the store for all its requests of the seat, written by the first and
        ended at the last one's close; service.store.presence), with a check of the seat's
        presence due presence.GRACE after that close. Spectators hold none."""
        if game.seat is None:
            yield
            return
        self.store.hold_seat(game.game_id, game.seat, self.clock())
        try:
            yield
        finally:
            now = self.clock()
            self.store.release_seat(game.game_id, game.seat, now, now + presence.GRACE)

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

    # Players and rematches (players.py, rematch.py) ---------------------------------------------
    def create_player(self, name: str | None = None) -> NewPlayer:
        """A new player identity; its token is shown once."""
        token = tokens.new_secret()
        player = Player(secrets.token_urlsafe(12), name, tokens.digest(token), self.clock())
        data = json.dumps({"player_id": player.player_id, "name": name,
                           "created": player.created}, separators=(",", ":"))
        self.store.create_player(player.key, data, self.players.ttl_seconds)
        return NewPlayer(player, token)

    def identify(self, token: str) -> Player:
        """The player a player token stands for; PlayerRefused if none (or it expired)."""
        key = tokens.digest(token)
        return _player_from(key, self._stored_player(key))

    def player_by_key(self, key: str) -> Player:
        """The player stored under `key` (its token's digest); PlayerRefused if none."""
        return _player_from(key, self._stored_player(key))

    def change_player(self, player: Player, change: Callable[[Player], Player]) -> Player:
        """Save `change(player)` (its name and webhooks) over the player's document with a
        compare-and-set: a change saved meanwhile by another request is read again and
        `change` applied to it, so neither is lost. Returns the player saved."""
        for _ in range(WRITE_ATTEMPTS):
            stored = self._stored_player(player.key)
            changed = change(_player_from(player.key, stored))
            data = json.dumps({"player_id": changed.player_id, "name": changed.name,
                               "created": changed.created,
                               "webhooks": [webhook.to_dict() for webhook in changed.webhooks]},
                              separators=(",", ":"))
            if self.store.save_player(player.key, stored.data, data, self.players.ttl_seconds):
                return changed
        raise PlayerBusy("too many simultaneous changes to this player; retry")

    def _stored_player(self, key: str) -> StoredPlayer:
        stored = self.store.load_player(key, self.players.ttl_seconds)
        if stored is None:
            raise PlayerRefused("this player token is unknown or expired")
        return stored

    def change(self, game_id: str, token: str | None,
               change: Callable[[GameRecord, int | None], GameRecord],
               ) -> tuple[GameRecord, int | None]:
        """Save `change(record, seat)` of the game (what is due applied first), as the seat
        `token` holds (None: no seat, no check); no event. Returns the record saved and the
        seat; nothing is saved if the change returns the record it was given."""

        def attempt():
            stored, record, seat = self._open(game_id, token)
            version, record = self._catch_up(game_id, stored, record)
            changed = change(record, seat)
            if changed is not record:
                _, changed = self._save(game_id, version, changed, [], presence_check=(
                    presence.next_check(changed, stored.presence)))
            return changed, seat

        return self._retrying(attempt)

    def seat_of(self, game_id: str, token: str) -> tuple[GameRecord, int]:
        """The game as stored and the seat the token holds (read only)."""
        _, record, seat = self._open(game_id, token)
        return record, seat

    def player_games(self, player: Player) -> tuple[LobbyGame, ...]:
        """The player's games (as `identify` found them) that have not expired, those in play
        first, then the newest write first. Read only: a deadline that is due shows as
        applied, and is written by the next request to that game."""
        lines, gone = [], []
        found = self.store.load_many([game_id for game_id, _ in player.games])
        for (game_id, seat), game in zip(player.games, found):
            if game is None:
                gone.append((game_id, seat))
            else:
                lines.append(self._lobby_line(game_id, seat, GameRecord.from_json(game.data)))
        if gone:
            self.store.unlink_player_games(player.key, gone)
        return tuple(sorted(lines, key=lambda line: (line.ended, -line.updated)))

    def rematch(self, game_id: str, token: str | None, idempotency_key: str | None = None,
                caps: Sequence[LiveGamesCap] = ()) -> RematchAccess:
        """Offer a rematch of a finished game, or accept the open offer; either way the seat
        gets its token for the new game. The acceptance of the last human seat starts it,
        counted against `caps` and the linked players' caps (rematch.py)."""
        if not token:
            raise TokenRequired("a rematch needs the seat's token")
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.rematch_key(token, idempotency_key)
        fingerprint = idempotency.fingerprint({"rematch": True})
        new_token = tokens.new_secret()

        def attempt() -> RematchAccess:
            stored, record, seat = self._open(game_id, token, replay_key)
            if stored.replay is not None:
                replay = ReplayRecord.from_json(stored.replay).answering(fingerprint)
                version, record = self._catch_up(game_id, stored, record)
                return self._rematch_access(
                    game_id, version, record, seat,
                    tokens.unseal(replay.sealed, token, idempotency_key), replayed=True)
            version, record = self._catch_up(game_id, stored, record)
            if not record.ended:
                raise IllegalActionError("a rematch comes after the game is over",
                                         code="game_not_over", phase=record.state.phase)
            current, token_hash = record.rematch, tokens.digest(new_token)
            if current is not None and (current.open or current.started):
                if seat in current.accepted_seats:
                    raise IllegalActionError(f"seat {seat} has accepted this rematch already",
                                             code="rematch_already_accepted", seat=seat)
                record, events = rematch.accept(record, seat, token_hash)
            else:
                record, events = rematch.offer(record, seat, token_hash,
                                               secrets.token_urlsafe(12), self.clock())
            new = None
            if rematch.everyone_accepted(record):
                record, new, started, opening = rematch.start(
                    record, game_id, secrets.token_bytes(32), self.clock())
                new = self._insert_rematch(record.rematch.game_id, new, opening, seat, caps)
                events += started
            record = replace(record, events=record.events + len(events))
            replay = None
            if replay_key is not None:
                sealed = tokens.seal(new_token, token, idempotency_key)
                replay = (replay_key, ReplayRecord(fingerprint, version + 1, seat,
                                                   sealed).to_json())
            version, record = self._save(game_id, version, record, events, replay)
            if new is not None:
                self._link_players(new, record.rematch.game_id)
            return self._rematch_access(game_id, version, record, seat, new_token)

        return self._retrying(attempt)

    def decline_rematch(self, game_id: str, token: str | None) -> GameSnapshot:
        """Decline (or withdraw from) the open rematch offer: it will not start."""
        if not token:
            raise TokenRequired("declining a rematch needs the seat's token")

        def attempt() -> GameSnapshot:
            stored, record, seat = self._open(game_id, token)
            version, record = self._catch_up(game_id, stored, record)
            if record.rematch is None or not record.rematch.open:
                raise IllegalActionError("there is no open rematch offer",
                                         code="no_rematch_offer")
            record, events = rematch.decline(record, seat)
            record = replace(record, events=record.events + len(events))
            version, record = self._save(game_id, version, record, events)
            return self._snapshot(game_id, version, record, seat)

        return self._retrying(attempt)

    def _rematch_access(self, game_id: str, version: int, record: GameRecord, seat: int,
                        token: str, replayed: bool = False) -> RematchAccess:
        started = None
        if record.rematch.started:
            started = self.read(record.rematch.game_id, token)
        return RematchAccess(self._snapshot(game_id, version, record, seat, replayed), token,
                             started)

    def _insert_rematch(self, new_id: str, record: GameRecord, opening: list[Event], seat: int,
                        caps: Sequence[LiveGamesCap]) -> GameRecord:
        """Store the rematch's game under the id its offer chose. An earlier attempt of the
        same request may have stored it already (its save of the old game then lost a race):
        that game stands if it holds this seat's new token."""
        now = self.clock()
        state, moves, computers_due = self._advance(record.seats, record.state, now)
        events = opening + moves
        caps = [*caps, *(LiveGamesCap(player_owner(s.player_id), self.players.max_live_games)
                         for s in record.seats
                         if s.player_id is not None and self.players.max_live_games)]
        record = _scheduled(replace(
            record, state=state, events=len(events), updated=now,
            owners=tuple(cap.owner for cap in caps), human_moved=now,
            abandon_check=now + abandoned_after(record.state.options),
            acted_times=tuple(now if seat.taken else 0.0 for seat in record.seats),
            connected=tuple(seat.taken for seat in record.seats),  # all accepted just now
            computers_due=computers_due))
        outbox: list[str] = []
        if record.notifies:  # the players' webhooks followed them: tell them the first turn
            record, outbox = self._notify(new_id, 1, record, events)
        self._claim(caps, new_id)
        try:
            self._store(self.store.create, new_id, record.to_json(),
                        _texts(events, self.clock()), record.scheduled, outbox,
                        keep_seconds(record.state.options))
        except GameExists:
            existing = GameRecord.from_json(self._store(self.store.load, new_id).data)
            if existing.seats[seat].token_hash != record.seats[seat].token_hash:
                raise IllegalActionError(f"seat {seat} has accepted this rematch already",
                                         code="rematch_already_accepted", seat=seat) from None
            return existing
        except BaseException:
            self._release(record.owners, new_id)
            raise
        metrics.record_game_created()
        return record

    def _seat_player(self, game_id: str, record: GameRecord, player: Player) -> GameRecord:
        """The game counted among the player's live games, which must not hold a seat of it."""
        if any(seat.player_hash == player.key for seat in record.seats):
            raise AlreadySeated("this player holds a seat of this game already")
        caps = player.cap(self.players)
        if not caps or caps[0].owner in record.owners:
            return record
        self._claim(caps, game_id)
        return replace(record, owners=record.owners + (caps[0].owner,))

    def _link_players(self, record: GameRecord, game_id: str, only: int | None = None) -> None:
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

    def _lobby_line(self, game_id: str, seat: int, record: GameRecord) -> LobbyGame:
        """A count deadline that is due shows as applied; nothing is saved, and no computer is
        asked to move. Only the public parts of the state are read: whose turn, scores,
        sides."""
        state = record.state
        if state.deadline is not None and self.clock() > state.deadline:
            state, _ = engine.expire(state, self.clock())
        to_act = tuple(s for s in engine.to_act(state) if record.seats[s].kind == "human")
        options = state.options
        side_of_seat = tuple(options.side_of(number) for number in range(options.players))
        offer = record.rematch
        return LobbyGame(
            game_id=game_id, seat=seat, phase=state.phase, to_act=to_act,
            your_turn=seat in to_act, scores=state.scores,
            side=side_of_seat[seat], side_of_seat=side_of_seat,
            seats=tuple(enumerate(record.seats)),
            updated=record.updated, ended=is_over(state.phase, options.match),
            rematch_of=record.rematch_of,
            rematch_game_id=None if offer is None or not (offer.open or offer.started)
            else offer.game_id)

    def _page(self, game_id: str, token: str | None, after: int | None,
              seat: int | None = None) -> EventsPage:
        """The game and the events after `after` (none when None), read together."""

        def attempt() -> EventsPage:
            stored, record, token_seat = self._open(game_id, token, events_after=after,
                                                    watched=True)
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
            return EventsPage(self._snapshot(game_id, version, record, viewer), numbered)

        return self._retrying(attempt)

    def _until_deadline(self, page: EventsPage) -> float | None:
        """Seconds until the game's deadline is due to be applied, if it has one."""
        deadlines = [page.game.view.deadline, page.game.view.turn_deadline]
        if page.game.rematch is not None and page.game.rematch.open:
            deadlines.append(page.game.rematch.expires_at)
        due = [deadline for deadline in deadlines if deadline is not None]
        if not due:
            return None
        return max(min(due) - self.clock(), 0) + DEADLINE_SLACK

    # Steps shared by the operations -------------------------------------------------------------
    def _open(self, game_id: str, token: str | None, replay_key: str | None = None,
              events_after: int | None = None, watched: bool = False):
        """Load a game and find the seat `token` holds (None without a token); `watched`: for
        a waiting request (GameStore.load)."""
        stored = self._store(self.store.load, game_id, replay_key, events_after, watched)
        record = _watched_record(stored.data) if watched else GameRecord.from_json(stored.data)
        seat = None
        if token is not None:
            by_seat = tokens.match(token, [s.token_hash for s in record.seats])
            by_player = tokens.match(token, [s.player_hash for s in record.seats])
            seat = by_player if by_seat is None else by_seat
            if seat is None:
                raise SeatRefused("this token holds no seat of this game", code="invalid_token")
        return stored, record, seat

    def _catch_up(self, game_id: str, stored: StoredGame, record: GameRecord,
                  reschedule: bool = False, wait: float | None = None):
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
            state, moves, computers_due = self._advance(record.seats, state, now,
                                                        record.acted_at, wait)
            if (computers_due is None) != (record.computers_due is None):
                record = replace(record, computers_due=computers_due)
        lapsed_record, lapsed = rematch.lapse(record, now)
        lapsed_record, state, abandoned = _abandoned(lapsed_record, state, now)
        present: list[Event] = []
        if not is_over(state.phase, state.options.match):  # none after a game_over made here
            lapsed_record, present = presence.update(lapsed_record, stored.presence, now)
            lapsed_record, alarm = _turn_alarm(lapsed_record, state, now)
            present += alarm
        if state is record.state and lapsed_record is record:
            return stored.version, record
        events += moves + lapsed + abandoned + present
        phase_before = record.state.phase
        record = replace(lapsed_record, state=state, events=record.events + len(events))
        version, record = self._save(game_id, stored.version, record, events,
                                     reschedule=reschedule,
                                     presence_check=presence.next_check(record, stored.presence))
        metrics.record_game_finished(phase_before, state.phase)
        return version, record

    def sweep(self, game_id: str, claimed: float) -> None:
        """Apply what is due in a game whose entry in the deadline index a sweeper claimed
        (its time moved on to `claimed`), then give the entry the game's next due time. The
        save's compare-and-set makes each deadline apply once, whoever gets there first."""

        def attempt() -> None:
            stored = self._store(self.store.load, game_id)
            record = GameRecord.from_json(stored.data)
            _, caught_up = self._catch_up(game_id, stored, record, reschedule=True,
                                          wait=SWEEP_REPLY_SECONDS)
            if caught_up is record:  # nothing was due after all: put back the game's time
                self.store.release_due(game_id, claimed, _earliest(
                    record.next_due, presence.next_check(record, stored.presence)))

        try:
            self._retrying(attempt)
        except NoSuchGame:
            self.store.release_due(game_id, claimed, None)

    def _save(self, game_id: str, version: int, record: GameRecord, events: Sequence[Event],
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
        scheduled = _scheduled(record)
        held = _earliest(record.scheduled, record.presence_due)  # what the index holds
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
            due = _earliest(scheduled.scheduled, check)
        record = replace(scheduled, updated=self.clock())
        outbox: list[str] = []
        if record.notifies:
            record, outbox = self._notify(game_id, version + 1, record, events)
        version = self.store.save(game_id, version, record.to_json(),
                                  _texts(events, self.clock()), replay,
                                  finished=record.ended, reschedule=reschedule,
                                  due=due, outbox=outbox,
                                  keep_seconds=keep_seconds(record.state.options))
        metrics.record_endings(events)
        if record.ended:
            self._release(record.owners, game_id)
        return version, record

    def _notify(self, game_id: str, version: int, record: GameRecord,
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

    def _advance(self, seats: Sequence[Seat], state: GameState, now: float,
                 acted_at: Sequence[int] = (), wait: float | None = None):
        """The computer seats' moves and the timed-out turns due in `state`, from the compute
        tier (computers.advance; made here when no level that searches is asked), waited for up to `wait` seconds (the request's bound when
        None). (state, events, computers_due): if no answer came in time, the state is
        unchanged and computers_due says when the sweeper should try again (now)."""
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

    def _insert(self, record: GameRecord, events: list[Event],
                caps: Sequence[LiveGamesCap]) -> str:
        while True:
            game_id = secrets.token_urlsafe(12)
            inserted, outbox = record, []
            if record.notifies:  # its creator's player webhooks: tell them the first turn
                inserted, outbox = self._notify(game_id, 1, record, events)
            self._claim(caps, game_id)
            try:
                self._store(self.store.create, game_id, inserted.to_json(),
                            _texts(events, self.clock()), inserted.scheduled, outbox,
                            keep_seconds(record.state.options))
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

    def _snapshot(self, game_id: str, version: int, record: GameRecord, seat: int | None,
                  replayed: bool = False) -> GameSnapshot:
        return replace(_snapshot(game_id, version, record, seat, replayed, self.clock()),
                       hinter=self._hinter(game_id, seat))

    def _hinter(self, game_id: str, seat: int | None) -> Callable[[SeatView], Hint | None]:
        """A seat's hints come from the compute tier, charged to the seat; when the tier is
        busy or the seat's CPU budget is spent the view goes without one."""

        def hinter(view: SeatView) -> Hint | None:
            try:
                return self.compute.run("hint", (view,), ANALYSIS, wait=self.reply_seconds,
                                        client=f"seat:{game_id}:{seat}")
            except ComputeRefused as refused:
                log.warning("no hint for seat %s of game %s: %s", seat, game_id, refused)
                return None

        return hinter

    @staticmethod
    def _store(call: Callable, game_id: str, *args):
        try:
            return call(game_id, *args)
        except GameNotFound:
            raise NoSuchGame(f"there is no game {game_id}", game_id=game_id) from None


def _snapshot(game_id: str, version: int, record: GameRecord, seat: int | None,
              replayed: bool = False, at: float = 0.0) -> GameSnapshot:
    """The game as `seat` sees it. Computer seats are never among those to act: any move of
    theirs has been made, and the decisions left are the humans'."""
    view = engine.view(record.state, seat)
    humans_to_act = tuple(s for s in view.to_act if record.seats[s].kind == "human")
    return GameSnapshot(game_id, version, seat, record.seats, record.events,
                        replace(view, to_act=humans_to_act), replayed, record.rematch,
                        record.rematch_of, at, presence.connected(record))


@functools.lru_cache(maxsize=2048)
def _watched_record(data: str) -> GameRecord:
    """The record of a document that waiting requests read: a long poll asked again on a game
    that did not change gets the store's copy (GameStore.load) and parses nothing either.
    About 5 KB a game; 2,048 is more than the games one worker's waiters wait on."""
    return GameRecord.from_json(data)


def _earliest(*times: float | None) -> float | None:
    return min((at for at in times if at is not None), default=None)


def _returning(game: GameSnapshot) -> bool:
    """The seat opening a stream or wait is one the table was told had gone."""
    return game.seat is not None and bool(game.connected) and not game.connected[game.seat]


def _scheduled(record: GameRecord) -> GameRecord:
    """The record with the time the deadline index is to hold for it."""
    due = record.next_due
    return record if due == record.scheduled else replace(record, scheduled=due)


def _timer_started(record: GameRecord, seat: int, now: float) -> GameRecord:
    """A seat taken while its turn timer runs (it did not run out for a seat nobody held:
    Seat.on_the_clock) has the whole limit from now, and so has everyone in that decision."""
    state = record.state
    limit = state.options.turn_time_limit
    if state.turn_deadline is None or limit is None or seat not in whose_turn(state):
        return record
    return replace(record, state=replace(state, turn_deadline=max(state.turn_deadline,
                                                                  now + limit)))


def _turn_alarm(record: GameRecord, state: GameState, now: float
                ) -> tuple[GameRecord, list[Event]]:
    """Once ALARM_AT of the turn timer has run (GameRecord.alarm_due): the record noting it
    was told, and a `turn_alarm` event naming the seats on the clock that are not at the table
    (none if every one is: they see their clock)."""
    current = replace(record, state=state)
    due = current.alarm_due
    if due is None or now < due:
        return record, []
    told = presence.connected(current)
    away = [seat for seat in whose_turn(state)
            if current.seats[seat].on_the_clock and not told[seat]]
    alarmed = replace(record, alarmed=state.turn_deadline)
    if not away:
        return alarmed, []
    return alarmed, [Event("turn_alarm", {"seats": away, "deadline": state.turn_deadline})]


def abandoned_after(options: GameOptions) -> float:
    """How long a game may go with no human move before it ends abandoned: 3 days, or two
    whole turns of a longer turn timer (correspondence: up to 14 days a move)."""
    return max(ABANDONED_AFTER, 2.0 * (options.turn_time_limit or 0))


def keep_seconds(options: GameOptions) -> int:
    """The least store lifetime a game in play needs since its last write (0: the store's own
    will do): a correspondence game, whose turns outlast the abandon rule's 3 days, is kept
    past the time it can be abandoned, so it is never forgotten before its end."""
    idle = abandoned_after(options)
    return 0 if idle <= ABANDONED_AFTER else int(idle) + KEPT_PAST_ABANDON


def _abandoned(record: GameRecord, state: GameState, now: float):
    """At its abandon check: end the game if no human has moved for abandoned_after, else
    look again that long after the last human move. (record, state, events)"""
    if record.abandon_check is None or now < record.abandon_check or state.over:
        return record, state, []
    idle = abandoned_after(state.options)
    if now - record.human_moved < idle:
        return replace(record, abandon_check=record.human_moved + idle), state, []
    state, events = engine.abandon(state, now)
    return replace(record, abandon_check=None), state, events


def _player_from(key: str, stored: StoredPlayer) -> Player:
    data = json.loads(stored.data)
    return Player(data["player_id"], data["name"], key, data["created"], stored.games,
                  tuple(Webhook.from_dict(webhook) for webhook in data.get("webhooks", ())))


def _linked(seat: Seat, player: Player) -> Seat:
    return replace(seat, player_id=player.player_id, player_hash=player.key)


DECK_SEED_LENGTH = 200


def game_seed(deck_seed: str | None) -> bytes:
    """A fresh random game seed; with a client's `deck_seed` (duplicate deals), a pure function
    of it, so every game created with it deals the same cards. It is never stored or shown:
    whoever knows it knows every deal, until the game seed is revealed at the end."""
    if deck_seed is None:
        return secrets.token_bytes(32)
    if not isinstance(deck_seed, str) or not 1 <= len(deck_seed) <= DECK_SEED_LENGTH:
        raise InvalidInputError("option deck_seed: expected a string of 1..200 characters",
                                code="invalid_options", field="deck_seed",
                                allowed="a string of 1..200 characters")
    return hashlib.sha256(b"cribbage deck seed\0" + deck_seed.encode()).digest()


def _game_options(options: dict, players: int) -> GameOptions:
    if options.get("players", players) != players:
        raise InvalidInputError(f"{players} seats, but players is {options['players']}",
                                code="invalid_options", field="players", allowed=str(players))
    level = options.get("timeout_level")
    if level is not None and level not in LEVELS:
        raise InvalidInputError(f"no computer level {level!r}", code="invalid_options",
                                field="timeout_level", allowed=", ".join(LEVELS))
    return GameOptions.from_dict({**options, "players": players})


def _seat(number: int, spec: dict) -> Seat:
    kind = spec.get("kind", "human")
    if kind == "computer":
        level = spec.get("level") or DEFAULT_LEVEL
        if level not in LEVELS:
            raise InvalidInputError(f"no computer level {level!r}", code="unknown_level",
                                    field=f"seats[{number}].level", level=level,
                                    allowed=", ".join(LEVELS))
        return Seat("computer", spec.get("name") or f"Computer {number + 1}", level)
    return Seat("human", spec.get("name") or f"Player {number + 1}")


def _texts(events: Sequence[Event], now: float) -> list[str]:
    """The events as the store keeps them, each with the server's time of the write."""
    time_text = server_time(now)
    return [json.dumps({**event.to_dict(), "time": time_text}, separators=(",", ":"))
            for event in events]


def _numbered(number: int, stored: dict, viewer: int | None) -> NumberedEvent:
    return NumberedEvent(number, public_event(Event.from_dict(stored), viewer),
                         stored.get("time"))


# Event fields that hold an instant: kept as epoch seconds in the log, shown as RFC 3339.
INSTANT_FIELDS = ("deadline", "expires_at")


def public_event(event: Event, viewer: int | None) -> dict:
    """The event as `viewer` (None: a spectator) may see it, every instant in RFC 3339."""
    return shown_instants(engine.view_event(event, viewer))


def shown_instants(data: dict) -> dict:
    """An event's data with its instants (INSTANT_FIELDS) in RFC 3339."""
    return {key: server_time(value) if key in INSTANT_FIELDS and isinstance(value, (int, float))
            else value for key, value in data.items()}


def server_time(now: float) -> str:
    """Epoch seconds as RFC 3339 in UTC with milliseconds: 2026-11-25T10:04:05.678Z."""
    moment = datetime.fromtimestamp(now, timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
