"""Games: create, join, rename, read and act on a game, and follow its events; the one path
from the API to the engine for play. Each operation goes through the GameTable: load, catch up
on what is due, change, save with a compare-and-set, start over if another request saved first.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Container, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from service import engine, metrics
from service.compute import ANALYSIS
from service.engine import Event
from service.errors import InvalidInputError
from service.store import VersionConflict

from . import idempotency, presence, timers, tokens
from .analysis import GameAnalysis
from .caps import LiveGamesCap
from .errors import SeatRefused, SeatTaken, TokenRequired, VersionMismatch
from .event_log import numbered
from .idempotency import ReplayRecord
from .new_game import game_options, game_seed, linked, new_seat
from .players import Player
from .record import GameRecord, Seat
from .requests import ActionRequest, to_action
from .snapshots import EventsPage, GameSnapshot, Invite, SeatAccess
from .table import GameTable

log = logging.getLogger(__name__)

MAX_WAIT = 25.0
SAFETY_REREAD = 60.0       # a waiter re-reads this often even if no notification came
HEARTBEAT = 15.0           # a stream says it is alive at least this often
STREAM_SECONDS = 3600.0    # a stream closes after this long; its client resumes where it was
DEADLINE_SLACK = 0.05      # a long poll wakes this long after a deadline to apply it


class Games:
    def __init__(self, table: GameTable, stream_seconds: float = STREAM_SECONDS):
        self.table = table
        self.stream_seconds = stream_seconds

    def create(self, specs: Sequence[dict], options: dict, creator_seat: int | None = None,
               caps: Sequence[LiveGamesCap] = (), player: Player | None = None,
               rated: bool = False) -> SeatAccess:
        """A new game; the creator gets a seat token and every other human seat an invite code.

        `specs`, one per seat: {"kind": "human"|"computer", "name": str?, "level": str?}. The
        game counts among the live games of each cap's owner until it is finished; past a
        cap, TooManyLiveGames. With a `player`, the creator's seat is linked to it. A `rated`
        game needs a player and human seats only; each other seat is joined by a player.
        """
        table = self.table
        deck_seed = options.get("deck_seed")
        chosen = game_options({**{key: value for key, value in options.items()
                                  if key != "deck_seed"},
                               "preset_deck": deck_seed is not None}, len(specs))
        seats = [new_seat(number, spec) for number, spec in enumerate(specs)]
        humans = [number for number, seat in enumerate(seats) if seat.kind == "human"]
        if not humans:
            raise InvalidInputError("at least one seat must be human", code="no_human_seat",
                                    field="seats")
        if rated and (player is None or len(humans) < len(seats)):
            raise InvalidInputError("a rated game is played between players: a player token "
                                    "and human seats only", code="rated_needs_players",
                                    field="rated")
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
            seats[creator] = linked(seats[creator], player)
            caps = [*caps, *player.cap(table.players)]
        player_webhooks = (player.key,) if player is not None and player.webhooks else ()
        for invite in invites:
            seats[invite.seat] = replace(seats[invite.seat], invite_hash=tokens.digest(invite.code))
        game_id, record = self._open(chosen, game_seed(deck_seed), seats, caps,
                                     player_webhooks, {creator}, rated)
        return SeatAccess(table.snapshot(game_id, 1, record, creator), token, invites)

    def create_linked(self, players: Sequence[Player], options: dict, rated: bool = False,
                      caps: Sequence[LiveGamesCap] = ()) -> tuple[str, tuple[str, ...]]:
        """A game whose every seat is taken by a player, seat n by `players[n]` (as a pairing
        of seekers makes it): no invites. Returns its id and each seat's token (the players'
        own tokens open the seats too). `rated` needs distinct players."""
        table = self.table
        chosen = game_options({key: value for key, value in options.items()
                               if key != "deck_seed"}, len(players))
        if rated and len({player.player_id for player in players}) < len(players):
            raise InvalidInputError("a rated game is played between distinct players",
                                    code="rated_needs_players", field="rated")
        seat_tokens = tuple(tokens.new_secret() for _ in players)
        seats = [linked(replace(new_seat(number, {"name": player.name}),
                                token_hash=tokens.digest(token)), player)
                 for number, (player, token) in enumerate(zip(players, seat_tokens))]
        caps = [*caps, *(cap for player in players for cap in player.cap(table.players))]
        player_webhooks = tuple(player.key for player in players if player.webhooks)
        game_id, _ = self._open(chosen, game_seed(None), seats, caps, player_webhooks, set(),
                                rated)
        return game_id, seat_tokens

    def _open(self, chosen: engine.GameOptions, seed: bytes, seats: list[Seat],
              caps: Sequence[LiveGamesCap],
              player_webhooks: tuple[str, ...], present: set[int], rated: bool
              ) -> tuple[str, GameRecord]:
        """Store a new game with these seats; `present`: the seats at the table already."""
        table = self.table
        now = table.clock()
        new, opening = engine.start_game(chosen, seed, now=now)
        state, moves, computers_due = table.advance(seats, new, now)
        events = opening + moves
        record = timers.scheduled(GameRecord(
            tuple(seats), state, len(events), tuple(cap.owner for cap in caps), updated=now,
            human_moved=now, abandon_check=now + timers.abandoned_after(chosen),
            acted_times=tuple(now if number in present else 0.0 for number in range(len(seats))),
            connected=tuple(seat.kind == "computer" or number in present
                            for number, seat in enumerate(seats)),
            player_webhooks=player_webhooks, computers_due=computers_due, rated=rated))
        game_id = table.insert(record, events, caps)
        metrics.record_game_created()
        table.link_players(record, game_id)
        return game_id, record

    def join(self, game_id: str, code: str, name: str | None = None,
             idempotency_key: str | None = None, player: Player | None = None) -> SeatAccess:
        """Take the open seat an invite code belongs to; returns that seat's token. With a
        `player`, the seat is linked to it and the game counts among its live games.

        With an Idempotency-Key, a retry gets the same token back, so a lost response never
        loses the seat. The store keeps that token only sealed with the code and the key
        (tokens.seal), neither of which it keeps itself.
        """
        table = self.table
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.join_key(code, idempotency_key)
        fingerprint = idempotency.fingerprint({"name": name})

        def attempt() -> SeatAccess:
            stored, record, _ = table.open(game_id, None, replay_key)
            if stored.replay is not None and idempotency_key is not None:
                replayed = ReplayRecord.from_json(stored.replay).answering(fingerprint)
                token = replayed.unsealed_token(code, idempotency_key)
                version, record = table.catch_up(game_id, stored, record)
                return SeatAccess(table.snapshot(game_id, version, record, replayed.seat, True),
                                  token)
            version, record = table.catch_up(game_id, stored, record)
            seat = tokens.match(code, [s.invite_hash for s in record.seats])
            if seat is None:
                raise SeatRefused("this invite code opens no seat of this game",
                                  code="invalid_invite")
            if record.seats[seat].taken:
                raise SeatTaken(f"seat {seat} is already taken", seat=seat)
            if record.rated and player is None:
                raise TokenRequired("a rated game is joined with a player token")
            token = tokens.new_secret()
            taken = replace(record.seats[seat], token_hash=tokens.digest(token),
                            name=name or record.seats[seat].name)
            if player is not None:
                record = table.seat_player(game_id, record, player)
                taken = linked(taken, player)
                if player.webhooks and player.key not in record.player_webhooks:
                    record = replace(record, player_webhooks=record.player_webhooks + (player.key,))
            record = presence.joined(record.with_seat(seat, taken), seat, table.clock())
            record = timers.timer_started(record, seat, table.clock())
            joined = Event("seat_joined", {"seat": seat, "name": taken.name})
            record = replace(record, events=record.events + 1)
            replay = None
            if replay_key is not None and idempotency_key is not None:
                sealed = tokens.seal(token, code, idempotency_key)
                replay = (replay_key,
                          ReplayRecord(fingerprint, version + 1, seat, sealed).to_json())
            version, record = table.save(
                game_id, version, record, [joined], replay,
                presence_check=presence.next_check(record, stored.presence))
            table.link_players(record, game_id, only=seat)
            return SeatAccess(table.snapshot(game_id, version, record, seat), token)

        return table.retrying(attempt)

    def rename(self, game_id: str, token: str | None, seat: int, name: str) -> GameSnapshot:
        """Give the token's seat a new name; a `seat_renamed` event tells the table."""
        if not token:
            raise TokenRequired("renaming a seat needs the seat's token")
        table = self.table

        def attempt() -> GameSnapshot:
            stored, record, own_seat = table.open_seat(game_id, token)
            if seat != own_seat:
                raise SeatRefused(f"this token holds seat {own_seat}", code="not_your_seat",
                                  field="seat", seat=own_seat)
            version, record = table.catch_up(game_id, stored, record)
            renamed = Event("seat_renamed", {"seat": seat, "name": name})
            record = replace(record.with_seat(seat, replace(record.seats[seat], name=name)),
                             events=record.events + 1)
            version, record = table.save(game_id, version, record, [renamed],
                                         presence_check=presence.next_check(
                                             record, stored.presence))
            return table.snapshot(game_id, version, record, seat)

        return table.retrying(attempt)

    def read(self, game_id: str, token: str | None = None) -> GameSnapshot:
        """The game as the token's seat sees it, or as a spectator without a token."""
        return self.table.read(game_id, token)

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
        sees it now (service.games.idempotency; the same key with another request is refused).
        `if_match`, the versions an If-Match header names, must hold the current version.
        """
        if not token:
            raise TokenRequired("acting needs the seat's token")
        table = self.table
        replay_key = None
        if idempotency_key is not None:
            replay_key = idempotency.action_key(token, idempotency_key)
        fingerprint = request.fingerprint()

        def attempt() -> GameSnapshot:
            stored, record, seat = table.open_seat(game_id, token, replay_key)
            if stored.replay is not None:
                ReplayRecord.from_json(stored.replay).answering(fingerprint)
                version, record = table.catch_up(game_id, stored, record)
                return table.snapshot(game_id, version, record, seat, replayed=True)
            version, record = table.catch_up(game_id, stored, record)
            if if_match is not None and version not in if_match:
                raise VersionMismatch(
                    f"the game is at version {version}, not the one in If-Match",
                    version=version)
            if request.seat is not None and request.seat != seat:
                raise SeatRefused(f"this token holds seat {seat}", code="not_your_seat",
                                  field="seat", seat=seat)
            now = table.clock()
            phase_before = record.state.phase
            action = to_action(request, seat, record.state)
            state, events = engine.apply(record.state, action, now)
            record, returned = presence.update(record.acted(seat, now), stored.presence, now)
            state, moves, computers_due = table.advance(record.seats, state, now,
                                                        record.acted_at)
            events = returned + events + moves  # back at the table before its action
            record = replace(record, state=state, events=record.events + len(events),
                             computers_due=computers_due)
            replay = None
            if replay_key is not None:
                replay = (replay_key, ReplayRecord(fingerprint, version + 1, seat).to_json())
            version, record = table.save(game_id, version, record, events, replay,
                                         presence_check=presence.next_check(
                                             record, stored.presence))
            metrics.record_game_finished(phase_before, state.phase)
            return table.snapshot(game_id, version, record, seat)

        return table.retrying(attempt)

    def analysis(self, game_id: str, token: str | None = None,
                 client: str | None = None) -> GameAnalysis:
        """Each decision of the game the token's seat (or a spectator) may see analysed
        (service.games.analysis), rebuilt from the game's whole event log by the compute tier;
        `client` is charged its CPU."""
        table = self.table

        def attempt() -> GameAnalysis:
            stored, record, seat = table.open(game_id, token, events_after=0)
            _, caught_up = table.catch_up(game_id, stored, record)
            if caught_up is not record:
                raise VersionConflict(game_id)  # read again, with the events just written
            events = [Event.from_dict(json.loads(text)) for text in stored.events]
            analysed: GameAnalysis = table.compute.run(
                "game_analysis", (game_id, seat, record.state.options, events,
                                  record.state.over), ANALYSIS, client=client)
            return analysed

        return table.retrying(attempt)

    # Following a game ----------------------------------------------------------------------------
    def events(self, game_id: str, token: str | None, after: int,
               wait: float = 0) -> EventsPage:
        """Events numbered after+1, ... as the seat may see them, and the game after them; waits
        up to `wait` seconds (at most 25) for the first one. While it waits it reads the game
        again only when the game changes or a deadline of the game passes (and applies it).
        A seat's wait holds the seat at the table (_present)."""
        if wait <= 0:
            return self._page(game_id, token, after)
        with self.table.store.watch(game_id) as watch:
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

    def follow(self, game_id: str, token: str | None, after: int | None, seat: int | None = None
               ) -> Generator[GameSnapshot | EventsPage | None, None, None]:
        """A game's stream: the seat's snapshot first, then a page whenever events follow
        `after` (the snapshot's last event when None), None as a heartbeat at least every
        HEARTBEAT seconds; ends after the page in which the game ends, or after
        `stream_seconds`. `seat` is a seat already proven (by a stream ticket) in place of a
        token. The stream holds the seat at the table while it is open (_present)."""
        closes_at = time.monotonic() + self.stream_seconds
        with self.table.store.watch(game_id) as watch:
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
        store, clock = self.table.store, self.table.clock
        store.hold_seat(game.game_id, game.seat, clock())
        try:
            yield
        finally:
            now = clock()
            store.release_seat(game.game_id, game.seat, now, now + presence.GRACE)

    def _page(self, game_id: str, token: str | None, after: int | None,
              seat: int | None = None) -> EventsPage:
        """The game and the events after `after` (none when None), read together."""
        table = self.table

        def attempt() -> EventsPage:
            stored, record, token_seat = table.open(game_id, token, events_after=after,
                                                    watched=True)
            viewer = token_seat if seat is None else seat
            version, caught_up = table.catch_up(game_id, stored, record)
            if caught_up is not record:
                raise VersionConflict(game_id)  # read again, with the events just written
            if after is not None and after > record.events:
                raise InvalidInputError(f"the game has {record.events} events, not {after}",
                                        code="after_out_of_range", field="after", after=after,
                                        events=record.events)
            page = tuple(numbered(number, json.loads(text), viewer)
                         for number, text in enumerate(stored.events, start=(after or 0) + 1))
            return EventsPage(table.snapshot(game_id, version, record, viewer), page)

        return table.retrying(attempt)

    def _until_deadline(self, page: EventsPage) -> float | None:
        """Seconds until the game's deadline is due to be applied, if it has one."""
        deadlines = [page.game.view.deadline, page.game.view.turn_deadline]
        if page.game.rematch is not None and page.game.rematch.open:
            deadlines.append(page.game.rematch.expires_at)
        due = [deadline for deadline in deadlines if deadline is not None]
        if not due:
            return None
        return max(min(due) - self.table.clock(), 0) + DEADLINE_SLACK


def _returning(game: GameSnapshot) -> bool:
    """The seat opening a stream or wait is one the table was told had gone."""
    return game.seat is not None and bool(game.connected) and not game.connected[game.seat]

